package tools

import (
	"context"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/nookdev/nook/vfs"
)

// Bounds on the "Did you mean" search after a missing file: it lists one
// directory, runs one Find page and stats a few paths, all within
// similarBudget.
const (
	similarBudget   = 150 * time.Millisecond
	similarMax      = 3    // suggestions shown
	similarDirPage  = 1000 // siblings considered
	similarFindPage = 200  // basename matches considered
	similarNameMax  = 128  // longer names are compared by their first bytes
)

// similarExcludes are skipped by the basename search: they are large and
// rarely what a model means.
var similarExcludes = []string{".git", "node_modules"}

// similarPaths suggests up to three existing files whose paths are close to
// p, a canonical path that does not exist: files in the nearest existing
// ancestor directory with a similar name, the path with a misspelt
// directory corrected, and files with a similar name anywhere under the
// set's root. They are ranked by edit distance between names
// (case-insensitive), then by closeness to p's directory. It is best
// effort: errors and the time budget just cut the list short.
func (s *Set) similarPaths(ctx context.Context, p string) []string {
	if p == "/" {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, similarBudget)
	defer cancel()

	dir, name := splitPath(p)
	want := strings.ToLower(name)
	limit := max(2, len(want)/3) // the largest edit distance suggested
	type cand struct {
		path string
		dist int
		far  int // 0: in p's directory; 1: elsewhere
	}
	var cands []cand
	seen := map[string]bool{p: true}
	add := func(path string, dist int) {
		if seen[path] || dist > limit {
			return
		}
		seen[path] = true
		far := 1
		if d, _ := splitPath(path); d == dir {
			far = 0
		}
		cands = append(cands, cand{path, dist, far})
	}

	// The nearest existing ancestor, and the first segment missing below it.
	anc, rest := dir, []string{name}
	for {
		fi, err := s.fs.Stat(ctx, anc)
		if err == nil && fi.IsDir() {
			break
		}
		if anc == "/" || ctx.Err() != nil {
			return nil
		}
		d, n := splitPath(anc)
		anc, rest = d, append([]string{n}, rest...)
	}

	if l, err := s.fs.ReadDir(ctx, anc, vfs.Page{Limit: similarDirPage}); err == nil {
		miss := strings.ToLower(rest[0])
		type dirCand struct {
			path string
			dist int
		}
		var dirs []dirCand
		for _, e := range l.Entries {
			d := editDistance(strings.ToLower(e.Name), miss)
			switch {
			case len(rest) == 1 && e.Kind != vfs.TypeDir:
				add(e.Path, d)
			case len(rest) > 1 && e.Kind != vfs.TypeFile && d <= max(2, len(miss)/3):
				dirs = append(dirs, dirCand{e.Path, d})
			}
		}
		// A misspelt directory: try the rest of the path under the closest
		// few names.
		slices.SortStableFunc(dirs, func(a, b dirCand) int { return a.dist - b.dist })
		for _, d := range dirs[:min(len(dirs), similarMax)] {
			alt := d.path + "/" + strings.Join(rest[1:], "/")
			if fi, err := s.fs.Stat(ctx, alt); err == nil && !fi.IsDir() {
				add(alt, editDistance(strings.ToLower(vfs.Base(alt)), want))
			}
		}
	}

	// The same or a similar name anywhere under the root.
	root := s.opts.Root
	if !under(p, root) {
		root = "/"
	}
	stem := name
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		stem = name[:i]
	}
	pattern := "**/" + foldGlob(stem) + "*"
	l, err := s.fs.Find(ctx, root, pattern, &vfs.FindOptions{
		Page:    vfs.Page{Limit: similarFindPage},
		Exclude: similarExcludes,
		Types:   []vfs.Type{vfs.TypeFile, vfs.TypeSymlink},
	})
	if err == nil {
		for _, e := range l.Entries {
			add(e.Path, editDistance(strings.ToLower(e.Name), want))
		}
	}

	slices.SortFunc(cands, func(a, b cand) int {
		if a.dist != b.dist {
			return a.dist - b.dist
		}
		if a.far != b.far {
			return a.far - b.far
		}
		if len(a.path) != len(b.path) {
			return len(a.path) - len(b.path)
		}
		return strings.Compare(a.path, b.path)
	})
	out := make([]string, 0, similarMax)
	for _, c := range cands[:min(len(cands), similarMax)] {
		out = append(out, c.path)
	}
	return out
}

// splitPath splits a canonical path into its directory and last segment.
func splitPath(p string) (dir, name string) {
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		return "/", p[i+1:]
	}
	return p[:i], p[i+1:]
}

// foldGlob turns a literal name into a case-insensitive glob: letters
// become classes ("a" → "[aA]") and glob metacharacters are escaped.
func foldGlob(s string) string {
	var b strings.Builder
	for _, r := range s {
		lo, up := unicode.ToLower(r), unicode.ToUpper(r)
		switch {
		case lo != up:
			b.WriteByte('[')
			b.WriteRune(lo)
			b.WriteRune(up)
			b.WriteByte(']')
		case strings.ContainsRune(`*?[]{}\,!^`, r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// editDistance is the Levenshtein distance between a and b, in bytes (over
// their first similarNameMax bytes).
func editDistance(a, b string) int {
	a, b = a[:min(len(a), similarNameMax)], b[:min(len(b), similarNameMax)]
	if a == b {
		return 0
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
