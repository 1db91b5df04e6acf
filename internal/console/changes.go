package console

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/nookdev/nook/vfs"
)

type changesPage struct {
	base
	Changes []vfs.Change
	// Before is the seq the next older page starts below (0: none); Live
	// is the seq live changes follow (the newest shown).
	Before, Live int64
	First        bool // the page shows the feed's end
}

// changesPage shows the workspace's change feed, newest first,
// ChangesPerPage at a time; the first page follows new changes live.
func (c *Console) changesPage(w http.ResponseWriter, r *http.Request, ss *session) {
	ctx := r.Context()
	before, _ := strconv.ParseInt(r.URL.Query().Get("before"), 10, 64)
	l, err := c.opts.FS.RecentChanges(ctx, max(before, 0), ChangesPerPage+1)
	if err != nil {
		c.vfsFail(w, r, ss, err)
		return
	}
	p := &changesPage{base: c.with(ss, "changes", "Changes"), First: before <= 0}
	if len(l) > ChangesPerPage {
		l = l[:ChangesPerPage]
		p.Before = l[len(l)-1].Seq
	}
	p.Changes = l
	if p.First && len(l) > 0 {
		p.Live = l[0].Seq
	}
	c.render(w, r, http.StatusOK, "changes", p)
}

// changeJSON is a change as the live page gets it.
type changeJSON struct {
	Seq     int64  `json:"seq"`
	Op      string `json:"op"`
	Path    string `json:"path"`
	OldPath string `json:"oldPath,omitempty"`
	Kind    string `json:"kind"`
	Time    string `json:"time"`
}

// changeEvents streams the change feed after a seq (?after=, or the
// Last-Event-ID of a reconnect) as server-sent "change" events, each with
// its seq as id: first what the feed holds after it, then each change as
// it commits.
func (c *Console) changeEvents(w http.ResponseWriter, r *http.Request, ss *session) {
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	f := c.opts.FS
	after, _ := strconv.ParseInt(r.URL.Query().Get("after"), 10, 64)
	if v := r.Header.Get("Last-Event-ID"); v != "" {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			after = n
		}
	}
	after = max(after, 0)
	// The revision to follow from: the one of the last change seen (its
	// revision committed whole, so what follows it is in later ones).
	rev, err := f.Rev(ctx)
	if err == nil && after > 0 {
		var first []vfs.Change
		if first, err = f.ChangesAfter(ctx, after-1, 1); err == nil && len(first) > 0 && first[0].Seq == after {
			rev = first[0].Rev
		}
	}
	if err != nil {
		code := http.StatusInternalServerError
		if errors.Is(err, vfs.EINVAL) {
			code = http.StatusGone // pruned: reload the page
		}
		http.Error(w, err.Error(), code)
		return
	}
	rc := startEvents(w)
	send := func(ch vfs.Change) error {
		after, rev = ch.Seq, max(rev, ch.Rev)
		err := writeEvent(w, ch.Seq, "change", changeJSON{Seq: ch.Seq, Op: string(ch.Op), Path: ch.Path, OldPath: ch.OldPath,
			Kind: ch.Kind.String(), Time: ch.Time.UTC().Format(time.RFC3339)})
		if err == nil {
			err = rc.Flush()
		}
		return err
	}
	for { // what the feed holds after the seq
		batch, err := f.ChangesAfter(ctx, after, 0)
		if err != nil {
			if ctx.Err() == nil {
				writeEvent(w, 0, "error", map[string]string{"message": err.Error()})
				rc.Flush()
			}
			return
		}
		for _, ch := range batch {
			if send(ch) != nil {
				return
			}
		}
		if len(batch) == 0 {
			break
		}
	}
	watch := f.Watch(ctx, rev)
	tick := time.NewTicker(sseKeepalive)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if _, err := io.WriteString(w, ": keepalive\n\n"); err != nil {
				return
			}
			rc.Flush()
		case ch, ok := <-watch:
			if !ok {
				if ctx.Err() == nil {
					writeEvent(w, 0, "error", map[string]string{"message": "the feed moved past this page (changes were pruned): reload it"})
					rc.Flush()
				}
				return
			}
			if ch.Seq > after && send(ch) != nil {
				return
			}
		}
	}
}

type usagePage struct {
	base
	Usage  vfs.Usage
	Limits vfs.Limits
	Rev    int64
	// Oldest and Newest are the change feed's kept seqs (0: empty).
	Oldest, Newest int64
}

// usagePage shows the workspace's totals against its limits.
func (c *Console) usagePage(w http.ResponseWriter, r *http.Request, ss *session) {
	ctx := r.Context()
	u, err := c.opts.FS.Usage(ctx)
	if err != nil {
		c.vfsFail(w, r, ss, err)
		return
	}
	p := &usagePage{base: c.with(ss, "usage", "Usage"), Usage: u, Limits: c.opts.FS.Limits()}
	if p.Rev, err = c.opts.FS.Rev(ctx); err != nil {
		c.vfsFail(w, r, ss, err)
		return
	}
	if l, err := c.opts.FS.RecentChanges(ctx, 0, 1); err == nil && len(l) > 0 {
		p.Newest = l[0].Seq
	}
	if l, err := c.opts.FS.ChangesAfter(ctx, 0, 1); err == nil && len(l) > 0 {
		p.Oldest = l[0].Seq
	}
	c.render(w, r, http.StatusOK, "usage", p)
}

type historyPage struct {
	base
	Path    string
	Changes []vfs.Change
	// Before is the seq the next older page starts below (0: none).
	Before int64
	First  bool // the page shows the path's newest changes
}

// historyPage shows one path's history from the change feed (every
// change whose path or old path is it: a rename away and back included),
// newest first, ChangesPerPage at a time. It reads through the feed's
// index on paths, so a long feed costs a page, not a scan.
func (c *Console) historyPage(w http.ResponseWriter, r *http.Request, ss *session) {
	ctx := r.Context()
	q := r.URL.Query()
	before, _ := strconv.ParseInt(q.Get("before"), 10, 64)
	l, err := c.opts.FS.PathChanges(ctx, q.Get("path"), max(before, 0), ChangesPerPage+1)
	if err != nil {
		c.vfsFail(w, r, ss, err)
		return
	}
	clean, _ := vfs.Clean(q.Get("path"))
	p := &historyPage{base: c.with(ss, "changes", "History of "+clean), Path: clean, First: before <= 0}
	if len(l) > ChangesPerPage {
		l = l[:ChangesPerPage]
		p.Before = l[len(l)-1].Seq
	}
	p.Changes = l
	c.render(w, r, http.StatusOK, "history", p)
}
