// Package fleet runs many nook workspaces across machines: each node embeds
// (or joins) a NATS JetStream cluster, workspaces are owned by one node at a
// time through leases in a replicated key-value bucket, and any node accepts
// a tool call for any workspace and routes it to the owner by NATS
// request/reply. A workspace's SQLite database stays a local file on its
// owner. See RATIONALE.md for what this guarantees and what it does not.
package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/tools"
	"github.com/nookdev/nook/vfs"
)

// Defaults and limits of a node.
const (
	// DefaultLeaseTTL is how long a lease (and a node's heartbeat) lives
	// without renewal; owners renew every third of it.
	DefaultLeaseTTL = 10 * time.Second
	// DefaultCallTimeout bounds a routed call whose context has no deadline.
	DefaultCallTimeout = 2 * time.Minute
	// DefaultStartTimeout bounds Start's wait for the cluster to elect its
	// JetStream leader and create the fleet's buckets and stream.
	DefaultStartTimeout = 60 * time.Second
	// MaxNameLength is the longest workspace or node name (bytes).
	MaxNameLength = 64
	// MinLeaseTTL is the shortest LeaseTTL a node accepts.
	MinLeaseTTL = 500 * time.Millisecond
)

// Names of the fleet's JetStream resources and subjects.
const (
	LeaseBucket  = "nook_leases" // workspace → {node, epoch}, TTL = lease TTL
	EpochBucket  = "nook_epochs" // workspace → last epoch handed out (no TTL)
	NodeBucket   = "nook_nodes"  // node → heartbeat, TTL = lease TTL
	RunsBucket   = "nook_runs"   // workspace → its owner while it has runs in flight (no TTL)
	LogStream    = "nook_wslog"  // subjects wslog.<workspace>
	logPrefix    = "wslog."
	callPrefix   = "nook.ws."   // nook.ws.<workspace>.call, served by the owner
	acquirPrefix = "nook.node." // nook.node.<node>.acquire
)

var nameRE = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// CheckName reports whether name is a valid workspace or node name: 1 to
// MaxNameLength bytes of ASCII letters, digits, '-' and '_' (it is a NATS
// subject token, a KV key and a file name).
func CheckName(kind, name string) error {
	if len(name) > MaxNameLength {
		return errorf("name", "", vfs.ENAMETOOLONG, nil, "%s name %q is longer than MaxNameLength (%d bytes)", kind, name, MaxNameLength)
	}
	if !nameRE.MatchString(name) {
		return errorf("name", "", vfs.EINVAL, nil, "%s name %q: want 1 to %d of A-Z a-z 0-9 - _", kind, name, MaxNameLength)
	}
	return nil
}

// Options configure a node. Name and DataDir are required.
type Options struct {
	// Name names the node in the fleet; it must be unique and stable.
	Name string
	// DataDir holds the node's workspaces (DataDir/workspaces/<ws>.nook)
	// and its embedded JetStream store (DataDir/jetstream).
	DataDir string
	// NATSURL joins an existing NATS cluster (with JetStream) instead of
	// starting an embedded server; the Listen options are then unused.
	NATSURL string
	// ClientListen is the embedded server's client address HOST:PORT
	// (default 127.0.0.1:0, port 0 meaning any free port).
	ClientListen string
	// ClusterListen is the embedded server's route address HOST:PORT for
	// its peers (default: no cluster unless Routes are given, then
	// 127.0.0.1:0).
	ClusterListen string
	// Routes are the peers' route addresses (HOST:PORT or
	// nats-route://HOST:PORT); listing the node's own is harmless.
	Routes []string
	// Replicas is the replication of the buckets and the log stream
	// (default 3 when clustered or joining, 1 for a lone embedded server).
	Replicas int
	// LeaseTTL is the lease and heartbeat lifetime (default
	// DefaultLeaseTTL, at least MinLeaseTTL).
	LeaseTTL time.Duration
	// CallTimeout bounds a call whose context has no deadline (default
	// DefaultCallTimeout).
	CallTimeout time.Duration
	// StartTimeout bounds Start (default DefaultStartTimeout).
	StartTimeout time.Duration
	// SnapshotEvery is how many commits an owner ships to a workspace's
	// log between two snapshots (default DefaultSnapshotEvery).
	SnapshotEvery int
	// Workspace are the options every workspace is opened with.
	Workspace []nook.Option
	// Tools is the template of every workspace's tool set; Runtime is set
	// to the workspace's own.
	Tools tools.Options

	// onlyURL (tests): with NATSURL, never connect to the servers the
	// cluster advertises, only to NATSURL (a proxy in front of it).
	onlyURL bool
}

// Lease is a workspace's ownership record.
type Lease struct {
	Node     string `json:"node"`  // the owner
	Epoch    uint64 `json:"epoch"` // increases on every takeover
	Revision uint64 `json:"-"`     // the KV revision (for compare-and-set)
}

// Node is one member of a fleet. Its methods are safe for concurrent use.
type Node struct {
	opts     Options
	srv      *server.Server // nil when joined with NATSURL
	nc       *nats.Conn
	js       jetstream.JetStream
	leases   jetstream.KeyValue
	epochs   jetstream.KeyValue
	nodes    jetstream.KeyValue
	log      jetstream.Stream
	snaps    jetstream.ObjectStore // SnapshotBucket
	pointers jetstream.KeyValue    // SnapPointerBucket
	runs     jetstream.KeyValue    // RunsBucket
	acqSub   *nats.Subscription
	subs     []*nats.Subscription // move, drain, handover

	ctx    context.Context // cancelled by Close/halt
	cancel context.CancelFunc
	wg     sync.WaitGroup // background goroutines

	acqMu   sync.Mutex // serialises acquisitions
	mu      sync.Mutex
	owned   map[string]*owned   // served now
	open    map[*owned]struct{} // database not closed yet (served or draining)
	done    bool
	closers sync.WaitGroup // lose's closing goroutines (Add under mu while !done)

	// Test knobs: pauseRenew stops lease renewals and heartbeats (a
	// paused process); noSelfFence skips the local lease-deadline check,
	// so that only the broker's fencing stops a stale owner.
	beatAt atomic.Int64 // when the last heartbeat was written (Unix ns)

	pauseRenew  atomic.Bool
	noSelfFence atomic.Bool

	// draining: the node takes no workspace (Drain); its heartbeat says so.
	draining atomic.Bool
}

// owned is a workspace this node owns.
type owned struct {
	name  string
	epoch uint64
	ws    *nook.Workspace
	set   *tools.Set
	sub   *nats.Subscription
	stop  chan struct{}
	calls sync.WaitGroup
	// renewed is closed when the renewal goroutine has returned.
	renewed chan struct{}

	closeOnce sync.Once
	mu        sync.Mutex
	lastSeq   uint64  // the last sequence of the workspace's log subject, written by us
	tail      walTail // the write-ahead log's commits not shipped yet
	shipped   int     // commits shipped since the last snapshot
	snapshots int     // snapshots taken
	snapErr   error   // the last snapshot's failure
	restored  RestoreStats
	markMu    sync.Mutex // guards marked and starting
	marked    bool       // the workspace's key in RunsBucket is set
	starting  int        // run-starting calls in progress
	rev       uint64     // the lease's KV revision
	validTo   time.Time  // the lease holds at least until then (local clock)
	lost      error      // set once: the node stopped serving the workspace
	moving    bool       // a handover has begun: no new call is admitted
	stopOnce  sync.Once
}

// Start starts a node: its embedded NATS server (or a connection to
// NATSURL), the fleet's buckets and log stream (created when absent), its
// heartbeat and its acquisition handler. It returns once the node can
// route calls.
func Start(ctx context.Context, opts Options) (*Node, error) {
	if err := CheckName("node", opts.Name); err != nil {
		return nil, err
	}
	if opts.DataDir == "" {
		return nil, errorf("start", "", vfs.EINVAL, nil, "node %s: DataDir is empty", opts.Name)
	}
	if opts.LeaseTTL == 0 {
		opts.LeaseTTL = DefaultLeaseTTL
	}
	if opts.LeaseTTL < MinLeaseTTL {
		return nil, errorf("start", "", vfs.EINVAL, nil, "LeaseTTL %v is shorter than MinLeaseTTL (%v)", opts.LeaseTTL, MinLeaseTTL)
	}
	if opts.CallTimeout == 0 {
		opts.CallTimeout = DefaultCallTimeout
	}
	if opts.StartTimeout == 0 {
		opts.StartTimeout = DefaultStartTimeout
	}
	if opts.Replicas == 0 {
		opts.Replicas = 1
		if opts.NATSURL != "" || len(opts.Routes) > 0 {
			opts.Replicas = 3
		}
	}
	if err := os.MkdirAll(filepath.Join(opts.DataDir, "workspaces"), 0o700); err != nil {
		return nil, errorf("start", "", vfs.EIO, err, "node %s: data directory", opts.Name)
	}
	n := &Node{opts: opts, owned: map[string]*owned{}, open: map[*owned]struct{}{}}
	n.ctx, n.cancel = context.WithCancel(context.Background())
	if err := n.connect(); err != nil {
		n.shutdown()
		return nil, err
	}
	sctx, cancel := context.WithTimeout(ctx, opts.StartTimeout)
	defer cancel()
	if err := n.setup(sctx); err != nil {
		n.shutdown()
		return nil, err
	}
	return n, nil
}

// connect starts the embedded server (or dials NATSURL) and connects.
func (n *Node) connect() error {
	o := n.opts
	if o.NATSURL != "" {
		copts := []nats.Option{nats.Name("nook-" + o.Name), nats.MaxReconnects(-1)}
		if o.onlyURL {
			copts = append(copts, nats.IgnoreDiscoveredServers(), nats.ReconnectWait(100*time.Millisecond))
		}
		nc, err := nats.Connect(o.NATSURL, copts...)
		if err != nil {
			return errorf("start", "", vfs.EIO, err, "node %s: connecting to %s", o.Name, o.NATSURL)
		}
		n.nc = nc
	} else {
		sopts := &server.Options{
			ServerName: o.Name,
			JetStream:  true,
			StoreDir:   filepath.Join(o.DataDir, "jetstream"),
			NoSigs:     true,
			NoLog:      true,
		}
		var err error
		if sopts.Host, sopts.Port, err = hostPort(defaultString(o.ClientListen, "127.0.0.1:0")); err != nil {
			return errorf("start", "", vfs.EINVAL, err, "node %s: ClientListen %q", o.Name, o.ClientListen)
		}
		cl := o.ClusterListen
		if cl == "" && len(o.Routes) > 0 {
			cl = "127.0.0.1:0"
		}
		if cl != "" {
			sopts.Cluster.Name = "nook"
			if sopts.Cluster.Host, sopts.Cluster.Port, err = hostPort(cl); err != nil {
				return errorf("start", "", vfs.EINVAL, err, "node %s: ClusterListen %q", o.Name, cl)
			}
			for _, r := range o.Routes {
				if !strings.Contains(r, "://") {
					r = "nats-route://" + r
				}
				u, err := url.Parse(r)
				if err != nil {
					return errorf("start", "", vfs.EINVAL, err, "node %s: route %q", o.Name, r)
				}
				sopts.Routes = append(sopts.Routes, u)
			}
		}
		s, err := server.NewServer(sopts)
		if err != nil {
			return errorf("start", "", vfs.EINVAL, err, "node %s: NATS server", o.Name)
		}
		n.srv = s
		s.Start()
		if !s.ReadyForConnections(10 * time.Second) {
			return errorf("start", "", vfs.EIO, nil, "node %s: NATS server not ready within 10s", o.Name)
		}
		nc, err := nats.Connect("", nats.InProcessServer(s), nats.Name("nook-"+o.Name), nats.MaxReconnects(-1))
		if err != nil {
			return errorf("start", "", vfs.EIO, err, "node %s: connecting to the embedded server", o.Name)
		}
		n.nc = nc
	}
	js, err := jetstream.New(n.nc)
	if err != nil {
		return errorf("start", "", vfs.EIO, err, "node %s: JetStream", o.Name)
	}
	n.js = js
	return nil
}

// setup creates or binds the buckets and the stream, retrying while the
// cluster elects its leaders, then starts the heartbeat and the
// acquisition handler.
func (n *Node) setup(ctx context.Context) error {
	ttl, r := n.opts.LeaseTTL, n.opts.Replicas
	var err error
	try := func(what string, f func(context.Context) error) error {
		for {
			actx, cancel := context.WithTimeout(ctx, 1500*time.Millisecond)
			err := f(actx)
			cancel()
			if err == nil {
				return nil
			}
			select {
			case <-ctx.Done():
				return errorf("start", "", vfs.EIO, err, "node %s: %s (within StartTimeout %v)", n.opts.Name, what, n.opts.StartTimeout)
			case <-time.After(200 * time.Millisecond):
			}
		}
	}
	if err = try("lease bucket", func(c context.Context) (err error) {
		n.leases, err = n.js.CreateOrUpdateKeyValue(c, jetstream.KeyValueConfig{Bucket: LeaseBucket, TTL: ttl, Replicas: r, History: 1})
		return err
	}); err != nil {
		return err
	}
	if err = try("epoch bucket", func(c context.Context) (err error) {
		n.epochs, err = n.js.CreateOrUpdateKeyValue(c, jetstream.KeyValueConfig{Bucket: EpochBucket, Replicas: r, History: 1})
		return err
	}); err != nil {
		return err
	}
	if err = try("node bucket", func(c context.Context) (err error) {
		n.nodes, err = n.js.CreateOrUpdateKeyValue(c, jetstream.KeyValueConfig{Bucket: NodeBucket, TTL: ttl, Replicas: r, History: 1})
		return err
	}); err != nil {
		return err
	}
	if err = try("log stream", func(c context.Context) (err error) {
		n.log, err = n.js.CreateOrUpdateStream(c, jetstream.StreamConfig{
			Name: LogStream, Subjects: []string{logPrefix + ">"}, Replicas: r, Storage: jetstream.FileStorage,
		})
		return err
	}); err != nil {
		return err
	}
	if err = try("snapshot pointers", func(c context.Context) (err error) {
		n.pointers, err = n.js.CreateOrUpdateKeyValue(c, jetstream.KeyValueConfig{Bucket: SnapPointerBucket, Replicas: r, History: 1})
		return err
	}); err != nil {
		return err
	}
	if err = try("snapshot store", func(c context.Context) (err error) {
		n.snaps, err = n.js.CreateOrUpdateObjectStore(c, jetstream.ObjectStoreConfig{Bucket: SnapshotBucket, Replicas: r, Storage: jetstream.FileStorage})
		return err
	}); err != nil {
		return err
	}
	if err = try("runs bucket", func(c context.Context) (err error) {
		n.runs, err = n.js.CreateOrUpdateKeyValue(c, jetstream.KeyValueConfig{Bucket: RunsBucket, Replicas: r, History: 1})
		return err
	}); err != nil {
		return err
	}
	if err = try("heartbeat", func(c context.Context) error { return n.heartbeat(c) }); err != nil {
		return err
	}
	n.acqSub, err = n.nc.Subscribe(acquirPrefix+n.opts.Name+".acquire", n.handleAcquire)
	if err == nil {
		err = n.subscribeHandovers()
	}
	if err != nil {
		return errorf("start", "", vfs.EIO, err, "node %s: subscribing", n.opts.Name)
	}
	if err := n.nc.Flush(); err != nil {
		return errorf("start", "", vfs.EIO, err, "node %s: subscribing", n.opts.Name)
	}
	n.wg.Add(2)
	go n.heartbeats()
	go n.sweeps()
	return nil
}

// Name returns the node's name.
func (n *Node) Name() string { return n.opts.Name }

// ClientURL returns the embedded server's client URL (for --nats-url of
// another process), or the NATSURL the node joined with.
func (n *Node) ClientURL() string {
	if n.srv == nil {
		return n.opts.NATSURL
	}
	return n.srv.ClientURL()
}

// ClusterAddr returns the embedded server's route address (HOST:PORT) for
// peers' Routes, or "" when the node does not listen for routes.
func (n *Node) ClusterAddr() string {
	if n.srv == nil {
		return ""
	}
	if a := n.srv.ClusterAddr(); a != nil {
		return a.String()
	}
	return ""
}

type heartbeat struct {
	Node     string    `json:"node"`
	Time     time.Time `json:"time"`
	Draining bool      `json:"draining,omitempty"` // the node takes no workspace
}

func (n *Node) heartbeat(ctx context.Context) error {
	b, _ := json.Marshal(heartbeat{Node: n.opts.Name, Time: time.Now().UTC(), Draining: n.draining.Load()})
	_, err := n.nodes.Put(ctx, n.opts.Name, b)
	if err == nil {
		n.beatAt.Store(time.Now().UnixNano())
	}
	return err
}

func (n *Node) heartbeats() {
	defer n.wg.Done()
	t := time.NewTicker(n.opts.LeaseTTL / 3)
	defer t.Stop()
	for {
		select {
		case <-n.ctx.Done():
			return
		case <-t.C:
		}
		if n.pauseRenew.Load() {
			continue
		}
		ctx, cancel := context.WithTimeout(n.ctx, n.opts.LeaseTTL/3)
		n.heartbeat(ctx) // a missed beat is retried on the next tick
		cancel()
	}
}

// LiveNodes returns the names of the nodes whose heartbeat has not expired.
func (n *Node) LiveNodes(ctx context.Context) ([]string, error) {
	keys, err := n.nodes.Keys(ctx)
	if errors.Is(err, jetstream.ErrNoKeysFound) {
		return nil, nil
	}
	return keys, err
}

// placeable returns the live nodes that take workspaces: those with a
// live heartbeat that are not draining.
func (n *Node) placeable(ctx context.Context) ([]string, error) {
	beats, err := entries(ctx, n.nodes)
	if err != nil {
		return nil, err
	}
	var out []string
	for name, e := range beats {
		var hb heartbeat
		if json.Unmarshal(e.Value(), &hb) == nil && !hb.Draining {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out, nil
}

// Owner returns the workspace's current lease, or ok false when none.
func (n *Node) Owner(ctx context.Context, ws string) (l Lease, ok bool, err error) {
	e, err := n.leases.Get(ctx, ws)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return Lease{}, false, nil
	}
	if err != nil {
		return Lease{}, false, err
	}
	if err := json.Unmarshal(e.Value(), &l); err != nil {
		return Lease{}, false, err
	}
	l.Revision = e.Revision()
	return l, true, nil
}

// Owns reports whether this node serves the workspace now.
func (n *Node) Owns(ws string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.owned[ws] != nil
}

// Close stops the node gracefully: it stops serving its workspaces, closes
// them, releases their leases (so another node may take them at once),
// removes its heartbeat and shuts its NATS server down.
func (n *Node) Close() error {
	return n.stop(true, false)
}

// halt stops the node as a crash of its nook process would: its NATS
// connection goes first, so that nothing it does afterwards (closing its
// workspaces cancels their runs) reaches the fleet: no reply, no commit;
// leases and heartbeat stay until they expire. With keepServer the
// embedded NATS server keeps running (the broker outlived the process);
// the caller then shuts it down with n.srv.Shutdown.
func (n *Node) halt(keepServer bool) { n.stop(false, keepServer) }

func (n *Node) stop(release, keepServer bool) error {
	n.mu.Lock()
	if n.done {
		n.mu.Unlock()
		return nil
	}
	n.done = true
	list := make([]*owned, 0, len(n.open))
	for o := range n.open {
		list = append(list, o)
	}
	n.mu.Unlock()
	if !release {
		n.nc.Close()
	}
	n.closers.Wait()
	if n.acqSub != nil {
		n.acqSub.Unsubscribe()
	}
	for _, s := range n.subs {
		s.Unsubscribe()
	}
	var errs []error
	for _, o := range list {
		rev, first := n.drop(o, errorf("call", o.name, vfs.EIO, nil, "node %s is shutting down", n.opts.Name))
		if release {
			o.calls.Wait() // a crash does not wait for its calls
		}
		if err := n.closeWS(o); err != nil {
			errs = append(errs, err)
		}
		o.calls.Wait()
		if release && first && rev != 0 {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			n.leases.Delete(ctx, o.name, jetstream.LastRevision(rev))
			cancel()
		}
	}
	if release && n.nodes != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		n.nodes.Delete(ctx, n.opts.Name)
		cancel()
	}
	if keepServer {
		n.cancel()
		n.wg.Wait()
		n.nc.Close()
	} else {
		n.shutdown()
	}
	return errors.Join(errs...)
}

// closeWS closes o's database once.
func (n *Node) closeWS(o *owned) (err error) {
	o.closeOnce.Do(func() {
		err = o.ws.Close()
		n.mu.Lock()
		delete(n.open, o)
		n.mu.Unlock()
	})
	return err
}

// shutdown cancels the background work and closes the connection and the
// embedded server.
func (n *Node) shutdown() {
	n.cancel()
	n.wg.Wait()
	if n.nc != nil {
		n.nc.Close()
	}
	if n.srv != nil {
		n.srv.Shutdown()
		n.srv.WaitForShutdown()
	}
}

// drop stops serving o (once): records why, unsubscribes and stops its
// renewals. It returns the lease revision it last held and whether this
// call did the drop. The caller closes o.ws after o.calls drain.
func (n *Node) drop(o *owned, why error) (rev uint64, first bool) {
	o.stopOnce.Do(func() {
		first = true
		o.mu.Lock()
		o.lost = why
		rev = o.rev
		sub := o.sub
		o.mu.Unlock()
		close(o.stop)
		sub.Unsubscribe()
		n.mu.Lock()
		if n.owned[o.name] == o {
			delete(n.owned, o.name)
		}
		n.mu.Unlock()
	})
	return rev, first
}

// lose stops serving o after losing its lease, and closes the workspace
// once its calls are done.
func (n *Node) lose(o *owned, why error) {
	if _, first := n.drop(o, why); !first {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.done {
		return // stop closes it
	}
	n.closers.Add(1)
	go func() {
		defer n.closers.Done()
		o.calls.Wait()
		n.closeWS(o)
	}()
}

func hostPort(addr string) (string, int, error) {
	h, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, err
	}
	port, err := strconv.Atoi(p)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("bad port %q", p)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	return h, port, nil
}

func defaultString(s, d string) string {
	if s == "" {
		return d
	}
	return s
}
