package tools

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/nookdev/nook/vfs"
)

// LinkPrefix is the URL path under which a LinkPublisher serves its links.
const LinkPrefix = "/p/"

// DefaultLinkMaxBytes is the largest file a LinkPublisher shares by
// default (64 MiB).
const DefaultLinkMaxBytes = 64 << 20

// LinkOptions configure a LinkPublisher.
type LinkOptions struct {
	// BaseURL is the server's URL as the link's recipients reach it,
	// without a trailing slash ("http://127.0.0.1:8765").
	BaseURL string
	// Key signs the links (HMAC-SHA256); at least 32 bytes. Empty: a
	// random key, so links end with the process.
	Key []byte
	// MaxBytes is the largest file shared (default DefaultLinkMaxBytes).
	MaxBytes int64
	// Now is the clock (default the workspace's, vfs.FS.Now, which the
	// publish tool's expiresAt is read from too); tests move it.
	Now func() time.Time
}

// LinkPublisher is the built-in Publisher of "nook serve": a link is the
// server's own URL, LinkPrefix followed by a signed token naming the path,
// the expiry and the file's content hash at publish time, and the
// publisher is also the http.Handler that serves it (mount it at
// LinkPrefix, outside any bearer-token check: the signature is the
// authority). A link serves the file while it is unexpired and the file's
// content is what was published: after the expiry it answers 410 Gone, and
// after the file changed (or went away) 410 as well, never other content.
// A token whose signature does not verify answers 403.
type LinkPublisher struct {
	fs   *vfs.FS
	opts LinkOptions
}

// NewLinkPublisher returns a LinkPublisher over the workspace f.
func NewLinkPublisher(f *vfs.FS, opts LinkOptions) (*LinkPublisher, error) {
	if opts.Key == nil {
		opts.Key = make([]byte, 32)
		rand.Read(opts.Key)
	}
	if len(opts.Key) < 32 {
		return nil, fmt.Errorf("tools: LinkOptions.Key has %d bytes; it needs at least 32", len(opts.Key))
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultLinkMaxBytes
	}
	if opts.Now == nil {
		opts.Now = f.Now
	}
	opts.BaseURL = strings.TrimSuffix(opts.BaseURL, "/")
	return &LinkPublisher{fs: f, opts: opts}, nil
}

// linkClaims are what a link's token signs.
type linkClaims struct {
	Path    string `json:"p"`
	Expires int64  `json:"e"` // Unix milliseconds
	Hash    string `json:"h"` // vfs.HashContent of the file when published
}

// Share implements Publisher: it signs a link to path's current content.
func (lp *LinkPublisher) Share(ctx context.Context, p string, expiresAfter time.Duration) (string, error) {
	fi, err := lp.fs.Stat(ctx, p)
	if err != nil {
		return "", err
	}
	if fi.Bytes > lp.opts.MaxBytes {
		return "", fmt.Errorf("%s has %d bytes, more than the %d the link publisher shares (LinkOptions.MaxBytes)", p, fi.Bytes, lp.opts.MaxBytes)
	}
	h, err := lp.fs.ContentHash(ctx, p)
	if err != nil {
		return "", err
	}
	c, _ := json.Marshal(linkClaims{Path: p, Expires: lp.opts.Now().Add(expiresAfter).UnixMilli(), Hash: h})
	payload := base64.RawURLEncoding.EncodeToString(c)
	return lp.opts.BaseURL + LinkPrefix + payload + "." + lp.sign(payload) + "/" + urlName(path.Base(p)), nil
}

func (lp *LinkPublisher) sign(payload string) string {
	m := hmac.New(sha256.New, lp.opts.Key)
	io.WriteString(m, payload)
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// urlName is a file name as a URL path segment.
func urlName(n string) string {
	return strings.NewReplacer("%", "%25", "/", "%2F", "?", "%3F", "#", "%23", " ", "%20").Replace(n)
}

// ServeHTTP serves a link: GET and HEAD, with range requests.
func (lp *LinkPublisher) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	token, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, LinkPrefix), "/")
	payload, sig, ok := strings.Cut(token, ".")
	if !ok || payload == "" {
		http.Error(w, "no such link", http.StatusNotFound)
		return
	}
	if !hmac.Equal([]byte(sig), []byte(lp.sign(payload))) {
		http.Error(w, "invalid link signature", http.StatusForbidden)
		return
	}
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	var c linkClaims
	if err != nil || json.Unmarshal(raw, &c) != nil {
		http.Error(w, "no such link", http.StatusNotFound)
		return
	}
	if lp.opts.Now().UnixMilli() >= c.Expires {
		http.Error(w, "this link has expired", http.StatusGone)
		return
	}
	ctx := r.Context()
	var fi *vfs.FileInfo
	var head []byte
	err = lp.fs.View(ctx, func(v *vfs.View) error {
		var err error
		if fi, err = v.Stat(c.Path); err != nil || fi.Kind != vfs.TypeFile {
			return errLinkGone
		}
		if h, err := v.ContentHash(c.Path); err != nil || h != c.Hash {
			return errLinkChanged
		}
		head, err = v.ReadRange(c.Path, 0, 512)
		return err
	})
	switch {
	case errors.Is(err, errLinkGone):
		http.Error(w, "the published file is gone", http.StatusGone)
		return
	case errors.Is(err, errLinkChanged):
		http.Error(w, "the published file has changed since it was published", http.StatusGone)
		return
	case err != nil:
		http.Error(w, "cannot read the published file", http.StatusInternalServerError)
		return
	}
	if fi.Bytes > lp.opts.MaxBytes {
		http.Error(w, "the published file is too large", http.StatusRequestEntityTooLarge)
		return
	}
	ct := mime.TypeByExtension(path.Ext(c.Path))
	if ct == "" {
		ct = http.DetectContentType(head)
	}
	hd := w.Header()
	hd.Set("Content-Type", ct)
	hd.Set("X-Content-Type-Options", "nosniff")
	// Published content shares the server's origin: a sandboxed document
	// cannot script that origin (its MCP endpoint).
	hd.Set("Content-Security-Policy", "sandbox")
	hd.Set("Cache-Control", "private, no-store")
	body := &publishedReader{ctx: ctx, fs: lp.fs, path: c.Path, hash: c.Hash}
	http.ServeContent(w, r, path.Base(c.Path), fi.Mtime, io.NewSectionReader(body, 0, fi.Bytes))
}

var (
	errLinkGone    = errors.New("the published file is gone")
	errLinkChanged = errors.New("the published file has changed since it was published")
)

// publishedBlock is how much of a published file publishedReader reads
// in one snapshot.
const publishedBlock = 4 * vfs.ChunkSize

// publishedReader reads a published file block by block, each block in a
// snapshot of its own in which the file's content hash is still the one
// published: every byte it returns is the published content, even when
// the file changes (and changes back) during a transfer, and no snapshot
// lives longer than one block's read. A change ends the read with
// errLinkChanged, which cuts the response short instead of mixing
// versions.
type publishedReader struct {
	ctx  context.Context
	fs   *vfs.FS
	path string
	hash string
}

func (r *publishedReader) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	for n < len(p) {
		want := min(int64(len(p)-n), publishedBlock-(off+int64(n))%publishedBlock)
		var got []byte
		err := r.fs.View(r.ctx, func(v *vfs.View) error {
			if h, err := v.ContentHash(r.path); err != nil || h != r.hash {
				return errLinkChanged
			}
			var err error
			got, err = v.ReadRange(r.path, off+int64(n), want)
			return err
		})
		if err != nil {
			return n, err
		}
		n += copy(p[n:], got)
		if int64(len(got)) < want {
			return n, io.EOF
		}
	}
	return n, nil
}
