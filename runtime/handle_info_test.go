package runtime_test

import (
	"context"
	"errors"
	"io/fs"
	"testing"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/shell"
)

// Info and ListRuns describe runs as Runs does: backend, status, exit
// code, policy; ListRuns filters and pages; an unknown run is ENOENT.
func TestInfoAndListRuns(t *testing.T) {
	ctx := context.Background()
	ws, err := nook.OpenMemory(ctx, nook.WithBackends(shell.New(shell.Options{})))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	rt := ws.Runtime()
	for _, r := range []struct {
		id, src string
		policy  runtime.Policy
	}{{"a", "true", ""}, {"b", "exit 4", runtime.PolicyRestart}, {"c", "exit 5", runtime.PolicyReplay}} {
		h, err := rt.Exec(ctx, r.src, runtime.ExecOptions{ID: r.id, Backend: "shell", OnInterrupt: r.policy})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := h.Result(ctx); err != nil {
			t.Fatal(err)
		}
	}
	info, err := rt.Info(ctx, "b")
	if err != nil {
		t.Fatal(err)
	}
	if info.ID != "b" || info.Backend != "shell" || info.Status != runtime.StatusFailed || info.ExitCode != 4 ||
		info.Policy != runtime.PolicyRestart || info.Finished.IsZero() {
		t.Errorf("Info(b) = %+v", info)
	}
	if info, _ := rt.Info(ctx, "a"); info.Policy != runtime.PolicyFail {
		t.Errorf("Info(a).Policy = %q, want the default fail", info.Policy)
	}
	if _, err := rt.Info(ctx, "nope"); !errors.Is(err, fs.ErrNotExist) || err.Error() != "no such run: nope" {
		t.Errorf("Info(nope) = %v", err)
	}
	ids := func(o runtime.ListRunsOptions) (out string) {
		l, err := rt.ListRuns(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range l {
			out += r.ID
		}
		return out
	}
	for o, want := range map[runtime.ListRunsOptions]string{
		{}:                             "cba",
		{Status: runtime.StatusFailed}: "cb",
		{Status: runtime.StatusFailed, Offset: 1}: "b",
		{Limit: 1, Offset: 1}:                     "b",
		{Status: runtime.StatusRunning}:           "",
		{Backend: "js"}:                           "",
	} {
		if got := ids(o); got != want {
			t.Errorf("ListRuns(%+v) = %q, want %q", o, got, want)
		}
	}
}
