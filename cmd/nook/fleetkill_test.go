package main

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nookdev/nook/fleet"
)

// fleetKillsEnv sets how many times TestFleetKill kills a workspace's
// owner; without it the test is skipped (about 12 s a round: .ci/run runs
// it).
const (
	fleetKillsEnv = "NOOK_FLEET_KILLS"
	fleetKillTTL  = 1500 * time.Millisecond
	// fleetTakeoverBound is what a takeover may take beyond the lease TTL:
	// the dead node's JetStream raft groups elect new leaders, then a
	// survivor restores the workspace from its snapshot and log.
	fleetTakeoverBound = 30 * time.Second
)

// fleetProc is one "nook node" process of TestFleetKill.
type fleetProc struct {
	name, data, route, client, http string
	routes                          string
	cmd                             *exec.Cmd
	stderr                          *os.File
}

func (p *fleetProc) start(t *testing.T) {
	t.Helper()
	p.cmd = exec.Command(nookBin, "node", "--name", p.name, "--data", p.data,
		"--nats-listen", p.route, "--nats-routes", p.routes, "--nats-client", p.client,
		"--http", p.http, "--lease-ttl", fleetKillTTL.String(), "--on-interrupt", "replay", "--log-level", "error")
	p.cmd.Env = append(os.Environ(), "NOOK_TOKEN=")
	p.cmd.Stderr = p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
}

// ready waits until the node serves HTTP.
func (p *fleetProc) ready(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		resp, err := http.Get("http://" + p.http + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("node %s not serving within 90s (see %s)", p.name, p.stderr.Name())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (p *fleetProc) kill() {
	p.cmd.Process.Signal(syscall.SIGKILL)
	p.cmd.Wait()
}

// kvIn and kvOut are the operations of TestFleetKill's history: a write
// of a file, a read, or an edit that inserts a line before END.
type kvIn struct {
	op, key, val string // op: "w", "r", "e"
}

type kvOut struct {
	val     string // what a read returned
	unknown bool   // the call failed: it may or may not have taken effect
}

// fileModel is a linearizable set of files, one register per path.
var fileModel = porcupine.Model{
	Partition: func(h []porcupine.Operation) [][]porcupine.Operation {
		by := map[string][]porcupine.Operation{}
		var keys []string
		for _, op := range h {
			k := op.Input.(kvIn).key
			if by[k] == nil {
				keys = append(keys, k)
			}
			by[k] = append(by[k], op)
		}
		out := make([][]porcupine.Operation, len(keys))
		for i, k := range keys {
			out[i] = by[k]
		}
		return out
	},
	Init: func() any { return "" },
	Step: func(state, in, out any) (bool, any) {
		s, i, o := state.(string), in.(kvIn), out.(kvOut)
		switch i.op {
		case "w":
			return true, i.val
		case "e":
			if !strings.Contains(s, "END") {
				return o.unknown, s
			}
			return true, strings.Replace(s, "END", i.val+"\nEND", 1)
		}
		return o.val == s, s
	},
	DescribeOperation: func(in, out any) string {
		i, o := in.(kvIn), out.(kvOut)
		if i.op == "r" {
			return fmt.Sprintf("read %s -> %q", i.key, o.val)
		}
		return fmt.Sprintf("%s %s %q (unknown %v)", i.op, i.key, i.val, o.unknown)
	},
}

// fleetClient calls tools of one workspace through any of the nodes, one
// MCP session per node, opened on first use and dropped on error.
type fleetClient struct {
	ws       string
	mu       sync.Mutex
	sessions map[string]*sdk.ClientSession
}

func (c *fleetClient) call(ctx context.Context, addr, tool string, args map[string]any) (string, error) {
	c.mu.Lock()
	cs := c.sessions[addr]
	c.mu.Unlock()
	if cs == nil {
		client := sdk.NewClient(&sdk.Implementation{Name: "nook-fleet-kill", Version: "1"}, nil)
		var err error
		cs, err = client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: "http://" + addr + "/w/" + c.ws + "/mcp", MaxRetries: -1}, nil)
		if err != nil {
			return "", err
		}
		c.mu.Lock()
		c.sessions[addr] = cs
		c.mu.Unlock()
	}
	r, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		cs.Close()
		c.mu.Lock()
		if c.sessions[addr] == cs {
			delete(c.sessions, addr)
		}
		c.mu.Unlock()
		return "", err
	}
	text := ""
	if len(r.Content) > 0 {
		if tc, ok := r.Content[0].(*sdk.TextContent); ok {
			text = tc.Text
		}
	}
	if r.IsError {
		return "", fmt.Errorf("tool error: %s", text)
	}
	return text, nil
}

func (c *fleetClient) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cs := range c.sessions {
		cs.Close()
	}
}

// readText turns read's numbered lines back into the file's text.
func readText(out string) string {
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if _, rest, ok := strings.Cut(l, "\t"); ok {
			lines[i] = rest
		}
	}
	return strings.Join(lines, "\n")
}

// fleetRunProgram appends six steps to a file, a tick apart, then marks
// itself done: under the replay policy, killed anywhere, it leaves each
// step once.
const fleetRunProgram = `
import fs from "node:fs";
export default async function () {
  for (let j = 0; j < 6; j++) {
    fs.appendFileSync("rounds/%[1]d.txt", "step " + j + "\n");
    await new Promise((r) => setTimeout(r, 100));
  }
  fs.writeFileSync("rounds/%[1]d.done", "done");
  return "done";
}`

// Three "nook node" processes; a client workload of writes, reads and
// edits against one workspace through all of them, and a replay-policy
// JavaScript run each round; the workspace's owner SIGKILLed at a random
// moment of each round, then restarted. Each time: a survivor serves the
// workspace within the TTL plus a bound, the run finishes exactly once;
// at the end the history of client operations is linearizable (porcupine)
// and every acknowledged edit is in the file once.
func TestFleetKill(t *testing.T) {
	v := os.Getenv(fleetKillsEnv)
	if v == "" || testing.Short() {
		t.Skipf("three nook node processes killed and restarted: set %s to the number of kills (CI: .ci/run)", fleetKillsEnv)
	}
	kills, err := strconv.Atoi(v)
	if err != nil || kills < 1 {
		t.Fatalf("%s=%q: want a positive count", fleetKillsEnv, v)
	}
	var addrs []string
	var lns []net.Listener
	for range 9 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		addrs = append(addrs, ln.Addr().String())
	}
	for _, ln := range lns {
		ln.Close()
	}
	routes := strings.Join(addrs[:3], ",")
	dir := t.TempDir()
	procs := make([]*fleetProc, 3)
	for i := range procs {
		p := &fleetProc{name: fmt.Sprintf("n%d", i+1), data: filepath.Join(dir, fmt.Sprintf("n%d", i+1)),
			route: addrs[i], client: addrs[3+i], http: addrs[6+i], routes: routes}
		f, err := os.Create(filepath.Join(dir, p.name+".log"))
		if err != nil {
			t.Fatal(err)
		}
		p.stderr = f
		procs[i] = p
		p.start(t)
	}
	t.Cleanup(func() {
		if t.Failed() && os.Getenv("NOOK_FLEET_KILL_STACKS") != "" {
			for _, p := range procs {
				p.cmd.Process.Signal(syscall.SIGQUIT)
			}
			time.Sleep(time.Second)
		}
		for _, p := range procs {
			p.kill()
			p.stderr.Close()
		}
		if t.Failed() {
			for _, p := range procs {
				b, _ := os.ReadFile(p.stderr.Name())
				t.Logf("%s stderr:\n%s", p.name, b)
			}
		}
	})
	start := time.Now()
	for _, p := range procs {
		p.ready(t)
	}
	t.Logf("three nodes up in %v", time.Since(start).Round(time.Millisecond))

	const ws = "fk"
	var upMu sync.Mutex
	up := []bool{true, true, true}
	liveAddr := func(r *rand.Rand) string {
		upMu.Lock()
		defer upMu.Unlock()
		for {
			if i := r.IntN(3); up[i] {
				return procs[i].http
			}
		}
	}
	ctx := context.Background()
	setup := &fleetClient{ws: ws, sessions: map[string]*sdk.ClientSession{}}
	defer setup.close()
	mustCall := func(tool string, args map[string]any) string {
		t.Helper()
		cctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		defer cancel()
		out, err := setup.call(cctx, procs[0].http, tool, args)
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		return out
	}
	// The workload: the file edits insert into, then two clients, each
	// one operation at a time through a random live node.
	var histMu sync.Mutex
	called := time.Now().UnixNano()
	mustCall("write", map[string]any{"path": "/log.txt", "content": "END"})
	history := []porcupine.Operation{{ClientId: 2, Input: kvIn{op: "w", key: "/log.txt", val: "END"}, Output: kvOut{},
		Call: called, Return: time.Now().UnixNano()}}
	mustCall("write", map[string]any{"path": "/workspace/rounds/.keep", "content": ""})
	acked, maybe := map[string]bool{}, map[string]bool{}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for c := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(c), uint64(time.Now().UnixNano())))
			cl := &fleetClient{ws: ws, sessions: map[string]*sdk.ClientSession{}}
			defer cl.close()
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				var in kvIn
				var args map[string]any
				tool := ""
				switch x := r.IntN(10); {
				case x < 3:
					in = kvIn{op: "w", key: fmt.Sprintf("/k%d.txt", r.IntN(2)), val: fmt.Sprintf("c%d-%d", c, n)}
					tool, args = "write", map[string]any{"path": in.key, "content": in.val}
				case x < 5:
					in = kvIn{op: "e", key: "/log.txt", val: fmt.Sprintf("c%d-%d", c, n)}
					tool, args = "edit", map[string]any{"path": in.key, "edits": []map[string]any{{"oldText": "END", "newText": in.val + "\nEND"}}}
				default:
					keys := []string{"/k0.txt", "/k1.txt", "/log.txt"}
					in = kvIn{op: "r", key: keys[r.IntN(3)]}
					tool, args = "read", map[string]any{"path": in.key}
				}
				cctx, cancel := context.WithTimeout(ctx, 8*time.Second)
				called := time.Now().UnixNano()
				out, err := cl.call(cctx, liveAddr(r), tool, args)
				returned := time.Now().UnixNano()
				cancel()
				op := porcupine.Operation{ClientId: c, Input: in, Call: called, Return: returned}
				switch {
				case err != nil && in.op == "r":
					continue // a failed read changed nothing
				case err != nil:
					op.Output, op.Return = kvOut{unknown: true}, math.MaxInt64
				case in.op == "r":
					op.Output = kvOut{val: readText(out)}
				default:
					op.Output = kvOut{}
				}
				histMu.Lock()
				history = append(history, op)
				if in.op == "e" {
					if err == nil {
						acked[in.val] = true
					} else {
						maybe[in.val] = true
					}
				}
				histMu.Unlock()
				time.Sleep(time.Duration(r.IntN(20)) * time.Millisecond)
			}
		}()
	}
	defer func() {
		select {
		case <-stop:
		default:
			close(stop)
		}
		wg.Wait()
	}()

	r := rand.New(rand.NewPCG(1, uint64(time.Now().UnixNano())))
	var takeovers []time.Duration
	rounds := time.Now()
	for round := range kills {
		// The round's run, started through a random live node.
		runCl := &fleetClient{ws: ws, sessions: map[string]*sdk.ClientSession{}}
		runDone := make(chan struct{})
		var runErr error
		go func() {
			defer close(runDone)
			cctx, cancel := context.WithTimeout(ctx, 20*time.Second)
			defer cancel()
			_, runErr = runCl.call(cctx, liveAddr(r), "exec", map[string]any{"command": fmt.Sprintf(fleetRunProgram, round), "backend": "js"})
		}()
		readFile := func(p string) (string, error) {
			cctx, cancel := context.WithTimeout(ctx, 3*time.Second)
			defer cancel()
			out, err := setup.call(cctx, liveAddr(r), "read", map[string]any{"path": p})
			return readText(out), err
		}
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if _, err := readFile(fmt.Sprintf("/workspace/rounds/%d.txt", round)); err == nil {
				break
			}
			if time.Now().After(deadline) {
				select {
				case <-runDone:
					t.Fatalf("round %d: the run did not start within 30s (exec: %v)", round, runErr)
				default:
					t.Fatalf("round %d: the run did not start within 30s", round)
				}
			}
		}
		time.Sleep(time.Duration(r.IntN(700)) * time.Millisecond)

		// Kill the owner.
		st, err := fleet.Inspect(ctx, "nats://"+procs[(round+1)%3].client)
		if err != nil {
			t.Fatal(err)
		}
		victim := -1
		for _, n := range st.Nodes {
			for _, w := range n.Workspaces {
				if w.Name == ws {
					victim, _ = strconv.Atoi(strings.TrimPrefix(n.Name, "n"))
				}
			}
		}
		if victim < 1 {
			t.Fatalf("round %d: nobody owns %s: %+v", round, ws, st)
		}
		victim--
		upMu.Lock()
		up[victim] = false
		upMu.Unlock()
		procs[victim].kill()
		killed := time.Now()
		for {
			_, err := readFile("/log.txt")
			if err == nil {
				break
			}
			if time.Since(killed) > fleetKillTTL+fleetTakeoverBound {
				t.Fatalf("round %d: no survivor served %s within %v of %s's death (last: %v)", round, ws, fleetKillTTL+fleetTakeoverBound, procs[victim].name, err)
			}
		}
		took := time.Since(killed)
		takeovers = append(takeovers, took)

		// The run finishes, once.
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			if _, err := readFile(fmt.Sprintf("/workspace/rounds/%d.done", round)); err == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("round %d: the run did not finish within 30s of the takeover", round)
			}
		}
		steps, err := readFile(fmt.Sprintf("/workspace/rounds/%d.txt", round))
		if want := "step 0\nstep 1\nstep 2\nstep 3\nstep 4\nstep 5"; err != nil || strings.TrimSuffix(steps, "\n") != want {
			t.Errorf("round %d: the run's steps %q %v, want %q once each", round, steps, err, want)
		}
		<-runDone
		runCl.close()

		// The dead node comes back before the next round.
		procs[victim].start(t)
		procs[victim].ready(t)
		// ... and its JetStream server has caught up, so that the next
		// kill leaves a quorum that holds everything.
		for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			st, err := fleet.Inspect(ctx, "nats://"+procs[victim].client)
			caught := err == nil && len(st.Replicas) == 2
			live := 0
			if err == nil {
				for _, rp := range st.Replicas {
					caught = caught && rp.Current && !rp.Offline
				}
				for _, n := range st.Nodes {
					if n.Live {
						live++
					}
				}
			}
			if caught && live == 3 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("round %d: %s not caught up within 60s of its restart: %+v %v", round, procs[victim].name, st, err)
			}
		}
		upMu.Lock()
		up[victim] = true
		upMu.Unlock()
		t.Logf("round %d: killed %s; a survivor served %v after; run done once", round, procs[victim].name, took.Round(time.Millisecond))
	}
	close(stop)
	wg.Wait()

	// Every acknowledged edit is in the file once, an unknown one at most
	// once; the history is linearizable.
	final := &fleetClient{ws: ws, sessions: map[string]*sdk.ClientSession{}}
	defer final.close()
	var out string
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		var err error
		out, err = final.call(cctx, liveAddr(r), "read", map[string]any{"path": "/log.txt"})
		cancel()
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("final read: %v", err)
		}
	}
	count := map[string]int{}
	for _, l := range strings.Split(readText(out), "\n") {
		count[l]++
	}
	for tok := range acked {
		if count[tok] != 1 {
			t.Errorf("acknowledged edit %s is in the file %d times", tok, count[tok])
		}
	}
	for tok := range maybe {
		if count[tok] > 1 {
			t.Errorf("failed edit %s is in the file %d times", tok, count[tok])
		}
	}
	res, info := porcupine.CheckOperationsVerbose(fileModel, history, time.Minute)
	if res != porcupine.Ok {
		f := filepath.Join(os.TempDir(), "nook-fleet-kill-history.html")
		if err := porcupine.VisualizePath(fileModel, info, f); err == nil {
			t.Logf("visualization in %s", f)
		}
		t.Errorf("the history of %d operations is not linearizable (%s)", len(history), res)
		for _, part := range fileModel.Partition(history) {
			if !porcupine.CheckOperations(fileModel, part) {
				key := part[0].Input.(kvIn).key
				for _, op := range part {
					if os.Getenv("NOOK_FLEET_KILL_HISTORY") != "" {
						t.Logf("%s [%d, %d] client %d", fileModel.DescribeOperation(op.Input, op.Output), op.Call, op.Return, op.ClientId)
					}
				}
				t.Errorf("the operations on %s are not linearizable", key)
			}
		}
	}
	unknown := 0
	for _, op := range history {
		if op.Output.(kvOut).unknown {
			unknown++
		}
	}
	t.Logf("%d kills in %v, takeovers %v; %d operations (%d with unknown outcome), %d edits acknowledged, linearizable: %s",
		kills, time.Since(rounds).Round(time.Millisecond), takeovers, len(history), unknown, len(acked), res)
}
