package vfs

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// ckCrashFiles is how many files the checkpoint crash test's tree has.
const ckCrashFiles = 300

// ckCrashVersion reads the tree of the checkpoint crash test and returns
// its version ("v1" or "v2"), or an error when the files disagree (a
// half-restored tree) or a name is missing or extra.
func ckCrashVersion(f *FS) (string, error) {
	ls, err := findAllEntries(bg, f, "/t", "*")
	if err != nil {
		return "", err
	}
	var v1, v2 []string
	for _, e := range ls {
		data, err := f.ReadFile(bg, e.Path)
		if err != nil {
			return "", err
		}
		switch {
		case string(data) == "v1 "+e.Name && !strings.HasPrefix(e.Name, "new"):
			v1 = append(v1, e.Name)
		case string(data) == "v2 "+e.Name && !strings.HasPrefix(e.Name, "old"):
			v2 = append(v2, e.Name)
		default:
			return "", fmt.Errorf("%s holds %q", e.Path, data)
		}
	}
	switch {
	case len(v1) == ckCrashFiles && len(v2) == 0:
		return "v1", nil
	case len(v2) == ckCrashFiles && len(v1) == 0:
		return "v2", nil
	}
	return "", fmt.Errorf("a mixed tree: %d names of v1, %d of v2", len(v1), len(v2))
}

// setupCkCrash writes the tree at v1 (files old*, same*), checkpoints it,
// rewrites it as v2 (old* removed, new* created, same* rewritten) and
// checkpoints that.
func setupCkCrash(t *testing.T, path string) {
	f, err := Open(bg, path, nil)
	noErr(t, err)
	defer f.Close()
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
		return nil
	}))
	checkpoint(t, f, "v2")
}

// A child restoring the tree back and forth, and forking it, is killed
// with SIGKILL at a random moment, again and again: afterwards the
// database passes integrity_check, the tree is wholly v1 or wholly v2,
// and a fork is either absent or a whole workspace at its checkpoint.
func TestCheckpointCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("kills 10 child processes")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "ws.db")
	setupCkCrash(t, path)
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	restores, forks, whole := 0, 0, 0
	for round := range 10 {
		c := startChild(t, "TestCheckpointCrashChild", map[string]string{envChildRole: "ckpt", envChildDB: path,
			envChildSeed: fmt.Sprint(round)})
		c.waitReady(t)
		time.Sleep(time.Duration(50+rng.IntN(700)) * time.Millisecond)
		c.cmd.Process.Kill()
		lines, _ := c.wait()
		if !killedBySIGKILL(c) {
			t.Fatalf("round %d: the child was not killed: %v\n%s\n%s", round, c.cmd.ProcessState, c.output(), c.stderr.String())
		}
		for _, l := range lines {
			if strings.HasPrefix(l, "ERR") {
				t.Fatalf("round %d: child: %s", round, l)
			}
			restores += strings.Count(l, "R")
			forks += strings.Count(l, "F")
		}
		if err := integrityCheck(path); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		f, err := Open(bg, path, nil)
		noErr(t, err)
		if _, err := ckCrashVersion(f); err != nil {
			t.Fatalf("round %d: after the kill: %v", round, err)
		}
		f.Close()
		fp := filepath.Join(dir, fmt.Sprintf("fork%d.db", round))
		if _, err := os.Stat(fp); err == nil {
			if err := integrityCheck(fp); err != nil {
				t.Fatalf("round %d: fork: %v", round, err)
			}
			g, err := Open(bg, fp, nil)
			noErr(t, err)
			if v, err := ckCrashVersion(g); err != nil || v != "v1" {
				t.Fatalf("round %d: the fork of v1 is %q: %v", round, v, err)
			}
			g.Close()
			whole++
		}
	}
	t.Logf("10 kills after %d restores and %d forks in all; %d whole forks found, none partial", restores, forks, whole)
	if whole < forks { // more: a kill between the rename and "F"
		t.Errorf("%d forks reported done, %d found", forks, whole)
	}
	if restores == 0 {
		t.Error("no restore finished before a kill: the kills test nothing")
	}
}

// TestCheckpointCrashChild is the child of TestCheckpointCrash: it
// restores v1 and v2 in turn, printing R after each, and forks v1 into
// fork<round>.db beside the workspace once (after round%5 restores),
// printing F.
func TestCheckpointCrashChild(t *testing.T) {
	if os.Getenv(envChildRole) != "ckpt" {
		t.Skip("only runs as a child of TestCheckpointCrash")
	}
	path := os.Getenv(envChildDB)
	f, err := Open(bg, path, nil)
	if err != nil {
		childSay("ERR open: %v", err)
		os.Exit(3)
	}
	childSay("READY")
	deadline := time.Now().Add(60 * time.Second)
	round, _ := strconv.Atoi(os.Getenv(envChildSeed))
	for i := 0; time.Now().Before(deadline); i++ {
		if i == round%5 {
			fp := filepath.Join(filepath.Dir(path), "fork"+os.Getenv(envChildSeed)+".db")
			if _, err := f.Fork(bg, "v1", fp); err != nil {
				childSay("ERR fork: %v", err)
				os.Exit(3)
			}
			childSay("F")
		}
		if _, err := f.Restore(bg, []string{"v1", "v2"}[i%2], ""); err != nil {
			childSay("ERR restore: %v", err)
			os.Exit(3)
		}
		childSay("R")
	}
}
