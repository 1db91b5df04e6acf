package shell_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/shell"
)

// FuzzShell parses and runs arbitrary scripts with small limits: whatever
// the script, the run ends (with any status) and reports no panic of the
// interpreter or the backend, and the host process stays alive. Run it
// with `go test -run XXX -fuzz FuzzShell ./runtime/shell/`.
func FuzzShell(f *testing.F) {
	for _, seed := range []string{
		"echo hi | cat; echo ${PIPESTATUS[@]}",
		"(( a[1]=5 )); echo ${a[1]}",
		"declare -A m; echo ${m[a+1]}",
		"trap 'echo err $LINENO' ERR; false; f() { false; }; set -E; f",
		"exec 3> f; echo x >&3; exec 3>&-; cat f; exec {fd}> g; echo $fd",
		"set -C; echo a > f; echo b > f; echo c >| f; cat f",
		"for (( a[1]=0; a[1]<2; a[1]++ )); do echo x; done | cat",
		"x=$(printf '%s' {1..20}); echo ${x//1/ab}",
		"f() { f | f; }; f",
		"case $x in a|b) echo $_;; *) echo no;; esac",
		"read -r a b <<< 'x y'; echo \"$a-$b\" 2>&1 >&2",
		"while :; do :; done",
	} {
		f.Add(seed)
	}
	lim := runtime.Limits{MaxAllocBytes: 1 << 20, MaxProcesses: 8, MaxDirEntries: 50, MaxOutputBytes: 1 << 16}
	ws := openWSLimits(f, nil, lim, shell.Options{MaxLoopIterations: 1000, MaxFunctionDepth: 50})
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		ctx := context.Background()
		h, err := ws.Runtime().Exec(ctx, src, runtime.ExecOptions{Backend: "shell", Timeout: 2 * time.Second})
		if err != nil {
			// A script refused before it runs (a syntax error) is fine,
			// unless the refusal is a panic.
			if strings.Contains(err.Error(), "panic") {
				t.Fatalf("script %q: %v", src, err)
			}
			return
		}
		r, err := h.Result(ctx)
		if err != nil {
			t.Fatalf("script %q: result: %v", src, err)
		}
		for _, bad := range []string{"backend panicked", "internal error"} {
			if strings.Contains(string(r.Stderr), bad) {
				t.Fatalf("script %q: stderr %q", src, r.Stderr)
			}
		}
	})
}
