package main

import (
	"flag"
	"strings"

	"github.com/nookdev/nook/vfs"
)

// The search commands: find and grep. Both page through every result.

var cmdFind = &command{
	name: "find", reads: true, group: "Search", synopsis: "[--path DIR] [--exclude GLOB]... [--type T]... PATTERN",
	summary: "find paths matching a glob",
	help: `Prints, one per line, the paths below DIR (default /) whose path relative
to DIR matches the glob PATTERN: '*.go' matches at the top of DIR only,
'**/*.go' at any depth. Globs use doublestar syntax: * and ? within a
segment, ** across segments, {a,b} alternatives, [abc] classes. Results come
depth-first, names in byte order, directories before their contents. An
--exclude glob without a slash matches a name at any depth (--exclude .git);
excluded directories are not walked.`,
	run: runFind,
}

func runFind(a *app, fl *flag.FlagSet, args []string) error {
	dir := fl.String("path", "/", "directory to search `DIR`")
	var exclude, types stringList
	fl.Var(&exclude, "exclude", "skip paths matching `GLOB` (repeatable)")
	fl.Var(&types, "type", "only nodes of kind `T`: f (file), d (directory) or l (symlink) (repeatable)")
	if err := a.parse(fl, args, 1, 1); err != nil {
		return err
	}
	opts := &vfs.FindOptions{Exclude: exclude}
	for _, t := range types {
		switch t {
		case "f", "file":
			opts.Types = append(opts.Types, vfs.TypeFile)
		case "d", "dir":
			opts.Types = append(opts.Types, vfs.TypeDir)
		case "l", "symlink":
			opts.Types = append(opts.Types, vfs.TypeSymlink)
		default:
			return a.usagef("find: --type %q: want f, d or l", t)
		}
	}
	f, err := a.workspace()
	if err != nil {
		return err
	}
	root := wsPath(*dir)
	out := listJSON{Path: bytesText(root), Entries: []jsonEntry{}}
	opts.Limit = f.Limits().MaxPage
	for {
		l, err := f.Find(a.ctx, root, fl.Arg(0), opts)
		if err != nil {
			return err
		}
		for _, e := range l.Entries {
			if a.json {
				out.Entries = append(out.Entries, jsonEntryOf(e))
			} else {
				a.printf("%s\n", shown(e.Path))
			}
		}
		if l.NextOffset == 0 || len(l.Entries) == 0 {
			break
		}
		opts.Offset = l.NextOffset
	}
	return a.emit(out, nil)
}

var cmdGrep = &command{
	name: "grep", reads: true, group: "Search",
	synopsis: "[-i] [-E] [-l|-c] [-C N] [--include GLOB]... [--exclude GLOB]... QUERY [PATH]",
	summary:  "search file contents",
	help: `Searches the files below PATH (default /; PATH may also be one file) for
QUERY, a literal string unless -E makes it a regular expression (RE2 syntax).
Output is "path:line:text" for each matching line, as grep -rn prints it;
with -C N, context lines are "path-line-text" and groups are separated by
"--". -l prints only the paths of matching files, -c "path:count".
Globs without a slash (--include '*.go', --exclude vendor) match names at any
depth; globs with a slash match paths relative to PATH.
Binary files are skipped; other skipped files (too large) are reported on
standard error. Exit status is 1 when nothing matched, as grep's.`,
	run: runGrep,
}

type grepJSON struct {
	Query   string          `json:"query"`
	Path    bytesText       `json:"path"`
	Matches []grepMatchJSON `json:"matches,omitempty"`
	Files   []grepFileJSON  `json:"files,omitempty"`
	Skipped []grepSkipJSON  `json:"skipped,omitempty"`
}

type grepMatchJSON struct {
	Path    bytesText      `json:"path"`
	Line    int            `json:"line"`
	Text    bytesText      `json:"text"`
	Context []grepLineJSON `json:"context,omitempty"`
}

type grepLineJSON struct {
	Line      int       `json:"line"`
	Text      bytesText `json:"text"`
	Match     bool      `json:"match"`
	Truncated bool      `json:"truncated,omitempty"`
}

type grepFileJSON struct {
	Path  bytesText `json:"path"`
	Count int       `json:"count"`
}

type grepSkipJSON struct {
	Path   bytesText `json:"path"`
	Reason string    `json:"reason"`
}

func runGrep(a *app, fl *flag.FlagSet, args []string) error {
	icase := fl.Bool("i", false, "ignore case")
	regex := fl.Bool("E", false, "QUERY is a regular expression (RE2 syntax)")
	files := fl.Bool("l", false, "print only the paths of files with a match")
	count := fl.Bool("c", false, "print the number of matching lines per file")
	context := fl.Int("C", 0, "print `N` lines of context around each match")
	var include, exclude stringList
	fl.Var(&include, "include", "search only files matching `GLOB` (repeatable)")
	fl.Var(&exclude, "exclude", "skip paths matching `GLOB` (repeatable)")
	if err := a.parse(fl, args, 1, 2); err != nil {
		return err
	}
	if *files && *count {
		return a.usagef("grep: -l and -c exclude each other")
	}
	if *context < 0 {
		return a.usagef("grep: -C must not be negative")
	}
	f, err := a.workspace()
	if err != nil {
		return err
	}
	query := fl.Arg(0)
	root := "/"
	if fl.NArg() == 2 {
		root = wsPath(fl.Arg(1))
	}
	// As with grep(1) and with --exclude, an --include glob without a slash
	// matches file names at any depth.
	for i, g := range include {
		if !strings.Contains(g, "/") {
			include[i] = "**/" + g
		}
	}
	opts := &vfs.GrepOptions{Regex: *regex, IgnoreCase: *icase, Context: *context, Include: include, Exclude: exclude}
	switch {
	case *files:
		opts.Mode = vfs.GrepFiles
	case *count:
		opts.Mode = vfs.GrepCount
	}
	opts.Limit = f.Limits().MaxPage
	out := grepJSON{Query: query, Path: bytesText(root)}
	pr := &grepPrinter{a: a, context: *context}
	found := 0
	for {
		res, err := f.Grep(a.ctx, query, root, opts)
		if err != nil {
			return err
		}
		for _, s := range res.Skipped {
			if a.json {
				out.Skipped = append(out.Skipped, grepSkipJSON{bytesText(s.Path), s.Reason})
			} else if s.Reason != "binary" {
				a.warnf("grep: skipped %s (%s)", shown(s.Path), s.Reason)
			}
		}
		for _, m := range res.Matches {
			if a.json {
				out.Matches = append(out.Matches, grepMatchOf(m))
			} else {
				pr.match(m)
			}
		}
		for _, gf := range res.Files {
			switch {
			case a.json:
				out.Files = append(out.Files, grepFileJSON{bytesText(gf.Path), gf.Count})
			case *count:
				a.printf("%s:%d\n", shown(gf.Path), gf.Count)
			default:
				a.printf("%s\n", shown(gf.Path))
			}
		}
		found += len(res.Matches) + len(res.Files)
		n := len(res.Matches) + len(res.Files) + len(res.Skipped)
		if res.NextOffset == 0 || n == 0 {
			break
		}
		opts.Offset = res.NextOffset
	}
	if err := a.emit(out, nil); err != nil {
		return err
	}
	if found == 0 {
		return &exitStatus{1} // nothing matched, as grep(1) says it
	}
	return nil
}

func grepMatchOf(m vfs.GrepMatch) grepMatchJSON {
	j := grepMatchJSON{Path: bytesText(m.Path), Line: m.Line, Text: bytesText(m.Text)}
	for _, l := range m.Context {
		j.Context = append(j.Context, grepLineJSON{Line: l.Line, Text: bytesText(l.Text), Match: l.IsMatch, Truncated: l.Truncated})
	}
	return j
}

// grepPrinter prints matches as grep -rn does, merging overlapping context
// and separating non-adjacent groups with "--".
type grepPrinter struct {
	a       *app
	context int
	path    string // file of the last printed line
	last    int    // number of the last printed line
	printed bool
}

func (g *grepPrinter) match(m vfs.GrepMatch) {
	lines := m.Context
	if len(lines) == 0 {
		lines = []vfs.GrepLine{{Line: m.Line, Text: m.Text, IsMatch: true}}
	}
	for _, l := range lines {
		if g.printed && m.Path == g.path && l.Line <= g.last {
			continue // already printed as part of the previous group
		}
		if g.context > 0 && g.printed && (m.Path != g.path || l.Line > g.last+1) {
			g.a.printf("--\n")
		}
		sep := "-"
		if l.IsMatch || l.Line == m.Line {
			sep = ":"
		}
		text := l.Text
		if l.Truncated {
			text += " [...]"
		}
		g.a.printf("%s%s%d%s%s\n", shown(m.Path), sep, l.Line, sep, strings.TrimSuffix(text, "\r"))
		g.path, g.last, g.printed = m.Path, l.Line, true
	}
}
