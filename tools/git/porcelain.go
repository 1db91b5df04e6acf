package git

import (
	"context"
	"errors"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"

	"github.com/nookdev/nook/vfs"
)

// cli is one git command line being served: git's own option parsing,
// output formats and exit codes over the object model in store.go and the
// worktree in worktree.go.
type cli struct {
	c          *call
	r          *repo
	cwd        string // the absolute directory the command runs in
	prefix     string // cwd relative to the worktree ("" at its top)
	config     map[string]string
	out, err   strings.Builder
	touched    map[string]string // workspace path → kind before the command changed it
	scanned    map[string]wfile
	idxMtime   int64
	ign        gitignore.Matcher
	clock      time.Time // the time of the commits the command makes (fixed per command)
	shallowSet map[plumbing.Hash]bool
	// workB, set while diffing against the worktree, reads the b side.
	workB bool
	// exec, when set, is the command the caller is asked to run (git
	// bisect run); bisectFound says the last bisect step found the first
	// bad commit.
	exec        *ExecRequest
	bisectFound bool
	// failed is the cause of the command's failure when it has one to
	// test for (a *ResponseLimitError), for the JSON functions' errors.
	failed error
}

func (x *cli) ctx() context.Context { return x.c.ctx }
func (x *cli) fs() *vfs.FS          { return x.c.g.fs }

func (x *cli) printf(format string, a ...any)  { fmt.Fprintf(&x.out, format, a...) }
func (x *cli) eprintf(format string, a ...any) { fmt.Fprintf(&x.err, format, a...) }

// fatal prints git's "fatal:" line and returns its exit status.
func (x *cli) fatal(format string, a ...any) int {
	x.eprintf("fatal: "+format+"\n", a...)
	return 128
}

// fail reports an error as git does: a usage error (129) or a fatal one.
func (x *cli) fail(err error) int {
	var ue *usageErr
	if errors.As(err, &ue) {
		if ue.msg != "" {
			x.eprintf("%s\n", ue.msg)
		}
		if ue.msg == "" || strings.Contains(ue.msg, "unknown") {
			x.eprintf("%s", ue.usage)
		}
		return 129
	}
	var fe *fatalErr
	if errors.As(err, &fe) {
		x.failed = fe.cause
		x.eprintf("%s", fe.text)
		return fe.code
	}
	return x.fatal("%s", err.Error())
}

// notSupported is the error for an option git has and nook's git does
// not implement.
func (x *cli) notSupported(cmd, opt string) int {
	return x.fatal("option '%s' of git %s is not supported by nook's git", opt, cmd)
}

// fatalErr is an error with git's exact text and exit status.
type fatalErr struct {
	text  string
	code  int
	cause error // what went wrong underneath, when it is an error to test for
}

func (e *fatalErr) Error() string { return strings.TrimSpace(e.text) }

// Unwrap returns the cause, if any.
func (e *fatalErr) Unwrap() error { return e.cause }

func fatalf(format string, a ...any) error {
	return &fatalErr{text: "fatal: " + fmt.Sprintf(format, a...) + "\n", code: 128}
}

func errorf(code int, format string, a ...any) error {
	return &fatalErr{text: "error: " + fmt.Sprintf(format, a...) + "\n", code: code}
}

func ambiguous(arg string) error {
	return &fatalErr{code: 128, text: "fatal: ambiguous argument '" + arg + "': unknown revision or path not in the working tree.\n" +
		"Use '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'\n"}
}

// openRepo finds the repository holding the cwd.
func (x *cli) openRepo() error {
	root, ok := x.c.findWorktree(x.cwd)
	if !ok {
		return fatalf("not a git repository (or any of the parent directories): .git")
	}
	st, wt := x.c.storage(root)
	r, err := x.c.openStorage(st, wt)
	if err != nil {
		return err
	}
	x.r = &repo{Repository: r, wt: wt, root: root}
	x.prefix = strings.TrimPrefix(strings.TrimPrefix(x.cwd, root), "/")
	return nil
}

// cfg reads a configuration value: -c first, then the repository's config.
func (x *cli) cfg(key string) string {
	if v, ok := x.config[strings.ToLower(key)]; ok {
		return v
	}
	if x.r == nil {
		return ""
	}
	data, ok := x.r.wt.readRaw(".git/config")
	if !ok {
		return ""
	}
	return configGet(string(data), key)
}

// identity is who commits: user.name/user.email from config, else the
// module's identity.
func (x *cli) identity() (string, string) {
	id := x.c.g.opts.Identity
	name, email := x.cfg("user.name"), x.cfg("user.email")
	if name == "" {
		name = id.Name
	}
	if email == "" {
		email = id.Email
	}
	return name, email
}

// now is the time of commits the command makes: read once per command,
// and, for a command that leaves a receipt, recorded before its first
// effect so that a repeat after a crash makes the same commits.
func (x *cli) now() time.Time {
	if x.clock.IsZero() {
		x.clock = x.c.g.opts.Now().Truncate(time.Second)
	}
	return x.clock
}

func (x *cli) signature() object.Signature {
	name, email := x.identity()
	return object.Signature{Name: name, Email: email, When: x.now()}
}

// toRel turns a path argument (relative to the cwd) into a path relative
// to the worktree; outside it is git's error.
func (x *cli) toRel(p string) (string, error) {
	abs := p
	if !strings.HasPrefix(p, "/") {
		abs = path.Join(x.cwd, p)
	}
	abs = path.Clean(abs)
	if abs == x.r.root {
		return "", nil
	}
	if !strings.HasPrefix(abs, x.r.root+"/") {
		return "", fatalf("%s: '%s' is outside repository at '%s'", p, p, x.r.root)
	}
	return strings.TrimPrefix(abs, x.r.root+"/"), nil
}

// display is how git shows a worktree path: relative to the cwd.
func (x *cli) display(rel string) string {
	if x.prefix == "" {
		return rel
	}
	from := strings.Split(x.prefix, "/")
	to := strings.Split(rel, "/")
	i := 0
	for i < len(from) && i < len(to)-1 && from[i] == to[i] {
		i++
	}
	var parts []string
	for range from[i:] {
		parts = append(parts, "..")
	}
	parts = append(parts, to[i:]...)
	return strings.Join(parts, "/")
}

// pathspec is a list of git pathspecs, relative to the worktree.
type pathspec struct {
	pats []string
	res  []*regexp.Regexp // nil for a literal pattern
	orig []string
	hit  []bool
}

func hasGlob(s string) bool { return strings.ContainsAny(s, "*?[") }

// spec makes a pathspec of path arguments.
func (x *cli) spec(args []string) (*pathspec, error) {
	ps := &pathspec{}
	for _, a := range args {
		rel, err := x.toRel(a)
		if err != nil {
			return nil, err
		}
		if strings.HasSuffix(a, "/") && rel != "" {
			rel = strings.TrimSuffix(rel, "/")
		}
		ps.pats = append(ps.pats, rel)
		ps.orig = append(ps.orig, a)
		var re *regexp.Regexp
		if hasGlob(rel) {
			re = globRE(rel)
		}
		ps.res = append(ps.res, re)
		ps.hit = append(ps.hit, false)
	}
	return ps, nil
}

// globRE compiles a pathspec glob: * and ? match "/" too, as in git.
func globRE(g string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(g); i++ {
		switch c := g[i]; c {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '[':
			j := strings.IndexByte(g[i:], ']')
			if j < 0 {
				b.WriteString(`\[`)
				continue
			}
			cls := g[i+1 : i+j]
			if strings.HasPrefix(cls, "!") {
				cls = "^" + cls[1:]
			}
			b.WriteString("[" + cls + "]")
			i += j
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("(/.*)?$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return regexp.MustCompile("^" + regexp.QuoteMeta(g) + "$")
	}
	return re
}

func (ps *pathspec) empty() bool { return ps == nil || len(ps.pats) == 0 }

// match reports whether name is in the pathspec (an empty one holds all).
func (ps *pathspec) match(name string) bool {
	if ps.empty() {
		return true
	}
	ok := false
	for i, p := range ps.pats {
		m := p == "" || name == p || strings.HasPrefix(name, p+"/")
		if !m && ps.res[i] != nil {
			m = ps.res[i].MatchString(name)
		}
		if m {
			ps.hit[i] = true
			ok = true
		}
	}
	return ok
}

// unmatched returns the first argument that matched nothing.
func (ps *pathspec) unmatched() (string, bool) {
	if ps == nil {
		return "", false
	}
	for i, h := range ps.hit {
		if !h {
			return ps.orig[i], true
		}
	}
	return "", false
}

// rev resolves a revision to a commit: names, hashes and their prefixes,
// ~, ^, @, ORIG_HEAD, MERGE_HEAD and the rest go-git knows.
func (x *cli) rev(s string) (plumbing.Hash, error) {
	h, err := x.revAny(s)
	if err != nil {
		return h, err
	}
	return x.peelCommit(h)
}

func (x *cli) peelCommit(h plumbing.Hash) (plumbing.Hash, error) {
	for i := 0; i < 10; i++ {
		o, err := x.r.Storer.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return h, err
		}
		if o.Type() != plumbing.TagObject {
			return h, nil
		}
		t, err := x.r.TagObject(h)
		if err != nil {
			return h, err
		}
		h = t.Target
	}
	return h, nil
}

// revAny resolves a revision to any object (a tag stays a tag).
func (x *cli) revAny(s string) (plumbing.Hash, error) {
	if s == "" {
		return plumbing.ZeroHash, ambiguous(s)
	}
	if base, peel, ok := strings.Cut(s, "^{"); ok && strings.HasSuffix(peel, "}") {
		h, err := x.revAny(base)
		if err != nil {
			return h, ambiguous(s)
		}
		switch peel {
		case "}", "commit}":
			return x.peelCommit(h)
		case "tree}":
			c, err := x.peelCommit(h)
			if err != nil {
				return c, ambiguous(s)
			}
			cm, err := x.r.CommitObject(c)
			if err != nil {
				return c, ambiguous(s)
			}
			return cm.TreeHash, nil
		}
		return h, ambiguous(s)
	}
	if s == "@" {
		s = "HEAD"
	}
	s = strings.ReplaceAll(s, "@{0}", "")
	if strings.HasPrefix(s, "@~") || strings.HasPrefix(s, "@^") {
		s = "HEAD" + s[1:]
	}
	base, suffix := s, ""
	if i := strings.IndexAny(s, "~^"); i > 0 {
		base, suffix = s[:i], s[i:]
	}
	if base == "-" || base == "@{-1}" {
		prev, ok := x.previousBranch()
		if !ok {
			return plumbing.ZeroHash, ambiguous(s)
		}
		base = prev
	}
	// Tags are looked up by name so an annotated tag is kept.
	if suffix == "" && !strings.Contains(s, ":") {
		for _, n := range []string{"refs/tags/" + s} {
			if ref, err := x.r.Storer.Reference(plumbing.ReferenceName(n)); err == nil {
				if _, err := x.r.Storer.Reference(plumbing.NewBranchReferenceName(s)); err != nil {
					return ref.Hash(), nil
				}
			}
		}
	}
	if plumbing.IsHash(s) {
		h := plumbing.NewHash(s)
		if x.r.Storer.HasEncodedObject(h) == nil {
			return h, nil
		}
	}
	if _, err := x.r.Storer.Reference(plumbing.ReferenceName(base)); err != nil && base == "HEAD" {
		return plumbing.ZeroHash, ambiguous(s)
	}
	h, err := x.r.ResolveRevision(plumbing.Revision(base + suffix))
	if err != nil {
		return plumbing.ZeroHash, ambiguous(s)
	}
	return *h, nil
}

// blobAt resolves REV:PATH (":PATH" is the index).
func (x *cli) blobAt(s string) (tfile, error) {
	revPart, p, _ := strings.Cut(s, ":")
	if revPart == "" {
		ix, err := x.r.readIndex()
		if err != nil {
			return tfile{}, err
		}
		rel := strings.TrimPrefix(path.Clean("/"+p), "/")
		if e := ix.get(rel); e != nil {
			return tfile{e.Hash, e.Mode}, nil
		}
		return tfile{}, fatalf("path '%s' does not exist (neither on disk nor in the index)", p)
	}
	h, err := x.rev(revPart)
	if err != nil {
		return tfile{}, err
	}
	files, err := x.r.commitFlat(h)
	if err != nil {
		return tfile{}, err
	}
	rel := strings.TrimPrefix(path.Clean("/"+p), "/")
	if strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") {
		rel = strings.TrimPrefix(path.Clean("/"+path.Join(x.prefix, p)), "/")
	}
	if f, ok := files[rel]; ok {
		return f, nil
	}
	return tfile{}, fatalf("path '%s' does not exist in '%s'", p, revPart)
}

// previousBranch reads HEAD's reflog for the branch checked out before.
func (x *cli) previousBranch() (string, bool) {
	data, ok := x.r.wt.readRaw(".git/logs/HEAD")
	if !ok {
		return "", false
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		_, msg, _ := strings.Cut(lines[i], "\t")
		if rest, ok := strings.CutPrefix(msg, "checkout: moving from "); ok {
			from, _, _ := strings.Cut(rest, " to ")
			return from, true
		}
	}
	return "", false
}

// reflog appends a line to HEAD's reflog, as git does; checkout - and
// git reflog read it back.
func (x *cli) reflog(old, new plumbing.Hash, msg string) {
	x.appendLog(".git/logs/HEAD", old, new, msg)
}

// appendLog appends an entry to the reflog at file.
func (x *cli) appendLog(file string, old, new plumbing.Hash, msg string) {
	name, email := x.identity()
	t := x.now()
	line := fmt.Sprintf("%s %s %s <%s> %d %s\t%s\n", old, new, name, email, t.Unix(), t.Format("-0700"), msg)
	prev, _ := x.r.wt.readRaw(file)
	x.r.wt.writeRaw(file, append(prev, line...))
}

// moveHead moves what HEAD names to h and logs it under msg in HEAD's
// reflog and its branch's, as git's update_ref does.
func (x *cli) moveHead(h plumbing.Hash, msg string) error {
	branch, old := x.r.headRef()
	if err := x.r.setHead(h); err != nil {
		return err
	}
	x.reflog(old, h, msg)
	if branch != "" {
		x.appendLog(".git/logs/"+branch.String(), old, h, msg)
	}
	return nil
}

// head returns HEAD's branch short name ("" detached) and commit.
func (x *cli) head() (string, plumbing.Hash) {
	ref, h := x.r.headRef()
	return ref.Short(), h
}

func shortHash(h plumbing.Hash) string { return h.String()[:7] }

// branches lists refs/heads, sorted.
func (x *cli) refs(prefix string) []*plumbing.Reference { return refsUnder(x.r.Storer, prefix) }

// refsUnder lists the refs of st under prefix that are not symbolic,
// sorted by name.
func refsUnder(st storer.ReferenceStorer, prefix string) []*plumbing.Reference {
	it, err := st.IterReferences()
	if err != nil {
		return nil
	}
	var out []*plumbing.Reference
	it.ForEach(func(r *plumbing.Reference) error {
		if strings.HasPrefix(r.Name().String(), prefix) && r.Type() == plumbing.HashReference {
			out = append(out, r)
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}

// configSection is the section a config file's header line opens, as a
// key spells it: "core", or "remote.origin" for [remote "origin"] (the
// section lowercased, the subsection as written); ok is false for a line
// that is no header.
func configSection(line string) (sect string, ok bool) {
	l := strings.TrimSpace(line)
	if !strings.HasPrefix(l, "[") || !strings.HasSuffix(l, "]") {
		return "", false
	}
	h := strings.TrimSpace(l[1 : len(l)-1])
	if s, sub, ok := strings.Cut(h, " "); ok {
		return strings.ToLower(s) + "." + strings.Trim(strings.TrimSpace(sub), `"`), true
	}
	return strings.ToLower(h), true
}

// configKey splits a key into its section (lowercased but for a
// subsection) and its name (lowercased).
func configKey(key string) (sect, name string) {
	dot := strings.LastIndexByte(key, '.')
	sect, name = key[:dot], strings.ToLower(key[dot+1:])
	if first := strings.IndexByte(sect, '.'); first >= 0 {
		return strings.ToLower(sect[:first]) + sect[first:], name
	}
	return strings.ToLower(sect), name
}

// configGet reads key (section.name or section.sub.name) from a git
// config file's text.
func configGet(text, key string) string {
	if strings.LastIndexByte(key, '.') < 0 {
		return ""
	}
	sect, name := configKey(key)
	cur, val := "", ""
	for _, l := range strings.Split(text, "\n") {
		if s, ok := configSection(l); ok {
			cur = s
			continue
		}
		k, v, ok := strings.Cut(strings.TrimSpace(l), "=")
		if !ok || cur != sect || strings.ToLower(strings.TrimSpace(k)) != name {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
			v = v[1 : len(v)-1]
		}
		val = v
	}
	return val
}

// configSet sets key in a config file's text, adding its section
// ([remote "origin"] for remote.origin.name) when it has none.
func configSet(text, key, value string) string {
	sect, name := configKey(key)
	written := key[strings.LastIndexByte(key, '.')+1:] // the name as typed
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if text == "" {
		lines = nil
	}
	cur, last := "", -1
	for i, l := range lines {
		if s, ok := configSection(l); ok {
			cur = s
			if cur == sect && last < 0 {
				last = i
			}
			continue
		}
		if cur != sect {
			continue
		}
		last = i
		if k, _, ok := strings.Cut(strings.TrimSpace(l), "="); ok && strings.EqualFold(strings.TrimSpace(k), name) {
			lines[i] = "\t" + written + " = " + value
			return strings.Join(lines, "\n") + "\n"
		}
	}
	if last >= 0 {
		lines = append(lines[:last+1], append([]string{"\t" + written + " = " + value}, lines[last+1:]...)...)
	} else {
		header := "[" + sect + "]"
		if s, sub, ok := strings.Cut(sect, "."); ok {
			header = "[" + s + ` "` + sub + `"]`
		}
		lines = append(lines, header, "\t"+written+" = "+value)
	}
	return strings.Join(lines, "\n") + "\n"
}

// configUnset removes key from a config file's text; found is false when
// it was not set.
func configUnset(text, key string) (out string, found bool) {
	sect, name := configKey(key)
	var kept []string
	cur := ""
	for _, l := range strings.SplitAfter(text, "\n") {
		if s, ok := configSection(l); ok {
			cur = s
		} else if k, _, ok := strings.Cut(strings.TrimSpace(l), "="); ok && cur == sect && strings.EqualFold(strings.TrimSpace(k), name) {
			found = true
			continue
		}
		kept = append(kept, l)
	}
	return strings.Join(kept, ""), found
}
