package main

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/nookdev/nook/internal/sqldb"
	"github.com/nookdev/nook/internal/wsdb"
	"github.com/nookdev/nook/vfs"
)

// The --json shapes of stat, ls and changes, pinned against the values the
// database stores (12 Unix mode bits, nanosecond times): modes are 4-digit
// octal strings, times RFC 3339 with nanoseconds. The vfs API speaks
// fs.FileMode and time.Time; this output must not change with it.
func TestJSONModesAndTimes(t *testing.T) {
	w := newWS(t)
	w.okIn([]byte("hi\n"), "put", "--mode", "4755", "/run.sh")
	w.ok("mkdir", "--mode", "2770", "/d")
	stat := w.ok("--json", "stat", "/run.sh")
	statDir := w.ok("--json", "stat", "/d")
	ls := w.ok("--json", "ls", "/")
	changes := w.ok("--json", "changes")

	ctx := context.Background()
	f, err := vfs.Open(ctx, w.db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type row struct {
		inode, mode, mtime, ctime, atime, rev int64
	}
	stored := func(p string) (r row) {
		fi, err := f.Lstat(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		err = wsdb.DB(f).Read(ctx, func(c *sqldb.Conn) error {
			s, err := c.Query(`SELECT inode, mode, mtime, ctime, atime, rev FROM vfs_nodes WHERE inode = ?`, fi.Inode)
			if err != nil {
				return err
			}
			if s.Step() {
				r = row{s.ColumnInt64(0), s.ColumnInt64(1), s.ColumnInt64(2), s.ColumnInt64(3), s.ColumnInt64(4), s.ColumnInt64(5)}
			}
			return sqldb.Done(s, nil)
		})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	ts := func(ns int64) string { return time.Unix(0, ns).Format(time.RFC3339Nano) }
	file, dir := stored("/run.sh"), stored("/d")
	if file.mode != 0o4755 || dir.mode != 0o2770 {
		t.Fatalf("stored modes %04o %04o, want 4755 2770", file.mode, dir.mode)
	}
	equal(t, "stat --json", stat, fmt.Sprintf(`{"path":"/run.sh","type":"file","mode":"4755","size":3,"inode":%d,"nlink":1,"mtime":"%s","ctime":"%s","atime":"%s","rev":%d}`+"\n",
		file.inode, ts(file.mtime), ts(file.ctime), ts(file.atime), file.rev))
	equal(t, "stat --json of a directory", statDir, fmt.Sprintf(`{"path":"/d","type":"dir","mode":"2770","size":0,"inode":%d,"nlink":1,"mtime":"%s","ctime":"%s","atime":"%s","rev":%d}`+"\n",
		dir.inode, ts(dir.mtime), ts(dir.ctime), ts(dir.atime), dir.rev))
	equal(t, "ls --json", ls, fmt.Sprintf(`{"path":"/","entries":[{"path":"/d","name":"d","type":"dir","mode":"2770","size":0,"mtime":"%s","inode":%d},{"path":"/run.sh","name":"run.sh","type":"file","mode":"4755","size":3,"mtime":"%s","inode":%d}]}`+"\n",
		ts(dir.mtime), dir.inode, ts(file.mtime), file.inode))
	equal(t, "changes --json", changes, fmt.Sprintf(`{"rev":%d,"changes":[{"seq":1,"rev":%d,"op":"create","path":"/run.sh","type":"file","time":"%s"},{"seq":2,"rev":%d,"op":"create","path":"/d","type":"dir","time":"%s"}]}`+"\n",
		dir.rev, file.rev, ts(file.ctime), dir.rev, ts(dir.ctime)))
}
