package vfs

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/nookdev/nook/internal/sqldb"
	"github.com/nookdev/nook/vfs/internal/search"
)

// The trigram index (see RATIONALE.md, "Trigram index"). Chunks are
// indexed by content, not by file: a stored blob gets a document number
// (vfs_blobs.doc) when it is indexed, and the posting list of a trigram
// in a block of indexBlock consecutive documents lists the blob documents
// whose data contains it. A file whose content is one chunk is a
// candidate for a grep when its blob's document satisfies the query;
// larger files, whose matches may straddle chunks, are judged by their
// per-chunk filters as before.
//
// New blobs are unindexed (doc NULL) until indexBlock of them have
// accumulated; the write transaction that reaches that number indexes them
// as one new block, whose posting rows are all inserts at the end of the
// table. Grep scans the files of unindexed blobs, so the index is never
// stale, only incomplete. A blob's removal deletes its row and with it its
// document number, which the block's postings still name until the block
// is rewritten (RebuildIndex; GC compacts blocks that are mostly dead).
const (
	// indexBlockBits sets the block size: documents of a block are
	// blk<<indexBlockBits | i.
	indexBlockBits = 8
	indexBlock     = 1 << indexBlockBits
	// indexMergeBlocks bounds how many blocks one step of the indexer
	// indexes, so that a workspace migrated with many unindexed blobs
	// catches up in short transactions instead of one long one.
	indexMergeBlocks = 4
	// indexBlockPairs bounds the (trigram, document) pairs of one block
	// (4 bytes each while it is built): a block of large chunks ends
	// early.
	indexBlockPairs = 4 << 20
	// grepMaxUnindexed is the number of unindexed blobs beyond which grep
	// does not use the index (it would scan most files anyway).
	grepMaxUnindexed = 4 * indexBlock
)

// schemaV4 adds the trigram index.
//
//   - vfs_blobs.doc: the blob's document number in the index, NULL while
//     it is unindexed (vfs_blobs_unindexed finds those).
//   - vfs_tri_blocks: one row per block of documents: how many it holds.
//   - vfs_tri_post: the posting lists of the trigrams t with t>>8 = grp
//     in block blk: for each, the documents' offsets in the block, delta+
//     varint encoded (search.AppendGroupEntry). Keyed by block first, so
//     indexing a block appends at the end of the table.
//   - vfs_chunks_blob: from a candidate blob to the files made of it;
//     vfs_dirents_inode: from a candidate file to its names, so a grep
//     with few candidates need not walk the tree; vfs_nodes_large: the
//     files of more than one chunk (ChunkSize), which grep judges by
//     their filters.
//   - vfs_state.tri_on: whether the index is kept (SetIndex);
//     tri_pending: an upper bound on the unindexed blobs, so that a write
//     need not count them; tri_next: the next block number.
const schemaV4 = `
ALTER TABLE vfs_blobs ADD COLUMN doc INTEGER;
CREATE UNIQUE INDEX vfs_blobs_doc ON vfs_blobs(doc) WHERE doc IS NOT NULL;
CREATE INDEX vfs_blobs_unindexed ON vfs_blobs(id) WHERE doc IS NULL;
CREATE INDEX vfs_chunks_blob ON vfs_chunks(blob);
CREATE INDEX vfs_dirents_inode ON vfs_dirents(inode);
CREATE INDEX vfs_nodes_large ON vfs_nodes(inode) WHERE size > 262144;
CREATE TABLE vfs_tri_blocks(
	blk INTEGER PRIMARY KEY,
	docs INTEGER NOT NULL
);
CREATE TABLE vfs_tri_post(
	blk INTEGER NOT NULL,
	grp INTEGER NOT NULL,
	lists BLOB NOT NULL,
	PRIMARY KEY (blk, grp)
) WITHOUT ROWID;
ALTER TABLE vfs_state ADD COLUMN tri_on INTEGER NOT NULL DEFAULT 1;
ALTER TABLE vfs_state ADD COLUMN tri_pending INTEGER NOT NULL DEFAULT 0;
ALTER TABLE vfs_state ADD COLUMN tri_next INTEGER NOT NULL DEFAULT 0;
UPDATE vfs_state SET tri_pending = (SELECT count(*) FROM vfs_blobs) WHERE id = 1;
`

// IndexStatus describes a workspace's trigram index.
type IndexStatus struct {
	Enabled   bool  // the index is kept and used (SetIndex)
	Indexed   int64 // stored chunks in the index
	Unindexed int64 // stored chunks not yet indexed, which grep scans
	Blocks    int64 // blocks of documents
	Dead      int64 // documents of removed chunks still named by postings
	Rows      int64 // rows of posting lists (each of the trigrams that share their last two bytes)
	Bytes     int64 // bytes of posting lists (without SQLite's row overhead)
}

// IndexProblem is an inconsistency IndexCheck found.
type IndexProblem struct {
	Block int64  // the block, or -1
	Doc   int64  // the document, or -1
	Text  string // what is wrong
}

// indexedBlock is a block of documents prepared outside the write lock:
// its blobs by offset (with their hashes, so that the commit can tell
// that each is still the same unindexed blob) and its posting rows.
type indexedBlock struct {
	ids    []int64
	hashes [][]byte
	grps   []int64 // the rows' groups, ascending
	lists  []byte  // the rows' lists, end to end
	ends   []int   // where each row's lists end in lists
}

// prepareBlocks reads unindexed blobs and builds their blocks: whole
// blocks only unless all is set, at most maxBlocks of them (0: no bound).
// It only reads, so it runs in a read transaction while writers go on.
// unindexed is the number of unindexed blobs when they were fewer than
// one block (else -1).
func prepareBlocks(c *sqldb.Conn, maxBlocks int, all bool) (blocks []*indexedBlock, unindexed int, err error) {
	limit := -1
	if maxBlocks > 0 {
		limit = maxBlocks * indexBlock
	}
	s, err := c.Query(`SELECT b.id, b.hash, d.data FROM vfs_blobs b JOIN vfs_blob_data d ON d.id = b.id
		WHERE b.doc IS NULL ORDER BY b.id LIMIT ?`, limit)
	if err != nil {
		return nil, 0, err
	}
	sc := getScratch()
	defer putScratch(sc)
	tg, tris, pairs, tmp := &sc.tg, sc.tris[:0], sc.pairs[:0], sc.tmp[:0]
	defer func() { sc.tris, sc.pairs, sc.tmp = tris, pairs, tmp }()
	var cur *indexedBlock
	n := 0
	finish := func() {
		if cur != nil {
			tmp = slices.Grow(tmp[:0], len(pairs))[:len(pairs)]
			cur.encode(sortPairs(pairs, tmp))
			blocks = append(blocks, cur)
		}
		cur, pairs = nil, pairs[:0]
	}
	for s.Step() {
		n++
		if cur != nil && (len(cur.ids) == indexBlock || len(pairs) >= indexBlockPairs) {
			finish()
		}
		if cur == nil {
			cur = &indexedBlock{}
		}
		off := uint32(len(cur.ids))
		cur.ids = append(cur.ids, s.ColumnInt64(0))
		cur.hashes = append(cur.hashes, s.ColumnBlob(1, nil))
		tris = tg.AppendDistinct(tris[:0], s.ColumnRawBlob(2))
		for _, tri := range tris {
			pairs = append(pairs, tri<<indexBlockBits|off)
		}
	}
	if err := sqldb.Done(s, nil); err != nil {
		return nil, 0, err
	}
	if cur != nil && (all || len(cur.ids) == indexBlock || len(pairs) >= indexBlockPairs) {
		finish()
	}
	unindexed = -1
	if n < indexBlock {
		unindexed = n
	}
	return blocks, unindexed, nil
}

// blockScratch is prepareBlocks' working memory: a block's pairs are a
// few MB (4 bytes each), and the trigram table 2 MiB, which allocating
// and zeroing for each block cost a quarter of the indexer's time. One is
// kept for the process (a sync.Pool lost it to every GC cycle of a busy
// import); concurrent indexers of other workspaces allocate their own.
type blockScratch struct {
	tg         search.Trigrammer
	tris       []uint32
	pairs, tmp []uint32
}

var spareScratch = make(chan *blockScratch, 1)

func getScratch() *blockScratch {
	select {
	case sc := <-spareScratch:
		return sc
	default:
		return new(blockScratch)
	}
}

// keepPairs bounds the pairs a kept scratch holds room for (4 MB each of
// pairs and tmp; a block of Go source needs about 700,000): a block of
// large chunks does not pin its 16 MB in the process.
const keepPairs = 1 << 20

func putScratch(sc *blockScratch) {
	if cap(sc.pairs) > keepPairs || cap(sc.tmp) > keepPairs {
		sc.pairs, sc.tmp = nil, nil
	}
	select {
	case spareScratch <- sc:
	default:
	}
}

// A pair packs a trigram and a document's offset in its block into 32
// bits, tri<<indexBlockBits | offset: this fails to compile if
// indexBlockBits grows past 8.
const _ = uint32(1<<(32-24-indexBlockBits)) - 1

// encode builds the block's posting rows from its (trigram, offset)
// pairs, sorted by trigram.
func (b *indexedBlock) encode(pairs []uint32) {
	var offs []uint32
	b.lists = make([]byte, 0, len(pairs)+len(pairs)/4) // a byte an offset, and each trigram's low byte and length
	for i := 0; i < len(pairs); {
		grp := pairs[i] >> (8 + indexBlockBits)
		for i < len(pairs) && pairs[i]>>(8+indexBlockBits) == grp {
			tri := pairs[i] >> indexBlockBits
			offs = offs[:0]
			for ; i < len(pairs) && pairs[i]>>indexBlockBits == tri; i++ {
				offs = append(offs, pairs[i]&(indexBlock-1))
			}
			b.lists = search.AppendGroupEntry(b.lists, byte(tri), offs)
		}
		b.grps = append(b.grps, int64(grp))
		b.ends = append(b.ends, len(b.lists))
	}
}

// commitBlocks writes prepared blocks as the next blocks of the index and
// gives their blobs document numbers. A blob that is gone, or was indexed
// meanwhile (by another process), gets none: its offset is a dead
// document from the start, which grep and IndexCheck treat as any other.
// A block none of whose blobs is left is not written. It returns the
// number of blobs indexed.
func (t *wtx) commitBlocks(blocks []*indexedBlock) (int, error) {
	c := t.c
	s, err := c.Query(`SELECT tri_next FROM vfs_state WHERE id = 1`)
	if err != nil {
		return 0, err
	}
	var blk int64
	if s.Step() {
		blk = s.ColumnInt64(0)
	}
	if err := sqldb.Done(s, nil); err != nil {
		return 0, err
	}
	done := 0
	for _, b := range blocks {
		live := 0
		for off, id := range b.ids {
			if err := c.Exec(`UPDATE vfs_blobs SET doc = ? WHERE id = ? AND doc IS NULL AND hash = ?`,
				blk<<indexBlockBits|int64(off), id, b.hashes[off]); err != nil {
				return done, err
			}
			live += int(c.Changes())
		}
		if live == 0 {
			continue
		}
		if err := t.insertBlock(blk, b); err != nil {
			return done, err
		}
		done, blk = done+live, blk+1
	}
	return done, c.Exec(`UPDATE vfs_state SET tri_next = ?, tri_pending = (SELECT count(*) FROM vfs_blobs WHERE doc IS NULL) WHERE id = 1`, blk)
}

// insertBlock writes block blk's rows, insertRows to a statement.
func (t *wtx) insertBlock(blk int64, b *indexedBlock) error {
	args := make([]any, 0, 3*insertRows)
	start := 0
	for r, end := range b.ends {
		args = append(args, blk, b.grps[r], b.lists[start:end])
		start = end
		if len(args) == 3*insertRows {
			if err := t.c.Exec(insertPostings, args...); err != nil {
				return err
			}
			args = args[:0]
		}
	}
	// The rest, one statement per row.
	for r := 0; r < len(args); r += 3 {
		if err := t.c.Exec(`INSERT INTO vfs_tri_post(blk, grp, lists) VALUES (?, ?, ?)`, args[r], args[r+1], args[r+2]); err != nil {
			return err
		}
	}
	return t.c.Exec(`INSERT INTO vfs_tri_blocks(blk, docs) VALUES (?, ?)`, blk, len(b.ids))
}

// sortPairs sorts (trigram, offset) pairs that were appended in offset
// order by trigram, keeping that order among a trigram's pairs: a stable
// radix sort on the 24 trigram bits (above the offset's), two passes of
// 12, which took a fraction of the time of a comparison sort of the
// ~700,000 pairs of a block of Go source. tmp, as long as pairs, is its scratch space.
func sortPairs(pairs, tmp []uint32) []uint32 {
	for shift := indexBlockBits; shift < indexBlockBits+24; shift += 12 {
		var count [1 << 12]int
		for _, p := range pairs {
			count[p>>shift&(1<<12-1)]++
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, p := range pairs {
			k := p >> shift & (1<<12 - 1)
			tmp[count[k]] = p
			count[k]++
		}
		pairs, tmp = tmp, pairs
	}
	return pairs
}

// Posting rows are inserted insertRows to a statement: one statement per
// row spent most of a block's time entering and leaving SQLite.
const insertRows = 128

var insertPostings = `INSERT INTO vfs_tri_post(blk, grp, lists) VALUES (?, ?, ?)` + strings.Repeat(`, (?, ?, ?)`, insertRows-1)

func blobData(c *sqldb.Conn, id int64) ([]byte, error) {
	s, err := c.Query(`SELECT data FROM vfs_blob_data WHERE id = ?`, id)
	if err != nil {
		return nil, err
	}
	var data []byte
	if s.Step() {
		data = s.ColumnBlob(0, nil)
	}
	return data, sqldb.Done(s, nil)
}

// indexWrite runs at the end of a write transaction that stored new blobs:
// it counts them as unindexed, and once there are a block's worth has the
// transaction start the indexer after it commits.
func (t *wtx) indexWrite() error {
	if !t.triOn || t.newBlobs == 0 {
		return nil
	}
	if t.triPending+t.newBlobs >= indexBlock {
		t.kickIndex = true
	}
	return t.c.Exec(`UPDATE vfs_state SET tri_pending = tri_pending + ? WHERE id = 1`, t.newBlobs)
}

// indexer indexes new blobs off the writes' path: a goroutine, started by
// the commit of a write that brings the unindexed blobs to a block's
// worth, that runs while whole blocks are unindexed. Each step reads up to
// indexMergeBlocks blocks of blobs and builds their posting lists in a
// read transaction, then writes them in a short write transaction of its
// own (see RATIONALE.md, "Trigram index").
type indexer struct {
	mu     sync.Mutex
	active bool          // the goroutine runs
	again  bool          // a write asked for a step since the last began
	done   chan struct{} // closed when the running goroutine ends
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	step   sync.Mutex // one preparation and commit at a time (the goroutine, RebuildIndex)
}

// kickIndex starts the indexer unless it runs (then it takes one more
// step) or the FS is closed.
func (f *FS) kickIndex() {
	ix := &f.idx
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.active {
		ix.again = true
		return
	}
	if f.closed.Load() || ix.ctx.Err() != nil {
		return
	}
	ix.active, ix.again, ix.done = true, false, make(chan struct{})
	ix.wg.Add(1)
	go f.runIndexer()
}

func (f *FS) runIndexer() {
	ix := &f.idx
	defer ix.wg.Done()
	for {
		n, err := f.indexStep(ix.ctx, indexMergeBlocks, false)
		ix.mu.Lock()
		if err == nil && (n > 0 || ix.again) && ix.ctx.Err() == nil {
			ix.again = false
			ix.mu.Unlock()
			continue
		}
		// An error (the FS closing, a busy database) leaves the blobs
		// unindexed, which grep scans; the next write that stores a blob
		// starts the indexer again.
		ix.active = false
		close(ix.done)
		ix.mu.Unlock()
		return
	}
}

// waitIndex returns when the indexer is idle: every whole block of
// unindexed blobs this process's writes asked for is indexed, or the
// indexer stopped on an error, or ctx ended.
func (f *FS) waitIndex(ctx context.Context) {
	ix := &f.idx
	ix.mu.Lock()
	active, done := ix.active, ix.done
	ix.mu.Unlock()
	if active {
		select {
		case <-done:
		case <-ctx.Done():
		}
	}
}

// correctPending runs when the indexer found less than a block to index:
// tri_pending overcounted (blobs were removed unindexed), and is set
// right so that the next writes do not start the indexer again; unless
// a block's worth was committed since the indexer looked, which starts
// it again.
func (t *wtx) correctPending(unindexed int) error {
	if unindexed < 0 {
		return nil
	}
	s, err := t.c.Query(`SELECT count(*) FROM (SELECT 1 FROM vfs_blobs WHERE doc IS NULL LIMIT ?)`, indexBlock)
	if err != nil {
		return err
	}
	s.Step()
	n := s.ColumnInt64(0)
	if err := sqldb.Done(s, nil); err != nil {
		return err
	}
	if n >= indexBlock {
		t.kickIndex = true
		return nil
	}
	if n == t.triPending {
		return nil
	}
	return t.c.Exec(`UPDATE vfs_state SET tri_pending = ? WHERE id = 1`, n)
}

// stopIndex stops the indexer and waits for it (Close).
func (f *FS) stopIndex() {
	f.idx.cancel()
	f.idx.wg.Wait()
}

// indexStep indexes up to maxBlocks blocks of unindexed blobs (whole
// blocks only unless all is set) and returns how many blobs it indexed.
func (f *FS) indexStep(ctx context.Context, maxBlocks int, all bool) (int, error) {
	ix := &f.idx
	ix.step.Lock()
	defer ix.step.Unlock()
	var blocks []*indexedBlock
	unindexed := -1
	on := false
	err := f.db.Read(ctx, func(c *sqldb.Conn) error {
		s, err := c.Query(`SELECT tri_on FROM vfs_state WHERE id = 1`)
		if err != nil {
			return err
		}
		on = s.Step() && s.ColumnInt(0) != 0
		if err := sqldb.Done(s, nil); err != nil || !on {
			return err
		}
		blocks, unindexed, err = prepareBlocks(c, maxBlocks, all)
		return err
	})
	if err != nil || !on {
		return 0, err
	}
	n := 0
	err = f.updateRaw(ctx, "index", "", func(t *wtx) (err error) {
		if !t.triOn {
			return nil
		}
		if len(blocks) == 0 {
			return t.correctPending(unindexed)
		}
		n, err = t.commitBlocks(blocks)
		return err
	})
	return n, err
}

// compactIndex drops the blocks of which more than half the documents are
// dead, making their live blobs unindexed again, and returns how many it
// dropped.
func (t *wtx) compactIndex() (int64, error) {
	c := t.c
	s, err := c.Query(`SELECT blk FROM vfs_tri_blocks b WHERE 2 * (SELECT count(*) FROM vfs_blobs
		WHERE doc >= b.blk << ?1 AND doc < (b.blk + 1) << ?1) < b.docs`, indexBlockBits)
	if err != nil {
		return 0, err
	}
	var blocks []int64
	for s.Step() {
		blocks = append(blocks, s.ColumnInt64(0))
	}
	if err := sqldb.Done(s, nil); err != nil || len(blocks) == 0 {
		return 0, err
	}
	for _, blk := range blocks {
		if err := c.Exec(`UPDATE vfs_blobs SET doc = NULL WHERE doc >= ? AND doc < ?`, blk<<indexBlockBits, (blk+1)<<indexBlockBits); err != nil {
			return 0, err
		}
		if err := c.Exec(`DELETE FROM vfs_tri_post WHERE blk = ?`, blk); err != nil {
			return 0, err
		}
		if err := c.Exec(`DELETE FROM vfs_tri_blocks WHERE blk = ?`, blk); err != nil {
			return 0, err
		}
	}
	t.dirty = true
	t.kickIndex = true
	return int64(len(blocks)), c.Exec(`UPDATE vfs_state SET tri_pending = (SELECT count(*) FROM vfs_blobs WHERE doc IS NULL) WHERE id = 1`)
}

// clearIndex empties the index: every blob becomes unindexed.
func (t *wtx) clearIndex() error {
	return t.c.Exec(`
DELETE FROM vfs_tri_post;
DELETE FROM vfs_tri_blocks;
UPDATE vfs_blobs SET doc = NULL WHERE doc IS NOT NULL;
UPDATE vfs_state SET tri_pending = (SELECT count(*) FROM vfs_blobs), tri_next = 0 WHERE id = 1;`)
}

// SetIndex turns the workspace's trigram index on or off. Off, writes do
// not maintain it and grep scans every file's filters as without an
// index; turning it off also deletes it. Turned on, chunks are indexed
// as writes store new ones, a few blocks at a time (RebuildIndex indexes
// them all at once). The setting is kept in the workspace.
func (f *FS) SetIndex(ctx context.Context, on bool) error {
	return f.update(ctx, "index", "", func(t *wtx) error {
		if !on {
			if err := t.clearIndex(); err != nil {
				return err
			}
		}
		t.kickIndex = on
		return t.c.Exec(`UPDATE vfs_state SET tri_on = ?, tri_pending = (SELECT count(*) FROM vfs_blobs WHERE doc IS NULL) WHERE id = 1`, on)
	})
}

// RebuildIndex deletes the trigram index and indexes every stored chunk
// again, leaving no dead documents. It works in transactions of a few
// blocks each, so other writers and readers interleave; grep stays exact
// throughout (it scans what is not yet indexed). It fails with EPERM when
// the index is off.
func (f *FS) RebuildIndex(ctx context.Context) (*IndexStatus, error) {
	const op = "index rebuild"
	st, err := f.IndexStatus(ctx)
	if err != nil {
		return nil, err
	}
	if !st.Enabled {
		return nil, perr(op, "", EPERM, "the trigram index is off in this workspace (SetIndex)")
	}
	if err := f.update(ctx, op, "", func(t *wtx) error { return t.clearIndex() }); err != nil {
		return nil, err
	}
	for {
		n, err := f.indexStep(ctx, 4*indexMergeBlocks, true)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			break
		}
	}
	return f.IndexStatus(ctx)
}

// IndexStatus reports the size and state of the trigram index.
func (f *FS) IndexStatus(ctx context.Context) (*IndexStatus, error) {
	st := &IndexStatus{}
	err := f.view(ctx, "index", "", func(c *sqldb.Conn) error {
		s, err := c.Query(`SELECT tri_on,
			(SELECT count(*) FROM vfs_blobs WHERE doc IS NOT NULL),
			(SELECT count(*) FROM vfs_blobs WHERE doc IS NULL),
			(SELECT count(*) FROM vfs_tri_blocks),
			(SELECT coalesce(sum(docs), 0) FROM vfs_tri_blocks),
			(SELECT count(*) FROM vfs_tri_post),
			(SELECT coalesce(sum(length(lists)), 0) FROM vfs_tri_post)
			FROM vfs_state WHERE id = 1`)
		if err != nil {
			return err
		}
		if s.Step() {
			st.Enabled = s.ColumnInt(0) != 0
			st.Indexed, st.Unindexed, st.Blocks = s.ColumnInt64(1), s.ColumnInt64(2), s.ColumnInt64(3)
			st.Dead = s.ColumnInt64(4) - st.Indexed
			st.Rows, st.Bytes = s.ColumnInt64(5), s.ColumnInt64(6)
		}
		return sqldb.Done(s, nil)
	})
	return st, err
}

// IndexCheck verifies the trigram index against the stored chunks: every
// posting list decodes and names documents of its block, every indexed
// chunk's trigrams are exactly those whose postings name it, and document
// numbers are unique and within known blocks. It returns what it found
// wrong (nothing for a sound index). It reads every indexed chunk.
func (f *FS) IndexCheck(ctx context.Context) ([]IndexProblem, error) {
	var probs []IndexProblem
	add := func(blk, doc int64, format string, args ...any) {
		probs = append(probs, IndexProblem{Block: blk, Doc: doc, Text: fmt.Sprintf(format, args...)})
	}
	err := f.view(ctx, "index check", "", func(c *sqldb.Conn) error {
		blocks := map[int64]int64{}
		s, err := c.Query(`SELECT blk, docs FROM vfs_tri_blocks`)
		if err != nil {
			return err
		}
		for s.Step() {
			blocks[s.ColumnInt64(0)] = s.ColumnInt64(1)
		}
		if err := sqldb.Done(s, nil); err != nil {
			return err
		}
		var next int64
		s, err = c.Query(`SELECT tri_next FROM vfs_state WHERE id = 1`)
		if err != nil {
			return err
		}
		if s.Step() {
			next = s.ColumnInt64(0)
		}
		if err := sqldb.Done(s, nil); err != nil {
			return err
		}
		// Live documents by block.
		live := map[int64]map[int64]int64{} // blk -> offset -> blob
		s, err = c.Query(`SELECT id, doc FROM vfs_blobs WHERE doc IS NOT NULL`)
		if err != nil {
			return err
		}
		for s.Step() {
			id, doc := s.ColumnInt64(0), s.ColumnInt64(1)
			blk, off := doc>>indexBlockBits, doc&(indexBlock-1)
			n, ok := blocks[blk]
			switch {
			case !ok:
				add(blk, doc, "chunk %d has a document in no block", id)
			case off >= n:
				add(blk, doc, "chunk %d has a document past its block's %d", id, n)
			default:
				if live[blk] == nil {
					live[blk] = map[int64]int64{}
				}
				live[blk][off] = id
			}
		}
		if err := sqldb.Done(s, nil); err != nil {
			return err
		}
		var tg search.Trigrammer
		for blk, n := range blocks {
			if blk >= next {
				add(blk, -1, "block at or past the next block number %d", next)
			}
			if n <= 0 || n > indexBlock {
				add(blk, -1, "block of %d documents", n)
			}
			// The trigrams the postings give each document.
			got := map[int64][]uint32{}
			s, err := c.Query(`SELECT grp, lists FROM vfs_tri_post WHERE blk = ? ORDER BY grp`, blk)
			if err != nil {
				return err
			}
			var offs []uint32
			for s.Step() {
				grp := uint32(s.ColumnInt64(0))
				err := search.GroupEntries(s.ColumnRawBlob(1), func(low byte, list []byte) error {
					tri := grp<<8 | uint32(low)
					var err error
					offs, err = search.DecodePostings(offs[:0], list, uint32(n-1))
					if err != nil {
						add(blk, -1, "trigram %06x: %v", tri, err)
					}
					for _, o := range offs {
						got[int64(o)] = append(got[int64(o)], tri)
					}
					return nil
				})
				if err != nil {
					add(blk, -1, "trigrams %04xxx: %v", grp, err)
				}
			}
			if err := sqldb.Done(s, nil); err != nil {
				return err
			}
			for off, id := range live[blk] {
				data, err := blobData(c, id)
				if err != nil {
					return err
				}
				if want := tg.Trigrams(data); !slices.Equal(got[off], want) {
					add(blk, blk<<indexBlockBits|off, "chunk %d: the postings give %d trigrams, its data has %d", id, len(got[off]), len(want))
				}
			}
		}
		return nil
	})
	slices.SortStableFunc(probs, func(a, b IndexProblem) int {
		if a.Block != b.Block {
			return int(a.Block - b.Block)
		}
		return int(a.Doc - b.Doc)
	})
	return probs, err
}

// indexCandidates returns the files the trigram index cannot rule out for
// q: by inode, those whose single chunk's document satisfies q or is not
// indexed. ok is false when the index cannot be used (it is off, q has no
// usable trigram, or too much is unindexed): then every file is a
// candidate.
func (f *FS) indexCandidates(c *sqldb.Conn, q *search.IndexQuery) (cands map[int64]bool, ok bool, err error) {
	if q == nil || f.grepScan {
		return nil, false, nil
	}
	s, err := c.Query(`SELECT tri_on, tri_pending FROM vfs_state WHERE id = 1`)
	if err != nil {
		return nil, false, err
	}
	var on bool
	var pending int64
	if s.Step() {
		on, pending = s.ColumnInt(0) != 0, s.ColumnInt64(1)
	}
	if err := sqldb.Done(s, nil); err != nil || !on {
		return nil, false, err
	}
	cands = map[int64]bool{}
	addBlob := func(blob int64) error {
		s, err := c.Query(`SELECT inode FROM vfs_chunks WHERE blob = ?`, blob)
		if err != nil {
			return err
		}
		for s.Step() {
			cands[s.ColumnInt64(0)] = true
		}
		return sqldb.Done(s, nil)
	}
	// The files of unindexed blobs (tri_pending bounds their number from
	// above).
	if pending > grepMaxUnindexed {
		s, err := c.Query(`SELECT count(*) FROM (SELECT 1 FROM vfs_blobs WHERE doc IS NULL LIMIT ?)`, grepMaxUnindexed+1)
		if err != nil {
			return nil, false, err
		}
		s.Step()
		pending = s.ColumnInt64(0)
		if err := sqldb.Done(s, nil); err != nil || pending > grepMaxUnindexed {
			return nil, false, err
		}
	}
	s, err = c.Query(`SELECT c.inode FROM vfs_blobs b JOIN vfs_chunks c ON c.blob = b.id WHERE b.doc IS NULL`)
	if err != nil {
		return nil, false, err
	}
	for s.Step() {
		cands[s.ColumnInt64(0)] = true
	}
	if err := sqldb.Done(s, nil); err != nil {
		return nil, false, err
	}
	if q.None() {
		return cands, true, nil
	}
	tris := q.Trigrams()
	s, err = c.Query(`SELECT blk FROM vfs_tri_blocks ORDER BY blk`)
	if err != nil {
		return nil, false, err
	}
	var blocks []int64
	for s.Step() {
		blocks = append(blocks, s.ColumnInt64(0))
	}
	if err := sqldb.Done(s, nil); err != nil {
		return nil, false, err
	}
	postings := make(map[uint32][]uint32, len(tris))
	for _, blk := range blocks {
		clear(postings)
		for i := 0; i < len(tris); {
			grp := tris[i] >> 8
			s, err := c.Query(`SELECT lists FROM vfs_tri_post WHERE blk = ? AND grp = ?`, blk, int64(grp))
			if err != nil {
				return nil, false, err
			}
			found := s.Step()
			for ; i < len(tris) && tris[i]>>8 == grp; i++ {
				if !found || err != nil {
					continue
				}
				var list []byte
				if list, err = search.GroupList(s.ColumnRawBlob(0), byte(tris[i])); err == nil && list != nil {
					postings[tris[i]], err = search.DecodePostings(nil, list, indexBlock-1)
				}
			}
			if err := sqldb.Done(s, err); err != nil {
				return nil, false, fmt.Errorf("trigram index block %d: %w", blk, err)
			}
		}
		for _, off := range q.Eval(postings, nil) {
			s, err := c.Query(`SELECT id FROM vfs_blobs WHERE doc = ?`, blk<<indexBlockBits|int64(off))
			if err != nil {
				return nil, false, err
			}
			blob, live := int64(0), s.Step()
			if live {
				blob = s.ColumnInt64(0)
			}
			if err := sqldb.Done(s, nil); err != nil {
				return nil, false, err
			}
			if live {
				if err := addBlob(blob); err != nil {
					return nil, false, err
				}
			}
		}
	}
	return cands, true, nil
}
