package git

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	gogit "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"

	"github.com/nookdev/nook/vfs"
)

// DefaultBranch is the branch init creates when the call names none.
const DefaultBranch = "main"

func (c *call) init() (any, error) {
	if err := c.checkKeys("init", "branch", "path"); err != nil {
		return nil, err
	}
	if p, _ := c.str("path"); p != "" {
		// git init <path>: relative to the call's directory.
		base, _ := c.str("dir")
		if !strings.HasPrefix(p, "/") && base != "" {
			p = path.Join(base, p)
		}
		c.a["dir"] = p
	}
	dir, err := c.dir()
	if err != nil {
		return nil, err
	}
	branch, err := c.str("branch")
	if err != nil {
		return nil, err
	}
	if branch == "" {
		branch = DefaultBranch
	}
	if fi, err := c.g.fs.Stat(c.ctx, path.Join(dir, ".git")); err == nil && fi.IsDir() {
		_, headErr := c.g.fs.Stat(c.ctx, path.Join(dir, ".git", "HEAD"))
		_, cfgErr := c.g.fs.Stat(c.ctx, path.Join(dir, ".git", "config"))
		if headErr == nil && cfgErr == nil {
			return map[string]any{"path": dir, "reinitialized": true}, nil
		}
		// Half an init (a crash in the middle): start again.
		if err := c.g.fs.Remove(c.ctx, path.Join(dir, ".git"), &vfs.RemoveOptions{Recursive: true}); err != nil {
			return nil, err
		}
	}
	if err := c.g.fs.MkdirAll(c.ctx, dir, 0o755); err != nil {
		return nil, err
	}
	st, wt := c.storage(dir)
	_, err = gogit.InitWithOptions(st, wt, gogit.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName(branch)})
	if err != nil {
		return nil, err
	}
	return map[string]any{"path": dir, "branch": branch, "reinitialized": false}, nil
}

// fileStatus is one path of status.
type fileStatus struct {
	Path     string `json:"path"`
	Staging  string `json:"staging"`  // porcelain X: " ", "M", "A", "D", "R", "C", "U", "?"
	Worktree string `json:"worktree"` // porcelain Y
}

type statusOut struct {
	Branch string       `json:"branch"` // "" when HEAD is detached
	Head   string       `json:"head"`   // "" before the first commit
	Clean  bool         `json:"clean"`
	Files  []fileStatus `json:"files"`
}

func (c *call) status() (any, error) {
	if err := c.checkKeys("status"); err != nil {
		return nil, err
	}
	r, err := c.open()
	if err != nil {
		return nil, err
	}
	return c.statusOf(r)
}

func (c *call) statusOf(r *repo) (*statusOut, error) {
	// The command line's status is the one implementation: its porcelain
	// output, every untracked file listed, read back (a rename under its
	// new path).
	o := c.runCLI([]string{"status", "--porcelain", "-z", "-uall"}, r.root)
	if o.ExitCode != 0 {
		return nil, cliError(o)
	}
	out := &statusOut{Files: []fileStatus{}}
	out.Branch, out.Head = headInfo(r)
	recs := strings.Split(o.Stdout, "\x00")
	for i := 0; i < len(recs); i++ {
		rec := recs[i]
		if len(rec) < 4 {
			continue
		}
		x, y := rec[0:1], rec[1:2]
		if x == "R" || x == "C" {
			i++ // the source path follows
		}
		out.Files = append(out.Files, fileStatus{Path: rec[3:], Staging: x, Worktree: y})
	}
	sort.Slice(out.Files, func(i, j int) bool { return out.Files[i].Path < out.Files[j].Path })
	out.Clean = len(out.Files) == 0
	return out, nil
}

// cliError is a failed command line's message as an error: its stderr
// without git's "fatal: " or "error: " prefix.
func cliError(o *Output) error {
	msg := strings.TrimSpace(o.Stderr)
	for _, p := range []string{"fatal: ", "error: "} {
		msg = strings.TrimPrefix(msg, p)
	}
	return &CommandError{Message: msg, ExitCode: o.ExitCode}
}

// CommandError is a JSON function's failure reported by the command
// line that serves it, with that command's exit status.
type CommandError struct {
	Message  string
	ExitCode int
}

func (e *CommandError) Error() string { return e.Message }

// headInfo returns HEAD's branch ("" when detached) and commit ("" when
// unborn).
func headInfo(r *repo) (branch, hash string) {
	ref, err := r.Storer.Reference(plumbing.HEAD)
	if err != nil {
		return "", ""
	}
	if ref.Type() == plumbing.SymbolicReference {
		branch = ref.Target().Short()
	}
	if h, err := r.Head(); err == nil {
		hash = h.Hash().String()
	}
	return branch, hash
}

func (c *call) add() (any, error) {
	if err := c.checkKeys("add", "paths", "all"); err != nil {
		return nil, err
	}
	r, err := c.open()
	if err != nil {
		return nil, err
	}
	all, err := c.flag("all")
	if err != nil {
		return nil, err
	}
	paths, err := c.strs("paths")
	if err != nil {
		return nil, err
	}
	if !all && len(paths) == 0 {
		return nil, errors.New("add: name the paths to add (paths: [\".\"] for everything), or pass all: true")
	}
	argv := []string{"add"}
	if all {
		argv = append(argv, "-A")
	}
	argv = append(argv, "--")
	for _, p := range paths {
		rel, err := c.rel(r, p)
		if err != nil {
			return nil, err
		}
		argv = append(argv, rel)
	}
	if o := c.runCLI(argv, r.root); o.ExitCode != 0 {
		return nil, cliError(o)
	}
	return c.statusOf(r)
}

func (c *call) rm() (any, error) {
	if err := c.checkKeys("rm", "paths", "cached"); err != nil {
		return nil, err
	}
	r, err := c.open()
	if err != nil {
		return nil, err
	}
	paths, err := c.strs("paths")
	if err != nil {
		return nil, err
	}
	cached, err := c.flag("cached")
	if err != nil {
		return nil, err
	}
	removed := []string{}
	argv := []string{"rm", "-q"}
	if cached {
		argv = append(argv, "--cached")
	}
	argv = append(argv, "--")
	for _, p := range paths {
		rel, err := c.rel(r, p)
		if err != nil {
			return nil, err
		}
		argv = append(argv, rel)
		removed = append(removed, rel)
	}
	if o := c.runCLI(argv, r.root); o.ExitCode != 0 {
		return nil, cliError(o)
	}
	return map[string]any{"removed": removed}, nil
}

// signature is the identity a call names ({name, email}) or the
// module's, at when.
func (c *call) signature(key string, when time.Time) (*object.Signature, error) {
	id := c.g.opts.Identity
	if v, ok := c.a[key]; ok && v != nil {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s must be an object {name, email}", key)
		}
		name, _ := m["name"].(string)
		email, _ := m["email"].(string)
		if name == "" || email == "" {
			return nil, fmt.Errorf("%s needs a name and an email", key)
		}
		id = Identity{Name: name, Email: email}
	}
	return &object.Signature{Name: id.Name, Email: id.Email, When: when}, nil
}

// date is the call's "date" option (RFC 3339, "@<unix seconds> [+zone]",
// or milliseconds since the epoch), else now.
func (c *call) date() (time.Time, error) {
	v, ok := c.a["date"]
	if !ok || v == nil {
		return c.g.opts.Now().Truncate(time.Second), nil
	}
	switch x := v.(type) {
	case float64:
		return time.UnixMilli(int64(x)).UTC(), nil
	case string:
		return parseDate(x)
	}
	return time.Time{}, errors.New("date must be a string or milliseconds since the epoch")
}

func parseDate(s string) (time.Time, error) {
	if strings.HasPrefix(s, "@") {
		f := strings.Fields(s[1:])
		sec, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return time.Time{}, fmt.Errorf("bad date %q", s)
		}
		t := time.Unix(sec, 0).UTC()
		if len(f) > 1 {
			z, err := time.Parse("-0700", f[1])
			if err != nil {
				return time.Time{}, fmt.Errorf("bad date %q", s)
			}
			t = t.In(z.Location())
		}
		return t, nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05 -0700", time.RFC1123Z, "Mon Jan 2 15:04:05 2006 -0700"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("bad date %q: use RFC 3339 (2026-01-02T15:04:05Z), @<unix seconds>, or milliseconds", s)
}

type commitOut struct {
	Hash    string   `json:"hash"`
	Tree    string   `json:"tree"`
	Branch  string   `json:"branch"`
	Parents []string `json:"parents"`
	Subject string   `json:"subject"`
}

// pendingCommit is what commit records before it moves the branch.
type pendingCommit struct {
	Parent string `json:"parent"` // HEAD before ("" when unborn)
	When   int64  `json:"when"`   // the commit's time, seconds
	Zone   int    `json:"zone"`   // its zone offset, seconds
	// Before is the repository as the command found it (command lines
	// that move HEAD or the worktree), restored before a repeat.
	Before *snapshot `json:"before,omitempty"`
}

func (c *call) commit() (any, error) {
	if err := c.checkKeys("commit", "message", "all", "allowEmpty", "author", "date"); err != nil {
		return nil, err
	}
	r, err := c.open()
	if err != nil {
		return nil, err
	}
	msg, err := c.str("message")
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(msg) == "" {
		return nil, errors.New("commit: a message is required")
	}
	if !strings.HasSuffix(msg, "\n") {
		msg += "\n"
	}
	all, err := c.flag("all")
	if err != nil {
		return nil, err
	}
	allowEmpty, err := c.flag("allowEmpty")
	if err != nil {
		return nil, err
	}
	when, err := c.date()
	if err != nil {
		return nil, err
	}
	_, head := headInfo(r)
	// A repeated call (a replay after a crash): if the first execution
	// got as far as the commit, HEAD is a commit of this call's message
	// and time on the recorded parent; return it. Else commit again with
	// the recorded time, which makes the same commit.
	var p pendingCommit
	if c.pending(&p) {
		when = time.Unix(p.When, 0).In(time.FixedZone("", p.Zone))
		if head != p.Parent && head != "" {
			if cm, err := r.CommitObject(plumbing.NewHash(head)); err == nil && cm.Message == msg &&
				cm.Committer.When.Unix() == p.When && parentIs(cm, p.Parent) {
				return commitResult(r, cm)
			}
		}
	} else {
		_, zone := when.Zone()
		if err := c.setPending(pendingCommit{Parent: head, When: when.Unix(), Zone: zone}); err != nil {
			return nil, err
		}
	}
	author, err := c.signature("author", when)
	if err != nil {
		return nil, err
	}
	committer, err := c.signature("committer", when)
	if err != nil {
		return nil, err
	}
	// The command line's commit makes it (index, hooks of git's rules,
	// reflog), at the call's time, by the call's author, committed by
	// the module's identity, the message kept verbatim.
	argv := []string{"commit", "-q", "--cleanup=verbatim", "-m", msg, "--author", author.Name + " <" + author.Email + ">"}
	if all {
		argv = append(argv, "-a")
	}
	if allowEmpty {
		argv = append(argv, "--allow-empty")
	}
	x := &cli{c: c, config: map[string]string{"user.name": committer.Name, "user.email": committer.Email}, touched: map[string]string{}, clock: when}
	x.cwd = r.root
	o := x.run(argv)
	if o.ExitCode != 0 {
		if strings.Contains(o.Stdout, "nothing to commit") || strings.Contains(o.Stdout, "no changes added to commit") {
			return nil, errors.New("nothing to commit, working tree clean (pass allowEmpty: true to commit anyway)")
		}
		return nil, cliError(o)
	}
	r, err = c.open()
	if err != nil {
		return nil, err
	}
	_, hs := headInfo(r)
	h := plumbing.NewHash(hs)
	cm, err := r.CommitObject(h)
	if err != nil {
		return nil, err
	}
	return commitResult(r, cm)
}

func parentIs(cm *object.Commit, parent string) bool {
	if parent == "" {
		return len(cm.ParentHashes) == 0
	}
	return len(cm.ParentHashes) > 0 && cm.ParentHashes[0].String() == parent
}

func commitResult(r *repo, cm *object.Commit) (*commitOut, error) {
	branch, _ := headInfo(r)
	out := &commitOut{Hash: cm.Hash.String(), Tree: cm.TreeHash.String(), Branch: branch, Parents: []string{}, Subject: subject(cm.Message)}
	for _, p := range cm.ParentHashes {
		out.Parents = append(out.Parents, p.String())
	}
	return out, nil
}

func subject(msg string) string {
	s, _, _ := strings.Cut(strings.TrimLeft(msg, "\n"), "\n")
	return s
}

type person struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Date  string `json:"date"` // RFC 3339
}

type commitInfo struct {
	Hash      string   `json:"hash"`
	Tree      string   `json:"tree"`
	Parents   []string `json:"parents"`
	Author    person   `json:"author"`
	Committer person   `json:"committer"`
	Subject   string   `json:"subject"`
	Message   string   `json:"message"`
}

func info(cm *object.Commit) commitInfo {
	ci := commitInfo{Hash: cm.Hash.String(), Tree: cm.TreeHash.String(), Parents: []string{},
		Author:    person{cm.Author.Name, cm.Author.Email, cm.Author.When.Format(time.RFC3339)},
		Committer: person{cm.Committer.Name, cm.Committer.Email, cm.Committer.When.Format(time.RFC3339)},
		Subject:   subject(cm.Message), Message: cm.Message}
	for _, p := range cm.ParentHashes {
		ci.Parents = append(ci.Parents, p.String())
	}
	return ci
}

// DefaultLogMax bounds log when the call names no max.
const DefaultLogMax = 1000

func (c *call) log() (any, error) {
	if err := c.checkKeys("log", "rev", "max", "path"); err != nil {
		return nil, err
	}
	r, err := c.open()
	if err != nil {
		return nil, err
	}
	max, err := c.num("max")
	if err != nil {
		return nil, err
	}
	if max <= 0 {
		max = DefaultLogMax
	}
	rev, err := c.str("rev")
	if err != nil {
		return nil, err
	}
	if rev == "" {
		rev = "HEAD"
	}
	h, err := c.resolve(r, rev)
	if err != nil {
		if rev == "HEAD" {
			return map[string]any{"commits": []commitInfo{}}, nil
		}
		return nil, err
	}
	opts := &gogit.LogOptions{From: h, Order: gogit.LogOrderCommitterTime}
	if p, _ := c.str("path"); p != "" {
		rel, err := c.rel(r, p)
		if err != nil {
			return nil, err
		}
		opts.PathFilter = func(s string) bool { return s == rel || strings.HasPrefix(s, rel+"/") }
	}
	it, err := r.Log(opts)
	if err != nil {
		return nil, err
	}
	commits := []commitInfo{}
	err = it.ForEach(func(cm *object.Commit) error {
		if len(commits) >= max {
			return storer.ErrStop
		}
		commits = append(commits, info(cm))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"commits": commits}, nil
}

// resolve resolves a revision ("HEAD", "main", "v1", "HEAD~2", a hash
// or its prefix).
func (c *call) resolve(r *repo, rev string) (plumbing.Hash, error) {
	h, err := r.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("unknown revision %q", rev)
	}
	return *h, nil
}

func (c *call) show() (any, error) {
	if err := c.checkKeys("show", "rev"); err != nil {
		return nil, err
	}
	r, err := c.open()
	if err != nil {
		return nil, err
	}
	rev, _ := c.str("rev")
	if rev == "" {
		rev = "HEAD"
	}
	h, err := c.resolve(r, rev)
	if err != nil {
		return nil, err
	}
	cm, err := r.CommitObject(h)
	if err != nil {
		return nil, err
	}
	to, err := commitSide(r, cm)
	if err != nil {
		return nil, err
	}
	from := side{}
	if len(cm.ParentHashes) > 0 {
		p, err := r.CommitObject(cm.ParentHashes[0])
		if err != nil {
			return nil, err
		}
		if from, err = commitSide(r, p); err != nil {
			return nil, err
		}
	}
	d, files, err := diffSides(from, to, nil)
	if err != nil {
		return nil, err
	}
	return map[string]any{"commit": info(cm), "diff": d, "files": files}, nil
}

type refInfo struct {
	Name string `json:"name"`
	Hash string `json:"hash"`
}

func (c *call) branch() (any, error) {
	if err := c.checkKeys("branch", "name", "from", "delete", "force"); err != nil {
		return nil, err
	}
	r, err := c.open()
	if err != nil {
		return nil, err
	}
	name, _ := c.str("name")
	del, err := c.flag("delete")
	if err != nil {
		return nil, err
	}
	cur, _ := headInfo(r)
	if name == "" {
		it, err := r.Branches()
		if err != nil {
			return nil, err
		}
		list := []refInfo{}
		it.ForEach(func(ref *plumbing.Reference) error {
			list = append(list, refInfo{ref.Name().Short(), ref.Hash().String()})
			return nil
		})
		sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
		return map[string]any{"current": cur, "branches": list}, nil
	}
	ref := plumbing.NewBranchReferenceName(name)
	if err := ref.Validate(); err != nil || strings.HasPrefix(name, "-") {
		return nil, fmt.Errorf("'%s' is not a valid branch name", name)
	}
	if del {
		if name == cur {
			return nil, fmt.Errorf("cannot delete branch '%s': it is checked out", name)
		}
		old, err := r.Reference(ref, false)
		if err != nil {
			return map[string]any{"deleted": name, "existed": false}, nil
		}
		if err := r.Storer.RemoveReference(ref); err != nil {
			return nil, err
		}
		return map[string]any{"deleted": name, "existed": true, "hash": old.Hash().String()}, nil
	}
	from, _ := c.str("from")
	if from == "" {
		from = "HEAD"
	}
	h, err := c.resolve(r, from)
	if err != nil {
		return nil, err
	}
	force, _ := c.flag("force")
	if old, err := r.Reference(ref, false); err == nil && !force {
		if old.Hash() == h {
			return map[string]any{"created": name, "hash": h.String()}, nil // a repeat
		}
		return nil, fmt.Errorf("a branch named '%s' already exists", name)
	}
	if err := r.Storer.SetReference(plumbing.NewHashReference(ref, h)); err != nil {
		return nil, err
	}
	return map[string]any{"created": name, "hash": h.String()}, nil
}

func (c *call) checkout() (any, error) {
	if err := c.checkKeys("checkout", "ref", "create", "paths", "force"); err != nil {
		return nil, err
	}
	r, err := c.open()
	if err != nil {
		return nil, err
	}
	ref, _ := c.str("ref")
	paths, err := c.strs("paths")
	if err != nil {
		return nil, err
	}
	if len(paths) > 0 {
		return c.restore(r, ref, paths)
	}
	if ref == "" {
		return nil, errors.New("checkout: name the branch, tag or commit to check out (ref)")
	}
	create, err := c.flag("create")
	if err != nil {
		return nil, err
	}
	force, _ := c.flag("force")
	cur, _ := headInfo(r)
	argv := []string{"checkout", "-q"}
	if force {
		argv = append(argv, "-f")
	}
	bref := plumbing.NewBranchReferenceName(ref)
	switch _, berr := r.Reference(bref, false); {
	case create && berr == nil && cur == ref:
		// A repeat of checkout -b: already there.
		argv = nil
	case create:
		if berr == nil {
			return nil, fmt.Errorf("a branch named '%s' already exists", ref)
		}
		argv = append(argv, "-b", ref)
	case berr == nil:
		argv = append(argv, ref)
	default:
		h, err := c.resolve(r, ref)
		if err != nil {
			return nil, err
		}
		argv = append(argv, "--detach", h.String())
	}
	if argv != nil {
		// The command line's checkout: its refusal to overwrite local
		// changes, its reflog.
		if o := c.runCLI(argv, r.root); o.ExitCode != 0 {
			return nil, cliError(o)
		}
		if r, err = c.open(); err != nil {
			return nil, err
		}
	}
	branch, head := headInfo(r)
	return map[string]any{"branch": branch, "head": head, "detached": branch == ""}, nil
}

// restore writes paths from the index (ref empty) or a commit into the
// worktree, as "git checkout [ref] -- paths" does.
func (c *call) restore(r *repo, ref string, paths []string) (any, error) {
	from := side{}
	var err error
	if ref == "" {
		from, err = indexSide(r)
	} else {
		var h plumbing.Hash
		if h, err = c.resolve(r, ref); err == nil {
			var cm *object.Commit
			if cm, err = r.CommitObject(h); err == nil {
				from, err = commitSide(r, cm)
			}
		}
	}
	if err != nil {
		return nil, err
	}
	var restored []string
	for _, p := range paths {
		rel, err := c.rel(r, p)
		if err != nil {
			return nil, err
		}
		n := 0
		for _, name := range from.names() {
			if rel != "." && name != rel && !strings.HasPrefix(name, rel+"/") {
				continue
			}
			e := from[name]
			data, err := e.read()
			if err != nil {
				return nil, err
			}
			if err := c.writeWorktree(r, name, e, data); err != nil {
				return nil, err
			}
			restored = append(restored, name)
			n++
		}
		if n == 0 {
			return nil, fmt.Errorf("pathspec '%s' did not match any file(s) known to git", p)
		}
	}
	return map[string]any{"restored": restored}, nil
}

func (c *call) reset() (any, error) {
	if err := c.checkKeys("reset", "rev", "mode", "hard"); err != nil {
		return nil, err
	}
	r, err := c.open()
	if err != nil {
		return nil, err
	}
	rev, _ := c.str("rev")
	if rev == "" {
		rev = "HEAD"
	}
	mode, _ := c.str("mode")
	if hard, _ := c.flag("hard"); hard {
		mode = "hard"
	}
	switch mode {
	case "", "mixed":
		mode = "mixed"
	case "hard", "soft":
	default:
		return nil, fmt.Errorf("reset: mode must be hard, mixed or soft, not %q", mode)
	}
	h, err := c.resolve(r, rev)
	if err != nil {
		return nil, err
	}
	if o := c.runCLI([]string{"reset", "-q", "--" + mode, h.String()}, r.root); o.ExitCode != 0 {
		return nil, cliError(o)
	}
	return map[string]any{"head": h.String(), "mode": mode}, nil
}

func (c *call) tag() (any, error) {
	if err := c.checkKeys("tag", "name", "rev", "message", "delete", "tagger", "date"); err != nil {
		return nil, err
	}
	r, err := c.open()
	if err != nil {
		return nil, err
	}
	name, _ := c.str("name")
	if name == "" {
		it, err := r.Tags()
		if err != nil {
			return nil, err
		}
		list := []refInfo{}
		it.ForEach(func(ref *plumbing.Reference) error {
			list = append(list, refInfo{ref.Name().Short(), ref.Hash().String()})
			return nil
		})
		sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
		return map[string]any{"tags": list}, nil
	}
	if del, _ := c.flag("delete"); del {
		if err := r.DeleteTag(name); err != nil {
			if errors.Is(err, gogit.ErrTagNotFound) {
				return map[string]any{"deleted": name, "existed": false}, nil
			}
			return nil, err
		}
		return map[string]any{"deleted": name, "existed": true}, nil
	}
	rev, _ := c.str("rev")
	if rev == "" {
		rev = "HEAD"
	}
	h, err := c.resolve(r, rev)
	if err != nil {
		return nil, err
	}
	msg, _ := c.str("message")
	if old, err := r.Tag(name); err == nil {
		target := old.Hash()
		if to, err := r.TagObject(old.Hash()); err == nil {
			target = to.Target
		}
		if target == h {
			return map[string]any{"created": name, "hash": old.Hash().String()}, nil // a repeat
		}
		return nil, fmt.Errorf("tag '%s' already exists", name)
	}
	var opts *gogit.CreateTagOptions
	if msg != "" {
		when, err := c.date()
		if err != nil {
			return nil, err
		}
		sig, err := c.signature("tagger", when)
		if err != nil {
			return nil, err
		}
		opts = &gogit.CreateTagOptions{Tagger: sig, Message: msg}
	}
	ref, err := r.CreateTag(name, h, opts)
	if err != nil {
		return nil, err
	}
	return map[string]any{"created": name, "hash": ref.Hash().String()}, nil
}
