package vfs

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// A restore looks only at the names that can differ: after two files were
// rewritten and one created in a tree of 2,001 names, exactly the root,
// the two files' directories, the rewritten files and the 101 names of the
// directory that gained one; and the tree is back as the checkpoint's.
func TestRestoreComparesWhatChanged(t *testing.T) {
	f := openTest(t)
	noErr(t, f.Batch(bg, func(b *Batch) error {
		for d := range 20 {
			for i := range 100 {
				if err := b.WriteFile(fmt.Sprintf("/d%02d/f%02d", d, i), []byte("x"), &WriteOptions{MkdirAll: true}); err != nil {
					return err
				}
			}
		}
		return nil
	}))
	checkpoint(t, f, "c")
	want, err := treeListing(f)
	noErr(t, err)
	noErr(t, f.WriteFile(bg, "/d03/f01", []byte("changed"), nil))
	noErr(t, f.WriteFile(bg, "/d04/f02", []byte("changed"), nil))
	noErr(t, f.WriteFile(bg, "/d05/new", []byte("new"), nil))
	st, err := f.Restore(bg, "c", "")
	noErr(t, err)
	wantSt := RestoreStats{Rev: st.Rev, Removed: 1, Updated: 2, Compared: 1 + 2 + 2 + 1 + 101}
	if *st != wantSt {
		t.Errorf("restore: %+v, want %+v", *st, wantSt)
	}
	got, err := treeListing(f)
	noErr(t, err)
	if !slices.Equal(got, want) {
		t.Errorf("after the restore the tree differs from the checkpoint's")
	}
	// Again: the same names (the feed since the checkpoint now has the
	// first restore's changes too) but the created one, in neither tree
	// now; nothing to do.
	st, err = f.Restore(bg, "c", "")
	noErr(t, err)
	if wantSt := (RestoreStats{Compared: wantSt.Compared - 1}); *st != wantSt {
		t.Errorf("a second restore: %+v, want %+v", *st, wantSt)
	}
}

// A directory renamed away and back leaves no feed entry that leads to
// what changed inside it: the restore notices a changed node it did not
// reach and compares the whole trees.
func TestRestoreRenamedBack(t *testing.T) {
	f := openTest(t)
	noErr(t, f.WriteFile(bg, "/a/b/f", []byte("one"), &WriteOptions{MkdirAll: true}))
	noErr(t, f.WriteFile(bg, "/z", []byte("z"), nil))
	checkpoint(t, f, "c")
	want, err := treeListing(f)
	noErr(t, err)
	noErr(t, f.Rename(bg, "/a", "/x"))
	noErr(t, f.WriteFile(bg, "/x/b/f", []byte("two"), nil))
	noErr(t, f.Rename(bg, "/x", "/a"))
	st, err := f.Restore(bg, "c", "")
	noErr(t, err)
	if st.Updated != 1 || st.Compared != 5 {
		t.Errorf("restore: %+v, want 1 updated of 5 compared", *st)
	}
	got, err := treeListing(f)
	noErr(t, err)
	if !slices.Equal(got, want) {
		t.Errorf("after the restore:\n%q\nwant\n%q", got, want)
	}
}

// Random changes after a checkpoint (writes, creations, removals,
// renames of files and directories, symlinks, hard links, modes and
// times), then a restore: the tree's listing is the checkpoint's again,
// exactly, and a subtree restore puts back that subtree only.
func TestRestoreRandomChanges(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 3))
	rounds := 40
	if testing.Short() {
		rounds = 10
	}
	region := 0
	for round := range rounds {
		f := openTest(t)
		noErr(t, f.Batch(bg, func(b *Batch) error {
			for i := range 40 {
				p := fmt.Sprintf("/d%d/e%d/f%02d", i%4, i%3, i)
				if err := b.WriteFile(p, []byte(fmt.Sprint("v1 ", i)), &WriteOptions{MkdirAll: true}); err != nil {
					return err
				}
			}
			return nil
		}))
		noErr(t, f.Link(bg, "/d0/e0/f00", "/d1/e0/hard"))
		noErr(t, f.Symlink(bg, "../d0", "/d2/link"))
		checkpoint(t, f, "c")
		want, err := treeListing(f)
		noErr(t, err)
		var ops []string
		for range 1 + rng.IntN(12) {
			ops = append(ops, randomChange(t, f, rng))
		}
		if rng.IntN(4) == 0 {
			// A subtree restore puts back that subtree and leaves the rest
			// as it is now (but for names of files linked into it too).
			const sub = "/d3"
			in := func(l string) bool { return strings.HasPrefix(l, sub+"/") || strings.HasPrefix(l, sub+" ") }
			shared := map[string]bool{} // other names of files under sub
			all, err := findAllEntries(bg, f, "/", "**")
			noErr(t, err)
			inodes := map[int64]bool{}
			for _, e := range all {
				if within(e.Path, sub) {
					inodes[e.Inode] = true
				}
			}
			for _, e := range all {
				if inodes[e.Inode] && !within(e.Path, sub) {
					shared[e.Path] = true
				}
			}
			rest, err := treeListing(f)
			noErr(t, err)
			_, err = f.Restore(bg, "c", sub)
			noErr(t, err)
			got, err := treeListing(f)
			noErr(t, err)
			keep := func(l []string, inside bool) []string {
				return slices.DeleteFunc(slices.Clone(l), func(l string) bool {
					return in(l) != inside || shared[strings.Fields(l)[0]]
				})
			}
			if d := diffLines(keep(got, true), keep(want, true)); d != "" {
				t.Fatalf("round %d: after %q and a restore of %s, %s differs from the checkpoint's:\n%s", round, ops, sub, sub, d)
			}
			if d := diffLines(keep(got, false), keep(rest, false)); d != "" {
				t.Fatalf("round %d: after %q and a restore of %s, the rest changed:\n%s", round, ops, sub, d)
			}
		}
		st, err := f.Restore(bg, "c", "")
		noErr(t, err)
		if st.Compared < int64(len(want)) {
			region++
		}
		got, err := treeListing(f)
		noErr(t, err)
		if d := diffLines(got, want); d != "" {
			t.Fatalf("round %d: after %q and a restore (%+v):\n%s", round, ops, *st, d)
		}
		f.Close()
	}
	t.Logf("%d of %d restores compared less than the whole tree", region, rounds)
	if region == 0 {
		t.Error("no restore compared only what changed")
	}
}

// diffLines lists the lines only one of got and want (both sorted) has,
// or "" when they are equal.
func diffLines(got, want []string) string {
	var b strings.Builder
	i, j := 0, 0
	for i < len(got) || j < len(want) {
		switch {
		case j == len(want) || i < len(got) && got[i] < want[j]:
			fmt.Fprintf(&b, "+ %s\n", got[i])
			i++
		case i == len(got) || want[j] < got[i]:
			fmt.Fprintf(&b, "- %s\n", want[j])
			j++
		default:
			i++
			j++
		}
	}
	return b.String()
}

// randomChange makes one random change to f and says what it was (a
// change the filesystem refuses is made anyway: nothing).
func randomChange(t *testing.T, f *FS, rng *rand.Rand) string {
	t.Helper()
	all, err := findAllEntries(bg, f, "/", "**")
	noErr(t, err)
	pick := func() Entry { return all[rng.IntN(len(all))] }
	dir := func() string {
		for {
			if e := pick(); e.Kind == TypeDir {
				return e.Path
			}
		}
	}
	fresh := func() string { return join(dir(), fmt.Sprintf("n%d", rng.IntN(1000))) }
	var what string
	switch rng.IntN(10) {
	case 0, 1:
		e := pick()
		what = "write " + e.Path
		err = f.WriteFile(bg, e.Path, []byte(fmt.Sprint("v2 ", rng.IntN(100))), nil)
	case 2:
		p := fresh()
		what = "create " + p
		err = f.WriteFile(bg, p, []byte("new"), nil)
	case 3:
		e := pick()
		what = "remove " + e.Path
		err = f.Remove(bg, e.Path, &RemoveOptions{Recursive: true})
	case 4, 5:
		e, p := pick(), fresh()
		what = "rename " + e.Path + " " + p
		err = f.Rename(bg, e.Path, p)
	case 6:
		p := fresh()
		what = "mkdir " + p
		err = f.Mkdir(bg, p, 0o755)
	case 7:
		e, p := pick(), fresh()
		what = "link " + e.Path + " " + p
		err = f.Link(bg, e.Path, p)
	case 8:
		e := pick()
		what = "chmod " + e.Path
		err = f.Chmod(bg, e.Path, 0o700)
	case 9:
		e := pick()
		what = "chtimes " + e.Path
		ts := time.Unix(int64(rng.IntN(1e9)), 0)
		err = f.Chtimes(bg, e.Path, ts, ts)
	}
	if err != nil {
		what += " (refused)"
	}
	return what
}
