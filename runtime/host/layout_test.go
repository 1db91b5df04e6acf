package host_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestBackendsLinkHostNotRuntime checks the layout the package exists for:
// a backend depends on the Host boundary (runtime/host) and never on the
// orchestration (runtime), so a worker that links backends links no
// runtime either.
func TestBackendsLinkHostNotRuntime(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	const mod = "github.com/nookdev/nook/"
	for _, pkg := range []string{"runtime/js", "runtime/wasm", "runtime/shell"} {
		out, err := exec.Command(gobin, "list", "-deps", mod+pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		deps := strings.Fields(string(out))
		if !slices.Contains(deps, mod+"runtime/host") {
			t.Errorf("%s does not depend on runtime/host", pkg)
		}
		if slices.Contains(deps, mod+"runtime") {
			t.Errorf("%s depends on runtime, the parent's orchestration; it may import runtime/host only", pkg)
		}
	}
}
