package scenario

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path"
	"sort"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// Linux open(2) flags, as the filesystem op "open" takes them.
const (
	oWronly = 0o1
	oRdwr   = 0o2
	oCreat  = 0o100
	oExcl   = 0o200
	oTrunc  = 0o1000
	oAppend = 0o2000
)

// readOps are the filesystem ops that only look at the path they name.
var readOps = map[string]bool{"readFile": true, "pread": true, "stat": true, "lstat": true, "access": true,
	"readdir": true, "readdirPage": true, "readlink": true, "realpath": true, "open": true, "changes": true}

// fsCalls follows the filesystem calls of a run being exported: what each
// path held before the run changed it (the scenario's initial tree), which
// paths it changed (its expected files), and what a restart would not
// redo the same way.
type fsCalls struct {
	rel  func(string) (string, bool) // a path as the run named it → path under the root
	root string

	changed map[string]bool
	// before are the contents seen of paths not yet changed: a whole read
	// (readFile), or pieces read with pread.
	whole     map[string]string
	pieces    map[string]map[int64]string
	ended     map[string]int64 // where a short pread showed the end of the file
	looked    []string         // paths looked at before any change, in order
	lookedSet map[string]bool
	read      map[string]bool // paths whose content the run read before changing them
	listed    []string        // directory entries listed (readdir), before any change

	// appended is what the run appended to each path it changed only by
	// appending (notAppend: changed otherwise too).
	appended  map[string][]byte
	notAppend map[string]bool
	// moved maps a path the run renamed before changing it otherwise to
	// where it went; changes counts the changes of each path.
	moved   map[string]string
	changes map[string]int

	reasons map[string]bool // why a restart may end otherwise
	order   []string
	notes   []string
}

func newFSCalls(rel func(string) (string, bool), root string) *fsCalls {
	return &fsCalls{rel: rel, root: root, changed: map[string]bool{}, whole: map[string]string{},
		pieces: map[string]map[int64]string{}, ended: map[string]int64{}, lookedSet: map[string]bool{},
		read: map[string]bool{}, moved: map[string]string{}, changes: map[string]int{}, appended: map[string][]byte{}, notAppend: map[string]bool{}, reasons: map[string]bool{}}
}

func (f *fsCalls) reason(format string, args ...any) {
	r := fmt.Sprintf(format, args...)
	if !f.reasons[r] {
		f.reasons[r] = true
		f.order = append(f.order, r)
	}
}

// notIdempotent returns the reasons a restart may not give the run's end.
func (f *fsCalls) notIdempotent() []string { return f.order }

// call takes one journaled filesystem call.
func (f *fsCalls) call(c runtime.JournalCall) {
	var a map[string]json.RawMessage
	json.Unmarshal(c.Args, &a)
	str := func(k string) (string, bool) {
		var p string
		if json.Unmarshal(a[k], &p) != nil || p == "" {
			return "", false
		}
		return f.rel(p)
	}
	num := func(k string) int64 {
		var n float64
		json.Unmarshal(a[k], &n)
		return int64(n)
	}
	flag := func(k string) bool {
		var b bool
		json.Unmarshal(a[k], &b)
		return b
	}
	look := func(k string) {
		if r, ok := str(k); ok {
			f.look(r, c)
		}
	}
	change := func(k string) (string, bool) {
		r, ok := str(k)
		if ok {
			if !f.changed[r] && f.read[r] {
				f.reason("reads %s and then changes it", r)
			}
			f.changed[r] = true
			f.changes[r]++
		}
		return r, ok
	}
	appending := false
	defer func() {
		// Every change but an append makes what the
		// path held unknowable from its end.
		if r, ok := str("path"); ok && !appending && f.changed[r] && c.Op != "open" && !readOps[c.Op] {
			f.notAppend[r] = true
		}
	}()
	switch c.Op {
	case "open":
		fl := num("flags")
		if fl&(oCreat|oTrunc) != 0 {
			change("path")
		} else {
			look("path") // it was there: what it held matters
		}
		if r, ok := str("path"); ok && fl&oAppend != 0 && fl&(oWronly|oRdwr) != 0 {
			f.reason("appends to %s", r)
		}
		if r, ok := str("path"); ok && fl&oCreat != 0 && fl&oExcl != 0 {
			f.reason("creates %s exclusively, which a restart finds there", r)
		}
	case "copyFile", "cp":
		look("from")
		if r, ok := change("to"); ok && (num("flags")&1 != 0 || flag("errorOnExist")) {
			f.reason("copies to %s exclusively, which a restart finds there", r)
		}
	case "link":
		look("existingPath")
		if r, ok := change("newPath"); ok {
			f.reason("links %s, which a restart finds there", r)
		}
	case "rename":
		from, _ := str("from")
		fresh := from != "" && !f.changed[from]
		if r, ok := change("from"); ok {
			f.reason("moves %s away, which a restart finds gone", r)
		}
		if to, ok := change("to"); ok && fresh && c.Error == nil {
			f.moved[from] = to
		}
	case "symlink":
		if r, ok := change("path"); ok {
			f.reason("creates the link %s, which a restart finds there", r)
		}
	default:
		if readOps[c.Op] {
			look("path")
			break
		}
		r, ok := change("path")
		if !ok {
			break
		}
		var fl string
		json.Unmarshal(a["flag"], &fl)
		switch {
		case c.Op == "writeFile" && (fl == "a" || fl == "ax"), c.Op == "pwrite" && flag("append"):
			f.reason("appends to %s", r)
			f.appended[r] = append(f.appended[r], decodeData(a["data"])...)
			appending = true
		case c.Op == "writeFile" && fl == "wx":
			f.reason("creates %s exclusively, which a restart finds there", r)
		case c.Op == "mkdir" && !flag("recursive"):
			f.reason("makes the directory %s, which a restart finds there", r)
		case c.Op == "unlink" || c.Op == "rmdir" || c.Op == "rm" && !flag("force"):
			f.reason("removes %s, which a restart finds gone", r)
		}
	}
}

// look records what a call that only looks saw of path r, unless the run
// changed r before.
func (f *fsCalls) look(r string, c runtime.JournalCall) {
	if f.changed[r] || c.Error != nil {
		return
	}
	if !f.lookedSet[r] {
		f.lookedSet[r] = true
		f.looked = append(f.looked, r)
	}
	if c.Op == "readFile" || c.Op == "pread" {
		f.read[r] = true
	}
	switch c.Op {
	case "readFile":
		if _, ok := f.whole[r]; !ok {
			f.whole[r] = decodeData(c.Result)
		}
	case "pread":
		var a struct {
			Offset, Length float64
		}
		json.Unmarshal(c.Args, &a)
		data := decodeData(c.Result)
		if f.pieces[r] == nil {
			f.pieces[r] = map[int64]string{}
		}
		off := int64(a.Offset)
		f.pieces[r][off] = data
		if int64(len(data)) < int64(a.Length) {
			f.ended[r] = off + int64(len(data))
		}
	case "readdir":
		var names []json.RawMessage
		json.Unmarshal(c.Result, &names)
		for _, n := range names {
			var e struct{ Name, Type string }
			if json.Unmarshal(n, &e.Name) != nil {
				if json.Unmarshal(n, &e) != nil || e.Type != "file" {
					continue
				}
			}
			if e.Name != "" {
				f.listed = append(f.listed, path.Join(r, e.Name))
			}
		}
	}
}

// fromPieces is the content of r as its preads read it, when they read it
// all (from 0 to a short read) or, with partial, what they read from 0 on.
func (f *fsCalls) fromPieces(r string, partial bool) (string, bool) {
	ps := f.pieces[r]
	if len(ps) == 0 {
		return "", false
	}
	var out []byte
	for off := int64(0); ; {
		p, ok := ps[off]
		if !ok || p == "" {
			end, ended := f.ended[r]
			return string(out), partial || ended && end == off
		}
		out = append(out, p...)
		off += int64(len(p))
	}
}

// finish puts what the run saw of each path before changing it into sc's
// initial files: what it read whole, or all its preads, or (for a path it
// only looked at, or listed, and left as it was) its content now.
func (f *fsCalls) finish(ctx context.Context, fsys *vfs.FS, sc *Scenario) error {
	// A path renamed before any other change held what its new name
	// holds at the end, if nothing changed that since.
	for from, to := range f.moved {
		if _, have := sc.Files[from]; !have && f.changes[to] == 1 {
			if b, err := fsys.ReadFile(ctx, f.root+"/"+to); err == nil {
				sc.Files[from] = string(b)
			}
		}
	}
	paths := append(append([]string{}, f.looked...), f.listed...)
	for r := range f.appended {
		if !f.lookedSet[r] {
			paths = append(paths, r)
		}
	}
	sort.Strings(paths[len(f.looked)+len(f.listed):])
	for _, r := range paths {
		if _, have := sc.Files[r]; have {
			continue
		}
		if s, ok := f.whole[r]; ok {
			sc.Files[r] = s
			continue
		}
		if s, ok := f.fromPieces(r, false); ok {
			sc.Files[r] = s
			continue
		}
		if !f.changed[r] {
			if b, err := fsys.ReadFile(ctx, f.root+"/"+r); err == nil {
				sc.Files[r] = string(b)
			}
			continue
		}
		// Only appended to: it held its end less what the run appended
		// (nothing, when it did not exist).
		if add, ok := f.appended[r]; ok && !f.notAppend[r] {
			if b, err := fsys.ReadFile(ctx, f.root+"/"+r); err == nil && bytes.HasSuffix(b, add) {
				if len(b) > len(add) || f.lookedSet[r] {
					sc.Files[r] = string(b[:len(b)-len(add)])
				}
				continue
			}
		}
		if !f.lookedSet[r] {
			continue
		}
		what := "without it"
		if s, ok := f.fromPieces(r, true); ok {
			sc.Files[r], what = s, "with only what the run read of it"
		}
		f.notes = append(f.notes, fmt.Sprintf("the run looked at %s before changing it, without reading it whole: "+
			"the scenario starts %s (edit files/%s to what it held)", r, what, r))
	}
	sort.Strings(f.notes)
	return nil
}
