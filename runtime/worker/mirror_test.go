package worker_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/worker"
	"github.com/nookdev/nook/vfs"
)

// mirror is a backend whose program prints the Request it was given (in
// Go syntax, where nil and empty differ) and exits with Changes made of
// it, so that a run in a worker can be compared with one in process.
type mirror struct{}

func (mirror) Info() runtime.BackendInfo {
	return runtime.BackendInfo{ID: "mirror", Root: "/workspace"}
}

func (mirror) Prepare(ctx context.Context, fsys *vfs.FS, req *runtime.Request) (runtime.Program, error) {
	return mirrorProgram{*req}, nil
}

type mirrorProgram struct{ req runtime.Request }

func (p mirrorProgram) Run(ctx context.Context, host runtime.Host) runtime.Exit {
	r := p.req
	// The tree key is new for every top run (one budget per tree), so two
	// runs of one request differ there by design; it does cross: it must
	// name the run.
	if !strings.HasSuffix(r.Tree, ":"+r.ID) {
		return runtime.Exit{Err: fmt.Errorf("tree %q does not name run %q", r.Tree, r.ID)}
	}
	r.Tree = ""
	host.Write(runtime.Stdout, fmt.Appendf(nil, "%#v", r))
	host.Write(runtime.Stderr, fmt.Appendf(nil, "%d", os.Getpid()))
	var keys []string
	if r.Env != nil {
		keys = []string{}
		for k := range r.Env {
			keys = append(keys, k)
		}
		sort.Strings(keys)
	}
	ch := &runtime.Changes{Created: r.Args, Updated: keys, DirsDeleted: []string{}}
	if r.Stdin != nil {
		ch.Deleted = []string{}
		if len(r.Stdin) > 0 {
			ch.Deleted = append(ch.Deleted, string(r.Stdin))
		}
	}
	if len(r.Args) == 0 && r.Env == nil {
		ch = nil
	}
	return runtime.Exit{Changes: ch}
}

// randomBytes is a string of random bytes, UTF-8 or not (no NUL and no
// '=', which no environment holds).
func randomBytes(r *rand.Rand) string {
	b := make([]byte, r.IntN(8))
	for i := range b {
		b[i] = byte(1 + r.UintN(255))
		if b[i] == '=' {
			b[i] = 0xfe
		}
	}
	return string(b)
}

// TestRequestAndChangesCrossExactly runs random requests (nil and empty
// arguments, environments and stdin, names that are not UTF-8) through
// the mirror backend in process and in a worker: the program sees the same
// Request (printed in Go syntax) and the run reports the same Changes.
func TestRequestAndChangesCrossExactly(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 7))
	o := runtime.Options{Backends: []runtime.Backend{mirror{}}}
	e := newEnv(t, o, worker.Options{})
	local, err := nook.OpenMemory(context.Background(), nook.WithRuntime(o), nook.WithBackends(backends()...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { local.Close() })
	strs := func() []string {
		switch r.IntN(3) {
		case 0:
			return nil
		case 1:
			return []string{}
		}
		s := make([]string, 1+r.IntN(3))
		for i := range s {
			s[i] = randomBytes(r)
		}
		return s
	}
	n := 40
	if testing.Short() {
		n = 15
	}
	for i := range n {
		x := runtime.ExecOptions{Backend: "mirror", ID: fmt.Sprintf("mirror-%d", i), Args: strs()}
		switch r.IntN(3) {
		case 1:
			x.Env = map[string]string{}
		case 2:
			x.Env = map[string]string{"K" + randomBytes(r): randomBytes(r), "K": ""}
		}
		switch r.IntN(3) {
		case 1:
			x.Stdin = []byte{}
		case 2:
			x.Stdin = []byte(randomBytes(r) + "\xff")
		}
		src := randomBytes(r)
		run := func(ws *nook.Workspace) *runtime.Result {
			h, err := ws.Runtime().Exec(context.Background(), src, x)
			if err != nil {
				t.Fatal(err)
			}
			res, err := h.Result(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		want, got := run(local), run(e.ws)
		if want.Status != runtime.StatusCompleted || got.Status != want.Status {
			t.Fatalf("%d: in process %s %q, in a worker %s %q", i, want.Status, want.Error, got.Status, got.Error)
		}
		if string(want.Stderr) != fmt.Sprint(os.Getpid()) || string(got.Stderr) == fmt.Sprint(os.Getpid()) {
			t.Fatalf("%d: the program ran in pid %s in process and in pid %s in a worker (this is %d)", i,
				want.Stderr, got.Stderr, os.Getpid())
		}
		if string(got.Stdout) != string(want.Stdout) {
			t.Fatalf("%d: the request in process:\n%s\nin a worker:\n%s", i, want.Stdout, got.Stdout)
		}
		if !reflect.DeepEqual(got.Changes, want.Changes) {
			t.Fatalf("%d: changes in process %#v, in a worker %#v", i, want.Changes, got.Changes)
		}
	}
}
