package runtime_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// outside describes every node outside /workspace: path, kind, size, and
// the content of files.
func (e *fsEnv) outside() (string, map[int64]bool) {
	e.t.Helper()
	l, err := e.fs.Find(e.ctx, "/", "", &vfs.FindOptions{Page: vfs.Page{Limit: 1000}})
	if err != nil {
		e.t.Fatal(err)
	}
	inodes := map[int64]bool{1: true}
	var lines []string
	for _, en := range l.Entries {
		if en.Path == "/workspace" || strings.HasPrefix(en.Path, "/workspace/") {
			continue
		}
		inodes[en.Inode] = true
		line := fmt.Sprintf("%s %v %d", en.Path, en.Kind, en.Size)
		if en.Kind == vfs.TypeFile {
			b, _ := e.fs.ReadFile(e.ctx, en.Path)
			line += " " + string(b)
		}
		lines = append(lines, line)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n"), inodes
}

// FuzzConfine checks that no path, and no symlink target, lets code reach
// a node outside the root: anything stat reaches has an inode under the
// root, realpath stays under the root, and writes, links, directories and
// renames leave everything outside the root unchanged.
func FuzzConfine(f *testing.F) {
	for _, s := range [][2]string{
		{"/workspace/a", "b"}, {"/workspace/../secret/key", "../secret"}, {"/workspace/out/key", "/secret"},
		{"/workspace/in/../../secret/key", "../../.."}, {"/", "/"}, {"/workspace/chain/key", "out"},
		{"/workspace/fz/key", "../out"}, {"/workspace/fz", "/workspace/../secret/key"}, {"//secret", "in/../../secret"},
		{"/workspace/fz/x", "/other/back"}, {"/workspace/back/x", "fz/../../other"}, {"/workspace/./fz/./", "."},
		{"/workspace/fz/fz/fz", "fz"}, {"/workspace\x00/a", "a\x00b"}, {"relative", "/workspace"}, {"/workspacex", "/workspacex"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, p, target string) {
		e := newFSEnv(t, runtime.ReadWrite)
		e.put("/workspace/sub/in.txt", "in")
		e.link("/secret", "/workspace/out")
		e.link("out", "/workspace/chain")
		e.link("sub", "/workspace/in")
		e.fs.MkdirAll(e.ctx, "/other", 0)
		e.link("/workspace/sub", "/other/back")
		e.link("/other/back", "/workspace/back")
		before, outInodes := e.outside()

		check := func(what string) {
			t.Helper()
			if after, _ := e.outside(); after != before {
				t.Fatalf("%s changed the outside:\n%s\n---\n%s", what, before, after)
			}
		}
		reach := func(op, q string) {
			t.Helper()
			if v, err := e.do(op, "path", q); err == nil {
				ino := int64(v.(map[string]any)["ino"].(float64))
				if outInodes[ino] {
					t.Fatalf("%s %q reached inode %d outside the root", op, q, ino)
				}
			}
			if v, err := e.do("realpath", "path", q); err == nil {
				if r := v.(string); r != "/workspace" && !strings.HasPrefix(r, "/workspace/") {
					t.Fatalf("realpath %q = %q", q, r)
				}
			}
			if v, err := e.do("readFile", "path", q); err == nil && string(v.([]byte)) == "s3cret" {
				t.Fatalf("readFile %q read the secret", q)
			}
		}
		reach("stat", p)
		reach("lstat", p)

		e.do("symlink", "target", target, "path", "/workspace/fz")
		e.do("symlink", "target", target, "path", p)
		check("symlink")
		reach("stat", "/workspace/fz")
		reach("stat", "/workspace/fz/key")
		reach("stat", p)
		reach("stat", p+"/key")

		e.do("writeFile", "path", p, "data", []byte("w"))
		e.do("writeFile", "path", p+"/new", "data", []byte("w"), "flag", "a")
		e.do("writeFile", "path", "/workspace/fz", "data", []byte("w"))
		e.do("open", "path", "/workspace/fz/o", "flags", oWRONLY|oCREAT)
		e.do("mkdir", "path", p+"/d/e", "recursive", true)
		e.do("mkdtemp", "path", p+"/t")
		e.do("copyFile", "from", "/workspace/sub/in.txt", "to", p)
		e.do("cp", "from", "/workspace", "to", p, "recursive", true)
		e.do("rename", "from", "/workspace/sub", "to", p)
		e.do("rename", "from", p, "to", "/workspace/moved")
		e.do("chmod", "path", p, "mode", 0)
		e.do("truncate", "path", p+"/key", "length", 0)
		e.do("rm", "path", p+"/key", "force", true)
		e.do("rm", "path", p, "recursive", true, "force", true)
		check("mutations")
	})
}
