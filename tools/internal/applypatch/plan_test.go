package applypatch

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
)

// TestPlan covers successful plans: each op kind, moves, multiple hunks
// and sections, EOF anchoring, the fuzzy seek levels, line endings and
// trailing newlines.
func TestPlan(t *testing.T) {
	pyFile := "def a():\n    return 1\n\n\ndef b():\n    return 1\n"
	tests := []struct {
		name  string
		files memFS
		cwd   string
		patch string
		want  string // describe(ops)
	}{
		{"add", memFS{}, "", patch("*** Add File: /docs/new.txt", "+hello", "+", "+world"),
			"Add /docs/new.txt \"hello\\n\\nworld\\n\"\n"},
		{"add empty", memFS{}, "", patch("*** Add File: /empty"), "Add /empty \"\"\n"},
		{"add relative to cwd", memFS{}, "/work", patch("*** Add File: src/../new.txt", "+x"),
			"Add /work/new.txt \"x\\n\"\n"},
		{"relative with default cwd", memFS{}, "", patch("*** Add File: new.txt", "+x"),
			"Add /new.txt \"x\\n\"\n"},
		{"delete", memFS{"/old.txt": "bye\n"}, "", patch("*** Delete File: /old.txt"),
			"Delete /old.txt\n"},
		{"update", memFS{"/a.txt": "foo\nbar\n"}, "", patch("*** Update File: /a.txt", "@@", " foo", "-bar", "+baz"),
			"Update /a.txt (1) \"foo\\nbaz\\n\"\n"},
		{"update relative", memFS{"/w/a.txt": "foo\n"}, "/w/", patch("*** Update File: a.txt", "-foo", "+FOO"),
			"Update /w/a.txt (1) \"FOO\\n\"\n"},
		{"move", memFS{"/old/name.txt": "old content\n", "/old/other.txt": "x\n"}, "/",
			patch("*** Update File: old/name.txt", "*** Move to: renamed/dir/name.txt", "@@", "-old content", "+new content"),
			"Update /old/name.txt -> /renamed/dir/name.txt (1) \"new content\\n\"\n"},
		// Like Codex, a move replaces an existing destination.
		{"move overwrites", memFS{"/a": "from a\n", "/b": "was b\n"}, "",
			patch("*** Update File: /a", "*** Move to: /b", "@@", "-from a", "+now b"),
			"Update /a -> /b (1) \"now b\\n\"\n"},
		{"move to itself", memFS{"/a": "x\n"}, "/", patch("*** Update File: /a", "*** Move to: a", "-x", "+y"),
			"Update /a (1) \"y\\n\"\n"},
		{"pure rename", memFS{"/a": "keep\r\nme"}, "", patch("*** Update File: /a", "*** Move to: /b"),
			"Update /a -> /b (0) \"keep\\r\\nme\"\n"},
		{"multiple hunks", memFS{"/m.txt": "foo\nbar\nbaz\nqux\n"}, "",
			patch("*** Update File: /m.txt", "@@", " foo", "-bar", "+BAR", "@@", " baz", "-qux", "+QUX"),
			"Update /m.txt (2) \"foo\\nBAR\\nbaz\\nQUX\\n\"\n"},
		{"interleaved hunks with eof", memFS{"/i.txt": "a\nb\nc\nd\ne\nf\n"}, "",
			patch("*** Update File: /i.txt", "@@", " a", "-b", "+B", "@@", " c", " d", "-e", "+E", "@@", " f", "+g", "*** End of File"),
			"Update /i.txt (3) \"a\\nB\\nc\\nd\\nE\\nf\\ng\\n\"\n"},
		{"two update sections apply in sequence", memFS{"/s": "one\ntwo\n"}, "",
			patch("*** Update File: /s", "-one", "+uno", "*** Update File: /s", "-uno", "+eins", " two"),
			"Update /s (1) \"uno\\ntwo\\n\"\nUpdate /s (1) \"eins\\ntwo\\n\"\n"},
		{"add then update then move then delete", memFS{}, "",
			patch("*** Add File: /n", "+1", "*** Update File: /n", "*** Move to: /m", "-1", "+2", "*** Delete File: /m"),
			"Add /n \"1\\n\"\nUpdate /n -> /m (1) \"2\\n\"\nDelete /m\n"},
		{"delete then add", memFS{"/r": "old\n"}, "", patch("*** Delete File: /r", "*** Add File: /r", "+new"),
			"Delete /r\nAdd /r \"new\\n\"\n"},
		{"eof anchors at the end", memFS{"/e": "x\nmid\nx\n"}, "", patch("*** Update File: /e", "@@", "-x", "+y", "*** End of File"),
			"Update /e (1) \"x\\nmid\\ny\\n\"\n"},
		{"without eof the first match wins", memFS{"/e": "x\nmid\nx\n"}, "", patch("*** Update File: /e", "@@", "-x", "+y"),
			"Update /e (1) \"y\\nmid\\nx\\n\"\n"},
		{"eof tolerates trailing blank lines", memFS{"/e": "x\nlast\n\n\n"}, "", patch("*** Update File: /e", "@@", "-last", "+LAST", "*** End of File"),
			"Update /e (1) \"x\\nLAST\\n\\n\\n\"\n"},
		{"pure addition appends", memFS{"/p": "line1\nline2\n"}, "", patch("*** Update File: /p", "@@", "+added 1", "+added 2"),
			"Update /p (1) \"line1\\nline2\\nadded 1\\nadded 2\\n\"\n"},
		{"pure addition after context line", memFS{"/p": "import os\n\nx = 1\n"}, "", patch("*** Update File: /p", "@@ import os", "+import sys"),
			"Update /p (1) \"import os\\nimport sys\\n\\nx = 1\\n\"\n"},
		{"pure addition to empty file", memFS{"/p": ""}, "", patch("*** Update File: /p", "+first"),
			"Update /p (1) \"first\\n\"\n"},
		{"deletion only", memFS{"/d": "keep\ndrop\nkeep2\n"}, "", patch("*** Update File: /d", "@@", " keep", "-drop"),
			"Update /d (1) \"keep\\nkeep2\\n\"\n"},
		{"context narrows the search", memFS{"/x.py": pyFile}, "", patch("*** Update File: /x.py", "@@ def b():", "-    return 1", "+    return 2"),
			"Update /x.py (1) \"def a():\\n    return 1\\n\\n\\ndef b():\\n    return 2\\n\"\n"},
		{"several contexts narrow in turn", memFS{"/c": "class A:\n  def f():\n    x\nclass B:\n  def g():\n    x\n  def f():\n    x\n"}, "",
			patch("*** Update File: /c", "@@ class B:", "@@   def f():", "-    x", "+    y"),
			"Update /c (1) \"class A:\\n  def f():\\n    x\\nclass B:\\n  def g():\\n    x\\n  def f():\\n    y\\n\"\n"},
		{"shortened context line", memFS{"/x.py": pyFile}, "", patch("*** Update File: /x.py", "@@ def b", "-    return 1", "+    return 2"),
			"Update /x.py (1) \"def a():\\n    return 1\\n\\n\\ndef b():\\n    return 2\\n\"\n"},
		{"unified diff header context", memFS{"/x.py": pyFile}, "", patch("*** Update File: /x.py", "@@ -5,2 +5,2 @@ def b():", "-    return 1", "+    return 2"),
			"Update /x.py (1) \"def a():\\n    return 1\\n\\n\\ndef b():\\n    return 2\\n\"\n"},
		{"exact level beats an earlier lenient match", memFS{"/l": "foo \nfoo\n"}, "", patch("*** Update File: /l", "-foo", "+X"),
			"Update /l (1) \"foo \\nX\\n\"\n"},
		{"trailing whitespace level keeps the file's context", memFS{"/l": "a  \nb\t\n"}, "", patch("*** Update File: /l", " a", "-b", "+c"),
			"Update /l (1) \"a  \\nc\\n\"\n"},
		{"trim level", memFS{"/l": "\tif x {\n\t\ty()\n\t}\n"}, "", patch("*** Update File: /l", " if x {", "-    y()", "+\t\tz()"),
			"Update /l (1) \"\\tif x {\\n\\t\\tz()\\n\\t}\\n\"\n"},
		{"unicode punctuation level", memFS{"/u.py": "import asyncio  # local import \u2013 avoids top\u2011level dep\nprint(\u201chi\u201d)\u00a0\n"}, "",
			patch("*** Update File: /u.py", "@@", "-import asyncio  # local import - avoids top-level dep", "+import asyncio  # HELLO", " print(\"hi\")"),
			"Update /u.py (1) \"import asyncio  # HELLO\\nprint(\u201chi\u201d)\\u00a0\\n\"\n"},
		{"trailing separator blank line is dropped", memFS{"/b": "a\nb\nc\n"}, "",
			patch("*** Update File: /b", "@@", " a", "-b", "+B", "", "@@", "-c", "+C"),
			"Update /b (2) \"a\\nB\\nC\\n\"\n"},
		{"blank context line that is in the file is kept", memFS{"/b": "a\n\nb\n"}, "",
			patch("*** Update File: /b", "@@", " a", "", "-b", "+B"),
			"Update /b (1) \"a\\n\\nB\\n\"\n"},
		{"crlf file stays crlf", memFS{"/w.txt": "one\r\ntwo\r\nthree\r\n"}, "", patch("*** Update File: /w.txt", " one", "-two", "+2", "+2b"),
			"Update /w.txt (1) \"one\\r\\n2\\r\\n2b\\r\\nthree\\r\\n\"\n"},
		{"crlf patch on lf file", memFS{"/l.txt": "one\ntwo\n"}, "", "*** Begin Patch\r\n*** Update File: /l.txt\r\n one\r\n-two\r\n+2\r\n*** End Patch\r\n",
			"Update /l.txt (1) \"one\\n2\\n\"\n"},
		{"mixed endings: untouched lines keep theirs", memFS{"/m": "a\r\nb\nc\r\n"}, "", patch("*** Update File: /m", " b", "-c", "+C"),
			"Update /m (1) \"a\\r\\nb\\nC\\r\\n\"\n"},
		{"no final newline: middle edit", memFS{"/n": "a\nb\nc"}, "", patch("*** Update File: /n", "-a", "+A"),
			"Update /n (1) \"A\\nb\\nc\"\n"},
		{"no final newline: last line edit", memFS{"/n": "a\nb"}, "", patch("*** Update File: /n", " a", "-b", "+B", "*** End of File"),
			"Update /n (1) \"a\\nB\"\n"},
		{"no final newline: append", memFS{"/n": "a\nb"}, "", patch("*** Update File: /n", "+c"),
			"Update /n (1) \"a\\nb\\nc\"\n"},
		{"no final newline: delete last line", memFS{"/n": "a\nb"}, "", patch("*** Update File: /n", " a", "-b"),
			"Update /n (1) \"a\"\n"},
		{"delete everything", memFS{"/n": "a\nb\n"}, "", patch("*** Update File: /n", "-a", "-b"),
			"Update /n (1) \"\"\n"},
		{"add file from a heredoc crlf patch", memFS{}, "", "<<'EOF'\r\n*** Begin Patch\r\n*** Add File: /h\r\n+x\r\n*** End Patch\r\nEOF\r\n",
			"Add /h \"x\\n\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ops, err := plan(t, tt.files, tt.cwd, tt.patch)
			if err != nil {
				t.Fatalf("Plan: %v", err)
			}
			if got := describe(ops); got != tt.want {
				t.Errorf("ops:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestPlanErrors checks the exact messages of plans that fail.
func TestPlanErrors(t *testing.T) {
	x := "package x\n\nfunc a() {\n\tprintln(\"a\")\n}\n\nfunc b() {\n\tprintln(\"b\")\n\treturn\n}\n"
	tests := []struct {
		name  string
		files memFS
		patch string
		want  string
	}{
		{"add existing", memFS{"/a.txt": "x\n"}, patch("*** Add File: /a.txt", "+y"),
			"Add File /a.txt: the file already exists (use Update File)"},
		{"delete missing", memFS{}, patch("*** Delete File: /b.txt"),
			"Delete File /b.txt: no such file"},
		{"delete missing with a deletion hunk that does not match", memFS{"/t": "a\nfoo()\n"}, patch("*** Delete File: /b.txt", "*** Update File: /t", " a", "-foo( )"),
			"Delete File /b.txt: no such file\n\nUpdate File /t, hunk 1 of 1: could not find the context lines:\na\nfoo( )\n" +
				"The closest lines in /t start at line 1:\na\nfoo()"},
		{"update missing", memFS{}, patch("*** Update File: /c.txt", "-x", "+y"),
			"Update File /c.txt: no such file"},
		{"update a directory", memFS{"/d": dirMarker}, patch("*** Update File: /d", "-x", "+y"),
			"Update File /d: read /d: is a directory"},
		{"move onto a directory", memFS{"/a": "x\n", "/d": dirMarker}, patch("*** Update File: /a", "*** Move to: /d", "-x", "+y"),
			"Update File /a: cannot replace the Move to destination /d: read /d: is a directory"},
		{"path above root", memFS{}, patch("*** Delete File: ../x"),
			"Delete File ../x: the path climbs above the root directory"},
		{"root path", memFS{}, patch("*** Delete File: /."),
			"Delete File /.: the path is the root directory, not a file"},
		{"bad move path", memFS{"/a": "x\n"}, patch("*** Update File: /a", "*** Move to: ../..", "-x", "+y"),
			"Update File /a: bad Move to path \"../..\": the path climbs above the root directory"},
		{"hunk not found, with nearest", memFS{"/x.go": x}, patch(
			"*** Update File: /x.go",
			"@@",
			" func b() {",
			"-\tprintln(\"B\")",
			"+\tprintln(\"bee\")",
			" \treturn",
		), "Update File /x.go, hunk 1 of 1: could not find the context lines:\n" +
			"func b() {\n\tprintln(\"B\")\n\treturn\n" +
			"The closest lines in /x.go start at line 7:\n" +
			"func b() {\n\tprintln(\"b\")\n\treturn"},
		{"nothing similar", memFS{"/x.go": x}, patch("*** Update File: /x.go", "-completely unrelated text here", "+y"),
			"Update File /x.go, hunk 1 of 1: could not find the context lines:\ncompletely unrelated text here\nNothing similar was found in /x.go."},
		{"context line not found", memFS{"/x.go": x}, patch("*** Update File: /x.go", "@@ func c() {", "-\tprintln(\"b\")", "+\tprintln(\"c\")"),
			"Update File /x.go, hunk 1 of 1: could not find the \"@@\" context line:\nfunc c() {\n" +
				"The closest lines in /x.go start at line 3:\nfunc a() {"},
		{"hunks out of order", memFS{"/x.go": x}, patch(
			"*** Update File: /x.go",
			"@@",
			"-\tprintln(\"b\")",
			"+\tprintln(\"B\")",
			"@@",
			"-\tprintln(\"a\")",
			"+\tprintln(\"A\")",
		), "Update File /x.go, hunk 2 of 2: could not find the context lines after line 8:\n\tprintln(\"a\")\n" +
			"They occur at line 4, above the previous hunk or \"@@\" line: the hunks of an Update File must follow the file's order."},
		{"context line out of order", memFS{"/x.go": x}, patch(
			"*** Update File: /x.go",
			"@@ func b() {",
			"-\treturn",
			"@@ func a() {",
			"-\tprintln(\"a\")",
		), "Update File /x.go, hunk 2 of 2: could not find the \"@@\" context line after line 9:\nfunc a() {\n" +
			"It occurs at line 3, above the previous hunk or \"@@\" line: the hunks of an Update File must follow the file's order."},
		{"eof hunk not at the end", memFS{"/x.go": x}, patch("*** Update File: /x.go", "@@", "-\tprintln(\"a\")", "+\tprintln(\"A\")", "*** End of File"),
			"Update File /x.go, hunk 1 of 1: could not find these lines at the end of the file (the hunk ends with \"*** End of File\"):\n\tprintln(\"a\")\n" +
				"They occur at line 4, which is not the end of the file."},
		{"one hunk already applied", memFS{"/x.go": x}, patch(
			"*** Update File: /x.go",
			"@@",
			"-\tprintln(\"a\")",
			"+\tprintln(\"A\")",
			"@@",
			"-\tprintln(\"bb\")",
			"+\tprintln(\"b\")",
		), "Update File /x.go, hunk 2 of 2: could not find the context lines:\n\tprintln(\"bb\")\n" +
			"The hunk's new lines are already present at line 8; was this hunk already applied?"},
		{"all failures are reported", memFS{"/x.go": x, "/y.txt": "one\ntwo\n", "/exists": ""}, patch(
			"*** Update File: /x.go",
			"@@",
			"-\tprintln(\"z\")",
			"+\tprintln(\"Z\")",
			"@@ func a() {",
			"-\tprintln(\"a\")",
			"+\tprintln(\"A\")",
			"@@",
			" func b() {",
			"-\tprintln(\"q\")",
			"*** Delete File: /gone",
			"*** Update File: /y.txt",
			"-two",
			"+2",
			"@@",
			"-three",
			"+3",
			"*** Add File: /exists",
			"+x",
		), "Update File /x.go, hunk 1 of 3: could not find the context lines:\n\tprintln(\"z\")\n" +
			"The closest lines in /x.go start at line 4:\n\tprintln(\"a\")\n\n" +
			"Update File /x.go, hunk 3 of 3: could not find the context lines:\nfunc b() {\n\tprintln(\"q\")\n" +
			"The closest lines in /x.go start at line 7:\nfunc b() {\n\tprintln(\"b\")\n\n" +
			"Delete File /gone: no such file\n\n" +
			"Update File /y.txt, hunk 2 of 2: could not find the context lines:\nthree\nNothing similar was found in /y.txt.\n\n" +
			"Add File /exists: the file already exists (use Update File)"},
		{"later sections on a failed path are skipped", memFS{"/s": "a\n"}, patch(
			"*** Update File: /s", "-zzz", "+y",
			"*** Update File: /s", "-y", "+w",
			"*** Delete File: /s",
		), "Update File /s, hunk 1 of 1: could not find the context lines:\nzzz\nNothing similar was found in /s."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ops, err := plan(t, tt.files, "/", tt.patch)
			if err == nil {
				t.Fatalf("Plan succeeded:\n%s", describe(ops))
			}
			if ops != nil {
				t.Errorf("Plan returned ops with an error")
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("error:\n got %s\nwant %s", got, tt.want)
			}
			var aa *AlreadyAppliedError
			if errors.As(err, &aa) {
				t.Errorf("unexpected AlreadyAppliedError")
			}
		})
	}
}

func TestErrorTypes(t *testing.T) {
	files := memFS{"/x": "a\nb\nc\n", "/d": dirMarker}
	_, err := plan(t, files, "/", patch("*** Update File: /x", "@@", "-q", "@@", "-b", "+B", "@@", "-r", "*** Delete File: /none", "*** Delete File: /d"))
	var pe *PlanError
	if !errors.As(err, &pe) || len(pe.Errors) != 4 {
		t.Fatalf("got %#v, want a *PlanError with 4 errors", err)
	}
	var he *HunkError
	if !errors.As(err, &he) {
		t.Fatal("errors.As(*HunkError) failed")
	}
	if he.Path != "/x" || he.Hunk != 1 || he.Hunks != 3 || he.PatchLine != 3 || he.Message != "could not find the context lines:\nq\nNothing similar was found in /x." {
		t.Errorf("first HunkError = %+v", he)
	}
	he = pe.Errors[1].(*HunkError)
	if he.Hunk != 3 || he.PatchLine != 8 {
		t.Errorf("second HunkError = %+v", he)
	}
	var fe *FileError
	if !errors.As(pe.Errors[2], &fe) || fe.Kind != Delete || fe.Path != "/none" || fe.Message != "no such file" || fe.Err != nil {
		t.Errorf("FileError = %+v", fe)
	}
	if !errors.As(pe.Errors[3], &fe) || fe.Err == nil || errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the Reader's error should be wrapped: %+v", fe)
	}

	_, err = plan(t, files, "/", patch("*** Update File: /x", "@@", "-zz", "+y"))
	if !errors.As(err, &he) || errors.As(err, &pe) {
		t.Errorf("a single failure should be a bare *HunkError, got %T", err)
	}
}

// TestAlreadyApplied plans patches, applies them, and plans them again.
func TestAlreadyApplied(t *testing.T) {
	const msg = "the patch appears to be already applied (every hunk's result is present); nothing was changed"
	x := "package x\n\nfunc a() {\n\tprintln(\"a\")\n}\n\nfunc b() {\n\tprintln(\"b\")\n\treturn\n}\n"
	tests := []struct {
		name  string
		files memFS
		patch string
	}{
		{"update", memFS{"/x.go": x}, patch(
			"*** Update File: /x.go",
			"@@ func a() {",
			"-\tprintln(\"a\")",
			"+\tprintln(\"A\")",
			"@@",
			" func b() {",
			"-\tprintln(\"b\")",
			"+\tprintln(\"B\")",
			"+\tprintln(\"B2\")",
			" \treturn",
		)},
		{"every op kind", memFS{"/x.go": x, "/old": "o\n"}, patch(
			"*** Add File: /new.txt",
			"+hello",
			"*** Delete File: /old",
			"*** Update File: /x.go",
			"-\tprintln(\"a\")",
			"+\tprintln(\"A\")",
		)},
		{"move", memFS{"/x.go": x}, patch(
			"*** Update File: /x.go",
			"*** Move to: /y.go",
			"@@",
			" func b() {",
			"-\tprintln(\"b\")",
			"+\tprintln(\"B\")",
		)},
		{"crlf", memFS{"/w": "one\r\ntwo\r\n"}, patch("*** Update File: /w", " one", "-two", "+2", "*** Add File: /n", "+n")},
		{"add only", memFS{}, patch("*** Add File: /a", "+x")},
		{"pure rename", memFS{"/a": "x"}, patch("*** Update File: /a", "*** Move to: /b")},
		{"append after context", memFS{"/a": "x\ny\n"}, patch("*** Update File: /a", "@@", " x", "+x2", "*** Add File: /n", "+n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ops, err := plan(t, tt.files, "/", tt.patch)
			if err != nil {
				t.Fatalf("first Plan: %v", err)
			}
			after := applyOps(tt.files, ops)
			_, err = plan(t, after, "/", tt.patch)
			var aa *AlreadyAppliedError
			if !errors.As(err, &aa) {
				t.Fatalf("second Plan: got %v, want *AlreadyAppliedError", err)
			}
			if err.Error() != msg {
				t.Errorf("message = %q", err.Error())
			}
			if len(aa.Paths) == 0 {
				t.Errorf("no Paths")
			}
		})
	}
}

func TestNotAlreadyApplied(t *testing.T) {
	tests := []struct {
		name  string
		files memFS
		patch string
		want  string
	}{
		{"partly applied by hand", memFS{"/t": "A\nb\n"}, patch("*** Update File: /t", "-a", "+A", "@@", "-b", "+B"),
			"Update File /t, hunk 1 of 2: could not find the context lines:\na\nThe hunk's new lines are already present at line 1; was this hunk already applied?"},
		{"add with other content", memFS{"/a": "other\n", "/t": "B\n"}, patch("*** Add File: /a", "+x", "*** Update File: /t", "-b", "+B"),
			"Add File /a: the file already exists (use Update File)\n\n" +
				"Update File /t, hunk 1 of 1: could not find the context lines:\nb\nThe hunk's new lines are already present at line 1; was this hunk already applied?"},
		{"delete only", memFS{}, patch("*** Delete File: /a"), "Delete File /a: no such file"},
		{"deletion only", memFS{"/t": "a\nb\n"}, patch("*** Update File: /t", " b", "-c", "*** End of File"),
			"Update File /t, hunk 1 of 1: could not find the context lines:\nb\nc\nThe closest lines in /t start at line 2:\nb"},
		{"deleted line still there", memFS{"/t": "A\nb\nc\n"}, patch("*** Update File: /t", "-a", "+A", "@@", " b", "-c"),
			"Update File /t, hunk 1 of 2: could not find the context lines:\na\nThe hunk's new lines are already present at line 1; was this hunk already applied?"},
		{"path touched twice", memFS{"/t": "c\n"}, patch("*** Update File: /t", "-a", "+b", "*** Update File: /t", "-b", "+c"),
			"Update File /t, hunk 1 of 1: could not find the context lines:\na\nNothing similar was found in /t."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := plan(t, tt.files, "/", tt.patch)
			if err == nil {
				t.Fatal("Plan succeeded")
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("error:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestRoundTrip applies a multi-file patch and checks the resulting tree.
func TestRoundTrip(t *testing.T) {
	files := memFS{
		"/repo/delete.txt": "obsolete\n",
		"/repo/modify.txt": "line1\nline2\n",
		"/repo/keep.txt":   "keep\n",
	}
	ops, err := plan(t, files, "/repo", patch(
		"*** Add File: nested/new.txt",
		"+created",
		"*** Delete File: delete.txt",
		"*** Update File: modify.txt",
		"@@",
		"-line2",
		"+changed",
	))
	if err != nil {
		t.Fatal(err)
	}
	got := applyOps(files, ops)
	want := memFS{
		"/repo/nested/new.txt": "created\n",
		"/repo/modify.txt":     "line1\nchanged\n",
		"/repo/keep.txt":       "keep\n",
	}
	if strings.Join(sortedKeys(got), ",") != strings.Join(sortedKeys(want), ",") {
		t.Fatalf("files = %q, want %q", sortedKeys(got), sortedKeys(want))
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
}

// TestReadOnce checks that Plan reads each path at most once.
func TestReadOnce(t *testing.T) {
	r := &countingReader{memFS: memFS{"/a": "1\n"}, n: map[string]int{}}
	p, err := Parse(patch("*** Update File: /a", "-1", "+2", "*** Update File: /a", "-2", "+3", "*** Update File: /a", "-9", "+0"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Plan(r, "/"); err == nil {
		t.Fatal("Plan succeeded")
	}
	if r.n["/a"] != 1 {
		t.Errorf("read /a %d times", r.n["/a"])
	}
}

type countingReader struct {
	memFS
	n map[string]int
}

func (c *countingReader) ReadFile(path string) ([]byte, error) {
	c.n[path]++
	return c.memFS.ReadFile(path)
}

func TestSeekLevels(t *testing.T) {
	lines := []string{"  alpha  ", "beta\t", "gamma \u2014 delta", "beta"}
	m := newMatcher(lines)
	tests := []struct {
		pattern []string
		start   int
		eof     bool
		want    int
	}{
		{[]string{"beta"}, 0, false, 3},          // exact beats the earlier trim-right match
		{[]string{"beta"}, 0, true, 3},           // eof
		{[]string{"alpha"}, 0, true, -1},         // eof: only the last position
		{[]string{"alpha"}, 0, false, 0},         // trim
		{[]string{"  alpha"}, 0, false, 0},       // trim (leading differs too)
		{[]string{"gamma - delta"}, 0, false, 2}, // normalised dash
		{[]string{"beta", "gamma -- delta"}, 0, false, -1},
		{[]string{"alpha", "beta"}, 1, false, -1},         // start
		{[]string{"a", "b", "c", "d", "e"}, 0, false, -1}, // longer than the file
		{nil, 2, false, 2},
	}
	for _, tt := range tests {
		if got := m.seek(tt.pattern, tt.start, tt.eof); got != tt.want {
			t.Errorf("seek(%q, %d, %v) = %d, want %d", tt.pattern, tt.start, tt.eof, got, tt.want)
		}
	}
}

// TestLargeFile keeps the seek and nearest searches honest about speed.
func TestLargeFile(t *testing.T) {
	var b strings.Builder
	for i := range 50000 {
		b.WriteString("line number ")
		b.WriteString(strings.Repeat("x", i%17))
		b.WriteString("\n")
	}
	b.WriteString("the end\n")
	files := memFS{"/big": b.String()}
	ops, err := plan(t, files, "/", patch("*** Update File: /big", "-the end", "+THE END", "*** End of File"))
	if err != nil || len(ops) != 1 {
		t.Fatalf("Plan: %v", err)
	}
	_, err = plan(t, files, "/", patch("*** Update File: /big", " line number xxxx", "-line number yyyy", "+z"))
	var he *HunkError
	if !errors.As(err, &he) || he.NearestLine == 0 {
		t.Fatalf("got %v, want a HunkError with a nearest line", err)
	}
}

// TestLongHunkDiagnostics checks that a long failing hunk finds its
// closest lines and that the quoted stretch is capped.
func TestLongHunkDiagnostics(t *testing.T) {
	var file strings.Builder
	for i := range 60 {
		fmt.Fprintf(&file, "func f%d() { return %d }\n", i, i)
	}
	lines := []string{"*** Update File: x.go", "@@ func f29"}
	for i := 30; i < 55; i++ {
		if i == 40 {
			lines = append(lines, fmt.Sprintf("-func f%d() { return %d+1 }", i, i), "+changed")
		} else {
			lines = append(lines, fmt.Sprintf(" func f%d() { return %d }", i, i))
		}
	}
	_, err := plan(t, memFS{"/x.go": file.String()}, "/", patch(lines...))
	var he *HunkError
	if !errors.As(err, &he) {
		t.Fatalf("got %v, want a *HunkError", err)
	}
	if he.NearestLine != 31 || !strings.HasPrefix(he.Nearest, "func f30() { return 30 }\n") ||
		!strings.HasSuffix(he.Nearest, "\nfunc f49() { return 49 }\n[... 5 more lines]") {
		t.Errorf("NearestLine = %d, Nearest =\n%s", he.NearestLine, he.Nearest)
	}
}

func TestNormalise(t *testing.T) {
	in := "\u00a0 \u2018a\u2019 \u201cb\u201d c\u2014d\u2212e\u3000f \u2026 "
	if got, want := normalise(in), "'a' \"b\" c-d-e f \u2026"; got != want {
		t.Errorf("normalise(%q) = %q, want %q", in, got, want)
	}
	if got := OpKind(9).String(); got != "OpKind(9)" {
		t.Errorf("String = %q", got)
	}
}
