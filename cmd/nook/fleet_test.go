package main

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nookdev/nook/fleet"
)

// startTestFleet starts three clustered fleet nodes in this process, each
// with its embedded NATS server on loopback.
func startTestFleet(t *testing.T) []*fleet.Node {
	t.Helper()
	var routes []string
	for range 3 {
		routes = append(routes, freeAddr(t))
	}
	nodes := make([]*fleet.Node, 3)
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			nodes[i], errs[i] = fleet.Start(context.Background(), fleet.Options{
				Name: fmt.Sprintf("n%d", i+1), DataDir: t.TempDir(), ClusterListen: routes[i], Routes: routes,
				LeaseTTL: 3 * time.Second, StartTimeout: 60 * time.Second,
			})
		}()
	}
	wg.Wait()
	t.Cleanup(func() {
		for _, n := range nodes {
			if n != nil {
				n.Close()
			}
		}
	})
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return nodes
}

// nook fleet status shows a real fleet's nodes, leases and log replicas,
// as text and as JSON.
func TestFleetStatus(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a three-node fleet (several seconds)")
	}
	w := newWS(t)
	nodes := startTestFleet(t)
	owners := map[string]string{}
	for i, ws := range []string{"alpha", "beta"} {
		args, _ := json.Marshal(map[string]string{"path": "/a.txt", "content": "x"})
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		res, err := nodes[i].Call(ctx, ws, "write", args)
		cancel()
		if err != nil || res.IsError {
			t.Fatalf("write to %s: %+v %v", ws, res, err)
		}
		l, ok, err := nodes[0].Owner(context.Background(), ws)
		if err != nil || !ok {
			t.Fatalf("owner of %s: %v %v", ws, ok, err)
		}
		owners[ws] = l.Node
	}
	url := nodes[1].ClientURL()

	r := w.run("fleet", "status", "--nats-url", url, "--json")
	if r.code != 0 {
		t.Fatalf("fleet status --json: %+v", r)
	}
	var st fleetStatusJSON
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	if st.LeaseTTLMs != 3000 || len(st.Nodes) != 3 || len(st.Unowned) != 0 || len(st.Replicas) != 2 || st.LogLeader == "" {
		t.Fatalf("status %s", r.stdout)
	}
	seen := map[string]string{}
	for i, n := range st.Nodes {
		if n.Name != fmt.Sprintf("n%d", i+1) || !n.Live || n.HeartbeatMs == nil || *n.HeartbeatMs > 3000 ||
			n.LogLeader != (n.Name == st.LogLeader) || (n.LogLag == nil) != n.LogLeader {
			t.Errorf("node %d: %+v (log leader %s)", i, n, st.LogLeader)
		}
		for _, ws := range n.Workspaces {
			seen[ws.Name] = n.Name
			if ws.Owner != n.Name || ws.Epoch != 1 || ws.RenewedMs == nil || *ws.RenewedMs > 3000 || ws.LogEntries < 3 || ws.Runs {
				t.Errorf("workspace %+v under %s", ws, n.Name)
			}
		}
	}
	if len(seen) != 2 || seen["alpha"] != owners["alpha"] || seen["beta"] != owners["beta"] {
		t.Errorf("workspaces under %v, want %v", seen, owners)
	}

	r = w.run("fleet", "status", "--nats-url", url)
	if r.code != 0 {
		t.Fatalf("fleet status: %+v", r)
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	want := []string{
		`^fleet: 3 nodes live of 3, lease TTL 3s, log leader n[123]$`,
		`^NODE +LIVE +HEARTBEAT +LOG LAG +WORKSPACES$`,
		`^n1 +yes +\d+(\.\d+)?m?s ago +(leader|\d+) +[0-2]$`,
		`^n2 +yes +\d+(\.\d+)?m?s ago +(leader|\d+) +[0-2]$`,
		`^n3 +yes +\d+(\.\d+)?m?s ago +(leader|\d+) +[0-2]$`,
		`^$`,
		`^WORKSPACE +OWNER +EPOCH +RENEWED +LOG +SNAPSHOT +RUNS$`,
	}
	// Listed by owner, then by name.
	first, second := "alpha", "beta"
	if owners["beta"] < owners["alpha"] {
		first, second = "beta", "alpha"
	}
	for _, ws := range []string{first, second} {
		want = append(want, `^`+ws+` +`+owners[ws]+` +1 +\d+(\.\d+)?m?s ago +\d+ +0 +no$`)
	}
	if len(lines) != len(want) {
		t.Fatalf("fleet status printed %d lines, want %d:\n%s", len(lines), len(want), r.stdout)
	}
	for i, re := range want {
		if !regexp.MustCompile(re).MatchString(lines[i]) {
			t.Errorf("line %d %q does not match %s", i+1, lines[i], re)
		}
	}

	r = w.run("fleet", "status")
	if r.code != 2 || !strings.HasPrefix(r.stderr, "nook: fleet status: --nats-url is required (or $NOOK_NATS_URL)\n") {
		t.Errorf("without --nats-url: %+v", r)
	}
	r = w.run("fleet", "status", "--nats-url", "nats://127.0.0.1:1")
	if r.code != 1 || !strings.HasPrefix(r.stderr, "nook: fleet: status: connecting to nats://127.0.0.1:1: ") {
		t.Errorf("nothing at the URL: %+v", r)
	}
	r = w.run("fleet", "dance")
	if r.code != 2 || !strings.HasPrefix(r.stderr, `nook: fleet: unknown subcommand "dance" (want status, drain or move)`) {
		t.Errorf("unknown subcommand: %+v", r)
	}
	testFleetMoveDrain(t, w, url, owners["alpha"])
}

// nook fleet move and drain, through the binary: exact output, text and
// JSON, and what the fleet looks like afterwards.
func testFleetMoveDrain(t *testing.T, w *ws, url, from string) {
	to := "n1"
	if from == "n1" {
		to = "n2"
	}
	equal(t, "move --json", w.ok("fleet", "move", "alpha", to, "--nats-url", url, "--json"),
		`{"workspace":"alpha","from":"`+from+`","to":"`+to+`","epoch":2,"runs":0}`+"\n")
	equal(t, "move again", w.ok("fleet", "move", "alpha", to, "--nats-url", url),
		"alpha is on "+to+" already (epoch 2)\n")
	equal(t, "move back", w.ok("fleet", "move", "alpha", from, "--nats-url", url, "--run-wait", "1s"),
		"moved alpha from "+to+" to "+from+" (epoch 3, 0 runs handed over)\n")
	equal(t, "place", w.ok("fleet", "move", "gamma", "n3", "--nats-url", url),
		"placed gamma on n3 (epoch 1): nobody owned it\n")
	w.fail(1, "nook: fleet: move alpha: nx: not a live node that takes workspaces (those are: n1, n2, n3) (ENOENT)\n",
		"fleet", "move", "alpha", "nx", "--nats-url", url)

	// Drain n3: gamma, and beta if it is there, go to their next node.
	st := fleetStatusOf(t, w, url)
	var moved []string
	for _, n := range st.Nodes {
		if n.Name != "n3" {
			continue
		}
		for _, ws := range n.Workspaces {
			next := fleet.Rank(ws.Name, []string{"n1", "n2"})[0]
			moved = append(moved, fmt.Sprintf(`{"workspace":"%s","from":"n3","to":"%s","epoch":%d,"runs":0}`, ws.Name, next, ws.Epoch+1))
		}
	}
	equal(t, "drain --json", w.ok("fleet", "drain", "n3", "--nats-url", url, "--json"),
		`{"node":"n3","moved":[`+strings.Join(moved, ",")+`]}`+"\n")
	equal(t, "drain again", w.ok("fleet", "drain", "n3", "--nats-url", url),
		"drained n3: 0 workspaces moved; it takes no workspace until it restarts\n")
	st = fleetStatusOf(t, w, url)
	for _, n := range st.Nodes {
		if n.Draining != (n.Name == "n3") || (n.Name == "n3" && len(n.Workspaces) != 0) {
			t.Errorf("after the drain: %+v", n)
		}
	}
	r := w.run("fleet", "status", "--nats-url", url)
	if !regexp.MustCompile(`(?m)^n3 +draining +`).MatchString(r.stdout) {
		t.Errorf("status after the drain does not show n3 draining:\n%s", r.stdout)
	}
	w.fail(1, "nook: fleet: move gamma: n3: not a live node that takes workspaces (those are: n1, n2) (ENOENT)\n",
		"fleet", "move", "gamma", "n3", "--nats-url", url)
	w.fail(1, "nook: fleet: drain: node nx does not answer (not running, or not a member of this fleet): nats: no responders available for request (ENOENT)\n",
		"fleet", "drain", "nx", "--nats-url", url)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"fleet", "move", "alpha", "--nats-url", url}, "nook: fleet: missing argument\nusage: nook fleet status|drain NODE|move WORKSPACE NODE"},
		{[]string{"fleet", "drain", "n1"}, "nook: fleet drain: --nats-url is required (or $NOOK_NATS_URL)"},
		{[]string{"fleet", "drain", "n1", "--nats-url", url, "--run-wait", "0s"}, "nook: fleet drain: --run-wait 0s: want more than 0 and at most 10m0s"},
	} {
		r := w.run(c.args...)
		if r.code != 2 || !strings.HasPrefix(r.stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, r.code, r.stderr, c.want)
		}
	}
}

func fleetStatusOf(t *testing.T, w *ws, url string) fleetStatusJSON {
	t.Helper()
	var st fleetStatusJSON
	if err := json.Unmarshal([]byte(w.ok("fleet", "status", "--nats-url", url, "--json")), &st); err != nil {
		t.Fatal(err)
	}
	return st
}
