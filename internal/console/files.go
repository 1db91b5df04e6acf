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
	// Image: the file is a raster image, shown as one.
	Image bool
}

// imageTypes are the content types the console shows as images, as
// http.DetectContentType names them: raster formats only. SVG is not one:
// an SVG document can hold script, so it is shown as text.
var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true, "image/bmp": true}

// sniffImage returns the content type of data when it is one of
// imageTypes, else "".
func sniffImage(data []byte) string {
	if ct := http.DetectContentType(data); imageTypes[ct] {
		return ct
	}
	return ""
}

// statFile stats the file ?path= names; on failure it answers the request
// and reports false.
func (c *Console) statFile(w http.ResponseWriter, r *http.Request, ss *session) (name string, info *vfs.FileInfo, ok bool) {
	name = r.URL.Query().Get("path")
	info, err := c.opts.FS.Stat(r.Context(), name)
	if err != nil {
		c.vfsFail(w, r, ss, err)
		return name, nil, false
	}
	return name, info, true
}

func (c *Console) filePage(w http.ResponseWriter, r *http.Request, ss *session) {
	ctx := r.Context()
	name, info, ok := c.statFile(w, r, ss)
	if !ok {
		return
	}
	clean, _ := vfs.Clean(name)
	p := &filePage{base: c.with(ss, "files", clean), Path: clean, Crumbs: crumbsOf(clean), Info: info}
	if info.IsDir() {
		c.redirect(w, r, "/files?path="+urlQuery(clean))
		return
	}
	data, err := c.opts.FS.ReadRange(ctx, name, 0, MaxFileView)
	if err != nil {
		c.vfsFail(w, r, ss, err)
		return
	}
	if sniffImage(data) != "" {
		if info.Size() > MaxImageView {
			p.Refuse = "This image is " + humanBytes(info.Size()) + ", more than the console shows (" + humanBytes(MaxImageView) + ", limit MaxImageView)."
		} else {
			p.Image = true
		}
		c.render(w, r, http.StatusOK, "file", p)
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

// rawImage serves a file's bytes for the file page's <img>: only a raster
// image (imageTypes, sniffed from its content, never taken from its name)
// of at most MaxImageView bytes; anything else is refused with 415, so the
// console never serves a model's bytes as a document of its origin.
func (c *Console) rawImage(w http.ResponseWriter, r *http.Request, ss *session) {
	ctx := r.Context()
	name, info, ok := c.statFile(w, r, ss)
	if !ok {
		return
	}
	if info.IsDir() {
		c.vfsFail(w, r, ss, vfs.EISDIR)
		return
	}
	if info.Size() > MaxImageView {
		c.fail(w, r, ss, http.StatusRequestEntityTooLarge, "the image is larger than the console serves ("+humanBytes(MaxImageView)+", limit MaxImageView)")
		return
	}
	data, err := c.opts.FS.ReadRange(ctx, name, 0, MaxImageView)
	if err != nil {
		c.vfsFail(w, r, ss, err)
		return
	}
	ct := sniffImage(data)
	if ct == "" {
		c.fail(w, r, ss, http.StatusUnsupportedMediaType, "the console serves a file's bytes only for a PNG, JPEG, GIF, WebP or BMP image")
		return
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Content-Disposition", "inline")
	w.Header().Set("Cache-Control", "private, no-store")
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.Write(data)
}
