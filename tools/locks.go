package tools

import (
	"context"
	"strings"
	"sync"

	"github.com/nookdev/nook/vfs"
)

// Locks serialises mutating tool calls on overlapping paths. A path lock
// conflicts with a lock on the same path and with a subtree lock on any of
// its ancestors; a subtree lock (recursive delete, directory move) also
// conflicts with every lock below it. Unrelated paths proceed in parallel.
//
// Locks order calls within one process; across processes the tools rely on
// the workspace's transactions (a read-modify-write runs in one vfs.Batch).
type Locks struct {
	mu    sync.Mutex
	held  []*heldLock
	freed chan struct{} // closed and replaced whenever a lock is released
}

type heldLock struct {
	path    string
	subtree bool
}

// NewLocks returns an empty lock table. The zero Locks is ready to use too.
func NewLocks() *Locks { return &Locks{} }

var (
	sharedMu    sync.Mutex
	sharedLocks = map[*vfs.FS]*Locks{}
)

// locksFor returns the lock table shared by every Set over f.
func locksFor(f *vfs.FS) *Locks {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	l := sharedLocks[f]
	if l == nil {
		l = NewLocks()
		sharedLocks[f] = l
	}
	return l
}

// LockRequest is one path to lock.
type LockRequest struct {
	Path    string // canonical
	Subtree bool
}

// Lock takes every requested lock at once (so two calls never deadlock on
// each other) and returns the function that releases them. It waits while
// any conflicts, until ctx ends.
func (l *Locks) Lock(ctx context.Context, reqs ...LockRequest) (func(), error) {
	for {
		l.mu.Lock()
		if !l.conflicts(reqs) {
			mine := make([]*heldLock, len(reqs))
			for i, r := range reqs {
				mine[i] = &heldLock{path: r.Path, subtree: r.Subtree}
			}
			l.held = append(l.held, mine...)
			l.mu.Unlock()
			return func() { l.release(mine) }, nil
		}
		if l.freed == nil {
			l.freed = make(chan struct{})
		}
		wait := l.freed
		l.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (l *Locks) conflicts(reqs []LockRequest) bool {
	for _, r := range reqs {
		for _, h := range l.held {
			if r.Path == h.path ||
				(h.subtree && under(r.Path, h.path)) ||
				(r.Subtree && under(h.path, r.Path)) {
				return true
			}
		}
	}
	return false
}

func (l *Locks) release(mine []*heldLock) {
	l.mu.Lock()
	defer l.mu.Unlock()
	kept := l.held[:0]
	for _, h := range l.held {
		drop := false
		for _, m := range mine {
			if h == m {
				drop = true
				break
			}
		}
		if !drop {
			kept = append(kept, h)
		}
	}
	clear(l.held[len(kept):])
	l.held = kept
	if l.freed != nil {
		close(l.freed) // wake the waiters; they re-check
		l.freed = nil
	}
}

// under reports whether p is strictly below dir (both canonical).
func under(p, dir string) bool {
	if dir == "/" {
		return p != "/"
	}
	return strings.HasPrefix(p, dir) && len(p) > len(dir) && p[len(dir)] == '/'
}
