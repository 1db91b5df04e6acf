package fleet

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// The write-ahead log's layout (sqlite.org/fileformat2.html#walformat):
// a 32-byte header (magic, version, page size, checkpoint sequence, two
// salts, two checksums), then frames of a 24-byte header (page number,
// database size in pages for a commit frame or 0, the two salts, two
// checksums) and one page each.
const (
	walHeaderSize = 32
	walFrameHead  = 24
)

// page is one database page of a commit.
type page struct {
	no   uint32
	data []byte
}

// walTail reads the pages each commit appends to a database's write-ahead
// log. It is used from the commit hook, with the write lock held, so the
// log cannot change under it. When SQLite restarts the log after a
// checkpoint (new salts), reading starts again after the header.
type walTail struct {
	path string // the -wal file
	salt [8]byte
	off  int64 // just after the last commit frame read
}

// next returns the pages committed since the previous call, the last
// version of each, with the database size (in pages) and page size after
// the last of those commits; none when nothing was committed.
func (w *walTail) next() (pages []page, dbPages uint32, pgsz int, err error) {
	f, err := os.Open(w.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, 0, nil
	}
	if err != nil {
		return nil, 0, 0, err
	}
	defer f.Close()
	var hdr [walHeaderSize]byte
	if _, err := io.ReadFull(f, hdr[:]); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return nil, 0, 0, nil
		}
		return nil, 0, 0, err
	}
	if m := binary.BigEndian.Uint32(hdr[0:]); m != 0x377f0682 && m != 0x377f0683 {
		return nil, 0, 0, fmt.Errorf("%s: not a write-ahead log (magic %#x)", w.path, m)
	}
	pgsz = int(binary.BigEndian.Uint32(hdr[8:]))
	if pgsz == 1 {
		pgsz = 65536
	}
	if !bytes.Equal(hdr[16:24], w.salt[:]) {
		copy(w.salt[:], hdr[16:24])
		w.off = walHeaderSize
	}
	st, err := f.Stat()
	if err != nil {
		return nil, 0, 0, err
	}
	if st.Size() <= w.off {
		return nil, 0, pgsz, nil
	}
	buf := make([]byte, st.Size()-w.off)
	if _, err := f.ReadAt(buf, w.off); err != nil && !errors.Is(err, io.EOF) {
		return nil, 0, 0, err
	}
	// The last commit frame ends what is committed: frames after it
	// belong to a transaction still open or rolled back.
	frame := walFrameHead + pgsz
	var used int64
	for p := 0; p+frame <= len(buf); p += frame {
		h := buf[p : p+walFrameHead]
		if !bytes.Equal(h[8:16], w.salt[:]) {
			break // a frame of an earlier generation of the log
		}
		if size := binary.BigEndian.Uint32(h[4:]); size != 0 {
			dbPages, used = size, int64(p+frame)
		}
	}
	if used == 0 {
		return nil, 0, pgsz, nil
	}
	w.off += used
	index := map[uint32]int{} // page number → position in pages
	for p := 0; p < int(used); p += frame {
		no := binary.BigEndian.Uint32(buf[p:])
		data := buf[p+walFrameHead : p+frame]
		if i, ok := index[no]; ok {
			pages[i].data = data
		} else {
			index[no] = len(pages)
			pages = append(pages, page{no, data})
		}
	}
	return pages, dbPages, pgsz, nil
}

// applyPages writes pages into a database file and sets its size.
func applyPages(f *os.File, pages []page, dbPages uint32, pgsz int) error {
	for _, p := range pages {
		if len(p.data) != pgsz {
			return fmt.Errorf("page %d: %d bytes, want %d", p.no, len(p.data), pgsz)
		}
		if _, err := f.WriteAt(p.data, int64(p.no-1)*int64(pgsz)); err != nil {
			return err
		}
	}
	return f.Truncate(int64(dbPages) * int64(pgsz))
}
