package vfs

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"math"

	"github.com/nookdev/nook/internal/sqldb"
)

// ChunkSize is the size of every content chunk but a file's last. See
// RATIONALE.md for why this size.
const ChunkSize = 256 << 10

// buildFilter computes a chunk's grep prefilter (set by search integration).
var buildFilter = func(data []byte) []byte { return nil }

// chunk is content ready to store: its bytes, address and grep filter.
type chunk struct {
	data   []byte
	hash   [32]byte
	filter []byte
}

func newChunk(data []byte) chunk {
	return chunk{data: data, hash: sha256.Sum256(data), filter: buildFilter(data)}
}

// chunkRef is a stored chunk of a file.
type chunkRef struct {
	blob   int64
	size   int64
	filter []byte // its trigram filter
}

// maxChunks bounds a file's chunk count, so that filterID is unique.
const maxChunks = 1 << 20

// filterID is the key of chunk idx of inode in vfs_filters.
func filterID(inode, idx int64) int64 { return inode<<20 | idx }

// putBlob stores ch (or finds it already stored) and adds refs references.
// A blob stored with zero references is staged: GC may collect it once it is
// older than the GC window.
func (t *wtx) putBlob(ch chunk, refs int64) (int64, error) {
	c := t.c
	id, found, err := findBlob(c, ch.hash)
	if err != nil {
		return 0, err
	}
	if found {
		if refs != 0 {
			return id, t.refBlob(id, refs)
		}
		// Staged again: restart its window, and mark a referenced blob as
		// staged too, so that a write dropping its last reference leaves
		// it for the streaming write that is about to link it (refBlob).
		return id, c.Exec(`UPDATE vfs_blobs SET unref_at = ? WHERE id = ?`, t.now, id)
	}
	var unref any
	if refs == 0 {
		unref = t.now
	}
	if err := c.Exec(`INSERT INTO vfs_blobs(id, hash, size, refs, unref_at) VALUES (?, ?, ?, ?, ?)`,
		id, ch.hash[:], int64(len(ch.data)), refs, unref); err != nil {
		return 0, err
	}
	t.newBlobs++
	data := ch.data
	if data == nil {
		data = []byte{}
	}
	return id, c.Exec(`INSERT INTO vfs_blob_data(id, data) VALUES (?, ?)`, id, data)
}

// findBlob looks a blob up by hash. Its id is the hash's first 63 bits; on
// the (astronomically rare) collision of those bits the next free id is
// taken, so lookups probe forward until the hash or a free id turns up.
// When not found, id is where the blob goes.
func findBlob(c *sqldb.Conn, hash [32]byte) (id int64, found bool, err error) {
	id = int64(binary.BigEndian.Uint64(hash[:8]) >> 1)
	for {
		s, err := c.Query(`SELECT hash FROM vfs_blobs WHERE id = ?`, id)
		if err != nil {
			return 0, false, err
		}
		exists := s.Step()
		same := exists && bytes.Equal(s.ColumnRawBlob(0), hash[:])
		if err := sqldb.Done(s, nil); err != nil {
			return 0, false, err
		}
		if !exists || same {
			return id, same, nil
		}
		id = (id + 1) & math.MaxInt64
	}
}

// refBlob adds delta references to a blob. A blob that loses its last
// reference is deleted at once, in this transaction: keeping it for GC made
// every small write of a file leave a whole dead chunk behind (6,000
// appends of 29 bytes grew the database to half a gigabyte). Only a blob
// staged within the GC window (by a streaming write that has yet to link
// it: its unref_at is that recent) waits for GC.
func (t *wtx) refBlob(id, delta int64) error {
	if delta < 0 {
		s, err := t.c.Query(`SELECT refs, coalesce(unref_at, 0) FROM vfs_blobs WHERE id = ?`, id)
		if err != nil {
			return err
		}
		var refs, staged int64
		found := s.Step()
		if found {
			refs, staged = s.ColumnInt64(0), s.ColumnInt64(1)
		}
		if err := sqldb.Done(s, nil); err != nil {
			return err
		}
		if found && refs+delta <= 0 && (staged == 0 || staged <= t.now-t.f.gcWin.Nanoseconds()) {
			if err := t.c.Exec(`DELETE FROM vfs_blob_data WHERE id = ?`, id); err != nil {
				return err
			}
			return t.c.Exec(`DELETE FROM vfs_blobs WHERE id = ?`, id)
		}
	}
	return t.c.Exec(`UPDATE vfs_blobs SET refs = refs + ?1,
		unref_at = CASE WHEN refs + ?1 = 0 THEN ?2 ELSE unref_at END WHERE id = ?3`, delta, t.now, id)
}

// dropChunks removes a file's chunks from index from on, releasing their blobs.
func (t *wtx) dropChunks(inode, from int64) error {
	s, err := t.c.Query(`SELECT blob FROM vfs_chunks WHERE inode = ? AND idx >= ?`, inode, from)
	if err != nil {
		return err
	}
	var blobs []int64
	for s.Step() {
		blobs = append(blobs, s.ColumnInt64(0))
	}
	if err := sqldb.Done(s, nil); err != nil {
		return err
	}
	for _, b := range blobs {
		if err := t.refBlob(b, -1); err != nil {
			return err
		}
	}
	if len(blobs) == 0 {
		return nil
	}
	if err := t.c.Exec(`DELETE FROM vfs_filters WHERE id >= ? AND id < ?`, filterID(inode, from), filterID(inode+1, 0)); err != nil {
		return err
	}
	return t.c.Exec(`DELETE FROM vfs_chunks WHERE inode = ? AND idx >= ?`, inode, from)
}

// setChunk makes blob the chunk at idx of inode (its reference must already
// be counted), releasing the blob it replaces.
func (t *wtx) setChunk(inode, idx int64, ref chunkRef) error {
	s, err := t.c.Query(`SELECT blob FROM vfs_chunks WHERE inode = ? AND idx = ?`, inode, idx)
	if err != nil {
		return err
	}
	old := int64(-1)
	if s.Step() {
		old = s.ColumnInt64(0)
	}
	if err := sqldb.Done(s, nil); err != nil {
		return err
	}
	filter := ref.filter
	if filter == nil {
		filter = []byte{}
	}
	if err := t.c.Exec(`INSERT OR REPLACE INTO vfs_filters(id, filter) VALUES (?, ?)`, filterID(inode, idx), filter); err != nil {
		return err
	}
	if old >= 0 {
		if err := t.refBlob(old, -1); err != nil {
			return err
		}
		return t.c.Exec(`UPDATE vfs_chunks SET blob = ?, size = ? WHERE inode = ? AND idx = ?`, ref.blob, ref.size, inode, idx)
	}
	return t.c.Exec(`INSERT INTO vfs_chunks(inode, idx, blob, size) VALUES (?, ?, ?, ?)`, inode, idx, ref.blob, ref.size)
}

// addContent gives a new, empty file inode its chunks.
func (t *wtx) addContent(inode int64, refs []chunkRef) error {
	for i, r := range refs {
		if err := t.insertChunk(inode, int64(i), r); err != nil {
			return err
		}
	}
	return nil
}

// insertChunk adds chunk idx of inode, which has none there yet.
func (t *wtx) insertChunk(inode, idx int64, ref chunkRef) error {
	filter := ref.filter
	if filter == nil {
		filter = []byte{}
	}
	if err := t.c.Exec(`INSERT INTO vfs_filters(id, filter) VALUES (?, ?)`, filterID(inode, idx), filter); err != nil {
		return err
	}
	return t.c.Exec(`INSERT INTO vfs_chunks(inode, idx, blob, size) VALUES (?, ?, ?, ?)`, inode, idx, ref.blob, ref.size)
}

// replaceContent makes refs the whole content of inode.
func (t *wtx) replaceContent(inode int64, refs []chunkRef) error {
	if err := t.dropChunks(inode, int64(len(refs))); err != nil {
		return err
	}
	for i, r := range refs {
		if err := t.setChunk(inode, int64(i), r); err != nil {
			return err
		}
	}
	return nil
}

// readChunk returns a copy of chunk idx of inode (nil if absent).
func readChunk(c *sqldb.Conn, inode, idx int64) ([]byte, error) {
	s, err := c.Query(`SELECT d.data FROM vfs_chunks c JOIN vfs_blob_data d ON d.id = c.blob
		WHERE c.inode = ? AND c.idx = ?`, inode, idx)
	if err != nil {
		return nil, err
	}
	var out []byte
	if s.Step() {
		out = s.ColumnBlob(0, []byte{})
	}
	return out, sqldb.Done(s, nil)
}

// readAt copies the bytes of inode (size bytes long) at off into p and
// returns how many it copied (less than len(p) only at the end of the file).
func readAt(c *sqldb.Conn, path string, inode, size int64, p []byte, off int64) (int, error) {
	if off >= size || len(p) == 0 {
		return 0, nil
	}
	end := min(size, off+int64(len(p)))
	first, last := off/ChunkSize, (end-1)/ChunkSize
	s, err := c.Query(`SELECT c.idx, d.data FROM vfs_chunks c JOIN vfs_blob_data d ON d.id = c.blob
		WHERE c.inode = ? AND c.idx BETWEEN ? AND ? ORDER BY c.idx`, inode, first, last)
	if err != nil {
		return 0, err
	}
	want := first
	n := 0
	for s.Step() {
		idx := s.ColumnInt64(0)
		if idx != want {
			break
		}
		data := s.ColumnRawBlob(1)
		start := idx * ChunkSize
		lo := max(off, start) - start
		hi := min(end, start+int64(len(data))) - start
		if lo < hi {
			n += copy(p[max(off, start)-off:], data[lo:hi])
		}
		want++
	}
	if err := sqldb.Done(s, nil); err != nil {
		return n, err
	}
	if want <= last {
		return n, perr("read", path, EIO, "missing chunk data for")
	}
	return int(end - off), nil
}

// rewrite writes data at off into inode (currently size bytes), making the
// file newSize bytes long (newSize >= off+len(data)); bytes between the old
// end and off read as zeros. Only the chunks the write touches are rebuilt.
func (t *wtx) rewrite(path string, inode, size, off int64, data []byte, newSize int64) error {
	if newSize < size {
		if err := t.truncate(path, inode, size, newSize); err != nil {
			return err
		}
		size = newSize
	}
	if newSize == 0 {
		return nil
	}
	// From the chunk holding the old end (zero-extended when the write
	// starts past it) or the first written chunk, whichever comes first.
	from := min(off, size) / ChunkSize
	last := (newSize - 1) / ChunkSize
	var zero *chunkRef
	for idx := from; idx <= last; idx++ {
		start := idx * ChunkSize
		end := min(start+ChunkSize, newSize)
		wlo, whi := max(off, start), min(off+int64(len(data)), end)
		oldEnd := min(size, end)
		if wlo >= whi && oldEnd >= end {
			continue // neither written nor grown
		}
		if wlo >= whi && oldEnd <= start && end-start == ChunkSize {
			// A whole chunk of the gap: one shared zero chunk.
			if zero == nil {
				ch := newChunk(make([]byte, ChunkSize))
				id, err := t.putBlob(ch, 0)
				if err != nil {
					return err
				}
				zero = &chunkRef{blob: id, size: ChunkSize, filter: ch.filter}
			}
			if err := t.refBlob(zero.blob, 1); err != nil {
				return err
			}
			if err := t.setChunk(inode, idx, *zero); err != nil {
				return err
			}
			continue
		}
		buf := make([]byte, end-start)
		if oldEnd > start && !(wlo == start && whi == end) {
			old, err := readChunk(t.c, inode, idx)
			if err != nil {
				return err
			}
			copy(buf, old[:min(int64(len(old)), oldEnd-start)])
		}
		if wlo < whi {
			copy(buf[wlo-start:], data[wlo-off:whi-off])
		}
		ch := newChunk(buf)
		id, err := t.putBlob(ch, 1)
		if err != nil {
			return err
		}
		if err := t.setChunk(inode, idx, chunkRef{blob: id, size: int64(len(buf)), filter: ch.filter}); err != nil {
			return err
		}
	}
	return nil
}

// truncate shortens inode from size to newSize bytes.
func (t *wtx) truncate(path string, inode, size, newSize int64) error {
	if newSize >= size {
		return nil
	}
	keep := (newSize + ChunkSize - 1) / ChunkSize
	if err := t.dropChunks(inode, keep); err != nil {
		return err
	}
	if rem := newSize % ChunkSize; rem != 0 {
		idx := keep - 1
		old, err := readChunk(t.c, inode, idx)
		if err != nil {
			return err
		}
		if int64(len(old)) < rem {
			return perr("truncate", path, EIO, "missing chunk data for")
		}
		ch := newChunk(old[:rem])
		id, err := t.putBlob(ch, 1)
		if err != nil {
			return err
		}
		return t.setChunk(inode, idx, chunkRef{blob: id, size: rem, filter: ch.filter})
	}
	return nil
}
