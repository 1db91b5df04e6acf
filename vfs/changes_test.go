package vfs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nookdev/nook/internal/sqldb"
)

// chg is the part of a Change a test predicts.
type chg struct {
	op   ChangeOp
	path string
	old  string
	kind Type
}

func (c chg) String() string {
	if c.old != "" {
		return fmt.Sprintf("%s %s->%s (%v)", c.op, c.old, c.path, c.kind)
	}
	return fmt.Sprintf("%s %s (%v)", c.op, c.path, c.kind)
}

func chgs(cs []Change) []chg {
	var out []chg
	for _, c := range cs {
		out = append(out, chg{c.Op, c.Path, c.OldPath, c.Kind})
	}
	return out
}

func TestChangesOps(t *testing.T) {
	clk := newClock()
	f := openTest(t, withClock(clk))
	if r := revOf(t, f); r != 1 {
		t.Errorf("fresh workspace at revision %d, want 1", r)
	}
	var h *File
	steps := []struct {
		name string
		do   func() error
		want []chg
	}{
		{"create", func() error { return f.WriteFile(bg, "/a", []byte("1"), nil) }, []chg{{OpCreate, "/a", "", TypeFile}}},
		{"overwrite", func() error { return f.WriteFile(bg, "/a", []byte("22"), nil) }, []chg{{OpWrite, "/a", "", TypeFile}}},
		{"mkdir", func() error { return f.Mkdir(bg, "/d", 0) }, []chg{{OpCreate, "/d", "", TypeDir}}},
		{"mkdir -p", func() error { return f.MkdirAll(bg, "/x/y/z", 0) }, []chg{
			{OpCreate, "/x", "", TypeDir}, {OpCreate, "/x/y", "", TypeDir}, {OpCreate, "/x/y/z", "", TypeDir}}},
		{"write -p", func() error { return f.WriteFile(bg, "/n/e/f", []byte("f"), &WriteOptions{MkdirAll: true}) }, []chg{
			{OpCreate, "/n", "", TypeDir}, {OpCreate, "/n/e", "", TypeDir}, {OpCreate, "/n/e/f", "", TypeFile}}},
		{"rename", func() error { return f.Rename(bg, "/a", "/d/a") }, []chg{{OpRename, "/d/a", "/a", TypeFile}}},
		{"chmod", func() error { return f.Chmod(bg, "/d/a", 0o600) }, []chg{{OpChmod, "/d/a", "", TypeFile}}},
		{"chtimes", func() error { return f.Chtimes(bg, "/d/a", time.Unix(1, 0), time.Unix(2, 0)) }, []chg{{OpChtimes, "/d/a", "", TypeFile}}},
		{"symlink", func() error { return f.Symlink(bg, "/d/a", "/l") }, []chg{{OpCreate, "/l", "", TypeSymlink}}},
		{"write via link", func() error { return f.WriteFile(bg, "/l", []byte("333"), nil) }, []chg{{OpWrite, "/d/a", "", TypeFile}}},
		{"rename dir", func() error { return f.Rename(bg, "/x", "/x2") }, []chg{{OpRename, "/x2", "/x", TypeDir}}},
		{"rm -r", func() error { return f.Remove(bg, "/x2", &RemoveOptions{Recursive: true}) }, []chg{{OpRemove, "/x2", "", TypeDir}}},
		{"rm link", func() error { return f.Remove(bg, "/l", nil) }, []chg{{OpRemove, "/l", "", TypeSymlink}}},
		{"streamed create", func() error { return f.WriteFile(bg, "/big", make([]byte, 2*ChunkSize+1), nil) }, []chg{{OpCreate, "/big", "", TypeFile}}},
		{"open create", func() error {
			var err error
			h, err = f.OpenFile(bg, "/h", os.O_RDWR|os.O_CREATE, 0)
			return err
		}, []chg{{OpCreate, "/h", "", TypeFile}}},
		{"handle write", func() error {
			if _, err := h.Write([]byte("hello handle")); err != nil {
				return err
			}
			return h.Close()
		}, []chg{{OpWrite, "/h", "", TypeFile}}},
		{"open trunc", func() error {
			var err error
			h, err = f.OpenFile(bg, "/h", os.O_RDWR|os.O_TRUNC, 0)
			return err
		}, []chg{{OpWrite, "/h", "", TypeFile}}},
		{"handle truncate", func() error { return h.Truncate(10) }, []chg{{OpWrite, "/h", "", TypeFile}}},
		{"close clean handle", func() error { return h.Close() }, nil},
		{"no-op rename", func() error { return f.Rename(bg, "/h", "/h") }, nil},
		{"no-op mkdir -p", func() error { return f.MkdirAll(bg, "/n/e", 0) }, nil},
		{"failed write", func() error {
			if err := f.WriteFile(bg, "/nope/x", nil, nil); err == nil {
				return fmt.Errorf("write succeeded")
			}
			return nil
		}, nil},
	}
	var seq int64
	for _, st := range steps {
		prev := revOf(t, f)
		now := clk.Advance(time.Second)
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		rev := revOf(t, f)
		got, err := f.Changes(bg, prev, 0)
		noErr(t, err)
		if !slices.Equal(chgs(got), st.want) {
			t.Errorf("%s: changes %v, want %v", st.name, chgs(got), st.want)
		}
		if st.want == nil {
			if rev != prev {
				t.Errorf("%s: revision moved %d -> %d without changes", st.name, prev, rev)
			}
			continue
		}
		if rev != prev+1 {
			t.Errorf("%s: revision %d -> %d, want one step", st.name, prev, rev)
		}
		for _, c := range got {
			if c.Rev != rev || !c.Time.Equal(now) || c.Seq <= seq {
				t.Errorf("%s: %+v (rev %d, time %d, previous seq %d)", st.name, c, rev, now.UnixNano(), seq)
			}
			seq = c.Seq
		}
	}
	// The whole feed, from the start, in order.
	all, err := f.Changes(bg, 0, 1000)
	noErr(t, err)
	var want []chg
	for _, st := range steps {
		want = append(want, st.want...)
	}
	if !slices.Equal(chgs(all), want) {
		t.Errorf("whole feed:\n got %v\nwant %v", chgs(all), want)
	}
	for i := 1; i < len(all); i++ {
		if all[i].Seq <= all[i-1].Seq || all[i].Rev < all[i-1].Rev {
			t.Errorf("feed out of order at %d: %+v after %+v", i, all[i], all[i-1])
		}
	}
}

func TestChangesPaging(t *testing.T) {
	f := openTest(t)
	put(t, f, "/a", "a")                  // rev 2: 1 change
	noErr(t, f.MkdirAll(bg, "/x/y/z", 0)) // rev 3: 3 changes
	put(t, f, "/n/e/f", "f")              // rev 4: 3 changes
	noErr(t, f.Remove(bg, "/a", nil))     // rev 5: 1 change
	all, err := f.Changes(bg, 0, 0)
	noErr(t, err)
	if len(all) != 8 {
		t.Fatalf("%d changes: %v", len(all), chgs(all))
	}
	for _, tc := range []struct {
		since   int64
		limit   int
		wantLen int
	}{
		{0, 1, 1},
		{2, 1, 1},
		{2, 2, 2},
		{2, 3, 3},
		{2, 4, 4},
		{2, 100, 7},
		{1, 2, 2},
		{4, 1, 1},
		{5, 1, 0},
		{100, 1, 0},
	} {
		got, err := f.Changes(bg, tc.since, tc.limit)
		noErr(t, err)
		if len(got) != tc.wantLen {
			t.Errorf("Changes(%d, %d) = %d entries, want %d: %v", tc.since, tc.limit, len(got), tc.wantLen, chgs(got))
		}
		for _, c := range got {
			if c.Rev <= tc.since {
				t.Errorf("Changes(%d) returned rev %d", tc.since, c.Rev)
			}
		}
	}
	// Paging with limit 1 from the last entry's Seq reassembles the feed,
	// splitting revisions.
	paged, err := f.Changes(bg, 0, 1)
	noErr(t, err)
	for i := 0; i < 20; i++ {
		got, err := f.ChangesAfter(bg, paged[len(paged)-1].Seq, 1)
		noErr(t, err)
		if len(got) == 0 {
			break
		}
		paged = append(paged, got...)
	}
	if !slices.Equal(paged, all) {
		t.Errorf("paged feed %v\nwant %v", chgs(paged), chgs(all))
	}
	_, err = f.Changes(bg, 0, -1)
	expectErr(t, err, EINVAL, "limit must be a non-negative integer, got -1")
}

func recv(t *testing.T, ch <-chan Change) Change {
	t.Helper()
	select {
	case c, ok := <-ch:
		if !ok {
			t.Fatal("watch channel closed early")
		}
		return c
	case <-time.After(5 * time.Second):
		t.Fatal("no change delivered within 5s")
	}
	panic("unreachable")
}

func TestWatch(t *testing.T) {
	f := openTest(t)
	put(t, f, "/a", "a")
	noErr(t, f.MkdirAll(bg, "/x/y", 0))
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	ch := f.Watch(ctx, 0)
	var got []chg
	for range 3 {
		got = append(got, chgs([]Change{recv(t, ch)})...)
	}
	want := []chg{{OpCreate, "/a", "", TypeFile}, {OpCreate, "/x", "", TypeDir}, {OpCreate, "/x/y", "", TypeDir}}
	if !slices.Equal(got, want) {
		t.Errorf("existing changes %v, want %v", got, want)
	}
	// New changes arrive as they commit.
	put(t, f, "/b", "b")
	if c := recv(t, ch); c.Op != OpCreate || c.Path != "/b" {
		t.Errorf("new change %+v", c)
	}
	noErr(t, f.Rename(bg, "/b", "/c"))
	if c := recv(t, ch); c.Op != OpRename || c.Path != "/c" || c.OldPath != "/b" {
		t.Errorf("new change %+v", c)
	}
	// A handle's write is delivered once flushed.
	h := openH(t, f, "/a", os.O_WRONLY, 0)
	writeAll(t, h, []byte("x"))
	noErr(t, h.Close())
	if c := recv(t, ch); c.Op != OpWrite || c.Path != "/a" {
		t.Errorf("handle write change %+v", c)
	}
	// A watcher from the current revision sees only later changes.
	ch2 := f.Watch(ctx, revOf(t, f))
	put(t, f, "/d", "d")
	if c := recv(t, ch2); c.Path != "/d" {
		t.Errorf("second watcher got %+v", c)
	}
	if c := recv(t, ch); c.Path != "/d" {
		t.Errorf("first watcher got %+v", c)
	}
	cancel()
	deadline := time.After(5 * time.Second)
	for _, c := range []<-chan Change{ch, ch2} {
		for open := true; open; {
			select {
			case _, open = <-c:
			case <-deadline:
				t.Fatal("watch channel not closed after cancel")
			}
		}
	}
}

func TestChangesPruned(t *testing.T) {
	f := openTest(t, withLimits(Limits{MaxChanges: 2}))
	for i := 1; i <= 5; i++ {
		put(t, f, fmt.Sprintf("/%d", i), "x") // revs 2..6
	}
	rev := revOf(t, f)
	st, err := f.GC(bg)
	noErr(t, err)
	if st.Changes != 3 {
		t.Errorf("GC pruned %d changes, want 3", st.Changes)
	}
	if r := revOf(t, f); r != rev {
		t.Errorf("GC moved the revision %d -> %d", rev, r)
	}
	_, err = f.Changes(bg, 0, 0)
	expectErr(t, err, EINVAL, "changes up to revision 4 were pruned (asked from 0)")
	_, err = f.Changes(bg, 3, 0)
	expectErr(t, err, EINVAL, "changes up to revision 4 were pruned (asked from 3)")
	got, err := f.Changes(bg, 4, 0)
	noErr(t, err)
	if want := []chg{{OpCreate, "/4", "", TypeFile}, {OpCreate, "/5", "", TypeFile}}; !slices.Equal(chgs(got), want) {
		t.Errorf("Changes(4) = %v", chgs(got))
	}
	// A watcher that is behind the pruned feed ends.
	ctx, cancel := context.WithTimeout(bg, 5*time.Second)
	defer cancel()
	ch := f.Watch(ctx, 0)
	select {
	case _, open := <-ch:
		if open {
			t.Error("a watcher behind the pruned feed got a change")
		}
	case <-ctx.Done():
		t.Error("a watcher behind the pruned feed was not closed")
	}
	// Pruning again removes nothing more.
	st, err = f.GC(bg)
	noErr(t, err)
	if st.Changes != 0 {
		t.Errorf("second GC pruned %d", st.Changes)
	}
}

// Pruning must not leave part of a revision: a reader allowed to start from
// a revision must get every change of every later revision.
func TestChangesPruneKeepsRevisionsWhole(t *testing.T) {
	f := openTest(t, withLimits(Limits{MaxChanges: 3}))
	noErr(t, f.MkdirAll(bg, "/a/b/c", 0)) // rev 2: 3 changes
	put(t, f, "/f", "f")                  // rev 3: 1 change
	orig, err := f.Changes(bg, 0, 0)
	noErr(t, err)
	byRev := map[int64][]chg{}
	for _, c := range orig {
		byRev[c.Rev] = append(byRev[c.Rev], chg{c.Op, c.Path, c.OldPath, c.Kind})
	}
	_, err = f.GC(bg)
	noErr(t, err)
	for since := int64(0); since <= revOf(t, f); since++ {
		got, err := f.Changes(bg, since, 0)
		if err != nil {
			expectCode(t, err, EINVAL)
			continue
		}
		gotBy := map[int64][]chg{}
		for _, c := range got {
			gotBy[c.Rev] = append(gotBy[c.Rev], chg{c.Op, c.Path, c.OldPath, c.Kind})
		}
		for r, want := range byRev {
			if r > since && !slices.Equal(gotBy[r], want) {
				t.Errorf("after pruning, Changes(%d) gives revision %d as %v, want %v", since, r, gotBy[r], want)
			}
		}
	}
}

// RecentChanges pages back from the feed's end, newest first.
func TestRecentChanges(t *testing.T) {
	f := openTest(t)
	put(t, f, "/a", "a")
	noErr(t, f.MkdirAll(bg, "/x/y", 0))
	noErr(t, f.Rename(bg, "/a", "/b"))
	all, err := f.Changes(bg, 0, 0)
	noErr(t, err)
	slices.Reverse(all)
	got, err := f.RecentChanges(bg, 0, 0)
	noErr(t, err)
	if !slices.Equal(got, all) {
		t.Fatalf("RecentChanges(0, 0) = %v, want %v", chgs(got), chgs(all))
	}
	page, err := f.RecentChanges(bg, 0, 2)
	noErr(t, err)
	rest, err := f.RecentChanges(bg, page[1].Seq, 10)
	noErr(t, err)
	if !slices.Equal(append(page, rest...), all) {
		t.Fatalf("two pages %v + %v, want %v", chgs(page), chgs(rest), chgs(all))
	}
	if got[0].Op != "rename" || got[0].OldPath != "/a" || got[0].Path != "/b" {
		t.Errorf("newest change %v", got[0])
	}
	if _, err := f.RecentChanges(bg, 0, -1); err == nil || err.Error() != "limit must be a non-negative integer, got -1" || !errors.Is(err, EINVAL) {
		t.Errorf("negative limit: %v", err)
	}
}

// PathChanges gives one path's entries, newest first, renames to and from
// it included, and pages back by Seq.
func TestPathChanges(t *testing.T) {
	f := openTest(t)
	put(t, f, "/a", "1")
	put(t, f, "/other", "x")
	put(t, f, "/a", "22")
	noErr(t, f.Chmod(bg, "/a", 0o600))
	noErr(t, f.Rename(bg, "/a", "/b"))
	put(t, f, "/b", "333")
	noErr(t, f.Rename(bg, "/b", "/a"))
	noErr(t, f.Remove(bg, "/other", nil))
	noErr(t, f.Remove(bg, "/a", nil))
	wantA := []chg{
		{OpRemove, "/a", "", TypeFile},
		{OpRename, "/a", "/b", TypeFile},
		{OpRename, "/b", "/a", TypeFile},
		{OpChmod, "/a", "", TypeFile},
		{OpWrite, "/a", "", TypeFile},
		{OpCreate, "/a", "", TypeFile},
	}
	got, err := f.PathChanges(bg, "/./a/", 0, 0)
	noErr(t, err)
	if !slices.Equal(chgs(got), wantA) {
		t.Fatalf("PathChanges(/a) = %v, want %v", chgs(got), wantA)
	}
	for i := 1; i < len(got); i++ {
		if got[i].Seq >= got[i-1].Seq {
			t.Errorf("seq %d after %d: not newest first", got[i].Seq, got[i-1].Seq)
		}
	}
	wantB := []chg{{OpRename, "/a", "/b", TypeFile}, {OpWrite, "/b", "", TypeFile}, {OpRename, "/b", "/a", TypeFile}}
	gotB, err := f.PathChanges(bg, "/b", 0, 0)
	noErr(t, err)
	if !slices.Equal(chgs(gotB), wantB) {
		t.Errorf("PathChanges(/b) = %v, want %v", chgs(gotB), wantB)
	}
	// Pages of two, each from the last Seq of the one before.
	var paged []Change
	for before := int64(0); ; {
		page, err := f.PathChanges(bg, "/a", before, 2)
		noErr(t, err)
		if len(page) > 2 {
			t.Fatalf("page of %d entries for a limit of 2", len(page))
		}
		if len(page) == 0 {
			break
		}
		paged = append(paged, page...)
		before = page[len(page)-1].Seq
	}
	if !slices.Equal(paged, got) {
		t.Errorf("paged %v, want %v", chgs(paged), chgs(got))
	}
	// From the middle: what is below the rename back.
	mid, err := f.PathChanges(bg, "/a", got[2].Seq, 0)
	noErr(t, err)
	if !slices.Equal(mid, got[3:]) {
		t.Errorf("before seq %d: %v, want %v", got[2].Seq, chgs(mid), chgs(got[3:]))
	}
	if none, err := f.PathChanges(bg, "/never", 0, 0); err != nil || len(none) != 0 {
		t.Errorf("PathChanges(/never) = %v, %v", none, err)
	}
	if _, err := f.PathChanges(bg, "/a", 0, -1); err == nil || err.Error() != "limit must be a non-negative integer, got -1: /a" || !errors.Is(err, EINVAL) {
		t.Errorf("negative limit: %v", err)
	}
	if _, err := f.PathChanges(bg, "a", 0, 0); !errors.Is(err, EINVAL) || err.Error() != "Invalid path (must be absolute): a" {
		t.Errorf("relative path: %v", err)
	}
}

// PathChanges reads the feed by its path indexes, not by a scan.
func TestPathChangesPlan(t *testing.T) {
	f := openTest(t)
	put(t, f, "/a", "1")
	var plan []string
	noErr(t, f.db.Read(bg, func(c *sqldb.Conn) error {
		s, err := c.Query(`EXPLAIN QUERY PLAN `+pathChangesQuery, "/a", int64(1<<62), 10)
		if err != nil {
			return err
		}
		for s.Step() {
			plan = append(plan, s.ColumnText(3))
		}
		return sqldb.Done(s, nil)
	}))
	all := strings.Join(plan, "\n")
	for _, idx := range []string{"vfs_changes_path", "vfs_changes_old_path"} {
		if !strings.Contains(all, "USING INDEX "+idx) && !strings.Contains(all, "USING COVERING INDEX "+idx) {
			t.Errorf("query plan does not use %s:\n%s", idx, all)
		}
	}
	if strings.Contains(all, "SCAN vfs_changes") {
		t.Errorf("query plan scans the feed:\n%s", all)
	}
}

// A workspace of schema v4 opens and migrates to v5: its feed gets the
// path indexes, and PathChanges finds the entries written before.
func TestMigrateV4PathChanges(t *testing.T) {
	path := t.TempDir() + "/old.db"
	f, err := Open(bg, path, nil)
	noErr(t, err)
	put(t, f, "/a", "1")
	noErr(t, f.Rename(bg, "/a", "/b"))
	// Back to what v4 stored.
	noErr(t, f.db.Write(bg, func(c *sqldb.Conn) error {
		return c.Exec(`DROP INDEX vfs_changes_path; DROP INDEX vfs_changes_old_path; UPDATE vfs_state SET schema_version = 4;`)
	}))
	noErr(t, f.Close())
	f, err = Open(bg, path, nil)
	noErr(t, err)
	defer f.Close()
	var v int
	var indexes []string
	noErr(t, f.db.Read(bg, func(c *sqldb.Conn) error {
		s, err := c.Query(`SELECT schema_version FROM vfs_state`)
		if err != nil {
			return err
		}
		s.Step()
		v = s.ColumnInt(0)
		if err := sqldb.Done(s, nil); err != nil {
			return err
		}
		s, err = c.Query(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'vfs_changes' ORDER BY name`)
		if err != nil {
			return err
		}
		for s.Step() {
			indexes = append(indexes, s.ColumnText(0))
		}
		return sqldb.Done(s, nil)
	}))
	if v != 5 {
		t.Errorf("schema version %d after the migration, want 5", v)
	}
	if want := []string{"vfs_changes_old_path", "vfs_changes_path", "vfs_changes_rev"}; !slices.Equal(indexes, want) {
		t.Errorf("indexes of vfs_changes %v, want %v", indexes, want)
	}
	got, err := f.PathChanges(bg, "/a", 0, 0)
	noErr(t, err)
	if want := []chg{{OpRename, "/b", "/a", TypeFile}, {OpCreate, "/a", "", TypeFile}}; !slices.Equal(chgs(got), want) {
		t.Errorf("PathChanges(/a) after the migration = %v, want %v", chgs(got), want)
	}
}
