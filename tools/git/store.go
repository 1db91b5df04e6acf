package git

import (
	"bytes"
	"crypto/sha1"
	binenc "encoding/binary"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// This file is the object model the command line works on: trees as flat
// maps of paths, the index read through go-git and written by us (go-git
// sorts entries by name only, which can misorder merge stages, and keeps
// no extensions), blobs, trees and commits written as git writes them.

// tfile is a file of a tree or the index: its blob and mode.
type tfile struct {
	hash plumbing.Hash
	mode filemode.FileMode
}

// flat is a tree as a map of slash paths (relative to the worktree).
type flat map[string]tfile

func (f flat) sorted() []string {
	out := make([]string, 0, len(f))
	for n := range f {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// treeFlat lists the files of the tree h (empty for the zero hash).
func (r *repo) treeFlat(h plumbing.Hash) (flat, error) {
	out := flat{}
	if h.IsZero() {
		return out, nil
	}
	var walk func(h plumbing.Hash, prefix string) error
	walk = func(h plumbing.Hash, prefix string) error {
		t, err := object.GetTree(r.Storer, h)
		if err != nil {
			return err
		}
		for _, e := range t.Entries {
			name := prefix + e.Name
			if e.Mode == filemode.Dir {
				if err := walk(e.Hash, name+"/"); err != nil {
					return err
				}
				continue
			}
			out[name] = tfile{e.Hash, e.Mode}
		}
		return nil
	}
	return out, walk(h, "")
}

// commitFlat lists the files of a commit ("" or zero: nothing).
func (r *repo) commitFlat(h plumbing.Hash) (flat, error) {
	if h.IsZero() {
		return flat{}, nil
	}
	cm, err := r.CommitObject(h)
	if err != nil {
		return nil, err
	}
	return r.treeFlat(cm.TreeHash)
}

// writeObject stores an object and returns its hash.
func (r *repo) writeObject(t plumbing.ObjectType, data []byte) (plumbing.Hash, error) {
	h := plumbing.ComputeHash(t, data)
	if r.Storer.HasEncodedObject(h) == nil {
		return h, nil
	}
	o := r.Storer.NewEncodedObject()
	o.SetType(t)
	o.SetSize(int64(len(data)))
	w, err := o.Writer()
	if err != nil {
		return h, err
	}
	if _, err := w.Write(data); err != nil {
		return h, err
	}
	w.Close()
	return r.Storer.SetEncodedObject(o)
}

// readBlob returns a blob's content.
func (r *repo) readBlob(h plumbing.Hash) ([]byte, error) {
	b, err := r.BlobObject(h)
	if err != nil {
		return nil, err
	}
	rd, err := b.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return io.ReadAll(rd)
}

// writeTree stores the nested trees of files and returns the root's hash.
func (r *repo) writeTree(files flat) (plumbing.Hash, error) {
	type node struct {
		files map[string]tfile
		dirs  map[string]*node
	}
	root := &node{files: map[string]tfile{}, dirs: map[string]*node{}}
	for name, f := range files {
		n := root
		parts := strings.Split(name, "/")
		for _, d := range parts[:len(parts)-1] {
			c := n.dirs[d]
			if c == nil {
				c = &node{files: map[string]tfile{}, dirs: map[string]*node{}}
				n.dirs[d] = c
			}
			n = c
		}
		n.files[parts[len(parts)-1]] = f
	}
	var write func(n *node) (plumbing.Hash, error)
	write = func(n *node) (plumbing.Hash, error) {
		type ent struct {
			name, key string
			mode      filemode.FileMode
			hash      plumbing.Hash
		}
		var ents []ent
		for name, f := range n.files {
			ents = append(ents, ent{name, name, f.mode, f.hash})
		}
		for name, d := range n.dirs {
			h, err := write(d)
			if err != nil {
				return h, err
			}
			ents = append(ents, ent{name, name + "/", filemode.Dir, h})
		}
		sort.Slice(ents, func(i, j int) bool { return ents[i].key < ents[j].key })
		var b bytes.Buffer
		for _, e := range ents {
			fmt.Fprintf(&b, "%o %s\x00", uint32(e.mode), e.name)
			b.Write(e.hash[:])
		}
		return r.writeObject(plumbing.TreeObject, b.Bytes())
	}
	return write(root)
}

// writeCommit stores a commit.
func (r *repo) writeCommit(tree plumbing.Hash, parents []plumbing.Hash, author, committer object.Signature, msg string) (plumbing.Hash, error) {
	cm := &object.Commit{Author: author, Committer: committer, Message: msg, TreeHash: tree, ParentHashes: parents}
	o := r.Storer.NewEncodedObject()
	if err := cm.Encode(o); err != nil {
		return plumbing.ZeroHash, err
	}
	return r.Storer.SetEncodedObject(o)
}

// ientry is an index entry.
type ientry = index.Entry

// idx is the index: entries sorted by name, then stage.
type idx struct {
	entries []*ientry
}

// readIndex reads .git/index (empty when there is none).
func (r *repo) readIndex() (*idx, error) {
	i, err := r.Storer.Index()
	if err != nil {
		return nil, err
	}
	out := &idx{entries: i.Entries}
	out.sort()
	return out, nil
}

func (x *idx) sort() {
	sort.SliceStable(x.entries, func(i, j int) bool {
		a, b := x.entries[i], x.entries[j]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Stage < b.Stage
	})
}

// get returns the stage-0 entry of name.
func (x *idx) get(name string) *ientry {
	i := sort.Search(len(x.entries), func(i int) bool { return x.entries[i].Name >= name })
	for ; i < len(x.entries) && x.entries[i].Name == name; i++ {
		if x.entries[i].Stage == 0 {
			return x.entries[i]
		}
	}
	return nil
}

// stages returns the entries of name at stages 1..3 (nil when merged).
func (x *idx) stages(name string) [4]*ientry {
	var out [4]*ientry
	i := sort.Search(len(x.entries), func(i int) bool { return x.entries[i].Name >= name })
	for ; i < len(x.entries) && x.entries[i].Name == name; i++ {
		out[x.entries[i].Stage&3] = x.entries[i]
	}
	return out
}

func (x *idx) conflicted() []string {
	var out []string
	for _, e := range x.entries {
		if e.Stage != 0 && (len(out) == 0 || out[len(out)-1] != e.Name) {
			out = append(out, e.Name)
		}
	}
	return out
}

// set puts a merged entry for name (replacing its stages).
func (x *idx) set(e *ientry) {
	x.remove(e.Name)
	x.entries = append(x.entries, e)
	x.sort()
}

// remove drops every stage of name.
func (x *idx) remove(name string) bool {
	out := x.entries[:0]
	found := false
	for _, e := range x.entries {
		if e.Name == name {
			found = true
			continue
		}
		out = append(out, e)
	}
	x.entries = out
	return found
}

// flat returns the merged entries.
func (x *idx) flat() flat {
	out := flat{}
	for _, e := range x.entries {
		if e.Stage == 0 {
			out[e.Name] = tfile{e.Hash, e.Mode}
		}
	}
	return out
}

// fromFlat replaces the index by files (stat data kept for unchanged ones).
func (x *idx) fromFlat(f flat) {
	old := map[string]*ientry{}
	for _, e := range x.entries {
		if e.Stage == 0 {
			old[e.Name] = e
		}
	}
	x.entries = nil
	for name, t := range f {
		if e := old[name]; e != nil && e.Hash == t.hash && e.Mode == t.mode {
			x.entries = append(x.entries, e)
			continue
		}
		x.entries = append(x.entries, &ientry{Name: name, Hash: t.hash, Mode: t.mode})
	}
	x.sort()
}

// writeIndex writes the index in git's version 2 format.
func (r *repo) writeIndex(x *idx) error {
	x.sort()
	var b bytes.Buffer
	b.WriteString("DIRC")
	binenc.Write(&b, binenc.BigEndian, uint32(2))
	binenc.Write(&b, binenc.BigEndian, uint32(len(x.entries)))
	for _, e := range x.entries {
		start := b.Len()
		ts := func(t time.Time) (uint32, uint32) {
			if t.IsZero() {
				return 0, 0
			}
			return uint32(t.Unix()), uint32(t.Nanosecond())
		}
		cs, cn := ts(e.CreatedAt)
		ms, mn := ts(e.ModifiedAt)
		for _, v := range []uint32{cs, cn, ms, mn, e.Dev, e.Inode, uint32(e.Mode), e.UID, e.GID, e.Size} {
			binenc.Write(&b, binenc.BigEndian, v)
		}
		b.Write(e.Hash[:])
		flags := uint16(e.Stage&3) << 12
		if len(e.Name) < 0xfff {
			flags |= uint16(len(e.Name))
		} else {
			flags |= 0xfff
		}
		binenc.Write(&b, binenc.BigEndian, flags)
		b.WriteString(e.Name)
		n := b.Len() - start
		pad := 8 - n%8
		b.Write(make([]byte, pad))
	}
	sum := sha1.Sum(b.Bytes())
	b.Write(sum[:])
	return r.wt.writeRaw(".git/index", b.Bytes())
}

// writeRaw writes a file under the worktree (used for .git files).
func (b *billyFS) writeRaw(name string, data []byte) error {
	f, err := b.Create(name)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// readRaw reads a file under the worktree; ok is false when it is missing.
func (b *billyFS) readRaw(name string) ([]byte, bool) {
	f, err := b.Open(name)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	return data, err == nil
}

func (b *billyFS) removeRaw(name string) { b.Remove(name) }

// headRef returns the branch HEAD names ("refs/heads/x"; "" when
// detached) and the commit it points at (zero when unborn).
func (r *repo) headRef() (plumbing.ReferenceName, plumbing.Hash) {
	ref, err := r.Storer.Reference(plumbing.HEAD)
	if err != nil {
		return "", plumbing.ZeroHash
	}
	if ref.Type() == plumbing.SymbolicReference {
		t, err := r.Storer.Reference(ref.Target())
		if err != nil {
			return ref.Target(), plumbing.ZeroHash
		}
		return ref.Target(), t.Hash()
	}
	return "", ref.Hash()
}

// setHead moves what HEAD names (its branch, or HEAD when detached) to h.
func (r *repo) setHead(h plumbing.Hash) error {
	branch, _ := r.headRef()
	if branch == "" {
		return r.Storer.SetReference(plumbing.NewHashReference(plumbing.HEAD, h))
	}
	return r.Storer.SetReference(plumbing.NewHashReference(branch, h))
}

var errNoCommit = errors.New("no commit")

// mergeBase returns the best common ancestor of a and b.
func (r *repo) mergeBase(a, b plumbing.Hash) (plumbing.Hash, error) {
	ca, err := r.CommitObject(a)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	cb, err := r.CommitObject(b)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	bases, err := ca.MergeBase(cb)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if len(bases) == 0 {
		return plumbing.ZeroHash, errNoCommit
	}
	return bases[0].Hash, nil
}

// isAncestor reports whether a is an ancestor of (or equal to) b.
func (r *repo) isAncestor(a, b plumbing.Hash) bool {
	if a == b {
		return true
	}
	ca, err := r.CommitObject(a)
	if err != nil {
		return false
	}
	cb, err := r.CommitObject(b)
	if err != nil {
		return false
	}
	ok, err := ca.IsAncestor(cb)
	return err == nil && ok
}

func dirOf(p string) string {
	d := path.Dir(p)
	if d == "." {
		return ""
	}
	return d
}
