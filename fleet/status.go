package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/nookdev/nook/vfs"
)

// Status is a fleet as its replicated buckets and log stream describe it
// at one moment (nook fleet status). Ages are measured against the NATS
// server's timestamps of the entries, with the local clock.
type Status struct {
	LeaseTTL time.Duration // the lease and heartbeat lifetime
	// Nodes are the nodes with a live heartbeat, and any node that still
	// holds a lease without one (it died; its leases have yet to
	// expire), by name.
	Nodes []NodeStatus
	// Unowned are the workspaces marked as having runs in flight that no
	// node holds: their owner died and no node has taken them over yet.
	Unowned []WorkspaceStatus
	// LogLeader is the server leading the log stream's replication, and
	// Replicas its followers.
	LogLeader string
	Replicas  []ReplicaStatus
}

// NodeStatus is one node of a Status.
type NodeStatus struct {
	Name string
	// Live: its heartbeat has not expired; Heartbeat is the time since
	// its last one (zero when not live).
	Live      bool
	Heartbeat time.Duration
	// Draining: it gives its workspaces up and takes none (Drain).
	Draining bool
	// Workspaces are those whose lease it holds, by name.
	Workspaces []WorkspaceStatus
}

// WorkspaceStatus is one workspace of a Status.
type WorkspaceStatus struct {
	Name  string
	Node  string // the lease holder ("" when unowned)
	Epoch uint64 // the lease's epoch
	// Renewed is the time since the lease's last renewal; it expires
	// LeaseTTL after that.
	Renewed time.Duration
	// LogEntries counts the messages of its log a takeover reads (those
	// after its latest snapshot, and the fence); SnapshotSeq is the log
	// sequence that snapshot covers (0: none yet).
	LogEntries  uint64
	SnapshotSeq uint64
	// Runs: it is marked as having runs in flight (RunsBucket).
	Runs bool
}

// ReplicaStatus is a follower of the log stream's replication.
type ReplicaStatus struct {
	Server  string
	Current bool          // caught up with the leader
	Offline bool          // not seen by the leader recently
	Lag     uint64        // operations behind the leader
	Active  time.Duration // since the leader last heard from it
}

// view is what a Status is read from: the fleet's buckets and stream.
type view struct {
	leases, nodes, runs, pointers jetstream.KeyValue
	log                           jetstream.Stream
}

// Status returns the state of the fleet the node belongs to.
func (n *Node) Status(ctx context.Context) (*Status, error) {
	return (&view{leases: n.leases, nodes: n.nodes, runs: n.runs, pointers: n.pointers, log: n.log}).status(ctx)
}

// Inspect connects to the NATS cluster of a fleet at url (any member's
// client URL) as an observer, joining and owning nothing, and returns the
// fleet's state.
func Inspect(ctx context.Context, url string) (*Status, error) {
	nc, err := nats.Connect(url, nats.Name("nook-fleet-status"))
	if err != nil {
		return nil, errorf("status", "", vfs.EIO, err, "connecting to %s", url)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, errorf("status", "", vfs.EIO, err, "JetStream at %s", url)
	}
	var v view
	for _, b := range []struct {
		name string
		kv   *jetstream.KeyValue
	}{{LeaseBucket, &v.leases}, {NodeBucket, &v.nodes}, {RunsBucket, &v.runs}, {SnapPointerBucket, &v.pointers}} {
		if *b.kv, err = js.KeyValue(ctx, b.name); err != nil {
			return nil, notAFleet(url, b.name, err)
		}
	}
	if v.log, err = js.Stream(ctx, LogStream); err != nil {
		return nil, notAFleet(url, LogStream, err)
	}
	return v.status(ctx)
}

func notAFleet(url, what string, err error) error {
	if errors.Is(err, jetstream.ErrBucketNotFound) || errors.Is(err, jetstream.ErrStreamNotFound) {
		return errorf("status", "", vfs.ENOENT, err, "%s has no %s: no fleet runs there", url, what)
	}
	return errorf("status", "", vfs.EIO, err, "reading %s at %s", what, url)
}

func (v *view) status(ctx context.Context) (*Status, error) {
	fail := func(what string, err error) error {
		return errorf("status", "", vfs.EIO, err, "reading %s", what)
	}
	bst, err := v.leases.Status(ctx)
	if err != nil {
		return nil, fail(LeaseBucket, err)
	}
	st := &Status{LeaseTTL: bst.TTL()}
	leases, err := entries(ctx, v.leases)
	if err != nil {
		return nil, fail(LeaseBucket, err)
	}
	beats, err := entries(ctx, v.nodes)
	if err != nil {
		return nil, fail(NodeBucket, err)
	}
	marks, err := entries(ctx, v.runs)
	if err != nil {
		return nil, fail(RunsBucket, err)
	}
	snaps, err := entries(ctx, v.pointers)
	if err != nil {
		return nil, fail(SnapPointerBucket, err)
	}
	info, err := v.log.Info(ctx, jetstream.WithSubjectFilter(logPrefix+">"))
	if err != nil {
		return nil, fail(LogStream, err)
	}
	if c := info.Cluster; c != nil {
		st.LogLeader = c.Leader
		for _, p := range c.Replicas {
			st.Replicas = append(st.Replicas, ReplicaStatus{Server: p.Name, Current: p.Current, Offline: p.Offline, Lag: p.Lag, Active: p.Active})
		}
		sort.Slice(st.Replicas, func(i, j int) bool { return st.Replicas[i].Server < st.Replicas[j].Server })
	}
	now := time.Now()
	byNode := map[string]*NodeStatus{}
	node := func(name string) *NodeStatus {
		if byNode[name] == nil {
			byNode[name] = &NodeStatus{Name: name}
		}
		return byNode[name]
	}
	for name, e := range beats {
		ns := node(name)
		ns.Live, ns.Heartbeat = true, max(0, now.Sub(e.Created()))
		var hb heartbeat
		if json.Unmarshal(e.Value(), &hb) == nil {
			ns.Draining = hb.Draining
		}
	}
	wsOf := func(name string) WorkspaceStatus {
		w := WorkspaceStatus{Name: name, LogEntries: info.State.Subjects[logPrefix+name]}
		_, w.Runs = marks[name]
		if e, ok := snaps[name]; ok {
			var p snapPointer
			if json.Unmarshal(e.Value(), &p) == nil {
				w.SnapshotSeq = p.Seq
			}
		}
		return w
	}
	for name, e := range leases {
		var l Lease
		if err := json.Unmarshal(e.Value(), &l); err != nil || l.Node == "" {
			continue
		}
		w := wsOf(name)
		w.Node, w.Epoch, w.Renewed = l.Node, l.Epoch, max(0, now.Sub(e.Created()))
		ns := node(l.Node)
		ns.Workspaces = append(ns.Workspaces, w)
	}
	for name := range marks {
		if _, ok := leases[name]; !ok {
			st.Unowned = append(st.Unowned, wsOf(name))
		}
	}
	for _, ns := range byNode {
		sort.Slice(ns.Workspaces, func(i, j int) bool { return ns.Workspaces[i].Name < ns.Workspaces[j].Name })
		st.Nodes = append(st.Nodes, *ns)
	}
	sort.Slice(st.Nodes, func(i, j int) bool { return st.Nodes[i].Name < st.Nodes[j].Name })
	sort.Slice(st.Unowned, func(i, j int) bool { return st.Unowned[i].Name < st.Unowned[j].Name })
	return st, nil
}

// entries returns the current entries of a bucket by key.
func entries(ctx context.Context, kv jetstream.KeyValue) (map[string]jetstream.KeyValueEntry, error) {
	w, err := kv.WatchAll(ctx, jetstream.IgnoreDeletes())
	if err != nil {
		return nil, err
	}
	defer w.Stop()
	out := map[string]jetstream.KeyValueEntry{}
	for {
		select {
		case e, ok := <-w.Updates():
			if !ok {
				return out, nil
			}
			if e == nil {
				return out, nil // the current values are all in
			}
			if !strings.HasPrefix(e.Key(), "_") {
				out[e.Key()] = e
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
