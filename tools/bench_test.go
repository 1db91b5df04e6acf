package tools

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/nookdev/nook/vfs"
)

// The tool benchmarks come in pairs: the tool call and the vfs call it
// makes, in the same process, so their ratio is the contract's overhead.

func benchSet(b *testing.B) (*Set, *vfs.FS) {
	s, f := newSet(b, Options{})
	for i := range 20 {
		mustWrite(b, f, fmt.Sprintf("/d/f%02d.go", i), strings.Repeat(fmt.Sprintf("// line of file %d\n", i), 40))
	}
	return s, f
}

func BenchmarkLs(b *testing.B) {
	s, f := benchSet(b)
	b.Run("tool", func(b *testing.B) {
		args := json.RawMessage(`{"path":"/d"}`)
		for b.Loop() {
			if r, _ := s.Call(bg, "ls", args); r.IsError {
				b.Fatal(text(r))
			}
		}
	})
	b.Run("vfs", func(b *testing.B) {
		for b.Loop() {
			if _, err := f.ReadDir(bg, "/d", vfs.Page{Limit: 200}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkGrep(b *testing.B) {
	s, f := benchSet(b)
	b.Run("tool", func(b *testing.B) {
		args := json.RawMessage(`{"query":"file 7","path":"/d"}`)
		for b.Loop() {
			if r, _ := s.Call(bg, "grep", args); r.IsError {
				b.Fatal(text(r))
			}
		}
	})
	b.Run("vfs", func(b *testing.B) {
		for b.Loop() {
			if _, err := f.Grep(bg, "file 7", "/d", &vfs.GrepOptions{Page: vfs.Page{Limit: 200}, Exclude: defaultExcludes}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkEdit100KB5Edits: five exact edits in a 100 KB file, committed.
func BenchmarkEdit100KB5Edits(b *testing.B) {
	s, f := newSet(b, Options{})
	var sb strings.Builder
	for i := 0; sb.Len() < 100<<10; i++ {
		fmt.Fprintf(&sb, "line %05d: some source text here\n", i)
	}
	orig := sb.String()
	toggle := [2][5][2]string{}
	for i := range 5 {
		a := fmt.Sprintf("line %05d:", 300*i+7)
		z := fmt.Sprintf("LINE %05d:", 300*i+7)
		toggle[0][i] = [2]string{a, z}
		toggle[1][i] = [2]string{z, a}
	}
	mustWrite(b, f, "/big.txt", orig)
	args := [2]string{editArgs("/big.txt", toggle[0][:]...), editArgs("/big.txt", toggle[1][:]...)}
	b.SetBytes(int64(len(orig)))
	i := 0
	for b.Loop() {
		if r, _ := s.Call(bg, "edit", json.RawMessage(args[i%2])); r.IsError {
			b.Fatal(text(r))
		}
		i++
	}
}
