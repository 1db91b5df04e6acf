package git

import (
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

func cmdMergeBase(x *cli, args []string) int {
	f, err := parseOpts(args, []opt{{long: "is-ancestor"}, {short: 'a', long: "all"}},
		"usage: git merge-base [-a | --all] <commit> <commit>...\n   or: git merge-base [-a | --all] --octopus <commit>...\n   or: git merge-base --is-ancestor <commit> <commit>\n", false, "")
	if err != nil {
		return x.fail(err)
	}
	if len(f.pos) != 2 {
		return x.fail(&usageErr{usage: "usage: git merge-base [-a | --all] <commit> <commit>...\n"})
	}
	var hs [2]plumbing.Hash
	for i, p := range f.pos {
		if hs[i], err = x.rev(p); err != nil {
			return x.fatal("Not a valid object name %s", p)
		}
	}
	if f.has("is-ancestor") {
		if x.r.isAncestor(hs[0], hs[1]) {
			return 0
		}
		return 1
	}
	b, err := x.r.mergeBase(hs[0], hs[1])
	if err != nil {
		return 1
	}
	x.printf("%s\n", b)
	return 0
}

func cmdCatFile(x *cli, args []string) int {
	f, err := parseOpts(args, []opt{{short: 'p', key: "p"}, {short: 't', key: "t"}, {short: 's', key: "s"}, {short: 'e', key: "e"}},
		"usage: git cat-file (-t | -s | -e | -p | <type>) <object>\n", false, "")
	if err != nil {
		return x.fail(err)
	}
	if len(f.pos) == 0 || len(f.pos) > 2 {
		return x.fail(&usageErr{usage: "usage: git cat-file (-t | -s | -e | -p | <type>) <object>\n"})
	}
	name := f.pos[len(f.pos)-1]
	var h plumbing.Hash
	if strings.Contains(name, ":") {
		t, err := x.blobAt(name)
		if err != nil {
			return x.fail(err)
		}
		h = t.hash
	} else if h, err = x.revAny(name); err != nil {
		return x.fatal("Not a valid object name %s", name)
	}
	o, err := x.r.Storer.EncodedObject(plumbing.AnyObject, h)
	if err != nil {
		return x.fatal("Not a valid object name %s", name)
	}
	switch {
	case f.has("e"):
		return 0
	case f.has("t"):
		x.printf("%s\n", o.Type())
		return 0
	case f.has("s"):
		x.printf("%d\n", o.Size())
		return 0
	}
	if len(f.pos) == 2 && !f.has("p") && f.pos[0] != o.Type().String() {
		return x.fatal("git cat-file %s: bad file", name)
	}
	if o.Type() == plumbing.TreeObject && f.has("p") {
		t, err := object.GetTree(x.r.Storer, h)
		if err != nil {
			return x.fail(err)
		}
		x.lsTreeEntries(t, "", false, false)
		return 0
	}
	rd, err := o.Reader()
	if err != nil {
		return x.fail(err)
	}
	defer rd.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := rd.Read(buf)
		x.out.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return 0
}

func (x *cli) lsTreeEntries(t *object.Tree, prefix string, recursive, nameOnly bool) {
	for _, e := range t.Entries {
		name := prefix + e.Name
		if e.Mode == filemode.Dir && recursive {
			sub, err := object.GetTree(x.r.Storer, e.Hash)
			if err == nil {
				x.lsTreeEntries(sub, name+"/", recursive, nameOnly)
			}
			continue
		}
		if nameOnly {
			x.printf("%s\n", name)
			continue
		}
		kind := "blob"
		switch e.Mode {
		case filemode.Dir:
			kind = "tree"
		case filemode.Submodule:
			kind = "commit"
		}
		x.printf("%06o %s %s\t%s\n", uint32(e.Mode), kind, e.Hash, name)
	}
}

func cmdLsTree(x *cli, args []string) int {
	f, err := parseOpts(args, []opt{{short: 'r', key: "r"}, {long: "name-only"}, {long: "name-status", key: "name-only"}},
		"usage: git ls-tree [<options>] <tree-ish> [<path>...]\n", false, "")
	if err != nil {
		return x.fail(err)
	}
	if len(f.pos) == 0 {
		return x.fail(&usageErr{usage: "usage: git ls-tree [<options>] <tree-ish> [<path>...]\n"})
	}
	h, err := x.revAny(f.pos[0])
	if err != nil {
		return x.fatal("Not a valid object name %s", f.pos[0])
	}
	if c, err := x.peelCommit(h); err == nil {
		if cm, err := x.r.CommitObject(c); err == nil {
			h = cm.TreeHash
		}
	}
	t, err := object.GetTree(x.r.Storer, h)
	if err != nil {
		return x.fatal("not a tree object")
	}
	if len(f.pos) > 1 {
		return x.fatal("nook's git lists whole trees (no paths)")
	}
	x.lsTreeEntries(t, "", f.has("r"), f.has("name-only"))
	return 0
}
