package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"go.uber.org/goleak"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/tools"
	"github.com/nookdev/nook/vfs"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

const testTTL = 2 * time.Second

// freeAddrs returns n loopback addresses with ports free a moment ago.
func freeAddrs(t *testing.T, n int) []string {
	t.Helper()
	var out []string
	var lns []net.Listener
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		out = append(out, ln.Addr().String())
	}
	for _, ln := range lns {
		ln.Close()
	}
	return out
}

// startFleet starts three nodes n1..n3, each embedding a nats-server,
// clustered over 127.0.0.1.
func startFleet(t *testing.T) []*Node {
	t.Helper()
	return startFleetWith(t, nil)
}

// startFleetWith is startFleet with each node's options adjusted by set
// (i: 0..2), when not nil.
func startFleetWith(t *testing.T, set func(i int, o *Options)) []*Node {
	t.Helper()
	routes := freeAddrs(t, 3)
	nodes := make([]*Node, 3)
	errs := make([]error, 3)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := Options{
				Name:          fmt.Sprintf("n%d", i+1),
				DataDir:       t.TempDir(),
				ClusterListen: routes[i],
				Routes:        routes,
				LeaseTTL:      testTTL,
				CallTimeout:   20 * time.Second,
				StartTimeout:  40 * time.Second,
				SnapshotEvery: testSnapshotEvery,
			}
			if set != nil {
				set(i, &o)
			}
			nodes[i], errs[i] = Start(context.Background(), o)
		}()
	}
	wg.Wait()
	t.Cleanup(func() {
		for _, n := range nodes {
			if n != nil {
				n.Close()
				if n.srv != nil && n.srv.Running() {
					n.srv.Shutdown()
					n.srv.WaitForShutdown()
				}
			}
		}
	})
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("three nodes up in %v", time.Since(start).Round(time.Millisecond))
	return nodes
}

func call(t *testing.T, n *Node, ws, tool string, args any) *tools.Result {
	t.Helper()
	b, _ := json.Marshal(args)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := n.Call(ctx, ws, tool, b)
	if err != nil {
		t.Fatalf("%s %s via %s: %v", tool, ws, n.Name(), err)
	}
	if res.IsError {
		t.Fatalf("%s %s via %s: error result %q", tool, ws, n.Name(), res.Content[0].Text)
	}
	return res
}

func owner(t *testing.T, nodes []*Node, ws string) (own *Node, others []*Node, l Lease) {
	t.Helper()
	l, ok, err := nodes[0].Owner(context.Background(), ws)
	if err != nil || !ok {
		t.Fatalf("owner of %s: %v %v", ws, ok, err)
	}
	for _, n := range nodes {
		if n.Name() == l.Node {
			own = n
		} else {
			others = append(others, n)
		}
	}
	if own == nil {
		t.Fatalf("owner %s of %s is not a node", l.Node, ws)
	}
	return own, others, l
}

func wsFile(n *Node, ws string) string {
	return filepath.Join(n.opts.DataDir, "workspaces", ws+".nook")
}

// logRecords reads the records of ws's log subject. The JetStream API
// may be between leaders for a moment on a loaded machine: it retries.
func logRecords(t *testing.T, n *Node, ws string) []logRecord {
	t.Helper()
	var err error
	for range 30 {
		var out []logRecord
		if out, err = readLog(n, ws); err == nil {
			return out
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("reading the log of %s: %v", ws, err)
	return nil
}

func readLog(n *Node, ws string) ([]logRecord, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	info, err := n.log.Info(ctx, jetstream.WithSubjectFilter(logPrefix+ws))
	if err != nil {
		return nil, err
	}
	c, err := n.js.OrderedConsumer(ctx, LogStream, jetstream.OrderedConsumerConfig{FilterSubjects: []string{logPrefix + ws}})
	if err != nil {
		return nil, err
	}
	want := int(info.State.Subjects[logPrefix+ws])
	var out []logRecord
	for len(out) < want {
		m, err := c.Next(jetstream.FetchMaxWait(2 * time.Second))
		if err != nil {
			return nil, err
		}
		var r logRecord
		if h := m.Headers(); h.Get(hdrOp) == opCommit {
			// A commit's pages: one record per commit (its last part).
			if h.Get(hdrPart) != h.Get(hdrParts) {
				want--
				continue
			}
			r.Op, r.Node = opCommit, h.Get(hdrNode)
			r.Epoch, _ = strconv.ParseUint(h.Get(hdrEpoch), 10, 64)
		} else {
			json.Unmarshal(m.Data(), &r)
		}
		out = append(out, r)
	}
	return out, nil
}

func TestFleet(t *testing.T) {
	nodes := startFleet(t)
	names := []string{"n1", "n2", "n3"}
	live, err := nodes[0].LiveNodes(context.Background())
	sort.Strings(live)
	if err != nil || !slices.Equal(live, names) {
		t.Fatalf("live nodes %v %v, want %v", live, err, names)
	}

	t.Run("WriteThroughOneReadThroughAnother", func(t *testing.T) {
		ws := "alpha"
		placed := Rank(ws, names)[0]
		// Write through a node that is not where alpha is placed.
		var via *Node
		for _, n := range nodes {
			if n.Name() != placed {
				via = n
				break
			}
		}
		res := call(t, via, ws, "write", map[string]string{"path": "/notes.txt", "content": "hello fleet\n"})
		if got := res.Content[0].Text; !strings.Contains(got, "/notes.txt") {
			t.Errorf("write result %q", got)
		}
		own, others, l := owner(t, nodes, ws)
		if own.Name() != placed || l.Epoch != 1 {
			t.Fatalf("lease %+v, want node %s epoch 1", l, placed)
		}
		for _, n := range others {
			res := call(t, n, ws, "read", map[string]string{"path": "/notes.txt"})
			if got := res.Content[0].Text; got != "1\thello fleet" {
				t.Errorf("read via %s: %q, want %q", n.Name(), got, "1\thello fleet")
			}
			if _, err := os.Stat(wsFile(n, ws)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("non-owner %s has the database file: %v", n.Name(), err)
			}
		}
		if _, err := os.Stat(wsFile(own, ws)); err != nil {
			t.Errorf("owner's database: %v", err)
		}
		ops := logOps(logRecords(t, own, ws))
		want := []string{"acquire/" + placed + "/1/", "commit/" + placed + "/1/", "call/" + placed + "/1/write", "commit/" + placed + "/1/"}
		if !slices.Equal(ops, want) {
			t.Errorf("log records %v, want %v", ops, want)
		}

		// Latency: a small read through a non-owner (NATS request/reply)
		// against the same read on the owner (direct).
		const rounds = 50
		measure := func(n *Node) time.Duration {
			start := time.Now()
			for range rounds {
				call(t, n, ws, "read", map[string]string{"path": "/notes.txt"})
			}
			return time.Since(start) / rounds
		}
		direct, routed := measure(own), measure(others[0])
		wdirect := func(n *Node) time.Duration {
			start := time.Now()
			for i := range rounds {
				call(t, n, ws, "write", map[string]string{"path": fmt.Sprintf("/w/%d", i), "content": "x"})
			}
			return time.Since(start) / rounds
		}
		wd, wr := wdirect(own), wdirect(others[0])
		t.Logf("read latency: direct on owner %v, routed through non-owner %v; write (with R3 log append): direct %v, routed %v",
			direct, routed, wd, wr)
	})

	t.Run("Front", func(t *testing.T) {
		own, others, _ := owner(t, nodes, "alpha")
		f, err := others[1].Front(context.Background(), "alpha")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		var got, want []string
		for _, tl := range f.Tools() {
			got = append(got, tl.Name)
		}
		for _, tl := range own.servedHere("alpha").set.Tools() {
			want = append(want, tl.Name)
		}
		if !slices.Equal(got, want) {
			t.Errorf("front tools %v, owner's %v", got, want)
		}
		res, err := f.Call(context.Background(), "read", json.RawMessage(`{"path":"/notes.txt"}`))
		if err != nil || res.IsError || res.Content[0].Text != "1\thello fleet" {
			t.Fatalf("read through the front: %+v %v", res, err)
		}
		res, err = f.Call(context.Background(), "write", json.RawMessage(`{"path":"/front.txt","content":"via front"}`))
		if err != nil || res.IsError {
			t.Fatalf("write through the front: %+v %v", res, err)
		}
		if _, err := own.servedHere("alpha").ws.FS().Stat(context.Background(), "/front.txt"); err != nil {
			t.Errorf("write through the front did not reach the owner: %v", err)
		}
	})

	t.Run("Status", func(t *testing.T) {
		own, _, l := owner(t, nodes, "alpha")
		ctx := context.Background()
		for _, via := range []string{"node", "inspect"} {
			var st *Status
			var err error
			if via == "node" {
				st, err = nodes[1].Status(ctx)
			} else {
				st, err = Inspect(ctx, nodes[2].ClientURL())
			}
			if err != nil {
				t.Fatalf("%s: %v", via, err)
			}
			var got []string
			for _, ns := range st.Nodes {
				if !ns.Live || ns.Heartbeat > testTTL {
					t.Errorf("%s: node %s live %v, heartbeat %v ago", via, ns.Name, ns.Live, ns.Heartbeat)
				}
				got = append(got, ns.Name)
				for _, w := range ns.Workspaces {
					if w.Name != "alpha" {
						continue
					}
					if ns.Name != own.Name() || w.Node != own.Name() || w.Epoch != l.Epoch || w.Renewed > testTTL || w.LogEntries == 0 || w.Runs {
						t.Errorf("%s: alpha under %s: %+v, want owner %s epoch %d, renewed within the TTL, some log entries, no runs",
							via, ns.Name, w, own.Name(), l.Epoch)
					}
				}
			}
			if !slices.Equal(got, names) || st.LeaseTTL != testTTL || len(st.Unowned) != 0 {
				t.Errorf("%s: nodes %v, lease TTL %v, unowned %v; want %v, %v, none", via, got, st.LeaseTTL, st.Unowned, names, testTTL)
			}
			var servers []string
			for _, r := range st.Replicas {
				servers = append(servers, r.Server)
			}
			servers = append(servers, st.LogLeader)
			sort.Strings(servers)
			if !slices.Equal(servers, names) {
				t.Errorf("%s: log leader %q and replicas %+v, want n1..n3 between them", via, st.LogLeader, st.Replicas)
			}
		}
		_, err := Inspect(ctx, "nats://127.0.0.1:1")
		if err == nil || !strings.HasPrefix(err.Error(), "fleet: status: connecting to nats://127.0.0.1:1: ") || vfs.Code(err) != vfs.EIO {
			t.Errorf("Inspect of nothing: %v", err)
		}
	})

	t.Run("BadName", func(t *testing.T) {
		_, err := nodes[0].Call(context.Background(), "a.b", "read", nil)
		want := `fleet: name: workspace name "a.b": want 1 to 64 of A-Z a-z 0-9 - _`
		if err == nil || err.Error() != want || !errors.Is(err, fs.ErrInvalid) || vfs.Code(err) != vfs.EINVAL {
			t.Errorf("error %v, want %q (EINVAL)", err, want)
		}
		_, err = nodes[0].Call(context.Background(), strings.Repeat("a", 65), "read", nil)
		if vfs.Code(err) != vfs.ENAMETOOLONG || !strings.Contains(err.Error(), "longer than MaxNameLength (64 bytes)") {
			t.Errorf("long name: %v", err)
		}
	})

	t.Run("StaleOwnerFenced", func(t *testing.T) {
		ws := "gamma"
		call(t, nodes[0], ws, "write", map[string]string{"path": "/a.txt", "content": "one\n"})
		stale, others, l := owner(t, nodes, ws)
		// The owner pauses (no renewals, no heartbeats) and does not check
		// its own lease deadline: only the broker can stop it.
		stale.pauseRenew.Store(true)
		stale.noSelfFence.Store(true)
		defer stale.pauseRenew.Store(false)
		paused := time.Now()
		for {
			_, ok, err := nodes[0].Owner(context.Background(), ws)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				break
			}
			if time.Since(paused) > 3*testTTL {
				t.Fatalf("lease of %s still there %v after the owner paused", ws, time.Since(paused))
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Logf("lease expired %v after the owner paused (TTL %v)", time.Since(paused).Round(time.Millisecond), testTTL)
		next := others[0]
		if err := next.acquire(context.Background(), ws); err != nil {
			t.Fatal(err)
		}
		_, _, l2 := owner(t, nodes, ws)
		if l2.Node != next.Name() || l2.Epoch != l.Epoch+1 {
			t.Fatalf("lease after takeover %+v, want node %s epoch %d", l2, next.Name(), l.Epoch+1)
		}
		// The stale owner still believes it owns gamma; its late write
		// is refused by the broker and not carried out.
		b, _ := json.Marshal(map[string]string{"path": "/late.txt", "content": "late\n"})
		_, err := stale.Call(context.Background(), ws, "write", b)
		want := fmt.Sprintf("fleet: append gamma: lease lost: node %s no longer owns workspace gamma (epoch %d): the broker refused the append (another node took the workspace over)",
			stale.Name(), l.Epoch)
		if err == nil || err.Error() != want || !errors.Is(err, ErrLeaseLost) || !errors.Is(err, fs.ErrPermission) {
			t.Fatalf("late write on the stale owner: %v, want %q", err, want)
		}
		if stale.Owns(ws) {
			t.Errorf("stale owner %s still serves %s", stale.Name(), ws)
		}
		// The stale owner's database never saw the late write.
		deadline := time.Now().Add(5 * time.Second)
		for {
			stale.mu.Lock()
			nopen := len(stale.open)
			stale.mu.Unlock()
			if nopen == 1 || time.Now().After(deadline) { // alpha is still open there or not; gamma is closed
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		waitClosed(t, stale, ws)
		old, err := nook.Open(context.Background(), wsFile(stale, ws))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := old.FS().Stat(context.Background(), "/late.txt"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("refused write reached the stale owner's database: %v", err)
		}
		if _, err := old.FS().Stat(context.Background(), "/a.txt"); err != nil {
			t.Errorf("stale owner's database lost /a.txt: %v", err)
		}
		old.Close()
		// A retry through the stale node reaches the new owner.
		call(t, stale, ws, "write", map[string]string{"path": "/late.txt", "content": "late\n"})
		res := call(t, others[1], ws, "read", map[string]string{"path": "/late.txt"})
		if got := res.Content[0].Text; got != "1\tlate" {
			t.Errorf("read after retry: %q", got)
		}
		ops := logOps(logRecords(t, next, ws))
		wantOps := []string{
			fmt.Sprintf("acquire/%s/%d/", stale.Name(), l.Epoch),
			fmt.Sprintf("commit/%s/%d/", stale.Name(), l.Epoch), // the new database's schema
			fmt.Sprintf("call/%s/%d/write", stale.Name(), l.Epoch),
			fmt.Sprintf("commit/%s/%d/", stale.Name(), l.Epoch),
			fmt.Sprintf("acquire/%s/%d/", next.Name(), l.Epoch+1),
			fmt.Sprintf("commit/%s/%d/", next.Name(), l.Epoch+1), // opening it again
			fmt.Sprintf("call/%s/%d/write", next.Name(), l.Epoch+1),
			fmt.Sprintf("commit/%s/%d/", next.Name(), l.Epoch+1),
		}
		if !slices.Equal(ops, wantOps) {
			t.Errorf("log %v, want %v", ops, wantOps)
		}
	})

	t.Run("StaleCommitRefused", func(t *testing.T) { testStaleCommitRefused(t, nodes) })

	t.Run("TakeoverAfterOwnerHalts", func(t *testing.T) {
		ws := "delta"
		call(t, nodes[1], ws, "write", map[string]string{"path": "/d.txt", "content": "d\n"})
		dead, others, l := owner(t, nodes, ws)
		dead.halt(true) // the nook process dies; its lease stays until the TTL
		halted := time.Now()
		// A write through a survivor waits for the lease to expire, then
		// places delta on a live node.
		call(t, others[0], ws, "write", map[string]string{"path": "/e.txt", "content": "e\n"})
		took := time.Since(halted)
		t.Logf("takeover: first call served %v after the owner halted (TTL %v)", took.Round(time.Millisecond), testTTL)
		if took > testTTL+time.Second {
			t.Errorf("takeover took %v, want under TTL %v + 1s", took, testTTL)
		}
		_, _, l2 := owner(t, others, ws)
		if l2.Node == dead.Name() || l2.Epoch != l.Epoch+1 {
			t.Errorf("lease after takeover %+v, want another node than %s, epoch %d", l2, dead.Name(), l.Epoch+1)
		}
		res := call(t, others[1], ws, "read", map[string]string{"path": "/e.txt"})
		if got := res.Content[0].Text; got != "1\te" {
			t.Errorf("read after takeover: %q", got)
		}

		// Now the owner dies with its embedded server (a SIGKILL of the
		// whole process): two of three servers remain, a quorum, and the
		// buckets' and stream's raft groups led from the dead server elect
		// new leaders before the lease can expire and be taken.
		victim, survivor := others[0], others[1]
		ws2 := ""
		for i := 0; ws2 == ""; i++ {
			if c := fmt.Sprintf("eps%d", i); Rank(c, []string{victim.Name(), survivor.Name()})[0] == victim.Name() {
				ws2 = c
			}
		}
		call(t, survivor, ws2, "write", map[string]string{"path": "/f.txt", "content": "f\n"})
		if !victim.Owns(ws2) {
			t.Fatalf("%s placed elsewhere than %s", ws2, victim.Name())
		}
		_, _, l3 := owner(t, []*Node{survivor, victim}, ws2)
		victim.halt(false)
		halted = time.Now()
		call(t, survivor, ws2, "write", map[string]string{"path": "/g.txt", "content": "g\n"})
		took = time.Since(halted)
		t.Logf("takeover after owner and its server died: first call served %v after (TTL %v)", took.Round(time.Millisecond), testTTL)
		if took > testTTL+15*time.Second {
			t.Errorf("takeover took %v, want under TTL %v + 15s", took, testTTL)
		}
		if !survivor.Owns(ws2) {
			t.Errorf("%s not owned by the survivor %s", ws2, survivor.Name())
		}
		if _, _, l4 := owner(t, []*Node{survivor}, ws2); l4.Epoch != l3.Epoch+1 {
			t.Errorf("epoch after takeover %d, want %d", l4.Epoch, l3.Epoch+1)
		}
	})
}

// logOps renders log records as op/node/epoch/tool, runs of commits as one.
func logOps(recs []logRecord) []string {
	var ops []string
	for _, r := range recs {
		op := fmt.Sprintf("%s/%s/%d/%s", r.Op, r.Node, r.Epoch, r.Tool)
		if r.Op == opCommit && len(ops) > 0 && ops[len(ops)-1] == op {
			continue
		}
		ops = append(ops, op)
	}
	return ops
}

// waitClosed waits until n has closed ws's database.
func waitClosed(t *testing.T, n *Node, ws string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		n.mu.Lock()
		open := false
		for o := range n.open {
			if o.name == ws {
				open = true
			}
		}
		n.mu.Unlock()
		if !open {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still has %s open", n.Name(), ws)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestRank(t *testing.T) {
	nodes := []string{"n1", "n2", "n3", "n4"}
	moved := 0
	for i := range 200 {
		ws := fmt.Sprintf("ws%d", i)
		r := Rank(ws, nodes)
		if !slices.Equal(Rank(ws, []string{"n4", "n3", "n2", "n1"}), r) {
			t.Fatalf("Rank(%s) depends on input order", ws)
		}
		// Removing a node moves only the workspaces it ranked first.
		without := Rank(ws, []string{"n1", "n2", "n3"})
		if r[0] != "n4" && without[0] != r[0] {
			t.Fatalf("%s moved from %s to %s when n4 left", ws, r[0], without[0])
		}
		if r[0] == "n4" {
			moved++
		}
	}
	if moved < 25 || moved > 80 {
		t.Errorf("%d of 200 workspaces on n4, want about 50", moved)
	}
}
