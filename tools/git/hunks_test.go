package git

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/nookdev/nook/internal/linediff"
	"github.com/nookdev/nook/vfs"
)

// TestLineEditsAreACommonSubsequence: what linediff.Edits keeps of a is what
// it keeps of b, for random edits.
func TestLineEditsAreACommonSubsequence(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 500; i++ {
		var a, b []string
		for j := rng.IntN(40); j > 0; j-- {
			a = append(a, fmt.Sprintf("%d\n", rng.IntN(8)))
		}
		for j := rng.IntN(40); j > 0; j-- {
			b = append(b, fmt.Sprintf("%d\n", rng.IntN(8)))
		}
		del, ins := linediff.Edits(a, b)
		var ka, kb []string
		for j, l := range a {
			if !del[j] {
				ka = append(ka, l)
			}
		}
		for j, l := range b {
			if !ins[j] {
				kb = append(kb, l)
			}
		}
		if strings.Join(ka, "") != strings.Join(kb, "") {
			t.Fatalf("a %q b %q: kept %q and %q", a, b, ka, kb)
		}
	}
}

// TestWorstDiff diffs, merges and blames two unrelated 20,000-line files
// through the command line: the search stops at its bound (one
// replacement hunk) and the host keeps little memory afterwards.
func TestWorstDiff(t *testing.T) {
	ws := newWS(t)
	f := ws.FS()
	g := New(f, Options{Identity: testID})
	lines := func(tag string) []byte {
		var b strings.Builder
		for i := 0; i < 20000; i++ {
			fmt.Fprintf(&b, "%s line %d\n", tag, i)
		}
		return []byte(b.String())
	}
	write := func(data []byte) {
		if err := f.WriteFile(bg, "/workspace/a.txt", data, &vfs.WriteOptions{MkdirAll: true}); err != nil {
			t.Fatal(err)
		}
	}
	nookGit(t, g, "init", "-q")
	write(lines("base"))
	nookGit(t, g, "add", "a.txt")
	nookGit(t, g, "commit", "-qm", "base")
	nookGit(t, g, "branch", "side")
	write(lines("ours"))
	if out := nookGit(t, g, "diff", "--stat"); out != " a.txt | 40000 "+strings.Repeat("+", 32)+strings.Repeat("-", 32)+"\n 1 file changed, 20000 insertions(+), 20000 deletions(-)\n" {
		t.Fatalf("diff --stat:\n%s", out)
	}
	if out := nookGit(t, g, "diff"); !strings.Contains(out, "@@ -1,20000 +1,20000 @@\n-base line 0\n") {
		t.Fatalf("diff starts %q", out[:min(len(out), 300)])
	}
	nookGit(t, g, "commit", "-qam", "ours")
	nookGit(t, g, "checkout", "-q", "side")
	write(lines("theirs"))
	nookGit(t, g, "commit", "-qam", "theirs")
	out := g.Run(bg, []string{"merge", "main"}, "")
	if out.ExitCode != 1 || !strings.Contains(out.Stdout, "CONFLICT (content): Merge conflict in a.txt") {
		t.Fatalf("merge: %d %s %s", out.ExitCode, out.Stdout, out.Stderr)
	}
	nookGit(t, g, "merge", "--abort")
	if out := nookGit(t, g, "blame", "-L", "20000,20000", "a.txt"); !strings.HasSuffix(out, " 20000) theirs line 19999\n") {
		t.Fatalf("blame: %q", out)
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapInuse > 256<<20 {
		t.Errorf("heap in use after the worst diff: %d MB", ms.HeapInuse>>20)
	}
}
