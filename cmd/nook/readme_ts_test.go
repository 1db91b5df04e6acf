package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The README's TypeScript examples (its ```ts blocks) type-check with
// tsc --strict against the declarations "nook tools types" prints. Without
// tsc (and with -short, or no network for npm) it only checks that there
// are examples.
func TestReadmeTypeScript(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	for _, part := range strings.Split(string(readme), "\n```ts\n")[1:] {
		code, _, ok := strings.Cut(part, "\n```\n")
		if !ok {
			t.Fatalf("unterminated ts block: %.80q", part)
		}
		blocks = append(blocks, code+"\n")
	}
	if len(blocks) == 0 {
		t.Fatal("the README has no ```ts example")
	}
	tsc := typescriptCompiler(t)
	if tsc == "" {
		return
	}
	w := newWS(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "nook.d.ts"), []byte(w.ok("tools", "types")), 0o644)
	for i, code := range blocks {
		name := filepath.Join(dir, "readme"+strconv.Itoa(i)+".ts")
		os.WriteFile(name, []byte(code), 0o644)
		out, err := exec.Command(tsc, "--noEmit", "--strict", "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler",
			name, filepath.Join(dir, "nook.d.ts")).CombinedOutput()
		if err != nil {
			t.Errorf("README ts example %d fails tsc --strict: %v\n%s\n%s", i+1, err, out, code)
		}
	}
}
