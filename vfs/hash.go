package vfs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"

	"github.com/nookdev/nook/internal/sqldb"
)

// HashContent returns the content hash of data as ContentHash reports it
// for a file holding data: the hex SHA-256 of data when it fits in one
// chunk, and otherwise the hex SHA-256 of the concatenated SHA-256 hashes of
// its ChunkSize pieces. It identifies content, so tools can tell whether a
// file changed since it was read.
func HashContent(data []byte) string {
	if len(data) <= ChunkSize {
		h := sha256.Sum256(data)
		return hex.EncodeToString(h[:])
	}
	outer := sha256.New()
	for off := 0; off < len(data); off += ChunkSize {
		h := sha256.Sum256(data[off:min(off+ChunkSize, len(data))])
		outer.Write(h[:])
	}
	return hex.EncodeToString(outer.Sum(nil))
}

// ContentHash returns the content hash (see HashContent) of the file name,
// following symlinks. It reads the stored chunk hashes, not the content, so
// it costs the same for any file size. A file in a read-only mount has no
// stored hash, and can never change through the workspace: its hash is "".
func (f *FS) ContentHash(ctx context.Context, name string) (string, error) {
	const op = "hash"
	p, err := f.clean(op, name)
	if err != nil {
		return "", err
	}
	var out string
	err = f.view(ctx, op, p, func(c *sqldb.Conn) error {
		out, err = contentHash(f, c, op, p)
		return err
	})
	return out, err
}

// ContentHash is FS.ContentHash inside the batch.
func (b *Batch) ContentHash(name string) (string, error) {
	p, err := b.f.clean("hash", name)
	if err != nil {
		return "", err
	}
	return contentHash(b.f, b.t.c, "hash", p)
}

func contentHash(f *FS, c *sqldb.Conn, op, p string) (string, error) {
	res, err := f.resolve(c, p, true)
	return contentHashRes(c, op, p, res, err)
}

// contentHashRes is contentHash once p is resolved (to res, or to err).
func contentHashRes(c *sqldb.Conn, op, p string, res resolution, err error) (string, error) {
	if err != nil {
		return "", resolveErr(op, p, err, "no such file")
	}
	switch {
	case res.n == nil:
		return "", perr(op, p, ENOENT, "no such file")
	case res.n.typ == TypeDir:
		return "", perr(op, p, EISDIR, "path is a directory")
	case res.mnt != nil:
		return "", nil
	}
	s, err := c.Query(`SELECT b.hash FROM vfs_chunks c JOIN vfs_blobs b ON b.id = c.blob WHERE c.inode = ? ORDER BY c.idx`, res.n.inode)
	if err != nil {
		return "", err
	}
	var hashes [][]byte
	for s.Step() {
		hashes = append(hashes, s.ColumnBlob(0, nil))
	}
	if err := sqldb.Done(s, nil); err != nil {
		return "", err
	}
	switch len(hashes) {
	case 0:
		return HashContent(nil), nil
	case 1:
		return hex.EncodeToString(hashes[0]), nil
	}
	outer := sha256.New()
	for _, h := range hashes {
		outer.Write(h)
	}
	return hex.EncodeToString(outer.Sum(nil)), nil
}
