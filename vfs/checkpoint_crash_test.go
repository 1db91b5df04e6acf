package vfs

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"
)

// ckCrashFiles is how many files the checkpoint crash test's tree has.
const ckCrashFiles = 300

// ckCrashKills is how many times the checkpoint crash test kills a child
// doing each operation (checkpoint, restore, undo, fork); fewer under
// -short.
func ckCrashKills() int {
	if testing.Short() {
		return 6
	}
	return 30
}

// treeListing lists the whole tree, one line a name: path, kind, mode,
// size, mtime and the content's hash (a file) or target (a symlink). Two
// trees are equal when their listings are.
func treeListing(f *FS) ([]string, error) {
	ls, err := findAllEntries(bg, f, "/", "**")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ls {
		var what string
		switch e.Kind {
		case TypeFile:
			if what, err = f.ContentHash(bg, e.Path); err != nil {
				return nil, err
			}
		case TypeSymlink:
			if what, err = f.Readlink(bg, e.Path); err != nil {
				return nil, err
			}
		}
		out = append(out, fmt.Sprintf("%s %v %v %d %d %s", e.Path, e.Kind, e.Mode, e.Size, e.Mtime.UnixNano(), what))
	}
	slices.Sort(out)
	return out, nil
}

// whichListing says which of the listings want (by name) the tree of f
// equals, or fails naming the first line that differs from the first.
func whichListing(f *FS, want map[string][]string) (string, error) {
	got, err := treeListing(f)
	if err != nil {
		return "", err
	}
	for name, l := range want {
		if slices.Equal(got, l) {
			return name, nil
		}
	}
	v1 := want["v1"]
	for i := range min(len(got), len(v1)) {
		if got[i] != v1[i] {
			return "", fmt.Errorf("the tree is neither v1 nor v2: line %d is %q (v1: %q)", i, got[i], v1[i])
		}
	}
	return "", fmt.Errorf("the tree is neither v1 nor v2: %d names (v1 %d, v2 %d)", len(got), len(v1), len(want["v2"]))
}

// setupCkCrash writes the tree at v1 (files old*, same* under /t),
// checkpoints it, rewrites it as v2 (old* removed, new* created, same*
// rewritten, a directory of 20 files and a symlink added, a mode changed)
// and checkpoints that. It returns the listings of both.
func setupCkCrash(t *testing.T, path string) map[string][]string {
	f, err := Open(bg, path, nil)
	noErr(t, err)
	defer f.Close()
	want := map[string][]string{}
	noErr(t, f.Batch(bg, func(b *Batch) error {
		for i := range ckCrashFiles {
			name := fmt.Sprintf("same%03d", i)
			if i%3 == 0 {
				name = fmt.Sprintf("old%03d", i)
			}
			if err := b.WriteFile("/t/"+name, []byte("v1 "+name), &WriteOptions{MkdirAll: true}); err != nil {
				return err
			}
		}
		return nil
	}))
	checkpoint(t, f, "v1")
	want["v1"], err = treeListing(f)
	noErr(t, err)
	noErr(t, f.Batch(bg, func(b *Batch) error {
		for i := range ckCrashFiles {
			name := fmt.Sprintf("same%03d", i)
			if i%3 == 0 {
				if err := b.Remove(fmt.Sprintf("/t/old%03d", i), nil); err != nil {
					return err
				}
				name = fmt.Sprintf("new%03d", i)
			}
			if err := b.WriteFile("/t/"+name, []byte("v2 "+name), nil); err != nil {
				return err
			}
		}
		for i := range 20 {
			if err := b.WriteFile(fmt.Sprintf("/t/d/f%02d", i), []byte("in d"), &WriteOptions{MkdirAll: true}); err != nil {
				return err
			}
		}
		return nil
	}))
	noErr(t, f.Symlink(bg, "same001", "/t/link"))
	noErr(t, f.Chmod(bg, "/t/same002", 0o600))
	checkpoint(t, f, "v2")
	want["v2"], err = treeListing(f)
	noErr(t, err)
	return want
}

// ckCrashOps are the operations the crash test kills children in.
var ckCrashOps = []string{"checkpoint", "restore", "undo", "fork"}

// A child doing one operation again and again (a checkpoint, a restore,
// an undo's revert or a fork) is killed with SIGKILL at a random moment
// of one, ckCrashKills times for each operation. After every kill the
// database passes integrity_check and its tree's listing is wholly v1's
// or wholly v2's; every checkpoint the child took records the whole tree
// it was taken of; every fork at its final name passes integrity_check
// and holds v1's tree, and one left unfinished beside it is refused on
// open and replaced by the next fork to that name.
func TestCheckpointCrash(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ws.db")
	want := setupCkCrash(t, path)
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv(envCrashSeed); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d (%s=%d replays it)", seed, envCrashSeed, seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	for _, op := range ckCrashOps {
		t.Run(op, func(t *testing.T) {
			var inOp, done, partial int
			var dur time.Duration // how long one op takes: the longest a child reported
			for round := range ckCrashKills() {
				c := startChild(t, "TestCheckpointCrashChild", map[string]string{envChildRole: "ckpt-" + op, envChildDB: path,
					envChildSeed: fmt.Sprint(round)})
				c.waitReady(t)
				if dur == 0 { // learn it from the first one
					dur = opTime(c.waitLine(t, "E ", 0))
				}
				// Kill at a random moment of an operation (or just after).
				c.waitLine(t, "B "+op, 0)
				time.Sleep(time.Duration(rng.Int64N(int64(dur))))
				c.cmd.Process.Kill()
				lines, _ := c.wait()
				if !killedBySIGKILL(c) {
					t.Fatalf("round %d: the child was not killed: %v\n%s\n%s", round, c.cmd.ProcessState, c.output(), c.stderr.String())
				}
				open := false
				for _, l := range lines {
					switch {
					case strings.HasPrefix(l, "ERR"):
						t.Fatalf("round %d: child: %s", round, l)
					case strings.HasPrefix(l, "B "):
						open = true
					case strings.HasPrefix(l, "E "):
						open = false
						done++
						dur = max(dur, opTime(l))
					}
				}
				if open && strings.HasPrefix(lines[len(lines)-1], "B "+op) {
					inOp++
				}
				if err := integrityCheck(path); err != nil {
					t.Fatalf("round %d: %v", round, err)
				}
				f, err := Open(bg, path, nil)
				noErr(t, err)
				if _, err := whichListing(f, want); err != nil {
					t.Fatalf("round %d: after the kill: %v", round, err)
				}
				if op == "checkpoint" {
					checkCrashCheckpoints(t, f, round)
				}
				f.Close()
				if op == "fork" {
					partial += checkCrashForks(t, dir, round, want)
				}
			}
			t.Logf("%d kills, %d of them during the operation (%s, about %v; the others just after one); %d operations finished before them; %d unfinished forks found",
				ckCrashKills(), inOp, op, dur, done, partial)
			if inOp == 0 {
				t.Errorf("no kill landed during a %s: the kills test nothing", op)
			}
		})
	}
}

// opTime is the duration an "E op duration" line reports.
func opTime(line string) time.Duration {
	f := strings.Fields(line)
	d, _ := time.ParseDuration(f[len(f)-1])
	return d
}

// waitLine waits for the child's first stdout line from index from on that
// starts with prefix, and returns it.
func (c *childProc) waitLine(t *testing.T, prefix string, from int) string {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		c.mu.Lock()
		for _, l := range c.lines[min(from, len(c.lines)):] {
			if strings.HasPrefix(l, prefix) {
				c.mu.Unlock()
				return l
			}
			if strings.HasPrefix(l, "ERR") {
				c.mu.Unlock()
				t.Fatalf("child: %s", l)
			}
		}
		c.mu.Unlock()
		select {
		case <-c.done:
			t.Fatalf("child ended before a line %q: %v\n%s\n%s", prefix, c.cmd.Wait(), c.output(), c.stderr.String())
		case <-time.After(time.Millisecond):
		}
	}
	t.Fatalf("no line %q from the child in 60s", prefix)
	return ""
}

// checkCrashCheckpoints checks that each checkpoint the checkpoint child
// took (named k<round>-<i>-<version>) records that version's tree exactly,
// and deletes them.
func checkCrashCheckpoints(t *testing.T, f *FS, round int) {
	t.Helper()
	cks, err := f.Checkpoints(bg)
	noErr(t, err)
	entries := map[string]int64{}
	for _, ck := range cks {
		entries[ck.Name] = ck.Entries
	}
	for _, ck := range cks {
		if !strings.HasPrefix(ck.Name, "k") {
			continue
		}
		v := ck.Name[strings.LastIndexByte(ck.Name, '-')+1:]
		d, err := f.Diff(bg, v, ck.Name, nil)
		noErr(t, err)
		if len(d) != 0 {
			t.Fatalf("round %d: checkpoint %s differs from %s: %+v", round, ck.Name, v, d[0])
		}
		if ck.Entries != entries[v] {
			t.Fatalf("round %d: checkpoint %s counts %d entries, %s %d", round, ck.Name, ck.Entries, v, entries[v])
		}
		noErr(t, f.DeleteCheckpoint(bg, ck.Name))
	}
}

// checkCrashForks checks the forks of a round: each at its final name
// passes integrity_check and holds v1's tree; an unfinished one (.partial)
// is refused on open naming what it is, and the next fork to its name
// replaces it. It returns how many unfinished ones it found.
func checkCrashForks(t *testing.T, dir string, round int, want map[string][]string) int {
	t.Helper()
	partial := 0
	all, _ := filepath.Glob(filepath.Join(dir, fmt.Sprintf("fork%d-*", round)))
	var ms []string // the databases (not their logs)
	for _, fp := range all {
		if strings.HasSuffix(fp, ".db") || strings.HasSuffix(fp, ".db.partial") {
			ms = append(ms, fp)
		}
	}
	for _, fp := range ms {
		if strings.HasSuffix(fp, ".partial") {
			partial++
			g, err := Open(bg, fp, nil)
			if err == nil {
				g.Close()
			}
			wantErr := "the database is an unfinished fork (a fork was interrupted before it was renamed into place): delete it and fork again: " + fp
			if !errors.Is(err, EINVAL) || err.Error() != wantErr {
				t.Fatalf("round %d: opening unfinished fork %s: %v, want %s (EINVAL)", round, fp, err, wantErr)
			}
			continue
		}
		if err := integrityCheck(fp); err != nil {
			t.Fatalf("round %d: fork %s: %v", round, fp, err)
		}
		g, err := Open(bg, fp, nil)
		noErr(t, err)
		if v, err := whichListing(g, want); err != nil || v != "v1" {
			t.Fatalf("round %d: the fork of v1 at %s is %q: %v", round, fp, v, err)
		}
		g.Close()
		removeDB(fp)
	}
	for _, fp := range ms {
		if !strings.HasSuffix(fp, ".partial") {
			continue
		}
		final := strings.TrimSuffix(fp, ".partial")
		f, err := Open(bg, filepath.Join(dir, "ws.db"), nil)
		noErr(t, err)
		_, err = f.Fork(bg, "v1", final)
		f.Close()
		noErr(t, err)
		if _, err := os.Stat(fp); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("round %d: the fork to %s left %s: %v", round, final, fp, err)
		}
		removeDB(final)
	}
	return partial
}

// TestCheckpointCrashChild is the child of TestCheckpointCrash: it does
// its operation again and again until killed, printing "B op i" before
// each and "E op duration" after it.
func TestCheckpointCrashChild(t *testing.T) {
	role, ok := strings.CutPrefix(os.Getenv(envChildRole), "ckpt-")
	if !ok {
		t.Skip("only runs as a child of TestCheckpointCrash")
	}
	path := os.Getenv(envChildDB)
	round := os.Getenv(envChildSeed)
	f, err := Open(bg, path, nil)
	if err != nil {
		childSay("ERR open: %v", err)
		os.Exit(3)
	}
	at := func() string { // the version the tree is at
		d, err := f.Diff(bg, "v1", "", nil)
		if err != nil {
			childSay("ERR diff: %v", err)
			os.Exit(3)
		}
		if len(d) == 0 {
			return "v1"
		}
		return "v2"
	}
	other := map[string]string{"v1": "v2", "v2": "v1"}
	cur := at()
	childSay("READY")
	deadline := time.Now().Add(60 * time.Second)
	for i := 0; time.Now().Before(deadline); i++ {
		var err error
		switch role {
		case "restore":
			childSay("B restore %d", i)
			t0 := time.Now()
			_, err = f.Restore(bg, other[cur], "")
			cur = other[cur]
			childSay("E restore %v", time.Since(t0))
		case "undo":
			// Undo's primitive: put /t back as the other version recorded
			// it, provided it is as this one recorded it.
			childSay("B undo %d", i)
			t0 := time.Now()
			_, err = f.Revert(bg, other[cur], cur, []string{"/t"})
			cur = other[cur]
			childSay("E undo %v", time.Since(t0))
		case "checkpoint":
			if _, err = f.Restore(bg, other[cur], ""); err == nil {
				cur = other[cur]
				childSay("B checkpoint %d", i)
				t0 := time.Now()
				_, err = f.Checkpoint(bg, fmt.Sprintf("k%s-%d-%s", round, i, cur))
				childSay("E checkpoint %v", time.Since(t0))
			}
		case "fork":
			childSay("B fork %d", i)
			t0 := time.Now()
			_, err = f.Fork(bg, "v1", filepath.Join(filepath.Dir(path), fmt.Sprintf("fork%s-%d.db", round, i)))
			childSay("E fork %v", time.Since(t0))
		}
		if err != nil {
			childSay("ERR %s: %v", role, err)
			os.Exit(3)
		}
	}
}

// A fork copies the database's files while another process commits and
// checkpoints as fast as it can: every copy passes integrity_check and
// holds a whole commit (the two files the writer rewrites in each one
// agree).
func TestForkCopyWhileWriting(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ws.db")
	f, err := Open(bg, path, nil)
	noErr(t, err)
	defer f.Close()
	noErr(t, f.WriteFile(bg, "/a", []byte("0"), nil))
	noErr(t, f.WriteFile(bg, "/b", []byte("0"), nil))
	c := startChild(t, "TestForkCopyWhileWritingChild", map[string]string{envChildRole: "copy-writer", envChildDB: path})
	c.waitReady(t)
	defer func() {
		c.cmd.Process.Kill()
		c.wait()
	}()
	copies := 8
	if testing.Short() {
		copies = 3
	}
	seen := map[string]bool{}
	for i := range copies {
		cp := filepath.Join(dir, fmt.Sprintf("copy%d.db", i))
		noErr(t, f.db.CopyTo(bg, cp))
		if err := integrityCheck(cp); err != nil {
			t.Fatalf("copy %d: %v", i, err)
		}
		g, err := Open(bg, cp, nil)
		noErr(t, err)
		a, err := g.ReadFile(bg, "/a")
		noErr(t, err)
		b, err := g.ReadFile(bg, "/b")
		noErr(t, err)
		g.Close()
		if string(a) != string(b) {
			t.Fatalf("copy %d holds half a commit: /a %q, /b %q", i, a, b)
		}
		seen[string(a)] = true
		removeDB(cp)
		time.Sleep(20 * time.Millisecond)
	}
	if len(seen) < 2 {
		t.Errorf("every copy holds the same commit (%v): the writer did not run", seen)
	}
}

// TestForkCopyWhileWritingChild rewrites /a and /b with the same counter
// in one transaction (with 256 KiB beside them, so that the log grows and
// auto-checkpoints) as fast as it can, while a second connection runs
// passive checkpoints.
func TestForkCopyWhileWritingChild(t *testing.T) {
	if os.Getenv(envChildRole) != "copy-writer" {
		t.Skip("only runs as a child of TestForkCopyWhileWriting")
	}
	path := os.Getenv(envChildDB)
	f, err := Open(bg, path, nil)
	if err != nil {
		childSay("ERR open: %v", err)
		os.Exit(3)
	}
	go func() {
		for {
			if err := passiveCheckpoint(path); err != nil {
				childSay("ERR checkpoint: %v", err)
				os.Exit(3)
			}
			time.Sleep(time.Millisecond)
		}
	}()
	childSay("READY")
	pad := make([]byte, 256<<10)
	for i := 1; ; i++ {
		n := []byte(strconv.Itoa(i))
		pad[i%len(pad)]++
		err := f.Batch(bg, func(b *Batch) error {
			if err := b.WriteFile("/a", n, nil); err != nil {
				return err
			}
			if err := b.WriteFile("/pad", pad, nil); err != nil {
				return err
			}
			return b.WriteFile("/b", n, nil)
		})
		if err != nil {
			childSay("ERR write: %v", err)
			os.Exit(3)
		}
	}
}

// passiveCheckpoint runs a passive checkpoint on the database through a
// connection of its own.
func passiveCheckpoint(path string) error {
	c, err := sqlite3.Open(path)
	if err != nil {
		return err
	}
	defer c.Close()
	return c.Exec(`PRAGMA wal_checkpoint(PASSIVE)`)
}
