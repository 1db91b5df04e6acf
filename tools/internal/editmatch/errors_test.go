package editmatch

import (
	"errors"
	"strings"
	"testing"
)

func TestErrorMessages(t *testing.T) {
	const p = "/workspace/a.txt"
	tests := []struct {
		name    string
		content string
		edits   []Edit
		kind    string
		msg     string
	}{
		{
			name: "no edits", content: "x", edits: nil, kind: KindEmpty,
			msg: "edits must contain at least one replacement.",
		},
		{
			name: "not utf8", content: "ok\xff\xfe", edits: []Edit{{OldText: "ok", NewText: "no"}}, kind: KindNotUTF8,
			msg: "/workspace/a.txt is not valid UTF-8 text; edit refuses to change it. Use write to replace the whole file.",
		},
		{
			name: "empty old single", content: "x", edits: []Edit{{OldText: "", NewText: "y"}}, kind: KindEmpty,
			msg: "oldText must not be empty in /workspace/a.txt.",
		},
		{
			name: "empty old multi", content: "x", edits: []Edit{{OldText: "x", NewText: "y"}, {OldText: "", NewText: "z"}}, kind: KindEmpty,
			msg: "edits[1].oldText must not be empty in /workspace/a.txt.",
		},
		{
			name: "empty old before not found", content: "x", edits: []Edit{{OldText: "nope", NewText: "y"}, {OldText: ""}}, kind: KindEmpty,
			msg: "edits[1].oldText must not be empty in /workspace/a.txt.",
		},
		{
			name: "not found single", content: "alpha\nbeta\n", edits: []Edit{{OldText: "zzz", NewText: "y"}}, kind: KindNotFound,
			msg: "Could not find the exact text in /workspace/a.txt. The old text must match exactly including all whitespace and newlines.",
		},
		{
			name: "not found multi", content: "alpha\nbeta\n", edits: []Edit{{OldText: "alpha", NewText: "a"}, {OldText: "zzz", NewText: "y"}}, kind: KindNotFound,
			msg: "Could not find edits[1] in /workspace/a.txt. The oldText must match exactly including all whitespace and newlines.",
		},
		{
			name:    "not found single with hint",
			content: "package main\n\nfunc main() {\n\tfmt.Println(\"hello, world\")\n}\n",
			edits:   []Edit{{OldText: "fmt.Println(\"hello world\")", NewText: "x"}}, kind: KindNotFound,
			msg: "Could not find the exact text in /workspace/a.txt. The old text must match exactly including all whitespace and newlines." +
				" The closest text is at line 4:\n\tfmt.Println(\"hello, world\")\n}",
		},
		{
			name:    "not found multi with hint at divergence",
			content: "a := 1\nb := 2\nc := 3\nd := 4\n",
			edits:   []Edit{{OldText: "a := 1", NewText: "a := 0"}, {OldText: "a := 1\nb := 2\nc := 33\n", NewText: "x"}}, kind: KindNotFound,
			msg: "Could not find edits[1] in /workspace/a.txt. The oldText must match exactly including all whitespace and newlines." +
				" The closest text is at line 3:\nc := 3\nd := 4",
		},
		{
			name: "not unique single", content: "x = 1\nx = 1\nx = 1\n", edits: []Edit{{OldText: "x = 1", NewText: "y"}}, kind: KindNotUnique,
			msg: "Found 3 occurrences of the text in /workspace/a.txt (at lines 1, 2 and 3). The text must be unique. Please provide more context to make it unique.",
		},
		{
			name: "not unique multi", content: "x = 1\nx = 1\n", edits: []Edit{{OldText: "z", NewText: "y"}, {OldText: "x = 1", NewText: "y"}}, kind: KindNotFound,
			msg: "Could not find edits[0] in /workspace/a.txt. The oldText must match exactly including all whitespace and newlines.",
		},
		{
			name: "not unique multi second", content: "z\nx = 1\nx = 1\n", edits: []Edit{{OldText: "z", NewText: "y"}, {OldText: "x = 1", NewText: "y"}}, kind: KindNotUnique,
			msg: "Found 2 occurrences of edits[1] in /workspace/a.txt (at lines 2 and 3). Each oldText must be unique. Please provide more context to make it unique.",
		},
		{
			name: "not unique overlapping", content: "aaa", edits: []Edit{{OldText: "aa", NewText: "b"}}, kind: KindNotUnique,
			msg: "Found 2 occurrences of the text in /workspace/a.txt (at line 1). The text must be unique. Please provide more context to make it unique.",
		},
		{
			name: "not unique many", content: strings.Repeat("x = 1\n\n", 12), edits: []Edit{{OldText: "x = 1", NewText: "y"}}, kind: KindNotUnique,
			msg: "Found 12 occurrences of the text in /workspace/a.txt (at lines 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, ...). The text must be unique. Please provide more context to make it unique.",
		},
		{
			name: "not unique fuzzy", content: "say “hi”\nsay “hi”\n", edits: []Edit{{OldText: `say "hi"`, NewText: "y"}}, kind: KindNotUnique,
			msg: "Found 2 occurrences of the text in /workspace/a.txt (at lines 1 and 2). The text must be unique. Please provide more context to make it unique.",
		},
		{
			name: "not unique fuzzy overlapping", content: "x ‘a‘a‘a\n", edits: []Edit{{OldText: "'a'a", NewText: "y"}}, kind: KindNotUnique,
			msg: "Found 2 occurrences of the text in /workspace/a.txt (at line 1). The text must be unique. Please provide more context to make it unique.",
		},
		{
			name: "not unique indentation overlapping", content: "\tx()\n\tx()\n\tx()\n", edits: []Edit{{OldText: "    x()\n    x()", NewText: "y"}}, kind: KindNotUnique,
			msg: "Found 2 occurrences of the text in /workspace/a.txt (at lines 1 and 2). The text must be unique. Please provide more context to make it unique.",
		},
		{
			name: "fuzzy boundary single", content: "the ﬁle\n", edits: []Edit{{OldText: "the f", NewText: "a"}}, kind: KindFuzzyBoundary,
			msg: "The fuzzy match in /workspace/a.txt crosses an ambiguous Unicode-normalization or trimmed-whitespace boundary. Copy the exact source text or use a span whose normalized boundaries map cleanly.",
		},
		{
			name: "fuzzy boundary multi", content: "the ﬁle\nend\n", edits: []Edit{{OldText: "end", NewText: "fin"}, {OldText: "the f", NewText: "a"}}, kind: KindFuzzyBoundary,
			msg: "The fuzzy match for edits[1] in /workspace/a.txt crosses an ambiguous Unicode-normalization or trimmed-whitespace boundary. Copy the exact source text or use a span whose normalized boundaries map cleanly.",
		},
		{
			name: "overlap", content: "one two three\n", edits: []Edit{{OldText: "two three", NewText: "2 3"}, {OldText: "one two", NewText: "1 2"}}, kind: KindOverlap,
			msg: "edits[1] and edits[0] overlap in /workspace/a.txt. Merge them into one edit or target disjoint regions.",
		},
		{
			name: "overlap same range", content: "one two\n", edits: []Edit{{OldText: "two", NewText: "2"}, {OldText: "two", NewText: "II"}}, kind: KindOverlap,
			msg: "edits[0] and edits[1] overlap in /workspace/a.txt. Merge them into one edit or target disjoint regions.",
		},
		{
			name: "no change single", content: "same\n", edits: []Edit{{OldText: "same", NewText: "same"}}, kind: KindNoChange,
			msg: "No changes made to /workspace/a.txt. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected.",
		},
		{
			name: "no change multi", content: "a b\n", edits: []Edit{{OldText: "a", NewText: "a"}, {OldText: "b", NewText: "b"}}, kind: KindNoChange,
			msg: "No changes made to /workspace/a.txt. The replacements produced identical content.",
		},
		{
			name: "no change crlf", content: "a\r\nb\r\n", edits: []Edit{{OldText: "a\nb", NewText: "a\r\nb"}}, kind: KindNoChange,
			msg: "No changes made to /workspace/a.txt. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected.",
		},
		{
			name: "edits see the original only", content: "a c\n", edits: []Edit{{OldText: "a", NewText: "b"}, {OldText: "b c", NewText: "x"}}, kind: KindNotFound,
			msg: "Could not find edits[1] in /workspace/a.txt. The oldText must match exactly including all whitespace and newlines.",
		},
		{
			name: "whitespace-only old text is never fuzzy", content: "a\t\nb\n", edits: []Edit{{OldText: "  \n", NewText: "x"}}, kind: KindNotFound,
			msg: "Could not find the exact text in /workspace/a.txt. The old text must match exactly including all whitespace and newlines.",
		},
		{
			name: "replace all with no occurrence", content: "abc\n", edits: []Edit{{OldText: "xyz", NewText: "q", ReplaceAll: true}}, kind: KindNotFound,
			msg: "Could not find the exact text in /workspace/a.txt. The old text must match exactly including all whitespace and newlines.",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := tc.content
			res, err := Apply(p, []byte(tc.content), tc.edits)
			if res != nil {
				t.Fatalf("got result %q, want error", res.Content)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T) is not *Error", err, err)
			}
			if e.Kind != tc.kind {
				t.Errorf("kind = %q, want %q", e.Kind, tc.kind)
			}
			if e.Message != tc.msg {
				t.Errorf("message:\n got %q\nwant %q", e.Message, tc.msg)
			}
			if e.Error() != e.Message {
				t.Errorf("Error() = %q, want the message", e.Error())
			}
			if tc.content != before {
				t.Errorf("input mutated")
			}
		})
	}
}
