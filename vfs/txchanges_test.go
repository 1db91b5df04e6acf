package vfs

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/ncruces/go-sqlite3"
)

// batchFiles writes n empty files under dir in one Batch (one transaction,
// n+1 changes with the directory).
func batchFiles(f *FS, dir string, n int) error {
	return f.Batch(bg, func(b *Batch) error {
		if err := b.MkdirAll(dir, 0); err != nil {
			return err
		}
		for i := range n {
			if err := b.WriteFile(fmt.Sprintf("%s/f%06d", dir, i), nil, nil); err != nil {
				return err
			}
		}
		return nil
	})
}

// checkFeed reads the whole feed in pages of limit and checks that seq
// numbers strictly increase, revisions never go back, and no page is
// larger than asked. It returns the number of entries.
func checkFeed(t *testing.T, f *FS, limit int) int {
	t.Helper()
	page, err := f.Changes(bg, 0, limit)
	noErr(t, err)
	n, last := 0, Change{}
	for len(page) > 0 {
		if len(page) > limit {
			t.Fatalf("a page of %d entries, asked for %d", len(page), limit)
		}
		for _, c := range page {
			if n > 0 && (c.Seq <= last.Seq || c.Rev < last.Rev) {
				t.Fatalf("feed out of order: %+v after %+v", c, last)
			}
			last = c
			n++
		}
		page, err = f.ChangesAfter(bg, last.Seq, limit)
		noErr(t, err)
	}
	return n
}

// More than 65,536 changes in one transaction used to overflow the change
// sequence into the next revision's keys: the transaction committed, and
// every write after it failed with a UNIQUE constraint error, for good.
func TestTxOfManyChangesLeavesWorkspaceWritable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ws.db")
	f, err := Open(bg, path, nil)
	noErr(t, err)
	const n = 70_000
	noErr(t, batchFiles(f, "/many", n))
	rev := revOf(t, f)
	put(t, f, "/after", "x")
	cs, err := f.Changes(bg, rev, 0)
	noErr(t, err)
	if len(cs) != 1 || cs[0].Path != "/after" || cs[0].Rev != rev+1 {
		t.Fatalf("the write after the big batch: %+v", cs)
	}
	if got := checkFeed(t, f, 1000); got != n+2 {
		t.Errorf("feed has %d entries, want %d", got, n+2)
	}
	noErr(t, f.Close())

	f, err = Open(bg, path, nil)
	noErr(t, err)
	defer f.Close()
	put(t, f, "/after-reopen", "y")
	expectContent(t, f, "/after-reopen", "y")
}

// A transaction of more changes than MaxTxChanges fails with an error naming
// the limit and changes nothing; the next write succeeds.
func TestTxChangesLimit(t *testing.T) {
	f := openTest(t, withLimits(Limits{MaxTxChanges: 100}))
	before := usageOf(t, f)
	rev := revOf(t, f)
	err := batchFiles(f, "/d", 100) // 101 changes with the directory
	expectErr(t, err, ENOSPC, "one transaction of 101 changes exceeds MaxTxChanges (100): split it")
	if after := usageOf(t, f); after != before || revOf(t, f) != rev {
		t.Errorf("a refused transaction changed the workspace: %+v -> %+v", before, after)
	}
	noErr(t, batchFiles(f, "/d", 99))
	put(t, f, "/after", "x")
	expectContent(t, f, "/after", "x")
}

// The limit is at most MaxChanges, so the feed always holds a whole
// transaction.
func TestTxChangesLimitAtMostMaxChanges(t *testing.T) {
	f := openTest(t, withLimits(Limits{MaxChanges: 50, MaxTxChanges: 1000}))
	if l := f.Limits(); l.MaxTxChanges != 50 {
		t.Errorf("MaxTxChanges = %d, want 50 (MaxChanges)", l.MaxTxChanges)
	}
}

// The default limits: a 200,000-entry Batch fails naming the limit; a
// 200,000-entry Import (committed in groups) and the rm -r of that tree
// succeed. Writes succeed after each, and after reopening.
func TestTwoHundredThousandEntries(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 200,000 entries; runs without -short")
	}
	path := filepath.Join(t.TempDir(), "ws.db")
	f, err := Open(bg, path, nil)
	noErr(t, err)
	const n = 200_000
	err = batchFiles(f, "/batch", n)
	expectErr(t, err, ENOSPC, fmt.Sprintf("one transaction of %d changes exceeds MaxTxChanges (%d): split it", n+1, DefaultMaxTxChanges))
	put(t, f, "/after-batch", "1")

	src := fstest.MapFS{}
	for i := range n {
		src[fmt.Sprintf("d%03d/f%06d", i%500, i)] = &fstest.MapFile{Data: nil, Mode: 0o644}
	}
	st, err := f.Import(bg, "/imp", src, nil)
	noErr(t, err)
	if st.Files != n {
		t.Errorf("imported %d files, want %d", st.Files, n)
	}
	put(t, f, "/after-import", "2")
	noErr(t, f.Remove(bg, "/imp", &RemoveOptions{Recursive: true}))
	put(t, f, "/after-rm", "3")
	checkFeed(t, f, 1000)
	noErr(t, f.Close())

	f, err = Open(bg, path, nil)
	noErr(t, err)
	defer f.Close()
	put(t, f, "/after-reopen", "4")
	for _, p := range []string{"/after-batch", "/after-import", "/after-rm", "/after-reopen"} {
		if _, err := f.Stat(bg, p); err != nil {
			t.Error(err)
		}
	}
}

// A workspace bricked by schema v1 (a transaction of 65,537 changes whose
// last key took the next revision's first) opens, keeps its feed, and
// writes again.
func TestBrickedV1WorkspaceIsRepaired(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ws.db")
	c, err := sqlite3.Open(path)
	noErr(t, err)
	noErr(t, c.Exec(schemaV1)) // what migrations[0] creates
	noErr(t, c.Exec(`INSERT INTO vfs_state(id, schema_version, rev, bytes, nodes) VALUES (1, 1, 1, 0, 1)`))
	noErr(t, c.Exec(`INSERT INTO vfs_nodes(inode, type, mode, size, nlink, atime, mtime, ctime, rev) VALUES (1, 2, 493, 0, 1, 1, 1, 1, 0)`))
	// What the v1 code committed: revision 2 with 65,537 changes, the last
	// keyed as if it were revision 3's first.
	noErr(t, c.Exec(`UPDATE vfs_state SET rev = 2`))
	noErr(t, c.Exec(`BEGIN`))
	st, _, err := c.Prepare(`INSERT INTO vfs_changes(seq, op, path, type, time) VALUES (?, 'create', ?, 1, 1)`)
	noErr(t, err)
	const n = 1<<16 + 1
	for i := range n {
		noErr(t, st.BindInt64(1, 2<<16|int64(i)))
		noErr(t, st.BindText(2, fmt.Sprintf("/f%d", i)))
		if st.Step(); st.Err() != nil {
			t.Fatal(st.Err())
		}
		noErr(t, st.Reset())
	}
	noErr(t, st.Close())
	noErr(t, c.Exec(`COMMIT`))
	noErr(t, c.Close())

	f, err := Open(bg, path, nil)
	noErr(t, err)
	defer f.Close()
	put(t, f, "/after", "x")
	expectContent(t, f, "/after", "x")
	cs, err := f.Changes(bg, 2, 0)
	noErr(t, err)
	if len(cs) != 1 || cs[0].Path != "/after" || cs[0].Rev != 3 || cs[0].Seq != 3<<16+1 {
		t.Errorf("the write after the repair: %+v", cs)
	}
	cs, err = f.Changes(bg, 1, 1000)
	noErr(t, err)
	for _, c := range cs {
		if c.Rev != 2 {
			t.Fatalf("an entry of the big revision got revision %d: %+v", c.Rev, c)
		}
	}
	if got := checkFeed(t, f, 1000); got != n+1 {
		t.Errorf("feed has %d entries, want %d", got, n+1)
	}
}

// A property test over random sequences of large and small transactions:
// every commit succeeds, seq numbers strictly increase, every revision's
// entries are contiguous and pages are never larger than asked.
func TestChangeFeedProperty(t *testing.T) {
	f := openTest(t, withLimits(Limits{MaxChanges: 1_000_000, MaxTxChanges: 100_000}))
	rng := rand.New(rand.NewPCG(1, 2))
	want := 0
	rounds := 40
	if testing.Short() {
		rounds = 15
	}
	for i := range rounds {
		var n int
		switch rng.IntN(10) {
		case 0:
			n = 1<<16 - 2 + rng.IntN(4) // around the old ceiling
		case 1, 2:
			n = rng.IntN(5000)
		default:
			n = rng.IntN(20)
		}
		noErr(t, batchFiles(f, fmt.Sprintf("/t%d", i), n))
		want += n + 1
	}
	for _, limit := range []int{1, 7, 200, 1000} {
		if got := checkFeed(t, f, limit); got != want {
			t.Fatalf("limit %d: feed has %d entries, want %d", limit, got, want)
		}
	}
	// Revisions are contiguous runs in seq order.
	seen := map[int64]bool{}
	var prev int64 = -1
	page, err := f.Changes(bg, 0, 1000)
	noErr(t, err)
	for len(page) > 0 {
		for _, c := range page {
			if c.Rev != prev {
				if seen[c.Rev] {
					t.Fatalf("revision %d is split by another", c.Rev)
				}
				seen[c.Rev], prev = true, c.Rev
			}
		}
		page, err = f.ChangesAfter(bg, page[len(page)-1].Seq, 1000)
		noErr(t, err)
	}
}

// GC keeps whole revisions and a reader resuming by seq from a pruned
// position gets EINVAL, not a silent gap.
func TestChangesAfterPruned(t *testing.T) {
	f := openTest(t, withLimits(Limits{MaxChanges: 10}))
	for i := range 5 {
		noErr(t, batchFiles(f, fmt.Sprintf("/g%d", i), 4)) // 5 changes each
	}
	first, err := f.Changes(bg, 0, 1)
	noErr(t, err)
	_, err = f.GC(bg)
	noErr(t, err)
	_, err = f.ChangesAfter(bg, first[0].Seq, 10)
	if Code(err) != EINVAL {
		t.Fatalf("ChangesAfter a pruned seq: %v, want EINVAL", err)
	}
	kept, err := f.Changes(bg, first[0].Rev+2, 100)
	noErr(t, err)
	if len(kept) != 10 || kept[0].Rev != first[0].Rev+3 {
		t.Errorf("GC kept %v, want the newest 10 entries (two whole revisions)", chgs(kept))
	}
}
