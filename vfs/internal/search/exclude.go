package search

import (
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Excluder decides which paths a search leaves out, from a list of
// gitignore-like doublestar patterns matched against paths relative to the
// searched directory:
//
//   - A pattern without a slash, such as "node_modules" or "*.min.js",
//     matches a file or directory of that name at any depth.
//   - A pattern with a slash, such as "docs/api" or "**/testdata/*.json",
//     matches the relative path from the searched directory; a leading
//     slash only anchors it ("/build" excludes the top-level build and no
//     other). "foo/**" excludes foo itself as well as everything below it.
//   - A trailing slash, as in "out/", restricts the pattern to
//     directories.
//
// Everything below an excluded directory is excluded too, and exclusion
// beats inclusion: a path that an include Glob matches is still left out
// when it is excluded.
//
// A nil *Excluder excludes nothing.
type Excluder struct {
	rules []excludeRule
}

type excludeRule struct {
	pattern string
	base    bool // no slash: matched against each path component
	dirOnly bool // trailing slash: matches directories only
}

// NewExcluder compiles exclude patterns. Empty strings in the list are
// ignored; an invalid pattern yields an error wrapping
// doublestar.ErrBadPattern, as in [CompileGlob].
func NewExcluder(patterns []string) (*Excluder, error) {
	e := &Excluder{}
	for _, p := range patterns {
		if p == "" {
			continue
		}
		pattern, dirOnly := strings.CutSuffix(p, "/")
		pattern, anchored := strings.CutPrefix(pattern, "/")
		if pattern == "" {
			return nil, fmt.Errorf("%w: %q", doublestar.ErrBadPattern, p)
		}
		if err := checkPattern(pattern); err != nil {
			return nil, fmt.Errorf("%w: %q", err, p)
		}
		r := excludeRule{
			pattern: pattern,
			base:    !anchored && !strings.Contains(pattern, "/"),
			dirOnly: dirOnly,
		}
		e.rules = append(e.rules, r)
	}
	return e, nil
}

// Excluded reports whether the relative path rel (a directory when isDir
// is set) or any directory above it is excluded. The searched directory
// itself, rel "", is never excluded. A walker that asks before descending
// into each directory can skip the contents of an excluded one.
func (e *Excluder) Excluded(rel string, isDir bool) bool {
	if e == nil || rel == "" {
		return false
	}
	// Visit each component rel[start:end]; rel[:end] is the path up to and
	// including it, a directory unless it is the last one.
	for start := 0; ; {
		end := strings.IndexByte(rel[start:], '/')
		last := end < 0
		if last {
			end = len(rel)
		} else {
			end += start
		}
		for _, r := range e.rules {
			if r.dirOnly && last && !isDir {
				continue
			}
			subject := rel[:end]
			if r.base {
				subject = rel[start:end]
			}
			if doublestar.MatchUnvalidated(r.pattern, subject) {
				return true
			}
		}
		if last {
			return false
		}
		start = end + 1
	}
}
