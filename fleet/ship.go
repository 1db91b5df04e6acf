package fleet

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nookdev/nook"
	"github.com/nookdev/nook/vfs"
)

// Log shipping (see RATIONALE.md, "Log shipping and snapshots"): every
// committed transaction's pages, read from the write-ahead log in the
// commit hook, are appended to wslog.<workspace> with the expected last
// subject sequence before the writes of that commit return.
const (
	// MaxLogRecord bounds the page data of one log message (bytes); a
	// larger commit is split into parts, applied only when all are in.
	MaxLogRecord = 512 << 10
	// DefaultSnapshotEvery is how many commit records an owner ships
	// between two snapshots of a workspace.
	DefaultSnapshotEvery = 1000
	// SnapshotBucket is the object store holding snapshots
	// (<workspace>.<sequence>); SnapPointerBucket the KV bucket naming
	// each workspace's latest.
	SnapshotBucket    = "nook_snapshots"
	SnapPointerBucket = "nook_snaps"
	// shipTimeout bounds one append of a commit.
	shipTimeout = 30 * time.Second
)

// Headers of log messages.
const (
	hdrOp     = "Nook-Op" // "acquire", "call", "commit"
	hdrEpoch  = "Nook-Epoch"
	hdrNode   = "Nook-Node"
	hdrPgsz   = "Nook-Page-Size"
	hdrPages  = "Nook-Db-Pages" // database size after the commit
	hdrPart   = "Nook-Part"     // i (1-based)
	hdrParts  = "Nook-Parts"    // n
	opCommit  = "commit"
	opAcquire = "acquire"
)

// snapPointer is a workspace's latest snapshot.
type snapPointer struct {
	Seq    uint64 `json:"seq"`    // the last log sequence the snapshot covers
	Object string `json:"object"` // its name in SnapshotBucket
	Epoch  uint64 `json:"epoch"`
	Node   string `json:"node"`
}

// encodeCommit splits a commit's pages into log messages.
func encodeCommit(subj, node string, epoch uint64, pages []page, dbPages uint32, pgsz int) []*nats.Msg {
	per := max(1, MaxLogRecord/(pgsz+4))
	n := (len(pages) + per - 1) / per
	msgs := make([]*nats.Msg, 0, n)
	for i := 0; i < n; i++ {
		chunk := pages[i*per : min(len(pages), (i+1)*per)]
		body := make([]byte, 0, len(chunk)*(pgsz+4))
		for _, p := range chunk {
			body = binary.BigEndian.AppendUint32(body, p.no)
			body = append(body, p.data...)
		}
		m := nats.NewMsg(subj)
		m.Header.Set(hdrOp, opCommit)
		m.Header.Set(hdrNode, node)
		m.Header.Set(hdrEpoch, strconv.FormatUint(epoch, 10))
		m.Header.Set(hdrPgsz, strconv.Itoa(pgsz))
		m.Header.Set(hdrPages, strconv.FormatUint(uint64(dbPages), 10))
		m.Header.Set(hdrPart, strconv.Itoa(i+1))
		m.Header.Set(hdrParts, strconv.Itoa(n))
		m.Data = body
		msgs = append(msgs, m)
	}
	return msgs
}

// ship is the commit hook of a workspace this node owns: it appends the
// pages just committed to the workspace's log. A refused append (another
// node took the workspace over) loses the lease: the commit's writes fail
// and are not acknowledged.
func (n *Node) ship(o *owned, c nook.Commit) error {
	if o.tail.path == "" {
		o.tail.path = c.Path() + "-wal"
	}
	pages, dbPages, pgsz, err := o.tail.next()
	if err != nil {
		return errorf("ship", o.name, vfs.EIO, err, "reading the write-ahead log")
	}
	if len(pages) == 0 {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.lost != nil {
		return o.lost
	}
	// A commit not in the log by the lease's local deadline can never be
	// acknowledged: another node may own the workspace by then.
	ctx, cancel := context.WithTimeout(n.ctx, shipTimeout)
	defer cancel()
	if !n.noSelfFence.Load() {
		var cancelLease context.CancelFunc
		ctx, cancelLease = context.WithDeadline(ctx, o.validTo)
		defer cancelLease()
	}
	for _, m := range encodeCommit(logPrefix+o.name, n.opts.Name, o.epoch, pages, dbPages, pgsz) {
		ack, err := n.appendAfter(ctx, m, o.lastSeq)
		if err != nil {
			var lerr *Error
			if wrongLastSeq(err) {
				lerr = leaseLost("ship", o.name, n.opts.Name, o.epoch,
					"the broker refused the commit (another node took the workspace over); it is not acknowledged")
			} else {
				// The commit's fate in the log is unknown: stop
				// serving rather than diverge from it.
				lerr = errorf("ship", o.name, vfs.EIO, ErrLeaseLost,
					"node %s could not append a commit of workspace %s to the log (not acknowledged): %v", n.opts.Name, o.name, err)
			}
			o.lost = lerr
			// A commit while the workspace opens (before acquire has
			// registered it) fails the acquisition instead: acquire
			// checks o.lost once it has registered o.
			n.mu.Lock()
			_, registered := n.open[o]
			n.mu.Unlock()
			if registered {
				go n.lose(o, lerr)
			}
			return lerr
		}
		o.lastSeq = ack.Sequence
	}
	o.shipped++
	if o.shipped >= n.snapshotEvery() {
		o.shipped = 0
		if err := n.snapshotLocked(ctx, o, c); err != nil {
			o.snapErr = err // retried after the next SnapshotEvery commits
		}
	}
	return nil
}

func (n *Node) snapshotEvery() int {
	if n.opts.SnapshotEvery > 0 {
		return n.opts.SnapshotEvery
	}
	return DefaultSnapshotEvery
}

// snapshotLocked stores a copy of the database (page for page, by
// SQLite's backup API on the writer connection, so exactly the state of
// log sequence o.lastSeq) in the object store, points the workspace's
// snapshot pointer at it (compare-and-set: never back to an older one),
// then purges the log entries it covers. The caller holds the write lock
// and o.mu.
func (n *Node) snapshotLocked(ctx context.Context, o *owned, c nook.Commit) error {
	seq := o.lastSeq
	tmp := filepath.Join(n.opts.DataDir, "tmp", fmt.Sprintf("%s.%d.snap", o.name, seq))
	if err := os.MkdirAll(filepath.Dir(tmp), 0o700); err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := c.Backup(tmp); err != nil {
		return fmt.Errorf("copying the database: %w", err)
	}
	f, err := os.Open(tmp)
	if err != nil {
		return err
	}
	defer f.Close()
	name := fmt.Sprintf("%s.%020d", o.name, seq)
	if _, err := n.snaps.Put(ctx, jetstream.ObjectMeta{Name: name}, f); err != nil {
		return fmt.Errorf("storing the snapshot: %w", err)
	}
	val, _ := json.Marshal(snapPointer{Seq: seq, Object: name, Epoch: o.epoch, Node: n.opts.Name})
	old, rev, err := n.snapPointer(ctx, o.name)
	if err == nil && old.Seq >= seq {
		err = fmt.Errorf("a newer snapshot (sequence %d) exists", old.Seq)
	} else if err == nil && rev == 0 {
		_, err = n.pointers.Create(ctx, o.name, val)
	} else if err == nil {
		_, err = n.pointers.Update(ctx, o.name, val, rev)
	}
	if err != nil {
		n.snaps.Delete(ctx, name)
		return err
	}
	if old.Object != "" {
		n.snaps.Delete(ctx, old.Object)
	}
	// Keep the message at seq itself: the subject's last sequence (the
	// fence) must not vanish.
	if err := n.log.Purge(ctx, jetstream.WithPurgeSubject(logPrefix+o.name), jetstream.WithPurgeSequence(seq)); err != nil {
		return fmt.Errorf("purging the log: %w", err)
	}
	o.snapshots++
	return nil
}

// snapPointer returns the workspace's snapshot pointer and its revision
// (0 when there is none).
func (n *Node) snapPointer(ctx context.Context, ws string) (snapPointer, uint64, error) {
	var p snapPointer
	e, err := n.pointers.Get(ctx, ws)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return p, 0, nil
	}
	if err != nil {
		return p, 0, err
	}
	if err := json.Unmarshal(e.Value(), &p); err != nil {
		return p, 0, err
	}
	return p, e.Revision(), nil
}

// RestoreStats says what a restore read.
type RestoreStats struct {
	SnapshotSeq uint64 // the sequence the snapshot covered (0: no snapshot)
	Commits     int    // commit records applied after it
	Through     uint64 // the last log sequence read
}

// restore rebuilds the database file at path from the workspace's latest
// snapshot and the commits after it in the log, up to and including
// sequence through (0: the subject's last). Incomplete multi-part commits
// (an owner died between parts; none of them was acknowledged) are
// skipped. The file and its -wal and -shm are replaced.
func (n *Node) restore(ctx context.Context, ws, path string, through uint64) (RestoreStats, error) {
	for attempt := 0; ; attempt++ {
		st, rev, err := n.restoreOnce(ctx, ws, path, through)
		if err != nil {
			return st, err
		}
		// A stale owner may have moved the snapshot pointer (and purged
		// the log) while we read: read again from the new snapshot.
		_, rev2, err := n.snapPointer(ctx, ws)
		if err != nil {
			return st, err
		}
		if rev2 == rev || attempt >= 5 {
			return st, nil
		}
	}
}

func (n *Node) restoreOnce(ctx context.Context, ws, path string, through uint64) (RestoreStats, uint64, error) {
	var st RestoreStats
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		if err := os.Remove(path + suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return st, 0, err
		}
	}
	ptr, rev, err := n.snapPointer(ctx, ws)
	if err != nil {
		return st, 0, fmt.Errorf("reading the snapshot pointer: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return st, 0, err
	}
	if ptr.Object != "" {
		if err := n.snaps.GetFile(ctx, ptr.Object, path); err != nil {
			return st, 0, fmt.Errorf("fetching snapshot %s: %w", ptr.Object, err)
		}
		st.SnapshotSeq = ptr.Seq
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return st, 0, err
	}
	defer f.Close()
	subj := logPrefix + ws
	if through == 0 {
		m, err := n.log.GetLastMsgForSubject(ctx, subj)
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			return st, rev, f.Sync()
		}
		if err != nil {
			return st, 0, fmt.Errorf("reading the log: %w", err)
		}
		through = m.Sequence
	}
	st.Through = through
	if through <= ptr.Seq {
		return st, rev, f.Sync()
	}
	var pend []page
	var pendParts int
	next := ptr.Seq + 1
	for next <= through {
		// The next message of the workspace's subject at or after next
		// (one request each, with no consumer to set up).
		m, err := n.log.GetMsg(ctx, next, jetstream.WithGetMsgSubject(subj))
		if err != nil {
			return st, 0, fmt.Errorf("reading the log at sequence %d: %w", next, err)
		}
		if m.Sequence > through {
			break
		}
		next = m.Sequence + 1
		h := m.Header
		if h.Get(hdrOp) != opCommit {
			pend, pendParts = nil, 0 // an incomplete commit before it is dropped
		} else {
			part, _ := strconv.Atoi(h.Get(hdrPart))
			parts, _ := strconv.Atoi(h.Get(hdrParts))
			pgsz, _ := strconv.Atoi(h.Get(hdrPgsz))
			dbPages, _ := strconv.ParseUint(h.Get(hdrPages), 10, 32)
			if part == 1 {
				pend, pendParts = nil, 0
			}
			if part == pendParts+1 && pgsz > 0 {
				data := m.Data
				for p := 0; p+4+pgsz <= len(data); p += 4 + pgsz {
					pend = append(pend, page{binary.BigEndian.Uint32(data[p:]), data[p+4 : p+4+pgsz]})
				}
				pendParts = part
				if part == parts {
					if err := applyPages(f, pend, uint32(dbPages), pgsz); err != nil {
						return st, 0, fmt.Errorf("applying the commit at sequence %d: %w", m.Sequence, err)
					}
					st.Commits++
					pend, pendParts = nil, 0
				}
			} else {
				pend, pendParts = nil, 0
			}
		}
	}
	return st, rev, f.Sync()
}

// RestoreTo rebuilds workspace ws as a plain database file at path from
// its latest snapshot and the log after it, as a new owner would: a backup
// that needs no fleet to open (nook.Open). path must not exist. It reads
// the log as it is now; commits appended meanwhile are not included.
func (n *Node) RestoreTo(ctx context.Context, ws, path string) (RestoreStats, error) {
	if err := CheckName("workspace", ws); err != nil {
		return RestoreStats{}, err
	}
	if _, err := os.Lstat(path); err == nil {
		return RestoreStats{}, errorf("restore", ws, vfs.EEXIST, nil, "%s already exists", path)
	}
	st, err := n.restore(ctx, ws, path, 0)
	if err != nil {
		os.Remove(path)
		return st, errorf("restore", ws, vfs.EIO, err, "rebuilding %s", path)
	}
	return st, nil
}
