package editmatch

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Error is a model-facing edit failure. Message is the exact text to show
// the model; Kind classifies it for callers and tests.
type Error struct {
	// Message is the complete model-facing error text.
	Message string
	// Kind is one of the Kind* constants.
	Kind string
}

// Error returns the model-facing message.
func (e *Error) Error() string { return e.Message }

// Error kinds reported in Error.Kind.
const (
	// KindEmpty: no edits, or an empty OldText.
	KindEmpty = "empty"
	// KindNotFound: an OldText matched nowhere.
	KindNotFound = "not-found"
	// KindNotUnique: an OldText matched more than once without ReplaceAll.
	KindNotUnique = "not-unique"
	// KindFuzzyBoundary: a fuzzy hit could not be mapped back cleanly.
	KindFuzzyBoundary = "fuzzy-boundary"
	// KindOverlap: two edits matched overlapping ranges.
	KindOverlap = "overlap"
	// KindNoChange: the edits produced identical content.
	KindNoChange = "no-change"
	// KindNotUTF8: the content is not valid UTF-8 text.
	KindNotUTF8 = "not-utf8"
)

func newError(kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

func errNoEdits() *Error {
	return newError(KindEmpty, "edits must contain at least one replacement.")
}

func errNotUTF8(path string) *Error {
	return newError(KindNotUTF8, "%s is not valid UTF-8 text; edit refuses to change it. Use write to replace the whole file.", path)
}

func errEmptyOld(path string, i int, multi bool) *Error {
	if multi {
		return newError(KindEmpty, "edits[%d].oldText must not be empty in %s.", i, path)
	}
	return newError(KindEmpty, "oldText must not be empty in %s.", path)
}

func errNotFound(path string, i int, multi bool, hint string) *Error {
	if multi {
		return newError(KindNotFound, "Could not find edits[%d] in %s. The oldText must match exactly including all whitespace and newlines.%s", i, path, hint)
	}
	return newError(KindNotFound, "Could not find the exact text in %s. The old text must match exactly including all whitespace and newlines.%s", path, hint)
}

// errNotUnique reports n occurrences on the given lines (the first
// maxListedLines distinct ones; more says there are occurrences past them).
func errNotUnique(path string, i int, multi bool, n int, lines []int, more bool) *Error {
	at := linesText(lines, more)
	if multi {
		return newError(KindNotUnique, "Found %d occurrences of edits[%d] in %s%s. Each oldText must be unique. Please provide more context to make it unique.", n, i, path, at)
	}
	return newError(KindNotUnique, "Found %d occurrences of the text in %s%s. The text must be unique. Please provide more context to make it unique.", n, path, at)
}

// maxListedLines is how many line numbers a not-unique error lists.
const maxListedLines = 10

// linesText renders " (at lines 3, 8 and 12)", or " (at lines 3, 8, ...)"
// when more occurrences follow.
func linesText(lines []int, more bool) string {
	if len(lines) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(" (at line")
	if len(lines) > 1 {
		b.WriteString("s")
	}
	for k, l := range lines {
		switch {
		case k == 0:
			b.WriteString(" ")
		case k == len(lines)-1 && !more:
			b.WriteString(" and ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(l))
	}
	if more {
		b.WriteString(", ...")
	}
	b.WriteString(")")
	return b.String()
}

// lineNumbers returns the distinct 1-based line numbers in text of the
// offsets starts, which are in ascending order, and whether starts held
// more than maxListedLines of them.
func lineNumbers(text []byte, starts []int) (lines []int, more bool) {
	line, pos := 1, 0
	for _, s := range starts {
		line += bytes.Count(text[pos:s], []byte{'\n'})
		pos = s
		if len(lines) > 0 && lines[len(lines)-1] == line {
			continue
		}
		if len(lines) == maxListedLines {
			return lines, true
		}
		lines = append(lines, line)
	}
	return lines, false
}

const boundaryTail = "crosses an ambiguous Unicode-normalization or trimmed-whitespace boundary. Copy the exact source text or use a span whose normalized boundaries map cleanly."

func errBoundary(path string, i int, multi bool) *Error {
	if multi {
		return newError(KindFuzzyBoundary, "The fuzzy match for edits[%d] in %s %s", i, path, boundaryTail)
	}
	return newError(KindFuzzyBoundary, "The fuzzy match in %s %s", path, boundaryTail)
}

func errOverlap(path string, a, b int) *Error {
	return newError(KindOverlap, "edits[%d] and edits[%d] overlap in %s. Merge them into one edit or target disjoint regions.", a, b, path)
}

func errNoChange(path string, multi bool) *Error {
	if multi {
		return newError(KindNoChange, "No changes made to %s. The replacements produced identical content.", path)
	}
	return newError(KindNoChange, "No changes made to %s. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected.", path)
}
