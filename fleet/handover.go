package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/nookdev/nook/vfs"
)

// Planned handovers (nook fleet move, nook fleet drain): the owner stops
// admitting calls, lets the calls and runs in progress finish (up to a
// run wait), stops shipping, closes its copy and hands its lease, by
// compare-and-set on the lease's revision, to the next owner, which
// fences, restores from the log and resumes the runs still in flight by
// their policy. See RATIONALE.md, "Move and drain".
const (
	// DefaultRunWait is how long a handover waits for the workspace's
	// calls and runs in progress to finish before it hands over the runs
	// still in flight (the next owner resumes them by their policy).
	DefaultRunWait = 30 * time.Second
	// MaxRunWait bounds the run wait a handover accepts.
	MaxRunWait = 10 * time.Minute
	// drainParallel bounds the workspaces a drain moves at a time.
	drainParallel = 4
	// handoverTimeout bounds the next owner's acquisition in a handover.
	handoverTimeout = 30 * time.Second
)

// Handover is one workspace moved by Move or Drain.
type Handover struct {
	Workspace string
	From      string // the owner before ("" when nobody owned it)
	To        string // the owner after
	Epoch     uint64 // the new owner's lease epoch
	// Runs counts the runs still in flight when the owner handed the
	// workspace over: the new owner resumed them by their policy.
	Runs int
}

// DrainReport is what Drain did.
type DrainReport struct {
	Node  string     // the drained node
	Moved []Handover // by workspace name
}

// Requests between nodes (and from observers) for handovers.
type moveRequest struct {
	Workspace string `json:"workspace"`
	To        string `json:"to"`
	RunWaitMs int64  `json:"runWaitMs"`
}

type drainRequest struct {
	RunWaitMs int64 `json:"runWaitMs"`
}

type handoverRequest struct {
	Workspace string `json:"workspace"`
	Revision  uint64 `json:"revision"` // the lease's, handed over
}

type handoverReply struct {
	Handover *Handover    `json:"handover,omitempty"`
	Drain    *DrainReport `json:"drain,omitempty"`
	Epoch    uint64       `json:"epoch,omitempty"`
	Error    *wireError   `json:"error,omitempty"`
}

func runWaitOf(op string, d time.Duration) (time.Duration, error) {
	switch {
	case d == 0:
		return DefaultRunWait, nil
	case d < 0 || d > MaxRunWait:
		return 0, errorf(op, "", vfs.EINVAL, nil, "run wait %v is outside 0..MaxRunWait (%v)", d, MaxRunWait)
	}
	return d, nil
}

// Move hands workspace ws over to node to, in a planned handover: its
// owner, wherever it is, stops admitting calls, waits up to runWait
// (0: DefaultRunWait) for the calls and runs in progress to finish, and
// hands its lease to to, which restores the workspace from the log and
// resumes the runs still in flight by their policy. No acknowledged write
// is lost: every one is in the log before it is acknowledged, and the
// owner ships nothing after the handover began. A workspace nobody owns
// is placed on to.
func (n *Node) Move(ctx context.Context, ws, to string, runWait time.Duration) (Handover, error) {
	return requestMove(ctx, n.nc, n.leases, ws, to, runWait)
}

// Drain makes node (this one or another) give up its workspaces: it takes
// no workspace from then on (its heartbeat says it is draining, and it
// refuses to acquire), and hands each of its workspaces over, as Move
// does, to the first live node that takes workspaces in the workspace's
// rendezvous ranking. runWait (0: DefaultRunWait) bounds the wait for each
// workspace's calls and runs. The node keeps routing calls for others.
func (n *Node) Drain(ctx context.Context, node string, runWait time.Duration) (*DrainReport, error) {
	return requestDrain(ctx, n.nc, node, runWait)
}

// MoveVia is Node.Move from outside the fleet: it connects to the fleet's
// NATS cluster at url as an observer (joining and owning nothing).
func MoveVia(ctx context.Context, url, ws, to string, runWait time.Duration) (Handover, error) {
	nc, js, err := observe("move", url)
	if err != nil {
		return Handover{}, err
	}
	defer nc.Close()
	leases, err := js.KeyValue(ctx, LeaseBucket)
	if err != nil {
		return Handover{}, notAFleet(url, LeaseBucket, err)
	}
	return requestMove(ctx, nc, leases, ws, to, runWait)
}

// DrainVia is Node.Drain from outside the fleet, as an observer of the
// NATS cluster at url.
func DrainVia(ctx context.Context, url, node string, runWait time.Duration) (*DrainReport, error) {
	nc, _, err := observe("drain", url)
	if err != nil {
		return nil, err
	}
	defer nc.Close()
	return requestDrain(ctx, nc, node, runWait)
}

func observe(op, url string) (*nats.Conn, jetstream.JetStream, error) {
	nc, err := nats.Connect(url, nats.Name("nook-fleet-"+op))
	if err != nil {
		return nil, nil, errorf(op, "", vfs.EIO, err, "connecting to %s", url)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, nil, errorf(op, "", vfs.EIO, err, "JetStream at %s", url)
	}
	return nc, js, nil
}

// request sends a handover request to node and decodes its reply.
func request(ctx context.Context, nc *nats.Conn, op, ws, node, verb string, req any) (*handoverReply, error) {
	b, _ := json.Marshal(req)
	msg, err := nc.RequestWithContext(ctx, acquirPrefix+node+"."+verb, b)
	if errors.Is(err, nats.ErrNoResponders) {
		return nil, errorf(op, ws, vfs.ENOENT, err, "node %s does not answer (not running, or not a member of this fleet)", node)
	}
	if err != nil {
		return nil, errorf(op, ws, vfs.EIO, err, "asking node %s", node)
	}
	var rep handoverReply
	if err := json.Unmarshal(msg.Data, &rep); err != nil {
		return nil, errorf(op, ws, vfs.EIO, err, "bad reply from node %s", node)
	}
	if rep.Error != nil {
		return nil, rep.Error.err()
	}
	return &rep, nil
}

func requestMove(ctx context.Context, nc *nats.Conn, leases jetstream.KeyValue, ws, to string, runWait time.Duration) (Handover, error) {
	if err := CheckName("workspace", ws); err != nil {
		return Handover{}, err
	}
	if err := CheckName("node", to); err != nil {
		return Handover{}, err
	}
	rw, err := runWaitOf("move", runWait)
	if err != nil {
		return Handover{}, err
	}
	e, err := leases.Get(ctx, ws)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		// Nobody owns it: place it on to.
		msg, err := nc.RequestWithContext(ctx, acquirPrefix+to+".acquire", []byte(ws))
		if errors.Is(err, nats.ErrNoResponders) {
			return Handover{}, errorf("move", ws, vfs.ENOENT, err, "node %s does not answer (not running, or not a member of this fleet)", to)
		}
		if err != nil {
			return Handover{}, errorf("move", ws, vfs.EIO, err, "asking node %s", to)
		}
		var rep callReply
		if err := json.Unmarshal(msg.Data, &rep); err != nil {
			return Handover{}, errorf("move", ws, vfs.EIO, err, "bad reply from node %s", to)
		}
		if rep.Error != nil {
			return Handover{}, rep.Error.err()
		}
		l, err := leases.Get(ctx, ws)
		if err != nil {
			return Handover{}, errorf("move", ws, vfs.EIO, err, "reading the lease")
		}
		var lease Lease
		json.Unmarshal(l.Value(), &lease)
		return Handover{Workspace: ws, To: lease.Node, Epoch: lease.Epoch}, nil
	}
	if err != nil {
		return Handover{}, errorf("move", ws, vfs.EIO, err, "reading the lease")
	}
	var l Lease
	if err := json.Unmarshal(e.Value(), &l); err != nil || l.Node == "" {
		return Handover{}, errorf("move", ws, vfs.EIO, err, "the lease is being taken: try again")
	}
	rep, err := request(ctx, nc, "move", ws, l.Node, "move", moveRequest{Workspace: ws, To: to, RunWaitMs: rw.Milliseconds()})
	if err != nil {
		return Handover{}, err
	}
	return *rep.Handover, nil
}

func requestDrain(ctx context.Context, nc *nats.Conn, node string, runWait time.Duration) (*DrainReport, error) {
	if err := CheckName("node", node); err != nil {
		return nil, err
	}
	rw, err := runWaitOf("drain", runWait)
	if err != nil {
		return nil, err
	}
	rep, err := request(ctx, nc, "drain", "", node, "drain", drainRequest{RunWaitMs: rw.Milliseconds()})
	if err != nil {
		return nil, err
	}
	return rep.Drain, nil
}

// subscribeHandovers serves the node's move, drain and handover requests.
func (n *Node) subscribeHandovers() error {
	for verb, h := range map[string]func(context.Context, []byte) handoverReply{
		"move":     n.handleMove,
		"drain":    n.handleDrain,
		"handover": n.handleHandover,
	} {
		sub, err := n.nc.Subscribe(acquirPrefix+n.opts.Name+"."+verb, func(m *nats.Msg) {
			n.wg.Add(1)
			go func() {
				defer n.wg.Done()
				rep := h(n.ctx, m.Data)
				b, _ := json.Marshal(rep)
				m.Respond(b)
			}()
		})
		if err != nil {
			return err
		}
		n.subs = append(n.subs, sub)
	}
	return nil
}

func (n *Node) handleMove(ctx context.Context, data []byte) handoverReply {
	var req moveRequest
	if err := json.Unmarshal(data, &req); err != nil {
		return handoverReply{Error: toWire(errorf("move", "", vfs.EINVAL, err, "bad request"))}
	}
	h, err := n.moveOut(ctx, req.Workspace, []string{req.To}, time.Duration(req.RunWaitMs)*time.Millisecond)
	if err != nil {
		return handoverReply{Error: toWire(err)}
	}
	return handoverReply{Handover: &h}
}

func (n *Node) handleDrain(ctx context.Context, data []byte) handoverReply {
	var req drainRequest
	if err := json.Unmarshal(data, &req); err != nil {
		return handoverReply{Error: toWire(errorf("drain", "", vfs.EINVAL, err, "bad request"))}
	}
	r, err := n.drainHere(ctx, time.Duration(req.RunWaitMs)*time.Millisecond)
	if err != nil {
		return handoverReply{Error: toWire(err)}
	}
	return handoverReply{Drain: r}
}

func (n *Node) handleHandover(ctx context.Context, data []byte) handoverReply {
	var req handoverRequest
	if err := json.Unmarshal(data, &req); err != nil {
		return handoverReply{Error: toWire(errorf("handover", "", vfs.EINVAL, err, "bad request"))}
	}
	if err := CheckName("workspace", req.Workspace); err != nil {
		return handoverReply{Error: toWire(err)}
	}
	actx, cancel := context.WithTimeout(ctx, handoverTimeout)
	defer cancel()
	epoch, err := n.acquireFrom(actx, req.Workspace, req.Revision)
	if err != nil {
		return handoverReply{Error: toWire(err)}
	}
	return handoverReply{Epoch: epoch}
}

// drainHere drains this node (see Drain).
func (n *Node) drainHere(ctx context.Context, runWait time.Duration) (*DrainReport, error) {
	if n.draining.CompareAndSwap(false, true) {
		hctx, cancel := context.WithTimeout(ctx, n.opts.LeaseTTL)
		err := n.heartbeat(hctx) // placements elsewhere skip it from now on
		cancel()
		if err != nil {
			return nil, errorf("drain", "", vfs.EIO, err, "node %s: publishing its heartbeat", n.opts.Name)
		}
	}
	n.acqMu.Lock() // an acquisition in progress ends before the list is taken
	n.mu.Lock()
	var names []string
	for ws := range n.owned {
		names = append(names, ws)
	}
	n.mu.Unlock()
	n.acqMu.Unlock()
	sort.Strings(names)
	live, err := n.placeable(ctx)
	if err != nil {
		return nil, errorf("drain", "", vfs.EIO, err, "reading %s", NodeBucket)
	}
	live = slices.DeleteFunc(live, func(s string) bool { return s == n.opts.Name })
	if len(names) > 0 && len(live) == 0 {
		return nil, errorf("drain", "", vfs.EBUSY, ErrNoOwner, "node %s: no other live node takes workspaces", n.opts.Name)
	}
	rep := &DrainReport{Node: n.opts.Name, Moved: []Handover{}}
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	sem := make(chan struct{}, drainParallel)
	for _, ws := range names {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			h, err := n.moveOut(ctx, ws, Rank(ws, live), runWait)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				rep.Moved = append(rep.Moved, h)
			case !errors.Is(err, errNotOwner): // not ours any more: nothing to give up
				errs = append(errs, err)
			}
		}()
	}
	wg.Wait()
	sort.Slice(rep.Moved, func(i, j int) bool { return rep.Moved[i].Workspace < rep.Moved[j].Workspace })
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return rep, nil
}

// moveOut hands workspace ws, which this node serves, over to the first
// of targets that takes it.
func (n *Node) moveOut(ctx context.Context, ws string, targets []string, runWait time.Duration) (Handover, error) {
	if err := CheckName("workspace", ws); err != nil {
		return Handover{}, err
	}
	o := n.servedHere(ws)
	if o == nil {
		return Handover{}, errorf("move", ws, vfs.EIO, errNotOwner, "node %s does not own it (any more): try again", n.opts.Name)
	}
	h := Handover{Workspace: ws, From: n.opts.Name}
	if len(targets) == 1 && targets[0] == n.opts.Name {
		h.To, h.Epoch = n.opts.Name, o.epoch
		return h, nil // there already
	}
	live, err := n.placeable(ctx)
	if err != nil {
		return Handover{}, errorf("move", ws, vfs.EIO, err, "reading %s", NodeBucket)
	}
	asked := strings.Join(targets, ", ")
	targets = slices.DeleteFunc(slices.Clone(targets), func(t string) bool { return !slices.Contains(live, t) || t == n.opts.Name })
	if len(targets) == 0 {
		return Handover{}, errorf("move", ws, vfs.ENOENT, nil, "%s: not a live node that takes workspaces (those are: %s)", asked, strings.Join(live, ", "))
	}
	if runWait <= 0 {
		runWait = DefaultRunWait
	}
	// 1. Admit no new call. Calls routed here from now on are told to
	// route again, and find the lease held until the next owner has it.
	o.mu.Lock()
	if o.lost != nil || o.moving {
		o.mu.Unlock()
		return Handover{}, errorf("move", ws, vfs.EIO, errNotOwner, "node %s is giving it up already", n.opts.Name)
	}
	o.moving = true
	sub := o.sub
	o.mu.Unlock()
	// Drain, not Unsubscribe: requests already delivered to the
	// subscription but not yet handed to handleCall would be dropped, and
	// their callers would wait for their deadline; drained, each is told
	// to route again.
	sub.Drain()
	// 2. Let the calls and runs in progress finish, up to runWait.
	callsDone := make(chan struct{})
	go func() { o.calls.Wait(); close(callsDone) }()
	deadline := time.Now().Add(runWait)
	for {
		inFlight, err := n.runsInFlight(ctx, o)
		done := false
		select {
		case <-callsDone:
			done = true
		default:
		}
		if err == nil {
			h.Runs = inFlight
		}
		if (done && err == nil && inFlight == 0) || time.Now().After(deadline) || ctx.Err() != nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	// 3. Ship nothing more: the log now holds everything acknowledged,
	// and what this copy commits from here on (closing its runs) is
	// refused locally. Then close it.
	to := targets[0]
	n.drop(o, errorf("call", ws, vfs.EIO, errNotOwner, "node %s handed the workspace over", n.opts.Name))
	select {
	case <-o.renewed:
	case <-ctx.Done():
	}
	o.mu.Lock()
	rev := o.rev
	o.mu.Unlock()
	n.closeWS(o)
	select {
	case <-callsDone:
	case <-ctx.Done():
	}
	// 4. Hand the lease over, down the targets.
	var last error
	for _, to = range targets {
		if to == n.opts.Name {
			continue
		}
		hctx, cancel := context.WithTimeout(ctx, handoverTimeout+5*time.Second)
		rep, err := request(hctx, n.nc, "move", ws, to, "handover", handoverRequest{Workspace: ws, Revision: rev})
		cancel()
		if err == nil {
			h.To, h.Epoch = to, rep.Epoch
			return h, nil
		}
		last = err
	}
	// Nobody took it: release the lease, so that the next call places it.
	dctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	n.leases.Delete(dctx, ws, jetstream.LastRevision(rev))
	cancel()
	return Handover{}, errorf("move", ws, vfs.Code(last), last, "no node took it over; its lease is released")
}

// runsInFlight counts o's runs that have not finished.
func (n *Node) runsInFlight(ctx context.Context, o *owned) (int, error) {
	runs, err := o.ws.Runtime().Runs(ctx, maxRunsListed)
	if err != nil {
		return 0, err
	}
	c := 0
	for _, r := range runs {
		if r.Finished.IsZero() {
			c++
		}
	}
	return c, nil
}

// String renders a handover for logs.
func (h Handover) String() string {
	return fmt.Sprintf("%s: %s -> %s (epoch %d, %d runs handed over)", h.Workspace, h.From, h.To, h.Epoch, h.Runs)
}
