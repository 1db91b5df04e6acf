package runtime_test

import (
	"testing"

	"github.com/nookdev/nook/runtime"
)

// The cost of one op, confinement included (each path component is looked
// up once).

func BenchmarkFSStat(b *testing.B) {
	e := newFSEnv(b, runtime.ReadWrite)
	fsBench(b, e, "stat", map[string]any{"path": "/workspace/a/b/c/f.txt"})
}

func BenchmarkFSReadFile(b *testing.B) {
	e := newFSEnv(b, runtime.ReadWrite)
	fsBench(b, e, "readFile", map[string]any{"path": "/workspace/a/b/c/f.txt"})
}

func BenchmarkFSWriteFile(b *testing.B) {
	e := newFSEnv(b, runtime.ReadWrite)
	fsBench(b, e, "writeFile", map[string]any{"path": "/workspace/a/b/c/f.txt", "data": make([]byte, 1024)})
}

func BenchmarkFSAppend(b *testing.B) {
	e := newFSEnv(b, runtime.ReadWrite)
	fsBench(b, e, "writeFile", map[string]any{"path": "/workspace/a/b/c/f.txt", "data": []byte("a line of a log\n"), "flag": "a"})
}

func fsBench(b *testing.B, e *fsEnv, op string, args map[string]any) {
	if err := e.fs.WriteFile(e.ctx, "/workspace/a/b/c/f.txt", make([]byte, 1024), nil); err != nil {
		if err := e.fs.MkdirAll(e.ctx, "/workspace/a/b/c", 0); err != nil {
			b.Fatal(err)
		}
		if err := e.fs.WriteFile(e.ctx, "/workspace/a/b/c/f.txt", make([]byte, 1024), nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.ops.Do(e.ctx, op, args); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVFSStat is the same stat straight on the vfs, for comparison.
func BenchmarkVFSStat(b *testing.B) {
	e := newFSEnv(b, runtime.ReadWrite)
	if err := e.fs.MkdirAll(e.ctx, "/workspace/a/b/c", 0); err != nil {
		b.Fatal(err)
	}
	e.put("/workspace/a/b/c/f.txt", "x")
	for b.Loop() {
		if _, err := e.fs.Stat(e.ctx, "/workspace/a/b/c/f.txt"); err != nil {
			b.Fatal(err)
		}
	}
}
