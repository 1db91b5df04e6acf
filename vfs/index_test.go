package vfs

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nookdev/nook/internal/sqldb"
	"github.com/nookdev/nook/vfs/internal/search"
)

// indexWords make the files of the index tests: common words, some rare
// ones, mixed case, and a non-ASCII word that folds.
var indexWords = strings.Fields(`func main return error ctx context Context package import
	fmt Println value nil if else for range TODO todo Error ERRORS handler ServeHTTP
	straße STRASSE Kelvin ſtop x y z a b c ab bc abc { } ( ) := == != + -`)

// indexCorpus writes n generated files (and a few special ones) into f.
func indexCorpus(t testing.TB, f *FS, n int, seed uint64) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 1))
	for i := range n {
		var b strings.Builder
		lines := 1 + r.IntN(30)
		for range lines {
			for w := r.IntN(8); w >= 0; w-- {
				b.WriteString(indexWords[r.IntN(len(indexWords))])
				b.WriteByte(" \t"[r.IntN(2)])
			}
			if r.IntN(200) == 0 {
				fmt.Fprintf(&b, "rare%d", i)
			}
			b.WriteString([]string{"\n", "\r\n"}[r.IntN(2)])
		}
		put(t, f, fmt.Sprintf("/c/d%d/f%d.go", i%17, i), b.String())
	}
	// Identical content under two names, a rename, a hard link, a binary
	// file, and a file of several chunks with a match across a boundary.
	put(t, f, "/c/dup1.txt", "the needle in a haystack\n")
	put(t, f, "/c/dup2.txt", "the needle in a haystack\n")
	put(t, f, "/c/before.txt", "moved needle\n")
	noErr(t, f.Rename(bg, "/c/before.txt", "/c/after.txt"))
	noErr(t, f.Link(bg, "/c/dup1.txt", "/c/link.txt"))
	putBytes(t, f, "/c/bin.dat", []byte("needle\x00needle\n"))
	noErr(t, f.Symlink(bg, "/c/d3", "/c/d3-link"))
	noErr(t, f.Symlink(bg, "/c", "/clink"))
	put(t, f, "/c/d3-x/needle", "needle needle\n")
	put(t, f, "/c/d3.go", "needle\n")
	big := strings.Repeat("filler line\n", ChunkSize/12) + "fill"
	big = big[:ChunkSize-3] + "nee" + "dle across\n" + strings.Repeat("tail\n", 100)
	put(t, f, "/c/big.txt", big)
	f.waitIndex(bg)
}

// indexQueries are searched with and without the index.
var indexQueries = []GrepOptions{
	{}, {IgnoreCase: true}, {Regex: true}, {Regex: true, IgnoreCase: true},
}

var indexPatterns = []struct {
	pattern string
	regex   bool
}{
	{"needle", false}, {"rare7", false}, {"rare", false}, {"ServeHTTP", false}, {"TODO", false},
	{"straße", false}, {"kelvin", false}, {"ab", false}, {"func main", false}, {"nothing-here", false},
	{`func \w+\(ctx context\.Context`, true}, {`(handler|ServeHTTP)\s+nil`, true}, {`rare[0-9]+`, true},
	{`TODO|FIXME`, true}, {`a.*b`, true}, {`\d+`, true}, {`^package`, true}, {`error$`, true},
	{`[Ee]rror\b`, true}, {`x+y+z`, true}, {`(?i)STRASSE`, true}, {`ſtop`, true}, {`ctx?`, true},
	{`needle\nx`, true}, {`(foo)?bar`, true},
}

// grepBoth runs a grep with the index and then by scanning only, and
// reports a difference.
func grepBoth(t *testing.T, f *FS, pattern string, o GrepOptions) {
	t.Helper()
	grepBothIn(t, f, pattern, "/", o)
}

func grepBothIn(t *testing.T, f *FS, pattern, dir string, o GrepOptions) {
	t.Helper()
	f.grepScan = false
	withIdx, err1 := f.Grep(bg, pattern, dir, &o)
	f.grepScan = true
	scan, err2 := f.Grep(bg, pattern, dir, &o)
	f.grepScan = false
	if (err1 == nil) != (err2 == nil) || err1 != nil && err1.Error() != err2.Error() {
		t.Fatalf("%q %+v: errors differ: index %v, scan %v", pattern, o, err1, err2)
	}
	if err1 != nil {
		return
	}
	// Binary files are listed only when opened, which the index avoids.
	withIdx.Skipped, scan.Skipped = nil, nil
	if !reflect.DeepEqual(withIdx, scan) {
		t.Errorf("%q %+v: with the index\n%+v\nscanning\n%+v", pattern, o, withIdx, scan)
	}
}

func TestIndexGrepSameResults(t *testing.T) {
	f := openTest(t)
	indexCorpus(t, f, 700, 1)
	st, err := f.IndexStatus(bg)
	noErr(t, err)
	if !st.Enabled || st.Indexed < 2*indexBlock || st.Unindexed >= indexBlock {
		t.Fatalf("after writing 700 files: %+v, want at least two blocks indexed and less than a block pending", st)
	}
	// The index narrows a rare literal's candidates to the few files that
	// hold it and the pending ones.
	noErr(t, f.db.Read(bg, func(c *sqldb.Conn) error {
		m, err := search.Compile(search.Options{Pattern: "rare7"})
		noErr(t, err)
		cands, ok, err := f.indexCandidates(c, m.IndexQuery())
		if !ok || len(cands) > int(st.Unindexed)+20 {
			t.Errorf("candidates for rare7: %d (usable %v), with %d unindexed", len(cands), ok, st.Unindexed)
		}
		return err
	}))
	check := func(every int) {
		t.Helper()
		for i, p := range indexPatterns {
			if i%every != 0 {
				continue
			}
			for _, o := range indexQueries {
				if !p.regex && o.Regex {
					continue
				}
				o.Regex = o.Regex || p.regex
				grepBoth(t, f, p.pattern, o)
				o.Mode, o.Page = GrepCount, Page{Limit: 7, Offset: 5}
				grepBoth(t, f, p.pattern, o)
			}
		}
	}
	check(1)
	// Below a directory, through a symlink, with globs, and a page after
	// a page.
	for _, dir := range []string{"/c", "/c/d3", "/clink", "/c/d3-link"} {
		grepBothIn(t, f, "needle", dir, GrepOptions{})
		grepBothIn(t, f, "needle", dir, GrepOptions{Include: []string{"**/*.go"}, Exclude: []string{"d3"}})
		grepBothIn(t, f, "rare", dir, GrepOptions{Exclude: []string{"d1*"}, Mode: GrepFiles})
	}
	o := GrepOptions{Page: Page{Limit: 2}}
	for o.Offset = 0; o.Offset < 12; o.Offset += 2 {
		grepBoth(t, f, "needle", o)
	}
	// Later rounds take a third of the patterns in -short.
	every := 1
	if testing.Short() {
		every = 3
	}
	probs, err := f.IndexCheck(bg)
	noErr(t, err)
	if len(probs) > 0 {
		t.Fatalf("IndexCheck: %+v", probs)
	}
	// Removing files leaves dead documents, which grep and check pass
	// over; a rebuild drops them.
	for i := 0; i < 700; i += 3 {
		noErr(t, f.Remove(bg, fmt.Sprintf("/c/d%d/f%d.go", i%17, i), nil))
	}
	check(every)
	st, err = f.IndexStatus(bg)
	noErr(t, err)
	if st.Dead == 0 {
		t.Errorf("after removing files: %+v, want dead documents", st)
	}
	probs, err = f.IndexCheck(bg)
	noErr(t, err)
	if len(probs) > 0 {
		t.Fatalf("IndexCheck after removals: %+v", probs)
	}
	st, err = f.RebuildIndex(bg)
	noErr(t, err)
	if st.Dead != 0 || st.Unindexed != 0 || st.Indexed == 0 {
		t.Errorf("after RebuildIndex: %+v, want everything indexed and nothing dead", st)
	}
	check(every)
}

// GC drops blocks whose documents are mostly dead; grep stays exact and
// the index sound.
func TestIndexCompaction(t *testing.T) {
	f := openTest(t)
	indexCorpus(t, f, 600, 3)
	_, err := f.RebuildIndex(bg)
	noErr(t, err)
	for i := 0; i < 600; i++ {
		if i%4 != 0 {
			noErr(t, f.Remove(bg, fmt.Sprintf("/c/d%d/f%d.go", i%17, i), nil))
		}
	}
	before, err := f.IndexStatus(bg)
	noErr(t, err)
	gc, err := f.GC(bg)
	noErr(t, err)
	after, err := f.IndexStatus(bg)
	noErr(t, err)
	if gc.IndexBlocks != before.Blocks || after.Blocks != 0 || after.Dead != 0 || after.Unindexed != before.Indexed {
		t.Errorf("GC dropped %d blocks: before %+v, after %+v; want all blocks dropped and their live chunks unindexed", gc.IndexBlocks, before, after)
	}
	grepBoth(t, f, "needle", GrepOptions{})
	grepBoth(t, f, "rare", GrepOptions{Mode: GrepFiles})
	// Writes index them again once they make a block.
	for i := range indexBlock - after.Unindexed {
		put(t, f, fmt.Sprintf("/new/%d.txt", i), fmt.Sprintf("needle %d\n", i))
	}
	f.waitIndex(bg)
	st, err := f.IndexStatus(bg)
	noErr(t, err)
	if st.Indexed != indexBlock || st.Unindexed != 0 || st.Dead != 0 {
		t.Errorf("after writes: %+v, want one block indexed and nothing else", st)
	}
	probs, err := f.IndexCheck(bg)
	noErr(t, err)
	if len(probs) > 0 {
		t.Errorf("IndexCheck: %+v", probs)
	}
	grepBoth(t, f, "needle", GrepOptions{})
}

// A corrupted posting list is reported by IndexCheck and fails grep with
// EIO rather than give wrong results.
func TestIndexCheckFindsCorruption(t *testing.T) {
	f := openTest(t)
	indexCorpus(t, f, 300, 2)
	noErr(t, f.db.Write(bg, func(c *sqldb.Conn) error {
		return c.Exec(`UPDATE vfs_tri_post SET lists = x'00' WHERE (blk, grp) = (SELECT blk, grp FROM vfs_tri_post LIMIT 1)`)
	}))
	probs, err := f.IndexCheck(bg)
	noErr(t, err)
	if len(probs) == 0 {
		t.Fatalf("IndexCheck found nothing wrong in a corrupted index")
	}
	t.Logf("%+v", probs[0])
}

// A workspace of schema v3 opens and migrates: its chunks are unindexed,
// grep finds what it holds, the first write starts the indexer, which
// indexes every whole block, and RebuildIndex indexes the rest.
func TestIndexMigrateV3(t *testing.T) {
	path := t.TempDir() + "/old.db"
	f, err := Open(bg, path, nil)
	noErr(t, err)
	indexCorpus(t, f, 1300, 4)
	noErr(t, f.SetIndex(bg, false))
	want, err := f.Grep(bg, "rare", "/", &GrepOptions{Mode: GrepFiles})
	noErr(t, err)
	// Back to what v3 stored: the same tables without the index (nor the
	// feed's path indexes of v5).
	noErr(t, f.db.Write(bg, func(c *sqldb.Conn) error {
		return c.Exec(`
DROP INDEX vfs_blobs_doc; DROP INDEX vfs_blobs_unindexed; DROP INDEX vfs_chunks_blob;
DROP INDEX vfs_dirents_inode; DROP INDEX vfs_nodes_large;
DROP TABLE vfs_tri_blocks; DROP TABLE vfs_tri_post;
DROP INDEX vfs_changes_path; DROP INDEX vfs_changes_old_path;
ALTER TABLE vfs_blobs DROP COLUMN doc;
ALTER TABLE vfs_state DROP COLUMN tri_on; ALTER TABLE vfs_state DROP COLUMN tri_pending; ALTER TABLE vfs_state DROP COLUMN tri_next;
UPDATE vfs_state SET schema_version = 3;`)
	}))
	noErr(t, f.Close())
	f, err = Open(bg, path, nil)
	noErr(t, err)
	defer f.Close()
	st, err := f.IndexStatus(bg)
	noErr(t, err)
	if !st.Enabled || st.Indexed != 0 || st.Unindexed < 1300 {
		t.Fatalf("after the migration: %+v, want the index on and every chunk unindexed", st)
	}
	got, err := f.Grep(bg, "rare", "/", &GrepOptions{Mode: GrepFiles})
	noErr(t, err)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("grep after the migration:\n%+v\nwant\n%+v", got, want)
	}
	put(t, f, "/one-more.txt", "rare\n")
	f.waitIndex(bg)
	all := st.Unindexed + 1
	st, err = f.IndexStatus(bg)
	noErr(t, err)
	if st.Indexed != all/indexBlock*indexBlock || st.Unindexed != all%indexBlock {
		t.Errorf("after one write: %+v, want the %d whole blocks of %d chunks indexed", st, all/indexBlock, all)
	}
	want.Files = append(want.Files, GrepFile{Path: "/one-more.txt", Count: 1})
	got, err = f.Grep(bg, "rare", "/", &GrepOptions{Mode: GrepFiles})
	noErr(t, err)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("grep after a write:\n%+v\nwant\n%+v", got, want)
	}
	st, err = f.RebuildIndex(bg)
	noErr(t, err)
	if st.Unindexed != 0 {
		t.Errorf("after RebuildIndex: %+v", st)
	}
	grepBoth(t, f, "rare", GrepOptions{Mode: GrepFiles})
}

// sortPairs orders by trigram and keeps offset order within one.
func TestSortPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var pairs []uint32
	for off := range uint32(indexBlock) {
		for range 50 {
			pairs = append(pairs, r.Uint32N(1<<24)<<indexBlockBits|off)
		}
	}
	want := slices.Clone(pairs)
	slices.SortStableFunc(want, func(a, b uint32) int { return cmp.Compare(a>>indexBlockBits, b>>indexBlockBits) })
	if got := sortPairs(pairs, make([]uint32, len(pairs))); !slices.Equal(got, want) {
		t.Errorf("sortPairs differs from a stable sort by trigram")
	}
}

// Unindexed blobs that are removed leave tri_pending too high; the
// indexer, finding fewer than a block, sets it right.
func TestIndexPendingCorrected(t *testing.T) {
	f := openTest(t)
	for i := range indexBlock - 1 {
		put(t, f, fmt.Sprintf("/p/%d", i), fmt.Sprintf("pending %d\n", i))
	}
	noErr(t, f.Remove(bg, "/p/0", nil))
	put(t, f, "/p/last", "last\n")
	f.waitIndex(bg)
	pending := func() (n int64) {
		noErr(t, f.db.Read(bg, func(c *sqldb.Conn) error {
			s, err := c.Query(`SELECT tri_pending FROM vfs_state`)
			if err != nil {
				return err
			}
			s.Step()
			n = s.ColumnInt64(0)
			return sqldb.Done(s, nil)
		}))
		return n
	}
	if got := pending(); got != indexBlock-1 {
		t.Errorf("tri_pending = %d, want %d (the unindexed blobs)", got, indexBlock-1)
	}
	put(t, f, "/p/one-more", "one more\n")
	f.waitIndex(bg)
	st, err := f.IndexStatus(bg)
	noErr(t, err)
	if st.Indexed != indexBlock || st.Unindexed != 0 || pending() != 0 {
		t.Errorf("after a block's worth: %+v, tri_pending %d", st, pending())
	}
}

// The indexer builds a block from what it read, then commits it: a chunk
// collected in between (or overwritten, so that its blob is another) gets
// no document, its offset is dead from the start, and grep and
// IndexCheck agree with the content.
func TestIndexCommitAfterRemoval(t *testing.T) {
	clk := newClock()
	f := openTest(t, withClock(clk), withGCWindow(time.Minute))
	for i := range indexBlock - 1 {
		put(t, f, fmt.Sprintf("/r/%d.txt", i), fmt.Sprintf("needle %d\n", i))
	}
	var blocks []*indexedBlock
	noErr(t, f.db.Read(bg, func(c *sqldb.Conn) (err error) {
		blocks, _, err = prepareBlocks(c, 0, true)
		return err
	}))
	if len(blocks) != 1 || len(blocks[0].ids) != indexBlock-1 {
		t.Fatalf("prepared %d blocks, want one of %d chunks", len(blocks), indexBlock-1)
	}
	noErr(t, f.Remove(bg, "/r/3.txt", nil))
	clk.Advance(2 * time.Minute)
	gcOf(t, f)
	noErr(t, f.update(bg, "index", "", func(t *wtx) error {
		_, err := t.commitBlocks(blocks)
		return err
	}))
	st, err := f.IndexStatus(bg)
	noErr(t, err)
	if st.Blocks != 1 || st.Indexed != indexBlock-2 || st.Dead != 1 || st.Unindexed != 0 {
		t.Errorf("after the commit: %+v, want one block of %d live chunks and one dead", st, indexBlock-2)
	}
	probs, err := f.IndexCheck(bg)
	noErr(t, err)
	if len(probs) > 0 {
		t.Errorf("IndexCheck: %+v", probs)
	}
	grepBoth(t, f, "needle 3", GrepOptions{})
	grepBoth(t, f, "needle", GrepOptions{Mode: GrepFiles})
	got, err := f.Grep(bg, "needle 3", "/r", &GrepOptions{Mode: GrepFiles})
	noErr(t, err)
	want := []GrepFile{}
	for i := 30; i < 40; i++ {
		want = append(want, GrepFile{Path: fmt.Sprintf("/r/%d.txt", i), Count: 1})
	}
	if !reflect.DeepEqual(got.Files, want) {
		t.Errorf("grep -l 'needle 3' = %+v, want %+v (not the removed /r/3.txt)", got.Files, want)
	}
}

// Closing the FS while the indexer catches up stops it between or inside
// its transactions: the workspace reopens with a sound index, grep is
// exact, and the next write starts the indexer again.
func TestIndexCloseWhileIndexing(t *testing.T) {
	path := t.TempDir() + "/ws.db"
	f, err := Open(bg, path, nil)
	noErr(t, err)
	noErr(t, f.SetIndex(bg, false))
	indexCorpus(t, f, 1300, 7)
	noErr(t, f.SetIndex(bg, true)) // starts the indexer on 1,300 chunks
	noErr(t, f.Close())
	f, err = Open(bg, path, nil)
	noErr(t, err)
	defer f.Close()
	probs, err := f.IndexCheck(bg)
	noErr(t, err)
	if len(probs) > 0 {
		t.Fatalf("IndexCheck after a close mid-way: %+v", probs)
	}
	grepBoth(t, f, "rare", GrepOptions{Mode: GrepFiles})
	put(t, f, "/after-reopen.txt", "rare\n")
	f.waitIndex(bg)
	st, err := f.IndexStatus(bg)
	noErr(t, err)
	if st.Unindexed >= indexBlock {
		t.Errorf("after a write and the indexer: %+v, want less than a block unindexed", st)
	}
	grepBoth(t, f, "rare", GrepOptions{Mode: GrepFiles})
}
