package tools

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nookdev/nook/vfs"
)

// addFiles is a patch adding n one-line files.
func addFiles(n int) string {
	var b strings.Builder
	b.WriteString("*** Begin Patch\n")
	for i := range n {
		fmt.Fprintf(&b, "*** Add File: /many/f%06d.txt\n+%d\n", i, i)
	}
	b.WriteString("*** End Patch\n")
	return b.String()
}

// The patch that once bricked a workspace (65,537 Add File sections: more
// changes in one transaction than the v1 change feed could number) is
// refused by name, and writes go on working, after a reopen too.
func TestPatchOf65537FilesLeavesWorkspaceWritable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ws.db")
	f, err := vfs.Open(bg, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := New(f, Options{Edit: EditOptions{MaxPatchBytes: 8 << 20}})
	r := call(t, s, "patch", patchArgs(addFiles(65_537)))
	if want := "patch with 65537 file sections exceeds the limit MaxPatchFiles (1000). Split it into several patches."; !r.IsError || text(r) != want {
		t.Fatalf("got %q (error %v), want %q", text(r), r.IsError, want)
	}
	ok(t, s, "write", `{"path":"/after.txt","content":"x"}`)
	f.Close()
	f, err = vfs.Open(bg, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ok(t, New(f, Options{}), "write", `{"path":"/after-reopen.txt","content":"y"}`)
}

// With the patch limits raised past it, the same patch applies in one
// transaction, and the workspace stays writable.
func TestPatchOf70000FilesApplies(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 70,000 files; runs without -short")
	}
	s, f := newSet(t, Options{Edit: EditOptions{MaxPatchFiles: 100_000, MaxPatchBytes: 8 << 20}})
	ok(t, s, "patch", patchArgs(addFiles(70_000)))
	if b, err := f.ReadFile(bg, "/many/f069999.txt"); err != nil || string(b) != "69999\n" {
		t.Fatalf("last file: %q %v", b, err)
	}
	ok(t, s, "write", `{"path":"/after.txt","content":"x"}`)
}
