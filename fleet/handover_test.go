package fleet

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// ackWriter writes files to ws through via until stopped, and keeps what
// each acknowledged write left.
type ackWriter struct {
	mu    sync.Mutex
	acked map[string]string
	fails int
	errs  []string
	stop  chan struct{}
	done  chan struct{}
}

func startWriter(via *Node, ws, prefix string) *ackWriter {
	w := &ackWriter{acked: map[string]string{}, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		for i := 0; ; i++ {
			select {
			case <-w.stop:
				return
			default:
			}
			p, c := fmt.Sprintf("/%s/%d.txt", prefix, i), fmt.Sprintf("%s %d\n", prefix, i)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			res, err := via.Call(ctx, ws, "write", []byte(fmt.Sprintf(`{"path":%q,"content":%q}`, p, c)))
			cancel()
			w.mu.Lock()
			if err == nil && !res.IsError {
				w.acked[p] = c
			} else {
				w.fails++
				w.errs = append(w.errs, fmt.Sprint(err, res))
			}
			w.mu.Unlock()
			time.Sleep(5 * time.Millisecond)
		}
	}()
	return w
}

func (w *ackWriter) finish() (map[string]string, int) {
	close(w.stop)
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.acked, w.fails
}

// Move and Drain hand workspaces over without losing an acknowledged
// write; a run in flight is handed over and resumed by its policy; a
// drained node takes no workspace.
func TestMoveAndDrain(t *testing.T) {
	if testing.Short() {
		t.Skip("a fleet and several handovers")
	}
	m := &ftModule{blocked: make(chan string, 1)}
	nodes := startFleetWith(t, func(i int, o *Options) { o.Workspace = ftWorkspace(m.module(o.Name)) })
	names := []string{"n1", "n2", "n3"}
	ctx := context.Background()

	t.Run("Move", func(t *testing.T) {
		ws := wsOn("mv", "n1", names)
		call(t, nodes[2], ws, "write", map[string]string{"path": "/first.txt", "content": "first\n"})
		w := startWriter(nodes[2], ws, "during")
		time.Sleep(300 * time.Millisecond) // some writes before the move
		h, err := nodes[1].Move(ctx, ws, "n2", time.Second)
		time.Sleep(300 * time.Millisecond) // and some after it
		acked, fails := w.finish()
		if err != nil {
			t.Fatal(err)
		}
		if want := (Handover{Workspace: ws, From: "n1", To: "n2", Epoch: 2}); h != want {
			t.Errorf("handover %+v, want %+v", h, want)
		}
		if _, _, l := owner(t, nodes, ws); l.Node != "n2" || l.Epoch != 2 {
			t.Errorf("lease after the move %+v, want n2 epoch 2", l)
		}
		if nodes[0].Owns(ws) || !nodes[1].Owns(ws) {
			t.Errorf("n1 owns %s: %v, n2: %v; want false, true", ws, nodes[0].Owns(ws), nodes[1].Owns(ws))
		}
		t.Logf("%d writes acknowledged during the move, %d failed", len(acked), fails)
		if fails != 0 || len(acked) < 5 {
			t.Errorf("%d writes acknowledged, %d failed (%q); want 5 or more and none failed (a planned move makes calls wait)", len(acked), fails, w.errs)
		}
		acked["/first.txt"] = "first\n"
		checkWorkload(t, nodes, ws, acked)
		// The log (what the last snapshot left of it) has nothing of
		// n1's after n2's first record.
		recs := logRecords(t, nodes[1], ws)
		i := slices.IndexFunc(recs, func(r logRecord) bool { return r.Epoch == 2 })
		if i < 0 || slices.ContainsFunc(recs[i:], func(r logRecord) bool { return r.Epoch != 2 || r.Node != "n2" }) {
			t.Errorf("log %v: want n1's records only before n2's", logOps(recs))
		}

		// Already there: nothing happens.
		if h, err := nodes[0].Move(ctx, ws, "n2", 0); err != nil || h != (Handover{Workspace: ws, From: "n2", To: "n2", Epoch: 2}) {
			t.Errorf("move to its owner: %+v %v", h, err)
		}
		// To a node that is not there: refused before anything stops.
		_, err = nodes[0].Move(ctx, ws, "nx", 0)
		want := "fleet: move " + ws + ": nx: not a live node that takes workspaces (those are: n1, n2, n3)"
		if err == nil || err.Error() != want || vfs.Code(err) != vfs.ENOENT {
			t.Errorf("move to nx: %v, want %q", err, want)
		}
		_, err = nodes[0].Move(ctx, ws, "n3", -time.Second)
		want = "fleet: move: run wait -1s is outside 0..MaxRunWait (10m0s)"
		if err == nil || err.Error() != want || !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("negative run wait: %v, want %q", err, want)
		}
		if !nodes[1].Owns(ws) {
			t.Errorf("refused moves moved %s", ws)
		}
	})

	t.Run("MoveWithRunInFlight", func(t *testing.T) {
		ws := wsOn("mvrun", "n3", names)
		id := inFlight(t, m, nodes[0], nodes[2], ws, "js")
		start := time.Now()
		h, err := nodes[0].Move(ctx, ws, "n1", 200*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		if want := (Handover{Workspace: ws, From: "n3", To: "n1", Epoch: 2, Runs: 1}); h != want {
			t.Errorf("handover %+v, want %+v", h, want)
		}
		res, own := afterTakeover(t, nodes[:1], ws, id)
		t.Logf("run %s handed over and finished on %s %v after the move began", id, own.Name(), time.Since(start).Round(time.Millisecond))
		if res.Status != runtime.StatusCompleted || string(res.Stdout) != "before the gate: one done\nafter the gate (open): two done\n" {
			t.Errorf("handed-over run: status %s stdout %q error %q", res.Status, res.Stdout, res.Error)
		}
		wantCalls := []string{"n3 step one", "n3 gate", "n1 gate", "n1 step two"}
		if got := m.recorded(); !slices.Equal(got, wantCalls) {
			t.Errorf("host calls %q, want %q", got, wantCalls)
		}
	})

	t.Run("Drain", func(t *testing.T) {
		var mine []string
		for i := range 3 {
			ws := wsOn(fmt.Sprintf("dr%d_", i), "n3", names)
			call(t, nodes[0], ws, "write", map[string]string{"path": "/d.txt", "content": ws + "\n"})
			mine = append(mine, ws)
		}
		slices.Sort(mine)
		rep, err := DrainVia(ctx, nodes[0].ClientURL(), "n3", time.Second)
		if err != nil {
			t.Fatal(err)
		}
		want := &DrainReport{Node: "n3"}
		for _, ws := range mine {
			want.Moved = append(want.Moved, Handover{Workspace: ws, From: "n3", To: Rank(ws, []string{"n1", "n2"})[0], Epoch: 2})
		}
		if rep.Node != want.Node || !slices.Equal(rep.Moved, want.Moved) {
			t.Errorf("drain report %+v, want %+v", rep, want)
		}
		for _, ws := range mine {
			if nodes[2].Owns(ws) {
				t.Errorf("n3 still owns %s", ws)
			}
			res := call(t, nodes[2], ws, "read", map[string]string{"path": "/d.txt"})
			if got := res.Content[0].Text; got != "1\t"+ws {
				t.Errorf("read %s through n3 after the drain: %q", ws, got)
			}
		}
		// A drained node takes no workspace: one it ranks first goes to
		// the next in its ranking; asked directly, it refuses.
		ws := wsOn("after", "n3", names)
		call(t, nodes[2], ws, "write", map[string]string{"path": "/a.txt", "content": "a\n"})
		if _, _, l := owner(t, nodes, ws); l.Node != Rank(ws, []string{"n1", "n2"})[0] {
			t.Errorf("%s placed on %s, want %s", ws, l.Node, Rank(ws, []string{"n1", "n2"})[0])
		}
		err = nodes[2].acquire(ctx, "other")
		wantErr := "fleet: acquire other: node n3 is draining: it takes no workspace"
		if err == nil || err.Error() != wantErr || !errors.Is(err, ErrDraining) || vfs.Code(err) != vfs.EBUSY {
			t.Errorf("acquire on a drained node: %v, want %q", err, wantErr)
		}
		st, err := nodes[0].Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, ns := range st.Nodes {
			if ns.Draining != (ns.Name == "n3") || (ns.Name == "n3" && len(ns.Workspaces) != 0) {
				t.Errorf("status of %s: draining %v, %d workspaces", ns.Name, ns.Draining, len(ns.Workspaces))
			}
		}
		// A drained node is not ready: a balancer sends it nothing.
		if got := nodes[2].Ready(ctx)[1]; got.OK || got.Detail != "node n3 is draining: it takes no workspace" {
			t.Errorf("a drained node's fleet check: %+v", got)
		}
		// Draining again moves nothing.
		if rep, err := nodes[1].Drain(ctx, "n3", 0); err != nil || rep.Node != "n3" || len(rep.Moved) != 0 {
			t.Errorf("second drain: %+v %v", rep, err)
		}
		_, err = nodes[1].Drain(ctx, "nx", 0)
		wantErr = "fleet: drain: node nx does not answer (not running, or not a member of this fleet): nats: no responders available for request"
		if err == nil || err.Error() != wantErr || vfs.Code(err) != vfs.ENOENT {
			t.Errorf("drain of nx: %v, want %q", err, wantErr)
		}
	})
}
