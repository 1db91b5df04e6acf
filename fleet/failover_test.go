package fleet

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/vfs"
)

// failoverProgram prints, calls step twice and waits at gate in between:
// the run is in flight at gate when its node dies.
const failoverProgram = `
import { step, gate } from "ws:ft";
export default async function () {
  const a = await step("one");
  console.log("before the gate: " + a);
  const g = await gate();
  const b = await step("two");
  console.log("after the gate (" + g + "): " + b);
  return { a, g, b };
}`

// ftModule is the host module ws:ft of every node of the failover fleet.
// It records which node executed which call; gate blocks on the node
// named by blockOn until its run is cancelled (the node dies), and
// reports that it blocked on blocked.
type ftModule struct {
	mu      sync.Mutex
	calls   []string // "node fn arg"
	blockOn string
	blocked chan string // the node where gate blocks
}

func (m *ftModule) module(node string) map[string]runtime.Module {
	rec := func(s string) {
		m.mu.Lock()
		m.calls = append(m.calls, node+" "+s)
		m.mu.Unlock()
	}
	return map[string]runtime.Module{"ws:ft": {
		"step": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
			rec(fmt.Sprintf("step %v", args[0]))
			return fmt.Sprintf("%v done", args[0]), nil
		},
		"ask": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
			rec(fmt.Sprintf("ask %v", args[0]))
			return c.Interrupt(map[string]any{"question": args[0]})
		},
		"gate": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
			rec("gate")
			m.mu.Lock()
			block := m.blockOn == node
			m.mu.Unlock()
			if block {
				m.blocked <- node
				<-ctx.Done()
				return nil, ctx.Err()
			}
			return "open", nil
		},
	}}
}

func (m *ftModule) block(node string) {
	m.mu.Lock()
	m.blockOn, m.calls = node, nil
	m.mu.Unlock()
}

func (m *ftModule) recorded() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.calls)
}

// ftWorkspace: "js" runs replay after an interruption, "jsfail" runs
// fail, "jsrestart" runs start again.
func ftWorkspace(mod map[string]runtime.Module) []nook.Option {
	return []nook.Option{
		nook.WithRuntime(runtime.Options{KeepJournal: true, OnInterrupt: map[string]runtime.Policy{
			"js": runtime.PolicyReplay, "jsfail": runtime.PolicyFail, "jsrestart": runtime.PolicyRestart}}),
		nook.WithBackends(js.New(js.Options{}), js.New(js.Options{ID: "jsfail"}), js.New(js.Options{ID: "jsrestart"})),
		nook.WithModules(mod),
	}
}

// wsOn returns a workspace name that Rank places on node among nodes.
func wsOn(prefix, node string, nodes []string) string {
	for i := 0; ; i++ {
		if ws := fmt.Sprintf("%s%d", prefix, i); Rank(ws, nodes)[0] == node {
			return ws
		}
	}
}

// inFlight starts failoverProgram on backend through caller (the call is
// routed to ws's owner, victim), waits until the run blocks at gate there,
// and returns the run's id. The exec call gets no answer (its node dies):
// it is cancelled when the test ends.
func inFlight(t *testing.T, m *ftModule, caller, victim *Node, ws, backend string) string {
	t.Helper()
	m.block(victim.Name())
	startExec(t, caller, ws, failoverProgram, backend)
	select {
	case node := <-m.blocked:
		if node != victim.Name() {
			t.Fatalf("the run blocked on %s, want %s", node, victim.Name())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the run did not reach the gate")
	}
	o := victim.servedHere(ws)
	if o == nil {
		t.Fatalf("%s does not serve %s", victim.Name(), ws)
	}
	runs, err := o.ws.Runtime().Runs(context.Background(), 10)
	if err != nil || len(runs) != 1 || runs[0].Status != runtime.StatusRunning {
		t.Fatalf("runs on %s: %+v %v, want one running", victim.Name(), runs, err)
	}
	if marked, err := victim.hasRuns(context.Background(), ws); err != nil || !marked {
		t.Fatalf("%s not marked in %s while its run is in flight: %v", ws, RunsBucket, err)
	}
	return runs[0].ID
}

// startExec starts program on backend by an exec call of ws through
// caller, in the background: the call may get no answer (its node dies);
// it is cancelled when the test ends.
func startExec(t *testing.T, caller *Node, ws, program, backend string) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	t.Cleanup(func() { cancel(); <-done })
	args, _ := json.Marshal(map[string]string{"command": program, "backend": backend})
	go func() {
		defer close(done)
		caller.Call(ctx, ws, "exec", args)
	}()
}

// afterTakeover waits until one of survivors owns ws, then for run id to
// finish there; it returns the run's result and its new owner.
func afterTakeover(t *testing.T, survivors []*Node, ws, id string) (*runtime.Result, *Node) {
	t.Helper()
	deadline := time.Now().Add(testTTL + 20*time.Second)
	var own *Node
	for own == nil {
		for _, n := range survivors {
			if n.Owns(ws) {
				own = n
			}
		}
		if own == nil && time.Now().After(deadline) {
			t.Fatalf("no survivor took %s over", ws)
		}
		time.Sleep(10 * time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	o := own.servedHere(ws)
	if o == nil {
		t.Fatalf("%s stopped serving %s", own.Name(), ws)
	}
	h, err := o.ws.Runtime().GetExec(ctx, id, runtime.GetOptions{})
	if err != nil {
		t.Fatalf("run %s on the new owner %s: %v", id, own.Name(), err)
	}
	res, err := h.Result(ctx)
	if err != nil {
		t.Fatalf("result of run %s on %s: %v", id, own.Name(), err)
	}
	return res, own
}

// A run in flight on a node that dies is resumed by the node that takes
// its workspace over, by the run's interrupt policy, once.
func TestRunFailover(t *testing.T) {
	if testing.Short() {
		t.Skip("a fleet and two node deaths")
	}
	m := &ftModule{blocked: make(chan string, 1)}
	nodes := startFleetWith(t, func(i int, o *Options) { o.Workspace = ftWorkspace(m.module(o.Name)) })
	names := []string{"n1", "n2", "n3"}

	// What the program gives when nothing interrupts it.
	ref, err := nook.OpenMemory(context.Background(), ftWorkspace(m.module("ref"))...)
	if err != nil {
		t.Fatal(err)
	}
	h, err := ref.Runtime().Exec(context.Background(), failoverProgram, runtime.ExecOptions{Backend: "js"})
	if err != nil {
		t.Fatal(err)
	}
	want, err := h.Result(context.Background())
	ref.Close()
	if err != nil || want.Status != runtime.StatusCompleted {
		t.Fatalf("uninterrupted run: %+v %v", want, err)
	}
	if s := string(want.Stdout); s != "before the gate: one done\nafter the gate (open): two done\n" {
		t.Fatalf("uninterrupted run printed %q", s)
	}

	t.Run("Replay", func(t *testing.T) {
		victim, caller := nodes[0], nodes[2]
		ws := wsOn("replay", victim.Name(), names)
		id := inFlight(t, m, caller, victim, ws, "js")
		halted := time.Now()
		victim.halt(true) // the process dies; the broker lives on
		res, own := afterTakeover(t, nodes[1:], ws, id)
		t.Logf("replay-policy run %s resumed on %s and finished %v after its node died (lease TTL %v)",
			id, own.Name(), time.Since(halted).Round(time.Millisecond), testTTL)
		if res.Status != runtime.StatusCompleted || res.ExitCode != 0 || res.Error != "" {
			t.Errorf("resumed run: status %s, exit %d, error %q", res.Status, res.ExitCode, res.Error)
		}
		if string(res.Stdout) != string(want.Stdout) || string(res.Value) != string(want.Value) {
			t.Errorf("resumed run: stdout %q value %s, want %q and %s (an uninterrupted run's)",
				res.Stdout, res.Value, want.Stdout, want.Value)
		}
		// step("one") ran once, on the dead node; the replay took its
		// result from the journal and ran only what had not finished.
		wantCalls := []string{"n1 step one", "n1 gate", own.Name() + " gate", own.Name() + " step two"}
		if got := m.recorded(); !slices.Equal(got, wantCalls) {
			t.Errorf("host calls %q, want %q", got, wantCalls)
		}
		// Once no run is in flight, the new owner clears the mark.
		deadline := time.Now().Add(2 * testTTL)
		for {
			marked, err := own.hasRuns(context.Background(), ws)
			if err == nil && !marked {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s still marked in %s %v after its run finished (%v)", ws, RunsBucket, 2*testTTL, err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	})

	t.Run("Fail", func(t *testing.T) {
		victim, survivor := nodes[1], nodes[2]
		ws := wsOn("fail", victim.Name(), names)
		id := inFlight(t, m, survivor, victim, ws, "jsfail")
		halted := time.Now()
		victim.halt(false) // the process dies with its embedded server
		res, own := afterTakeover(t, []*Node{survivor}, ws, id)
		t.Logf("fail-policy run %s failed on %s %v after its node died", id, own.Name(), time.Since(halted).Round(time.Millisecond))
		const note = "Execution was interrupted: the process running it stopped before it finished."
		if res.Status != runtime.StatusFailed || res.ExitCode != 1 || res.Error != note {
			t.Errorf("interrupted run: status %s, exit %d, error %q; want failed, 1, %q", res.Status, res.ExitCode, res.Error, note)
		}
		if !strings.HasSuffix(string(res.Stderr), note+"\n") {
			t.Errorf("stderr %q, want it to end with the note", res.Stderr)
		}
		// Nothing ran again on the new owner.
		wantCalls := []string{victim.Name() + " step one", victim.Name() + " gate"}
		if got := m.recorded(); !slices.Equal(got, wantCalls) {
			t.Errorf("host calls %q, want %q", got, wantCalls)
		}
	})
}

// approvalProgram waits for an answer between two steps.
const approvalProgram = `
import { step, ask } from "ws:ft";
export default async function () {
  const a = await step("one");
  const answer = await ask("deploy?");
  const b = await step("two");
  return { a, answer, b };
}`

// A pending approval answered on any node after a takeover reaches the
// run where it was resumed; a restart-policy run starts again on the new
// owner; each finishes once.
func TestApprovalAndRestartFailover(t *testing.T) {
	if testing.Short() {
		t.Skip("a fleet and two node deaths")
	}
	m := &ftModule{blocked: make(chan string, 1)}
	nodes := startFleetWith(t, func(i int, o *Options) { o.Workspace = ftWorkspace(m.module(o.Name)) })
	names := []string{"n1", "n2", "n3"}
	ctx := context.Background()

	t.Run("Approval", func(t *testing.T) {
		victim := nodes[0]
		ws := wsOn("appr", victim.Name(), names)
		m.block("")
		startExec(t, nodes[2], ws, approvalProgram, "js")
		var p []runtime.PendingCall
		for deadline := time.Now().Add(30 * time.Second); len(p) == 0; time.Sleep(20 * time.Millisecond) {
			var err error
			if p, err = nodes[1].Pending(ctx, ws); err != nil {
				t.Fatal(err)
			}
			if time.Now().After(deadline) {
				t.Fatal("no pending call")
			}
		}
		if len(p) != 1 || string(p[0].Payload) != `{"question":"deploy?"}` || p[0].CallID != p[0].RunID+"/2" {
			t.Fatalf("pending %+v", p)
		}
		if !victim.Owns(ws) {
			t.Fatalf("%s not on %s", ws, victim.Name())
		}
		victim.halt(true) // the owner dies while the run waits
		halted := time.Now()
		var own, via *Node
		for deadline := time.Now().Add(testTTL + 20*time.Second); own == nil; time.Sleep(10 * time.Millisecond) {
			for i, n := range nodes[1:] {
				if n.Owns(ws) {
					own, via = n, nodes[1+(1-i)]
				}
			}
			if time.Now().After(deadline) {
				t.Fatal("no survivor took the workspace over")
			}
		}
		t.Logf("%s took %s over %v after its owner died; answering through %s", own.Name(), ws, time.Since(halted).Round(time.Millisecond), via.Name())
		// The answer, given on a node that does not own the workspace,
		// reaches the run on its new owner.
		if err := via.Respond(ctx, ws, p[0].RunID, p[0].CallID, map[string]any{"approved": true, "by": "ops"}); err != nil {
			t.Fatal(err)
		}
		res, _ := afterTakeover(t, []*Node{own}, ws, p[0].RunID)
		if res.Status != runtime.StatusCompleted || string(res.Value) != `{"a":"one done","answer":{"approved":true,"by":"ops"},"b":"two done"}` {
			t.Errorf("answered run: status %s value %s error %q", res.Status, res.Value, res.Error)
		}
		// step("two") ran once, after the answer; ask ran again on the
		// new owner (the replay up to the answered call).
		wantCalls := []string{"n1 step one", "n1 ask deploy?", own.Name() + " ask deploy?", own.Name() + " step two"}
		if got := m.recorded(); !slices.Equal(got, wantCalls) {
			t.Errorf("host calls %q, want %q", got, wantCalls)
		}
		err := via.Respond(ctx, ws, p[0].RunID, p[0].CallID, true)
		want := fmt.Sprintf("fleet: respond %s: answering call %s: call %s is not waiting for an answer", ws, p[0].CallID, p[0].CallID)
		if err == nil || err.Error() != want || vfs.Code(err) != runtime.ENOTWAITING {
			t.Errorf("second answer: %v, want %q (ENOTWAITING)", err, want)
		}
		if p, err := via.Pending(ctx, ws); err != nil || len(p) != 0 {
			t.Errorf("pending after the answer: %+v %v", p, err)
		}
		o := own.servedHere(ws)
		runs, err := o.ws.Runtime().Runs(ctx, 10)
		if err != nil || len(runs) != 1 || runs[0].ID != p[0].RunID || runs[0].Status != runtime.StatusCompleted {
			t.Errorf("runs on the new owner: %+v %v, want the one run, completed", runs, err)
		}
	})

	t.Run("Restart", func(t *testing.T) {
		victim, survivor := nodes[1], nodes[2]
		// n1 is dead: wait until its heartbeat is gone, so that the
		// workspace is placed by the ranking of the two left.
		for deadline := time.Now().Add(3 * testTTL); ; time.Sleep(50 * time.Millisecond) {
			if live, err := survivor.placeable(ctx); err == nil && len(live) == 2 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("n1's heartbeat outlived 3 TTLs")
			}
		}
		ws := wsOn("restart", victim.Name(), []string{victim.Name(), survivor.Name()})
		id := inFlight(t, m, survivor, victim, ws, "jsrestart")
		victim.halt(true)
		res, own := afterTakeover(t, []*Node{survivor}, ws, id)
		if res.Status != runtime.StatusCompleted || string(res.Stdout) != "before the gate: one done\nafter the gate (open): two done\n" {
			t.Errorf("restarted run: status %s stdout %q error %q", res.Status, res.Stdout, res.Error)
		}
		// Everything ran again, from the start, on the new owner.
		wantCalls := []string{victim.Name() + " step one", victim.Name() + " gate", own.Name() + " step one", own.Name() + " gate", own.Name() + " step two"}
		if got := m.recorded(); !slices.Equal(got, wantCalls) {
			t.Errorf("host calls %q, want %q", got, wantCalls)
		}
	})
}
