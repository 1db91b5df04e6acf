package nook_test

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestNestedModules runs go vet and go test in every nested module of the
// repository (the OpenAI and Anthropic adapters, the embedder of recorded
// runs): each has a go.mod of its own, so "go test ./..." of this module
// would otherwise never reach the tests the README cites for them. Each
// runs against this checkout (their go.mod replaces the core module with
// it). Not in -short mode: the SDKs take a while to build.
func TestNestedModules(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the SDK adapters' modules: not in -short mode")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	var mods []string
	filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == "go.mod" && p != "go.mod" {
			mods = append(mods, filepath.Dir(p))
		}
		return nil
	})
	if len(mods) == 0 {
		t.Fatal("found no nested module")
	}
	for _, m := range mods {
		t.Run(filepath.ToSlash(m), func(t *testing.T) {
			if b, err := os.ReadFile(filepath.Join(m, "go.mod")); err != nil || !strings.Contains(string(b), "github.com/nookdev/nook =>") {
				t.Fatalf("%s/go.mod does not replace github.com/nookdev/nook with this checkout (%v)", m, err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
			defer cancel()
			for _, args := range [][]string{{"vet", "./..."}, {"test", "-count=1", "./..."}} {
				cmd := exec.CommandContext(ctx, goBin, args...)
				cmd.Dir = m
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("(cd %s && go %s): %v\n%s", m, strings.Join(args, " "), err, out)
				}
				t.Logf("(cd %s && go %s):\n%s", m, strings.Join(args, " "), out)
			}
		})
	}
}
