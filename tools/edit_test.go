package tools

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
)

func editArgs(path string, edits ...[2]string) string {
	type e struct {
		OldText string `json:"oldText"`
		NewText string `json:"newText"`
	}
	var es []e
	for _, x := range edits {
		es = append(es, e{x[0], x[1]})
	}
	b, _ := json.Marshal(map[string]any{"path": path, "edits": es})
	return string(b)
}

func TestEditExactAndDiff(t *testing.T) {
	s, f := newSet(t, Options{})
	var lines []string
	for i := 1; i <= 20; i++ {
		lines = append(lines, fmt.Sprintf("line %d", i))
	}
	mustWrite(t, f, "/f.txt", strings.Join(lines, "\n")+"\n")
	if err := f.Chmod(bg, "/f.txt", 0o750); err != nil {
		t.Fatal(err)
	}
	r := ok(t, s, "edit", editArgs("/f.txt", [2]string{"line 10\n", "line ten\n"}, [2]string{"line 12\n", "line twelve\n"}))
	m := structured(t, r)
	if m["editsApplied"] != 2.0 || m["firstChangedLine"] != 10.0 {
		t.Errorf("edit structured = %v", m)
	}
	wantDiff := "--- a/f.txt\n+++ b/f.txt\n@@ -6,11 +6,11 @@\n line 6\n line 7\n line 8\n line 9\n-line 10\n+line ten\n line 11\n-line 12\n+line twelve\n line 13\n line 14\n line 15\n line 16\n"
	if m["diff"] != wantDiff {
		t.Errorf("diff =\n%s\nwant\n%s", m["diff"], wantDiff)
	}
	if !strings.HasPrefix(text(r), "Edited /f.txt: edit 1 at line 10 matched exactly, edit 2 at line 12 matched exactly.\n") {
		t.Errorf("text = %q", text(r))
	}
	if fi, _ := f.Stat(bg, "/f.txt"); fi.Perm != 0o750 {
		t.Errorf("mode %o after edit, want 750", fi.Perm)
	}
}

// A fuzzy match changes only the matched span: smart quotes and trailing
// spaces elsewhere survive byte for byte.
func TestEditFuzzyKeepsUntouchedBytes(t *testing.T) {
	s, f := newSet(t, Options{})
	orig := "say(\u201chello\u201d)   \nkeep \u2018this\u2019 \u2014 as is  \nx = 1\t\n"
	mustWrite(t, f, "/q.py", orig)
	r := ok(t, s, "edit", editArgs("/q.py", [2]string{`say("hello")`, `say("bye")`}))
	want := "say(\"bye\")   \nkeep \u2018this\u2019 \u2014 as is  \nx = 1\t\n"
	if got := contentOf(t, f, "/q.py"); got != want {
		t.Errorf("content = %q, want %q", got, want)
	}
	if !strings.Contains(text(r), "matched by fuzzy match") {
		t.Errorf("the result does not say the match was fuzzy: %q", text(r))
	}
}

func TestEditLineEndingsAndBOM(t *testing.T) {
	s, f := newSet(t, Options{})
	mustWrite(t, f, "/crlf.txt", "\ufeffone\r\ntwo\r\nthree\r\n")
	ok(t, s, "edit", editArgs("/crlf.txt", [2]string{"two\n", "2\nand more\n"}))
	if got := contentOf(t, f, "/crlf.txt"); got != "\ufeffone\r\n2\r\nand more\r\nthree\r\n" {
		t.Errorf("content = %q", got)
	}
}

func TestEditErrors(t *testing.T) {
	s, f := newSet(t, Options{Edit: EditOptions{MaxBytes: 64}})
	mustWrite(t, f, "/a.txt", "alpha\nbeta\nalpha\n")
	mustWrite(t, f, "/big.txt", strings.Repeat("x", 65))
	if err := f.WriteFile(bg, "/bin", []byte{'a', 0xff, 0xfe, '\n'}, nil); err != nil {
		t.Fatal(err)
	}
	fails(t, s, "edit", editArgs("/missing.txt", [2]string{"a", "b"}), "File not found: /missing.txt")
	fails(t, s, "edit", editArgs("/", [2]string{"a", "b"}), "File not found: /")
	fails(t, s, "edit", editArgs("/big.txt", [2]string{"x", "y"}),
		"File too large to edit: 65 bytes exceeds the 64-byte cap. Use the write tool to rewrite the file from scratch.")
	fails(t, s, "edit", `{"path":"/a.txt","edits":[]}`, "edits must contain at least one replacement.")
	fails(t, s, "edit", editArgs("/a.txt", [2]string{"alpha", "A"}),
		"Found 2 occurrences of the text in /a.txt (at lines 1 and 3). The text must be unique. Please provide more context to make it unique.")
	fails(t, s, "edit", editArgs("/a.txt", [2]string{"beta\n", "B\n"}, [2]string{"beta", "C"}),
		"edits[0] and edits[1] overlap in /a.txt. Merge them into one edit or target disjoint regions.")
	fails(t, s, "edit", editArgs("/a.txt", [2]string{"beta", "beta"}),
		"No changes made to /a.txt. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected.")
	r := call(t, s, "edit", editArgs("/a.txt", [2]string{"gamma", "G"}))
	if !r.IsError || !strings.HasPrefix(text(r), "Could not find the exact text in /a.txt. The old text must match exactly including all whitespace and newlines.") {
		t.Errorf("not found: %q", text(r))
	}
	fails(t, s, "edit", editArgs("/bin", [2]string{"a", "b"}), "/bin is not valid UTF-8 text; edit refuses to change it. Use write to replace the whole file.")
	if got := contentOf(t, f, "/a.txt"); got != "alpha\nbeta\nalpha\n" {
		t.Errorf("a failed edit changed the file: %q", got)
	}
}

// expectedHash (from read) makes an edit fail cleanly after a change.
func TestEditExpectedHash(t *testing.T) {
	s, f := newSet(t, Options{})
	mustWrite(t, f, "/h.txt", "v1\n")
	hash := structured(t, ok(t, s, "read", `{"path":"/h.txt"}`))["hash"].(string)
	args := func(old, new string) string {
		b, _ := json.Marshal(map[string]any{"path": "/h.txt", "expectedHash": hash,
			"edits": []map[string]string{{"oldText": old, "newText": new}}})
		return string(b)
	}
	r := ok(t, s, "edit", args("v1", "v2"))
	newHash := structured(t, r)["hash"].(string)
	if newHash == hash || newHash != structured(t, ok(t, s, "read", `{"path":"/h.txt"}`))["hash"] {
		t.Errorf("edit's hash %s does not match a fresh read's", newHash)
	}
	fails(t, s, "edit", args("v2", "v3"),
		fmt.Sprintf("/h.txt changed since it was read (expected hash %s, now %s). Read it again and redo the edit.", hash, newHash))
}

// Edits racing each other and writes never lose an update: each goroutine
// fills its own slot in one shared file.
func TestEditConcurrentNoLostUpdate(t *testing.T) {
	s, f := newSet(t, Options{})
	const n = 16
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "slot %d: empty\n", i)
	}
	mustWrite(t, f, "/slots", b.String())
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok(t, s, "edit", editArgs("/slots", [2]string{fmt.Sprintf("slot %d: empty", i), fmt.Sprintf("slot %d: full", i)}))
		}()
	}
	wg.Wait()
	got := contentOf(t, f, "/slots")
	if strings.Contains(got, "empty") {
		t.Errorf("an update was lost:\n%s", got)
	}
}

// A text that is not unique is reported with the lines it is on.
func TestEditNotUniqueNamesLines(t *testing.T) {
	s, f := newSet(t, Options{})
	mustWrite(t, f, "/seven.go", "x := 0\nlog()\ny := 1\nlog()\nlog()\n\nlog()\nz()\nlog()\nlog()\nlog()\n")
	fails(t, s, "edit", editArgs("/seven.go", [2]string{"log()", "trace()"}),
		"Found 7 occurrences of the text in /seven.go (at lines 2, 4, 5, 7, 9, 10 and 11). The text must be unique. Please provide more context to make it unique.")
}
