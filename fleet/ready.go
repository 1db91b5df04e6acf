package fleet

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/nookdev/nook"
)

// Check is one of a node's readiness checks (Node.Ready).
type Check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// Ready runs the node's readiness checks, what a load balancer's probe
// asks before sending it requests: "nats", its connection to the cluster
// is up; "fleet", the fleet's buckets took the node's heartbeat within
// the lease TTL (so other nodes count it live and route to it), and it is
// not draining (Drain: it takes no workspace, so a balancer should send
// it nothing); "leases",
// every workspace it serves still holds its lease (none lost, none past
// its local deadline). A check that fails says why in its Detail.
func (n *Node) Ready(ctx context.Context) []Check {
	url := n.nc.ConnectedUrlRedacted()
	if n.srv != nil {
		url = n.ClientURL() // the embedded server, connected in process
	}
	conn := Check{Name: "nats", OK: true, Detail: "connected to " + url}
	if st := n.nc.Status(); st != nats.CONNECTED {
		conn = Check{Name: "nats", Detail: "the connection is " + strings.ToLower(st.String())}
	}
	n.mu.Lock()
	done := n.done
	n.mu.Unlock()
	beat := Check{Name: "fleet", OK: true}
	switch at := n.beatAt.Load(); {
	case done:
		beat.OK, beat.Detail = false, fmt.Sprintf("node %s is leaving the fleet", n.opts.Name)
	case n.draining.Load():
		beat.OK, beat.Detail = false, fmt.Sprintf("node %s is draining: it takes no workspace", n.opts.Name)
	case at == 0:
		beat.OK, beat.Detail = false, fmt.Sprintf("node %s has written no heartbeat", n.opts.Name)
	case time.Since(time.Unix(0, at)) > n.opts.LeaseTTL:
		beat.OK, beat.Detail = false, fmt.Sprintf("node %s's last heartbeat was written %s ago, more than the lease TTL %s: other nodes count it dead",
			n.opts.Name, time.Since(time.Unix(0, at)).Round(time.Millisecond), n.opts.LeaseTTL)
	default:
		beat.Detail = fmt.Sprintf("node %s live (heartbeat written %s ago)", n.opts.Name, time.Since(time.Unix(0, at)).Round(time.Millisecond))
	}
	return []Check{conn, beat, n.leaseCheck(time.Now())}
}

// leaseCheck checks the leases of the workspaces n serves at now.
func (n *Node) leaseCheck(now time.Time) Check {
	n.mu.Lock()
	list := make([]*owned, 0, len(n.owned))
	for _, o := range n.owned {
		list = append(list, o)
	}
	done := n.done
	n.mu.Unlock()
	if done {
		return Check{Name: "leases", Detail: fmt.Sprintf("node %s is shutting down", n.opts.Name)}
	}
	var bad []string
	for _, o := range list {
		o.mu.Lock()
		if o.lost != nil || now.After(o.validTo) {
			bad = append(bad, o.name)
		}
		o.mu.Unlock()
	}
	if len(bad) > 0 {
		slices.Sort(bad)
		return Check{Name: "leases", Detail: fmt.Sprintf("the lease of %s is lost or expired", strings.Join(bad, ", "))}
	}
	switch len(list) {
	case 0:
		return Check{Name: "leases", OK: true, Detail: "no workspace served"}
	case 1:
		return Check{Name: "leases", OK: true, Detail: "1 workspace served, its lease held"}
	}
	return Check{Name: "leases", OK: true, Detail: fmt.Sprintf("%d workspaces served, every lease held", len(list))}
}

// Served returns the names of the workspaces the node owns and serves
// now, sorted.
func (n *Node) Served() []string {
	n.mu.Lock()
	out := make([]string, 0, len(n.owned))
	for name := range n.owned {
		out = append(out, name)
	}
	n.mu.Unlock()
	slices.Sort(out)
	return out
}

// Local returns the workspace ws when this node owns and serves it now:
// what serves it in this process (a console, say) reads it directly. The
// workspace is closed when the node stops serving it; a caller asks
// again rather than keep it.
func (n *Node) Local(ws string) (*nook.Workspace, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if o := n.owned[ws]; o != nil {
		return o.ws, true
	}
	return nil, false
}
