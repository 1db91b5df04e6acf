package vfs

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nookdev/nook/internal/sqldb"
)

// dump renders the whole tree: every name with its kind, mode, size,
// link count, times, symlink target and content.
func dump(t testing.TB, f *FS) string {
	t.Helper()
	var tr *tree
	noErr(t, f.view(bg, "dump", "", func(c *sqldb.Conn) error {
		var err error
		tr, err = liveTree(c, "/")
		return err
	}))
	var b strings.Builder
	for _, p := range tr.paths {
		e := tr.byPath[p]
		fmt.Fprintf(&b, "%s %s %o n%d a%d m%d c%d", p, e.typ, e.mode, e.nlink, e.atime, e.mtime, e.ctime)
		switch e.typ {
		case TypeFile:
			fmt.Fprintf(&b, " %q", get(t, f, p))
		case TypeSymlink:
			fmt.Fprintf(&b, " -> %s", e.target)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func checkpoint(t testing.TB, f *FS, name string) *CheckpointStats {
	t.Helper()
	_, st, err := f.CheckpointStats(bg, name)
	noErr(t, err)
	return st
}

// mutate changes the tree in every way the vfs can: content, removal of a
// subtree, rename of a directory, modes, times, symlinks and hard links.
func mutate(t testing.TB, f *FS, clk *fakeClock) {
	t.Helper()
	clk.Advance(time.Second)
	put(t, f, "/src/a.txt", "A changed\n")
	noErr(t, f.Remove(bg, "/src/deep", &RemoveOptions{Recursive: true}))
	noErr(t, f.Rename(bg, "/docs", "/manual"))
	noErr(t, f.Chmod(bg, "/src/run.sh", 0o644))
	noErr(t, f.Chtimes(bg, "/src/b.txt", time.Unix(100, 0), time.Unix(200, 0)))
	noErr(t, f.Remove(bg, "/link", nil))
	noErr(t, f.Symlink(bg, "/elsewhere", "/link"))
	noErr(t, f.Link(bg, "/src/b.txt", "/src/b-hard"))
	put(t, f, "/new/file", "new")
	noErr(t, f.Remove(bg, "/src/gone.txt", nil))
	putBytes(t, f, "/big", seededBytes(7, ChunkSize+10))
}

func build(t testing.TB, f *FS) {
	t.Helper()
	put(t, f, "/src/a.txt", "A\n")
	put(t, f, "/src/b.txt", "B\n")
	put(t, f, "/src/gone.txt", "bye")
	noErr(t, f.WriteFile(bg, "/src/run.sh", []byte("#!/bin/sh\n"), &WriteOptions{Mode: 0o755}))
	put(t, f, "/src/deep/x/y/z.txt", "zzz")
	put(t, f, "/docs/readme.md", "read me\n")
	noErr(t, f.Symlink(bg, "src/a.txt", "/link"))
	putBytes(t, f, "/big", seededBytes(3, 2*ChunkSize+5))
}

// A restore puts back exactly the tree a checkpoint recorded (contents,
// modes, times, symlinks, hard links), whichever checkpoint, in one
// revision; later checkpoints write only what changed.
func TestCheckpointRestoreExact(t *testing.T) {
	clk := newClock()
	f := openTest(t, withClock(clk))
	build(t, f)
	want1 := dump(t, f)
	st := checkpoint(t, f, "one")
	if !st.Full || st.Nodes != 14 {
		t.Errorf("first checkpoint: %+v, want a full one of 14 nodes", st)
	}
	mutate(t, f, clk)
	want2 := dump(t, f)
	st = checkpoint(t, f, "two")
	if st.Full || st.Nodes > 12 {
		t.Errorf("second checkpoint wrote %+v, want only the changed nodes", st)
	}
	clk.Advance(time.Second)
	put(t, f, "/later", "x")
	noErr(t, f.Remove(bg, "/src", &RemoveOptions{Recursive: true}))

	before := revOf(t, f)
	rs, err := f.Restore(bg, "one", "")
	noErr(t, err)
	if got := dump(t, f); got != want1 {
		t.Fatalf("after restore of one:\n%s\nwant:\n%s", got, want1)
	}
	if rs.Rev != before+1 || revOf(t, f) != before+1 {
		t.Errorf("restore committed as rev %d (now %d), want %d", rs.Rev, revOf(t, f), before+1)
	}
	cs, err := f.Changes(bg, before, 0)
	noErr(t, err)
	got := map[string]bool{}
	for _, c := range cs {
		if c.Rev != before+1 {
			t.Errorf("change %+v not in the restore's revision", c)
		}
		got[string(c.Op)+" "+c.Path] = true
	}
	for _, w := range []string{"remove /later", "remove /manual", "create /docs", "create /docs/readme.md", "create /src", "create /src/deep/x/y/z.txt"} {
		if !got[w] {
			t.Errorf("restore's change feed lacks %q: %v", w, got)
		}
	}

	_, err = f.Restore(bg, "two", "")
	noErr(t, err)
	if got := dump(t, f); got != want2 {
		t.Fatalf("after restore of two:\n%s\nwant:\n%s", got, want2)
	}
	// Restoring what is already there changes nothing.
	rev := revOf(t, f)
	rs, err = f.Restore(bg, "two", "")
	noErr(t, err)
	if rs.Rev != 0 || revOf(t, f) != rev {
		t.Errorf("a no-op restore took a revision: %+v", rs)
	}
	// A third checkpoint after restores is still exact.
	checkpoint(t, f, "three")
	put(t, f, "/src/a.txt", "zap")
	_, err = f.Restore(bg, "three", "")
	noErr(t, err)
	if got := dump(t, f); got != want2 {
		t.Fatalf("after restore of three:\n%s\nwant:\n%s", got, want2)
	}
}

// A subtree restore touches nothing outside it.
func TestRestoreSubtree(t *testing.T) {
	clk := newClock()
	f := openTest(t, withClock(clk))
	build(t, f)
	checkpoint(t, f, "base")
	clk.Advance(time.Second)
	put(t, f, "/src/a.txt", "edited")
	put(t, f, "/src/extra", "e")
	put(t, f, "/docs/readme.md", "edited too")
	rs, err := f.Restore(bg, "base", "/src")
	noErr(t, err)
	expectContent(t, f, "/src/a.txt", "A\n")
	expectMissing(t, f, "/src/extra")
	expectContent(t, f, "/docs/readme.md", "edited too")
	if rs.Removed != 1 || rs.Updated != 1 || rs.Created != 0 {
		t.Errorf("stats %+v, want 1 removed, 1 updated", rs)
	}
	// A subtree the checkpoint lacked is removed.
	put(t, f, "/tmp/x", "x")
	_, err = f.Restore(bg, "base", "/tmp")
	noErr(t, err)
	expectMissing(t, f, "/tmp")
}

// Content a checkpoint references survives GC after the files are gone,
// and is collected once the checkpoint is deleted.
func TestCheckpointKeepsContent(t *testing.T) {
	f := openTest(t, withGCWindow(time.Nanosecond))
	data := seededBytes(11, 3*ChunkSize)
	putBytes(t, f, "/data.bin", data)
	checkpoint(t, f, "keep")
	noErr(t, f.Remove(bg, "/data.bin", nil))
	_, err := f.GC(bg)
	noErr(t, err)
	if u := usageOf(t, f); u.Stored != int64(len(data)) {
		t.Errorf("stored %d bytes after removal, want the checkpoint's %d", u.Stored, len(data))
	}
	_, err = f.Restore(bg, "keep", "")
	noErr(t, err)
	if got := get(t, f, "/data.bin"); got != string(data) {
		t.Fatal("restored content differs")
	}
	noErr(t, f.Remove(bg, "/data.bin", nil))
	noErr(t, f.DeleteCheckpoint(bg, "keep"))
	_, err = f.GC(bg)
	noErr(t, err)
	if u := usageOf(t, f); u.Stored != 0 {
		t.Errorf("stored %d bytes after deleting the checkpoint, want 0", u.Stored)
	}
	cks, err := f.Checkpoints(bg)
	noErr(t, err)
	if len(cks) != 0 {
		t.Errorf("checkpoints after delete: %+v", cks)
	}
	// The deleted newest checkpoint still serves as the base: the next one
	// is exact.
	put(t, f, "/n", "n")
	checkpoint(t, f, "keep")
	put(t, f, "/n", "m")
	_, err = f.Restore(bg, "keep", "")
	noErr(t, err)
	expectContent(t, f, "/n", "n")
	expectMissing(t, f, "/data.bin")
}

// Deleting a middle checkpoint keeps the others exact.
func TestDeleteMiddleCheckpoint(t *testing.T) {
	clk := newClock()
	f := openTest(t, withClock(clk))
	build(t, f)
	w1 := dump(t, f)
	checkpoint(t, f, "1")
	mutate(t, f, clk)
	checkpoint(t, f, "2")
	clk.Advance(time.Second)
	put(t, f, "/src/a.txt", "third")
	w3 := dump(t, f)
	checkpoint(t, f, "3")
	noErr(t, f.DeleteCheckpoint(bg, "2"))
	_, err := f.Restore(bg, "1", "")
	noErr(t, err)
	if got := dump(t, f); got != w1 {
		t.Fatalf("restore of 1 after deleting 2:\n%s\nwant:\n%s", got, w1)
	}
	_, err = f.Restore(bg, "3", "")
	noErr(t, err)
	if got := dump(t, f); got != w3 {
		t.Fatalf("restore of 3 after deleting 2:\n%s\nwant:\n%s", got, w3)
	}
	cks, err := f.Checkpoints(bg)
	noErr(t, err)
	if len(cks) != 2 || cks[0].Name != "1" || cks[1].Name != "3" {
		t.Errorf("checkpoints %+v", cks)
	}
	expectErr(t, f.DeleteCheckpoint(bg, "2"), ENOENT, "no such checkpoint: 2")
}

func TestCheckpointErrors(t *testing.T) {
	f := openTest(t)
	checkpoint(t, f, "x")
	_, err := f.Checkpoint(bg, "x")
	expectErr(t, err, EEXIST, "checkpoint exists: x")
	_, err = f.Checkpoint(bg, "")
	expectErr(t, err, EINVAL, "checkpoint name is empty")
	_, err = f.Checkpoint(bg, "a\nb")
	expectErr(t, err, EINVAL, "checkpoint name must be UTF-8 without control characters: a\nb")
	_, err = f.Checkpoint(bg, strings.Repeat("n", MaxCheckpointName+1))
	expectCode(t, err, ENAMETOOLONG)
	_, err = f.Restore(bg, "nope", "")
	expectErr(t, err, ENOENT, "no such checkpoint: nope")
	_, err = f.Diff(bg, "nope", "", nil)
	expectErr(t, err, ENOENT, "no such checkpoint: nope")
	_, err = f.Diff(bg, "@99", "", nil)
	expectErr(t, err, ENOENT, "no checkpoint records revision 99 (only checkpointed revisions can be compared): @99")
}

// Diff names what was added, modified, deleted and renamed, with a patch
// of text on request.
func TestDiff(t *testing.T) {
	clk := newClock()
	f := openTest(t, withClock(clk))
	build(t, f)
	ck := checkpoint(t, f, "a")
	_ = ck
	mutate(t, f, clk)
	checkpoint(t, f, "b")
	es, err := f.Diff(bg, "a", "b", &DiffOptions{Text: true})
	noErr(t, err)
	var got []string
	for _, e := range es {
		s := string(e.Op) + " " + e.Path
		if e.OldPath != "" {
			s += " <- " + e.OldPath
		}
		if e.Content {
			s += " content"
		}
		if e.Mode {
			s += " mode"
		}
		if e.Times {
			s += " times"
		}
		got = append(got, s)
	}
	want := []string{
		"modified /big content times",
		"modified /link content times",
		"renamed /manual <- /docs",
		"added /new",
		"added /new/file",
		"modified /src/a.txt content times",
		"added /src/b-hard",
		"modified /src/b.txt times",
		"deleted /src/deep",
		"deleted /src/deep/x",
		"deleted /src/deep/x/y",
		"deleted /src/deep/x/y/z.txt",
		"deleted /src/gone.txt",
		"modified /src/run.sh mode",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diff a b:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, e := range es {
		if e.Path == "/src/a.txt" && e.Patch != "--- a/src/a.txt\n+++ b/src/a.txt\n@@ -1 +1 @@\n-A\n+A changed\n" {
			t.Errorf("patch of a.txt: %q", e.Patch)
		}
		if e.Path == "/big" && e.Patch != "" {
			t.Errorf("a binary file got a patch")
		}
	}
	// The live tree and a revision reference: equal to b, nothing differs.
	es, err = f.Diff(bg, "b", "", nil)
	noErr(t, err)
	if len(es) != 0 {
		t.Errorf("diff b live: %+v", es)
	}
	cks, _ := f.Checkpoints(bg)
	es, err = f.Diff(bg, fmt.Sprintf("@%d", cks[0].Rev), "a", nil)
	noErr(t, err)
	if len(es) != 0 {
		t.Errorf("diff @rev a: %+v", es)
	}
	es, err = f.Diff(bg, "a", "b", &DiffOptions{Path: "/src/deep"})
	noErr(t, err)
	if len(es) != 4 || es[0].Path != "/src/deep" || es[0].Op != DiffDeleted {
		t.Errorf("diff under /src/deep: %+v", es)
	}
}

// A workspace made by the previous schema (v2) opens, migrates, and takes
// checkpoints; its files are kept.
func TestMigrateV2ToCheckpoints(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sqldb.Open(bg, path, sqldb.Options{})
	noErr(t, err)
	noErr(t, db.Write(bg, func(c *sqldb.Conn) error {
		for v := 0; v < 2; v++ {
			if err := migrations[v](c, 1); err != nil {
				return err
			}
		}
		return c.Exec(`UPDATE vfs_state SET schema_version = 2`)
	}))
	noErr(t, db.Close())
	// Fill it as v2 code would have: the tables are the same but for the
	// checkpoint ones.
	f, err := Open(bg, path, nil)
	noErr(t, err)
	var v int
	noErr(t, f.db.Read(bg, func(c *sqldb.Conn) error {
		s, err := c.Query(`SELECT schema_version FROM vfs_state`)
		if err != nil {
			return err
		}
		s.Step()
		v = s.ColumnInt(0)
		return sqldb.Done(s, nil)
	}))
	if v != SchemaVersion {
		t.Errorf("schema version %d after open, want %d", v, SchemaVersion)
	}
	put(t, f, "/kept", "old")
	checkpoint(t, f, "c")
	put(t, f, "/kept", "new")
	_, err = f.Restore(bg, "c", "")
	noErr(t, err)
	expectContent(t, f, "/kept", "old")
	noErr(t, f.Close())
}

// A restore is one transaction: another process sees the tree wholly
// before or wholly after it.
func TestRestoreAcrossProcesses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ws.db")
	a, err := Open(bg, path, nil)
	noErr(t, err)
	defer a.Close()
	for i := range 50 {
		put(t, a, fmt.Sprintf("/f/%02d", i), "v1")
	}
	checkpoint(t, a, "v1")
	for i := range 50 {
		put(t, a, fmt.Sprintf("/f/%02d", i), "v2")
	}
	b, err := Open(bg, path, nil)
	noErr(t, err)
	defer b.Close()
	ctx, cancel := context.WithCancel(bg)
	done := make(chan string)
	go func() {
		bad := ""
		for ctx.Err() == nil {
			var vals []string
			_ = b.View(ctx, func(v *View) error {
				for _, i := range []int{0, 49} {
					d, err := v.ReadRange(fmt.Sprintf("/f/%02d", i), 0, -1)
					if err != nil {
						return err
					}
					vals = append(vals, string(d))
				}
				return nil
			})
			if len(vals) == 2 && vals[0] != vals[1] {
				bad = strings.Join(vals, ",")
			}
		}
		done <- bad
	}()
	_, err = a.Restore(bg, "v1", "")
	noErr(t, err)
	cancel()
	if bad := <-done; bad != "" {
		t.Errorf("a reader saw a half-restored tree: %s", bad)
	}
	expectContent(t, b, "/f/49", "v1")
}
