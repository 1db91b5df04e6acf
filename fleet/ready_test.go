package fleet

import (
	"context"
	"strings"
	"testing"
	"time"
)

// A node is ready while connected, live in the fleet and holding the
// leases of what it serves; a lease past its deadline and a closed node
// fail the checks that say so.
func TestReady(t *testing.T) {
	nodes := startFleet(t)
	ctx := context.Background()
	for _, n := range nodes {
		checks := n.Ready(ctx)
		if len(checks) != 3 {
			t.Fatalf("%s: %d checks, want 3: %+v", n.Name(), len(checks), checks)
		}
		for _, c := range checks {
			if !c.OK {
				t.Errorf("%s: check %s failed: %s", n.Name(), c.Name, c.Detail)
			}
		}
		if got := checks[2].Detail; got != "no workspace served" {
			t.Errorf("%s: leases %q before any workspace", n.Name(), got)
		}
		if got := checks[1].Detail; !strings.HasPrefix(got, "node "+n.Name()+" live (heartbeat written ") {
			t.Errorf("%s: fleet check %q", n.Name(), got)
		}
	}
	call(t, nodes[0], "ready1", "write", map[string]any{"path": "/a.txt", "content": "x"})
	own, _, _ := owner(t, nodes, "ready1")
	if got := own.Ready(ctx)[2]; !got.OK || got.Detail != "1 workspace served, its lease held" {
		t.Errorf("owner's leases check %+v", got)
	}
	// The lease as seen past its local deadline (renewals stopped).
	if got := own.leaseCheck(time.Now().Add(10 * testTTL)); got.OK || got.Detail != "the lease of ready1 is lost or expired" {
		t.Errorf("an expired lease's check %+v", got)
	}
	own.Close() // its error, if any, is the workspace's: not what is tested here
	checks := own.Ready(ctx)
	for _, c := range checks {
		if c.OK {
			t.Errorf("closed node: check %s ok (%s)", c.Name, c.Detail)
		}
	}
	if got := checks[0].Detail; got != "the connection is closed" {
		t.Errorf("closed node's nats check %q", got)
	}
	if got := own.Ready(ctx)[1]; got.OK {
		t.Errorf("closed node's fleet check %+v", got)
	}
	if got := checks[2].Detail; got != "node "+own.Name()+" is shutting down" {
		t.Errorf("closed node's leases check %q", got)
	}
}
