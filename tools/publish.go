package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/nookdev/nook/vfs"
)

// Publisher shares a workspace file through a time-limited link: the
// publish tool's backend, which the embedder provides (Options.Publisher).
// The usual implementation uploads the file to an object store and returns
// a presigned URL (see the example); [LinkPublisher] is the built-in one
// of "nook serve", which serves signed links itself.
type Publisher interface {
	// Share returns a URL at which the file at path (absolute, clean, a
	// regular file) can be fetched until expiresAfter has passed.
	Share(ctx context.Context, path string, expiresAfter time.Duration) (url string, err error)
}

// PublishOptions configure the publish tool.
type PublishOptions struct {
	// DefaultExpiry is how long a link lasts when the call names no
	// expiresAfterMs (default 1 hour, as Computer's).
	DefaultExpiry time.Duration
	// MaxExpiry is the longest a call may ask for (default 24 hours).
	MaxExpiry time.Duration
}

// Publish defaults.
const (
	DefaultPublishExpiry    = time.Hour
	DefaultPublishMaxExpiry = 24 * time.Hour
)

func publishTool(s *Set) *Tool {
	if s.opts.Publisher == nil {
		return nil
	}
	return &Tool{
		Name:        "publish",
		Description: fmt.Sprintf("Share a workspace file through a time-limited link (default %s) and return its URL.", s.opts.Publish.DefaultExpiry),
		InputSchema: schema(fmt.Sprintf(`{"type":"object","properties":{
			"path":{"type":"string","minLength":1,"description":"File to share"},
			"expiresAfterMs":{"type":"integer","minimum":1,"maximum":%d,"description":"How long the link works, in milliseconds (default %d)"}},
			"required":["path"],"additionalProperties":false}`, s.opts.Publish.MaxExpiry.Milliseconds(), s.opts.Publish.DefaultExpiry.Milliseconds())),
		OutputSchema: schema(`{"type":"object","properties":{
			"ok":{"type":"boolean"},"url":{"type":"string"},"path":{"type":"string"},
			"expiresAt":{"type":"integer","description":"milliseconds since the Unix epoch"}},
			"required":["ok","url","path","expiresAt"]}`),
		Annotations: Annotations{OpenWorld: true},
		run:         s.publish,
	}
}

type publishIn struct {
	Path           string `json:"path"`
	ExpiresAfterMs *int64 `json:"expiresAfterMs"`
}

type publishOut struct {
	OK        bool   `json:"ok"`
	URL       string `json:"url"`
	Path      string `json:"path"`
	ExpiresAt int64  `json:"expiresAt"`
}

func (s *Set) publish(ctx context.Context, raw json.RawMessage) (*Result, error) {
	var in publishIn
	if r := decode("publish", raw, &in); r != nil {
		return r, nil
	}
	o := s.opts.Publish
	d := o.DefaultExpiry
	if in.ExpiresAfterMs != nil {
		ms := *in.ExpiresAfterMs
		if ms < 1 || ms > o.MaxExpiry.Milliseconds() {
			return Errorf("expiresAfterMs must be between 1 and %d (the limit Publish.MaxExpiry, %s), got %d", o.MaxExpiry.Milliseconds(), o.MaxExpiry, ms), nil
		}
		d = time.Duration(ms) * time.Millisecond
	}
	p, err := vfs.Clean(s.abs(in.Path))
	if err != nil {
		return nil, err
	}
	fi, err := s.fs.Stat(ctx, p)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && fi.Kind != vfs.TypeFile) {
		return Errorf("File not found: %s", shown(p)), nil
	}
	if err != nil {
		return nil, err
	}
	// The workspace's clock, as the built-in publisher's: the link lasts
	// at least until expiresAt.
	at := s.fs.Now().Add(d)
	url, err := s.opts.Publisher.Share(ctx, p, d)
	if err != nil {
		return nil, fmt.Errorf("publish %s: %w", p, err)
	}
	out := publishOut{OK: true, URL: url, Path: p, ExpiresAt: at.UnixMilli()}
	// From code, the receipt: a replay that runs the call again returns
	// this link instead of publishing again.
	if ctx.Value(receiptKey{}) != nil {
		if err := s.fs.Batch(ctx, func(b *vfs.Batch) error { return stamp(ctx, b, out) }); err != nil {
			return nil, err
		}
	}
	return Text(fmt.Sprintf("Published %s until %s: %s", shown(p), at.UTC().Format(time.RFC3339), url), out), nil
}
