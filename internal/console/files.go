package console

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nookdev/nook/vfs"
)

// urlQuery escapes s for a query string.
func urlQuery(s string) string { return url.QueryEscape(s) }

type crumb struct{ Name, Path string }

type filesPage struct {
	base
	Dir     string
	Crumbs  []crumb
	Entries []vfs.Entry
	Offset  int
	Next    int // -1: no more
}

// crumbsOf splits a canonical path into links to its ancestors.
func crumbsOf(p string) []crumb {
	out := []crumb{{"/", "/"}}
	cur := ""
	for _, seg := range strings.Split(strings.Trim(p, "/"), "/") {
		if seg == "" {
			continue
		}
		cur += "/" + seg
		out = append(out, crumb{seg, cur})
	}
	return out
}

func (c *Console) vfsFail(w http.ResponseWriter, r *http.Request, ss *session, err error) {
	code := http.StatusInternalServerError
	switch {
	case errors.Is(err, vfs.ENOENT):
		code = http.StatusNotFound
	case errors.Is(err, vfs.ENOTDIR), errors.Is(err, vfs.EISDIR), errors.Is(err, vfs.EINVAL), errors.Is(err, vfs.ENAMETOOLONG):
		code = http.StatusBadRequest
	}
	c.fail(w, r, ss, code, err.Error())
}

func (c *Console) filesPage(w http.ResponseWriter, r *http.Request, ss *session) {
	q := r.URL.Query()
	dir := q.Get("path")
	if dir == "" {
		dir = "/"
	}
	off, _ := strconv.Atoi(q.Get("offset"))
	l, err := c.opts.FS.ReadDir(r.Context(), dir, vfs.Page{Limit: FilesPerPage, Offset: max(off, 0)})
	if err != nil {
		c.vfsFail(w, r, ss, err)
		return
	}
	clean, _ := vfs.Clean(dir)
	p := &filesPage{base: c.with(ss, "files", "Files "+clean), Dir: clean, Crumbs: crumbsOf(clean),
		Entries: l.Entries, Offset: off, Next: -1}
	if l.NextOffset > 0 {
		p.Next = l.NextOffset
	}
	c.render(w, r, http.StatusOK, "files", p)
}

type line struct {
	N    int
	Text string
}

type filePage struct {
	base
	Path   string
	Crumbs []crumb
	Info   *vfs.FileInfo
	Lines  []line
	Refuse string // why the content is not shown
	Note   string
}

func (c *Console) filePage(w http.ResponseWriter, r *http.Request, ss *session) {
	ctx := r.Context()
	name := r.URL.Query().Get("path")
	info, err := c.opts.FS.Stat(ctx, name)
	if err != nil {
		c.vfsFail(w, r, ss, err)
		return
	}
	clean, _ := vfs.Clean(name)
	p := &filePage{base: c.with(ss, "files", clean), Path: clean, Crumbs: crumbsOf(clean), Info: info}
	if info.IsDir() {
		http.Redirect(w, r, "/files?path="+urlQuery(clean), http.StatusSeeOther)
		return
	}
	data, err := c.opts.FS.ReadRange(ctx, name, 0, MaxFileView)
	if err != nil {
		c.vfsFail(w, r, ss, err)
		return
	}
	if int64(len(data)) < info.Size() {
		p.Note = "Only the first " + humanBytes(MaxFileView) + " of " + humanBytes(info.Size()) + " are shown (limit MaxFileView)."
		// Do not call a file binary for a character cut at the end.
		for i := 0; i < utf8.UTFMax && len(data) > 0 && !utf8.Valid(data); i++ {
			data = data[:len(data)-1]
		}
	}
	if strings.IndexByte(string(data), 0) >= 0 || !utf8.Valid(data) {
		p.Refuse = "This file is binary (it holds a NUL byte or is not UTF-8): the console shows only text."
	} else {
		for i, s := range strings.SplitAfter(string(data), "\n") {
			if s == "" {
				continue
			}
			p.Lines = append(p.Lines, line{i + 1, strings.TrimSuffix(s, "\n")})
		}
	}
	c.render(w, r, http.StatusOK, "file", p)
}
