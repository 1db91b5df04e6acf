package tools

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func patchArgs(patch string) string {
	b, _ := json.Marshal(map[string]string{"patch": patch})
	return string(b)
}

func TestPatchAppliesAllFilesTogether(t *testing.T) {
	s, f := newSet(t, Options{})
	mustWrite(t, f, "/src/a.go", "package a\n\nfunc A() int {\n\treturn 1\n}\n")
	mustWrite(t, f, "/src/old.go", "package a\n// old\n")
	mustWrite(t, f, "/src/gone.txt", "bye\n")
	if err := f.Chmod(bg, "/src/a.go", 0o600); err != nil {
		t.Fatal(err)
	}
	rev, _ := f.Rev(bg)
	r := ok(t, s, "patch", patchArgs(`*** Begin Patch
*** Update File: /src/a.go
@@ func A() int {
-	return 1
+	return 2
*** Add File: src/new/b.go
+package new
*** Delete File: /src/gone.txt
*** Update File: /src/old.go
*** Move to: /src/renamed.go
@@
-// old
+// renamed
*** End Patch`))
	if want := "Applied the patch to 4 file(s):\nM /src/a.go\nA /src/new/b.go\nD /src/gone.txt\nM /src/old.go -> /src/renamed.go\n"; text(r) != want {
		t.Errorf("patch result:\n%s\nwant:\n%s", text(r), want)
	}
	if got := contentOf(t, f, "/src/a.go"); got != "package a\n\nfunc A() int {\n\treturn 2\n}\n" {
		t.Errorf("a.go = %q", got)
	}
	if fi, _ := f.Stat(bg, "/src/a.go"); fi.Perm != 0o600 {
		t.Errorf("a.go mode %o, want 600 kept", fi.Perm)
	}
	if got := contentOf(t, f, "/src/new/b.go"); got != "package new\n" {
		t.Errorf("b.go = %q", got)
	}
	if got := contentOf(t, f, "/src/renamed.go"); got != "package a\n// renamed\n" {
		t.Errorf("renamed.go = %q", got)
	}
	for _, p := range []string{"/src/gone.txt", "/src/old.go"} {
		if _, err := f.Stat(bg, p); err == nil {
			t.Errorf("%s still exists", p)
		}
	}
	if r2, _ := f.Rev(bg); r2 != rev+1 {
		t.Errorf("patch took revisions %d..%d, want one", rev, r2)
	}
}

func TestPatchFailureChangesNothing(t *testing.T) {
	s, f := newSet(t, Options{})
	mustWrite(t, f, "/a.txt", "one\ntwo\n")
	mustWrite(t, f, "/b.txt", "three\n")
	rev, _ := f.Rev(bg)
	r := call(t, s, "patch", patchArgs(`*** Begin Patch
*** Update File: /a.txt
@@
-one
+ONE
*** Update File: /b.txt
@@
-four
+FOUR
*** Add File: /c.txt
+new
*** End Patch`))
	if !r.IsError || !strings.Contains(text(r), "/b.txt") || !strings.HasSuffix(text(r), "\nNothing was changed.") {
		t.Fatalf("patch with a bad hunk: %v %q", r.IsError, text(r))
	}
	if contentOf(t, f, "/a.txt") != "one\ntwo\n" {
		t.Error("a.txt changed by a failed patch")
	}
	if _, err := f.Stat(bg, "/c.txt"); err == nil {
		t.Error("c.txt created by a failed patch")
	}
	if r2, _ := f.Rev(bg); r2 != rev {
		t.Errorf("a failed patch moved the revision %d -> %d", rev, r2)
	}
}

func TestPatchErrors(t *testing.T) {
	s, f := newSet(t, Options{})
	mustWrite(t, f, "/a.txt", "one\n")
	fails(t, s, "patch", patchArgs("*** Begin Patch\n+foo\n*** End Patch"), "")
	r := call(t, s, "patch", patchArgs("*** Begin Patch\n*** Update File: /a.txt\n@@\n-one\n+uno\n*** End Patch"))
	if r.IsError {
		t.Fatal(text(r))
	}
	// The same patch again is recognised as already applied.
	r = call(t, s, "patch", patchArgs("*** Begin Patch\n*** Update File: /a.txt\n@@\n-one\n+uno\n*** End Patch"))
	if !r.IsError || !strings.Contains(text(r), "already applied") {
		t.Errorf("re-applied patch: %q", text(r))
	}
	ro, _ := newSet(t, Options{ReadOnly: true})
	if ro.Tool("patch") != nil {
		t.Error("read-only set has patch")
	}
}

// The known abusive input: 65,537 one-line Add File sections in 1.9 MB is
// refused by MaxPatchFiles before anything is planned or written.
func TestPatchLimits(t *testing.T) {
	s, f := newSet(t, Options{})
	var b strings.Builder
	b.WriteString("*** Begin Patch\n")
	for i := range 65537 {
		fmt.Fprintf(&b, "*** Add File: /d/f%d.txt\n+x\n", i)
	}
	b.WriteString("*** End Patch\n")
	big := b.String()
	if len(big) < 1_900_000 || len(big) > DefaultMaxPatchBytes {
		t.Fatalf("abusive patch is %d bytes", len(big))
	}
	rev, _ := f.Rev(bg)
	fails(t, s, "patch", patchArgs(big),
		"patch with 65537 file sections exceeds the limit MaxPatchFiles (1000). Split it into several patches.")
	if r, _ := f.Rev(bg); r != rev {
		t.Errorf("a refused patch moved the revision %d -> %d", rev, r)
	}

	small, _ := newSet(t, Options{Edit: EditOptions{MaxPatchFiles: 2, MaxPatchBytes: 100}})
	three := "*** Begin Patch\n*** Add File: /a\n+a\n*** Add File: /b\n+b\n*** Add File: /c\n+c\n*** End Patch"
	fails(t, small, "patch", patchArgs(three),
		"patch with 3 file sections exceeds the limit MaxPatchFiles (2). Split it into several patches.")
	fails(t, small, "patch", patchArgs("*** Begin Patch\n*** Add File: /a\n+"+strings.Repeat("a", 100)+"\n*** End Patch"),
		"patch of 148 bytes exceeds the limit MaxPatchBytes (100). Split it into several patches, or use write for large new files.")
	ok(t, small, "patch", patchArgs("*** Begin Patch\n*** Add File: /a\n+a\n*** Add File: /b\n+b\n*** End Patch"))
}

// patch refuses to update a file over the edit tool's cap, as edit does.
func TestPatchFileSizeCap(t *testing.T) {
	s, f := newSet(t, Options{Edit: EditOptions{MaxBytes: 10}})
	mustWrite(t, f, "/big.txt", "0123456789ab\n")
	mustWrite(t, f, "/small.txt", "one\n")
	fails(t, s, "patch", patchArgs("*** Begin Patch\n*** Update File: /big.txt\n@@\n-0123456789ab\n+x\n*** End Patch"),
		"Update File /big.txt: file too large to patch: 13 bytes exceeds the 10-byte cap. Use the write tool to rewrite the file from scratch\nNothing was changed.")
	fails(t, s, "edit", `{"path":"/big.txt","edits":[{"oldText":"0","newText":"1"}]}`,
		"File too large to edit: 13 bytes exceeds the 10-byte cap. Use the write tool to rewrite the file from scratch.")
	ok(t, s, "patch", patchArgs("*** Begin Patch\n*** Update File: /small.txt\n@@\n-one\n+uno\n*** End Patch"))
	if got := contentOf(t, f, "/big.txt"); got != "0123456789ab\n" {
		t.Errorf("big.txt = %q", got)
	}
}
