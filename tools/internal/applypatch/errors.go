package applypatch

import (
	"fmt"
	"strings"
)

// FileError is a problem with a whole file section: the file is missing,
// already exists, cannot be read, or its path is unusable.
type FileError struct {
	Kind    OpKind // the section's kind
	Path    string // resolved path, or the path as written if it could not be resolved
	Message string // e.g. "no such file"
	Err     error  // the Reader's error, if the file could not be read
}

// Error returns e.g. "Delete File /b.txt: no such file".
func (e *FileError) Error() string {
	return fmt.Sprintf("%s File %s: %s", e.Kind, e.Path, e.Message)
}

// Unwrap returns the Reader's error, if any.
func (e *FileError) Unwrap() error { return e.Err }

// HunkError says why one hunk of an Update File section does not apply.
type HunkError struct {
	Path  string // resolved path of the file being updated (the source of a move)
	Hunk  int    // 1-based hunk number within its Update File section
	Hunks int    // number of hunks in that section
	// PatchLine is the patch line where the hunk starts.
	PatchLine int
	// Message says what was not found, quoting the lines searched for,
	// and may add a hint (the lines occur before the previous hunk, or
	// the hunk's result is already present).
	Message string
	// Nearest is the most similar stretch of the file, as many lines as
	// the hunk expected (at most 20), or "" if nothing is similar enough.
	Nearest string
	// NearestLine is the 1-based line where Nearest starts, or 0.
	NearestLine int
}

// Error returns the message a model can act on, e.g.
//
//	Update File /x.go, hunk 2 of 3: could not find the context lines:
//	<the lines>
//	The closest lines in /x.go start at line 41:
//	<the lines there>
func (e *HunkError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Update File %s, hunk %d of %d: %s", e.Path, e.Hunk, e.Hunks, e.Message)
	if e.Nearest != "" {
		fmt.Fprintf(&b, "\nThe closest lines in %s start at line %d:\n%s", e.Path, e.NearestLine, e.Nearest)
	}
	return b.String()
}

// PlanError holds every problem found by [Patch.Plan] when there is more
// than one; each is a *FileError or a *HunkError.
type PlanError struct {
	Errors []error
}

// Error returns the messages of all problems, separated by blank lines.
func (e *PlanError) Error() string {
	msgs := make([]string, len(e.Errors))
	for i, err := range e.Errors {
		msgs[i] = err.Error()
	}
	return strings.Join(msgs, "\n\n")
}

// Unwrap returns the individual problems, for errors.Is and errors.As.
func (e *PlanError) Unwrap() []error { return e.Errors }

// AlreadyAppliedError is returned by [Patch.Plan] instead of the
// individual problems when the patch does not apply but its result is
// already in place: every Add target exists with the added content, every
// Delete target is missing, and every Update hunk's new side is present
// where it would go (in the Move to destination, with the source gone, for
// a move). Usually the patch was applied before and sent again.
type AlreadyAppliedError struct {
	Paths []string // resolved paths of the patch's sections, in order
}

// Error returns the fixed message for this condition.
func (e *AlreadyAppliedError) Error() string {
	return "the patch appears to be already applied (every hunk's result is present); nothing was changed"
}
