package vfs

import (
	"fmt"
	"sync"
)

// Paged Find and Grep calls are answered by offset, but walking again from
// the start for every page would make reading n pages cost n² walks. So the
// FS remembers where each recent page stopped: the path of the entry (or
// file) where the next page begins and, for grep's content mode, how many
// of that file's matches the earlier page already returned. A call whose
// offset and query match a remembered position resumes there. Resuming
// uses name order (keyset), so a tree that changed in between pages yields
// neither duplicates nor gaps in the unchanged part; without a remembered
// position the walk starts over and skips offset results, as before.

// maxCursors bounds the remembered positions (the oldest go first).
const maxCursors = 64

type cursor struct {
	from string // path, relative to the searched directory, to resume at
	skip int    // results of that entry already returned (grep content mode)
}

type cursorCache struct {
	mu    sync.Mutex
	m     map[string]cursor
	order []string
}

func (cc *cursorCache) get(key string) (cursor, bool) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	c, ok := cc.m[key]
	return c, ok
}

func (cc *cursorCache) put(key string, c cursor) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if cc.m == nil {
		cc.m = map[string]cursor{}
	}
	if _, ok := cc.m[key]; !ok {
		cc.order = append(cc.order, key)
		if len(cc.order) > maxCursors {
			delete(cc.m, cc.order[0])
			cc.order = cc.order[1:]
		}
	}
	cc.m[key] = c
}

// cursorKey identifies a paged query at an offset; query holds everything
// but the page size that decides the results.
func cursorKey(op, dir, query string, offset int) string {
	return fmt.Sprintf("%s\x00%s\x00%s\x00%d", op, dir, query, offset)
}
