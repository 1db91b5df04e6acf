package js

import (
	"container/list"
	"context"
	"errors"
	"sync"

	"github.com/dop251/goja"

	"github.com/nookdev/nook/vfs"
)

// programCache keeps compiled programs, least recently used out first.
// An entry is keyed by what the program was built from besides workspace
// files (see Backend.cacheKey) and remembers the files it read with their
// content hashes; a hit is valid only while those hashes are unchanged
// (and the paths probed in vain still do not exist). A program that
// imports no workspace file is reused without touching the filesystem.
type programCache struct {
	mu    sync.Mutex
	max   int
	order *list.List // of *cacheEntry, most recent first
	byKey map[string]*list.Element
}

type cacheEntry struct {
	key      string
	code     *goja.Program
	deps     []dep
	features []string
	format   string // the entry's module format (see transform)
	src      string // the bundle (for Snapshot)
}

func newProgramCache(max int) *programCache {
	return &programCache{max: max, order: list.New(), byKey: map[string]*list.Element{}}
}

// get returns the program cached under key if its files are unchanged.
func (c *programCache) get(ctx context.Context, fsys *vfs.FS, key string) (*cacheEntry, bool) {
	c.mu.Lock()
	el, ok := c.byKey[key]
	var e *cacheEntry
	if ok {
		c.order.MoveToFront(el)
		e = el.Value.(*cacheEntry) // put may replace it: read it under the lock
	}
	c.mu.Unlock()
	if !ok {
		return nil, false
	}
	for _, d := range e.deps {
		if !depValid(ctx, fsys, d) {
			c.remove(el)
			return nil, false
		}
	}
	return e, true
}

func depValid(ctx context.Context, fsys *vfs.FS, d dep) bool {
	if d.Hash == "" {
		_, err := fsys.Lstat(ctx, d.Path)
		return errors.Is(err, vfs.ENOENT) || errors.Is(err, vfs.ENOTDIR)
	}
	h, err := fsys.ContentHash(ctx, d.Path)
	return err == nil && h == d.Hash
}

func (c *programCache) remove(el *list.Element) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := el.Value.(*cacheEntry)
	if c.byKey[e.key] == el {
		delete(c.byKey, e.key)
		c.order.Remove(el)
	}
}

// put stores a program, evicting the least recently used beyond max.
func (c *programCache) put(key string, e *cacheEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e.key = key
	if el, ok := c.byKey[key]; ok {
		el.Value = e
		c.order.MoveToFront(el)
		return
	}
	c.byKey[key] = c.order.PushFront(e)
	for c.order.Len() > c.max {
		last := c.order.Back()
		delete(c.byKey, last.Value.(*cacheEntry).key)
		c.order.Remove(last)
	}
}
