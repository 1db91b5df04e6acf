package shell_test

import (
	"strings"
	"testing"

	"github.com/nookdev/nook/runtime/shell"
)

// A model picking a backend reads that the shell has git (through ws:git)
// and the commands it has.
func TestDescriptionNamesGit(t *testing.T) {
	d := shell.New(shell.Options{}).Info().Description
	for _, want := range []string{"git runs git's command lines", "ws:git", " chmod ", " timeout ", "curl", "node FILE", "tsx FILE.ts", "wasm FILE.wasm", "no python", "sqlite3 DB.sqlite"} {
		if !strings.Contains(d, want) {
			t.Errorf("the shell's description lacks %q:\n%s", want, d)
		}
	}
}
