package tools

import (
	"path/filepath"
	"testing"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// The new options reach the tools through ws:tools as they do through
// Set.Call: read's tail and paths, edit's and patch's dryRun, ls's depth
// and sort and entry modes.
func TestModuleNewOptions(t *testing.T) {
	ws, err := openToolsWS(filepath.Join(t.TempDir(), "ws.db"), false)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	for p, c := range map[string]string{"/w/a.txt": "one\ntwo\nthree\n", "/w/d/b.txt": "bee\n"} {
		if err := ws.FS().WriteFile(bg, p, []byte(c), &vfs.WriteOptions{MkdirAll: true}); err != nil {
			t.Fatal(err)
		}
	}
	h, err := ws.Runtime().Exec(bg, `import { read, edit, patch, ls } from "ws:tools";
export default async () => {
  const t = await read({ path: "/w/a.txt", tail: 1 });
  const m = await read({ paths: ["/w/a.txt", "/w/nope", "/w/d/b.txt"], limit: 1 });
  const e = await edit({ path: "/w/a.txt", edits: [{ oldText: "two", newText: "2" }], dryRun: true });
  const p = await patch({ patch: "*** Begin Patch\n*** Delete File: /w/d/b.txt\n*** End Patch", dryRun: true });
  const l = await ls({ path: "/w", depth: 2, sort: "name" });
  const again = await read({ path: "/w/a.txt" });
  return {
    tail: [t.content, t.startLine, t.prevOffset, t.prevLimit],
    many: m.files.map(f => f.error ?? f.content),
    edit: [e.dryRun, e.firstChangedLine, e.diff],
    patch: [p.dryRun, p.diff],
    ls: l.entries.map(x => x.path + " " + x.depth + " " + x.mode),
    unchanged: again.content,
  };
};`, runtime.ExecOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(bg)
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("%v %s %s", err, res.Stderr, res.Error)
	}
	want := `{"tail":["3\tthree",3,2,1],"many":["1\tone","File not found: /w/nope","1\tbee"],` +
		`"edit":[true,2,"--- a/w/a.txt\n+++ b/w/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n"],` +
		`"patch":[true,"--- a/w/d/b.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bee\n"],` +
		`"ls":["/w/a.txt 1 -rw-r--r--","/w/d 1 drwxr-xr-x","/w/d/b.txt 2 -rw-r--r--"],` +
		`"unchanged":"1\tone\n2\ttwo\n3\tthree"}`
	if string(res.Value) != want {
		t.Errorf("value = %s\nwant    %s", res.Value, want)
	}
}
