package host

import (
	"context"
	"strconv"
	"time"

	"github.com/nookdev/nook/vfs"
)

// linkArgs are the arguments of link.
type linkArgs struct {
	ExistingPath string `arg:"existingPath"`
	NewPath      string `arg:"newPath"`
}

// opLink gives the file or symlink at existingPath a second name, newPath
// (link(2), Node's fs.link). Both paths are confined to Root; a final
// symlink at existingPath is not followed (the new name is another name of
// the symlink itself, as on Linux), and such a symlink's target must resolve
// inside Root from the new name's directory too, as opSymlink requires of
// every link sandboxed code makes.
func (o *FSOps) opLink(ctx context.Context, a *linkArgs) (any, error) {
	from := a.ExistingPath
	to := a.NewPath
	realFrom, err := o.confine(ctx, "link", from, false)
	if err != nil {
		return nil, withDest(err, from, to)
	}
	realTo, err := o.confine(ctx, "link", to, false)
	if err != nil {
		return nil, withDest(err, from, to)
	}
	if o.readOnly() {
		return nil, readOnlyErr("link", from, to)
	}
	fi, err := o.FS.Lstat(ctx, realFrom)
	if err != nil {
		return nil, o.vfsErr(err, "link", from, to)
	}
	if fi.Kind == vfs.TypeSymlink {
		// A loop cannot lead anywhere, let alone outside Root (every hop of
		// the walk is checked): only EACCES refuses the link.
		if err := o.checkLinkTarget(ctx, "link", realTo, fi.Target); err != nil {
			if ce, ok := err.(*CallError); !ok || ce.Code != "ELOOP" {
				return nil, withDest(err, from, to)
			}
		}
	}
	return nil, o.vfsErr(o.FS.Link(ctx, realFrom, realTo), "link", from, to)
}

// Times at nanosecond precision. A float64 holds integers exactly only up
// to 2^53 (about 104 days of nanoseconds), and the journal carries results
// as JSON, whose numbers come back as float64; so stats carry, next to the
// float milliseconds Node has (atimeMs, ...), the exact nanoseconds since
// the epoch as decimal strings (atimeNs, ...), and utimes takes them the
// same way. A string survives the journal's JSON unchanged and reads back
// with one strconv call on either side (BigInt(s) in JavaScript).

// nsString formats nanoseconds since the epoch for a stat result.
func nsString(ns int64) string { return strconv.FormatInt(ns, 10) }

// optNsTime returns an optional time argument given as decimal nanoseconds
// since the epoch (a string, or an integer from Go callers); ok is false
// when it is absent.
func (a fsArgs) optNsTime(name string) (t time.Time, ok bool, err error) {
	v, present := a.m[name]
	if !present || v == nil {
		return time.Time{}, false, nil
	}
	var ns int64
	switch x := v.(type) {
	case string:
		ns, err = strconv.ParseInt(x, 10, 64)
		if err != nil {
			return time.Time{}, false, argErr(a.op, name, "as decimal nanoseconds")
		}
	default:
		var isInt bool
		if ns, isInt = toInt(v); !isInt {
			return time.Time{}, false, argErr(a.op, name, "as decimal nanoseconds")
		}
	}
	return time.Unix(0, ns), true, nil
}
