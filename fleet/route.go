package fleet

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"path/filepath"
	"sort"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/tools"
	"github.com/nookdev/nook/vfs"
)

// callRequest is a routed tool call; callReply its answer.
type callRequest struct {
	Tool string          `json:"tool"`
	Args json.RawMessage `json:"args,omitempty"`
	// Op is "" for a tool call, opPending or opRespond for the
	// runtime's waiting calls (Node.Pending, Node.Respond).
	Op     string          `json:"op,omitempty"`
	Run    string          `json:"run,omitempty"`
	CallID string          `json:"callId,omitempty"`
	Answer json.RawMessage `json:"answer,omitempty"`
}

type callReply struct {
	Result  *tools.Result         `json:"result,omitempty"`
	Pending []runtime.PendingCall `json:"pending,omitempty"`
	Error   *wireError            `json:"error,omitempty"`
}

// Operations of a routed request other than a tool call.
const (
	opPending = "pending"
	opRespond = "respond"
)

// wireError carries an *Error between nodes.
type wireError struct {
	Op, Workspace, Text string
	Code                vfs.Errno
	Kind                string // "lease_lost", "not_owner", "no_owner", "draining" or ""
}

const (
	kindLeaseLost = "lease_lost"
	kindNotOwner  = "not_owner"
	kindNoOwner   = "no_owner"
	kindDraining  = "draining"
)

// errNotOwner: the node asked does not (or no longer) serve the workspace;
// the caller routes again.
var errNotOwner = errors.New("not owner")

func toWire(err error) *wireError {
	w := &wireError{Text: err.Error(), Code: vfs.Code(err)}
	var fe *Error
	if errors.As(err, &fe) {
		w.Op, w.Workspace, w.Text, w.Code = fe.Op, fe.Workspace, fe.Text, fe.Code
		if fe.Err != nil && !errors.Is(fe.Err, ErrLeaseLost) && !errors.Is(fe.Err, ErrNoOwner) && !errors.Is(fe.Err, ErrDraining) && !errors.Is(fe.Err, errNotOwner) {
			w.Text += ": " + fe.Err.Error() // the cause does not travel
		}
	}
	switch {
	case errors.Is(err, ErrLeaseLost):
		w.Kind = kindLeaseLost
	case errors.Is(err, errNotOwner):
		w.Kind = kindNotOwner
	case errors.Is(err, ErrNoOwner):
		w.Kind = kindNoOwner
	case errors.Is(err, ErrDraining):
		w.Kind = kindDraining
	}
	if w.Code == "" {
		w.Code = vfs.EIO
	}
	return w
}

func (w *wireError) err() error {
	var cause error
	switch w.Kind {
	case kindLeaseLost:
		cause = ErrLeaseLost
	case kindNotOwner:
		cause = errNotOwner
	case kindNoOwner:
		cause = ErrNoOwner
	case kindDraining:
		cause = ErrDraining
	}
	return &Error{Op: w.Op, Workspace: w.Workspace, Code: w.Code, Text: w.Text, Err: cause}
}

// logRecord is what the owner appends to wslog.<workspace>: one at each
// acquisition and one before each mutating call (see RATIONALE.md).
type logRecord struct {
	Op     string `json:"op"` // "acquire" or "call"
	Node   string `json:"node"`
	Epoch  uint64 `json:"epoch"`
	Tool   string `json:"tool,omitempty"`
	ArgsSH string `json:"argsSha256,omitempty"`
	ArgsN  int    `json:"argsBytes,omitempty"`
}

// Call calls a tool of workspace ws, wherever it is owned: on this node
// directly when it owns ws, else by request/reply to the owner; a
// workspace nobody owns is placed first (rendezvous hashing over live
// nodes), and created on first use. args is the tool's JSON input.
func (n *Node) Call(ctx context.Context, ws, tool string, args json.RawMessage) (*tools.Result, error) {
	rep, err := n.route(ctx, ws, callRequest{Tool: tool, Args: args})
	if err != nil {
		return nil, err
	}
	return rep.Result, nil
}

// Pending lists the calls of workspace ws's runs that wait for an answer
// (an approval), oldest first, wherever ws is owned.
func (n *Node) Pending(ctx context.Context, ws string) ([]runtime.PendingCall, error) {
	rep, err := n.route(ctx, ws, callRequest{Op: opPending})
	if err != nil {
		return nil, err
	}
	return rep.Pending, nil
}

// Respond answers a waiting call of workspace ws's run (runtime.Runtime.
// Respond) on whichever node owns ws now, so that an answer given on any
// node reaches the run wherever it was resumed after a takeover. answer
// must be JSON-compatible (tools.Approval for a tool's approval).
func (n *Node) Respond(ctx context.Context, ws, run, callID string, answer any) error {
	b, err := json.Marshal(answer)
	if err != nil {
		return errorf("respond", ws, vfs.EINVAL, err, "the answer must be JSON-compatible")
	}
	_, err = n.route(ctx, ws, callRequest{Op: opRespond, Run: run, CallID: callID, Answer: b})
	return err
}

// route carries a request to the owner of ws (see Call) and returns its
// reply, whose Error is nil.
func (n *Node) route(ctx context.Context, ws string, r callRequest) (*callReply, error) {
	if err := CheckName("workspace", ws); err != nil {
		return nil, err
	}
	tool := r.Tool
	if r.Op != "" {
		tool = r.Op
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, n.opts.CallTimeout)
		defer cancel()
	}
	req, _ := json.Marshal(r)
	backoff := 20 * time.Millisecond
	var last error
	for {
		if o := n.servedHere(ws); o != nil {
			rep, err := n.serve(ctx, o, r)
			if !errors.Is(err, errNotOwner) {
				return rep, err
			}
		} else {
			msg, err := n.nc.RequestWithContext(ctx, callPrefix+ws+".call", req)
			switch {
			case err == nil:
				var rep callReply
				if err := json.Unmarshal(msg.Data, &rep); err != nil {
					return nil, errorf("call", ws, vfs.EIO, err, "bad reply from the owner")
				}
				if rep.Error == nil {
					return &rep, nil
				}
				if rep.Error.Kind != kindNotOwner {
					return nil, rep.Error.err()
				}
				last = rep.Error.err()
			case errors.Is(err, nats.ErrNoResponders):
				last = n.place(ctx, ws)
			default:
				return nil, errorf("call", ws, vfs.EIO, err, "routing %s", tool)
			}
		}
		select {
		case <-ctx.Done():
			text := "no node served the workspace before the call's deadline"
			if last != nil {
				text += " (last: " + last.Error() + ")"
			}
			return nil, errorf("call", ws, vfs.EIO, ErrNoOwner, "%s", text)
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 200*time.Millisecond)
	}
}

func (n *Node) servedHere(ws string) *owned {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.owned[ws]
}

// place makes some node own ws when its lease is absent: the live nodes
// are tried in rendezvous order (highest score first).
//
// The reads of the lease and of the live nodes are bounded by a lease TTL
// each (at least 2s): while a bucket's replicas elect a new leader (its
// leader's node just died) a read can hang; the caller's loop then asks
// again instead of spending its whole deadline on one read.
func (n *Node) place(ctx context.Context, ws string) error {
	rctx, cancel := context.WithTimeout(ctx, max(n.opts.LeaseTTL, 2*time.Second))
	l, ok, err := n.Owner(rctx, ws)
	cancel()
	if err != nil {
		return err
	} else if ok {
		// Owned but not answering: the owner is starting to serve, or
		// it died and its lease has yet to expire. Wait.
		return errorf("call", ws, vfs.EIO, errNotOwner, "owner %s (epoch %d) does not answer", l.Node, l.Epoch)
	}
	rctx, cancel = context.WithTimeout(ctx, max(n.opts.LeaseTTL, 2*time.Second))
	live, err := n.placeable(rctx)
	cancel()
	if err != nil {
		return err
	}
	var last error = errorf("call", ws, vfs.EIO, ErrNoOwner, "no live node takes workspaces")
	for _, node := range Rank(ws, live) {
		if node == n.opts.Name {
			last = n.acquire(ctx, ws)
		} else {
			rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			var msg *nats.Msg
			msg, last = n.nc.RequestWithContext(rctx, acquirPrefix+node+".acquire", []byte(ws))
			cancel()
			if last == nil {
				var rep callReply
				if last = json.Unmarshal(msg.Data, &rep); last == nil && rep.Error != nil {
					last = rep.Error.err()
				}
			}
		}
		if last == nil || errors.Is(last, errNotOwner) {
			return last // placed, or someone else got it first
		}
		if ctx.Err() != nil {
			return last
		}
	}
	return last
}

// Rank orders nodes for workspace ws by rendezvous (highest random weight)
// hashing: the first is where ws is placed while it has no owner. Adding or
// removing a node moves only the workspaces that rank it first.
func Rank(ws string, nodes []string) []string {
	type scored struct {
		node  string
		score uint64
	}
	s := make([]scored, len(nodes))
	for i, node := range nodes {
		h := sha256.Sum256([]byte(ws + "\x00" + node))
		s[i] = scored{node, binary.BigEndian.Uint64(h[:8])}
	}
	sort.Slice(s, func(i, j int) bool {
		if s[i].score != s[j].score {
			return s[i].score > s[j].score
		}
		return s[i].node < s[j].node
	})
	out := make([]string, len(s))
	for i := range s {
		out[i] = s[i].node
	}
	return out
}

func (n *Node) handleAcquire(m *nats.Msg) {
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		ws := string(m.Data)
		var rep callReply
		err := CheckName("workspace", ws)
		if err == nil {
			ctx, cancel := context.WithTimeout(n.ctx, 10*time.Second)
			err = n.acquire(ctx, ws)
			cancel()
		}
		if err != nil {
			rep.Error = toWire(err)
		}
		b, _ := json.Marshal(rep)
		m.Respond(b)
	}()
}

// acquire takes the lease of ws (absent or expired), raises its epoch,
// fences earlier owners by appending an acquire record to its log subject,
// opens its database and serves it. It returns an error matching
// errNotOwner when another node holds the lease.
func (n *Node) acquire(ctx context.Context, ws string) error {
	_, err := n.acquireFrom(ctx, ws, 0)
	return err
}

// acquireFrom is acquire; with from not 0 it takes over the lease at that
// revision, which its holder handed over (Move, Drain), instead of creating
// it. It returns the new epoch.
func (n *Node) acquireFrom(ctx context.Context, ws string, from uint64) (uint64, error) {
	n.acqMu.Lock()
	defer n.acqMu.Unlock()
	n.mu.Lock()
	done, have := n.done, n.owned[ws]
	n.mu.Unlock()
	if done {
		return 0, errorf("acquire", ws, vfs.EIO, errNotOwner, "node %s is shutting down", n.opts.Name)
	}
	if have != nil {
		return have.epoch, nil
	}
	if n.draining.Load() {
		return 0, errorf("acquire", ws, vfs.EBUSY, ErrDraining, "node %s is draining: it takes no workspace", n.opts.Name)
	}
	start := time.Now()
	val, _ := json.Marshal(Lease{Node: n.opts.Name})
	var rev uint64
	var err error
	if from != 0 {
		rev, err = n.leases.Update(ctx, ws, val, from)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			// The handover outlasted the lease: take it as any node would.
			rev, err = n.leases.Create(ctx, ws, val)
		}
	} else {
		rev, err = n.leases.Create(ctx, ws, val)
	}
	if errors.Is(err, jetstream.ErrKeyExists) {
		return 0, errorf("acquire", ws, vfs.EEXIST, errNotOwner, "held by another node")
	}
	if err != nil {
		return 0, errorf("acquire", ws, vfs.EIO, err, "creating the lease")
	}
	o := &owned{name: ws, stop: make(chan struct{}), renewed: make(chan struct{})}
	release := func() {
		dctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		n.leases.Delete(dctx, ws, jetstream.LastRevision(o.rev))
		cancel()
	}
	o.rev = rev
	if o.epoch, err = n.bumpEpoch(ctx, ws); err != nil {
		release()
		return 0, err
	}
	val, _ = json.Marshal(Lease{Node: n.opts.Name, Epoch: o.epoch})
	if o.rev, err = n.leases.Update(ctx, ws, val, rev); err != nil {
		o.rev = rev
		release()
		return 0, errorf("acquire", ws, vfs.EIO, err, "recording epoch %d in the lease", o.epoch)
	}
	o.validTo = start.Add(n.opts.LeaseTTL)
	if err := n.fence(ctx, o); err != nil {
		release()
		return 0, err
	}
	// The log now ends with our acquire record: nothing an earlier
	// owner appends can land after it. Rebuild the database from the
	// latest snapshot and the commits before the fence, then serve it.
	path := filepath.Join(n.opts.DataDir, "workspaces", ws+".nook")
	if err := n.waitClosed(ctx, ws); err != nil {
		release()
		return 0, err
	}
	if o.restored, err = n.restore(ctx, ws, path, o.lastSeq); err != nil {
		release()
		return 0, errorf("acquire", ws, vfs.EIO, err, "restoring the workspace from its snapshot and log")
	}
	// The copy is ours alone (restored from the log): the runs an earlier
	// owner left running are interrupted, and resumed here by their
	// policy (run failover).
	wopts := append(append([]nook.Option{}, n.opts.Workspace...),
		nook.WithCommitHook(func(c nook.Commit) error { return n.ship(o, c) }),
		nook.WithSoleOwner(), nook.WithRecover())
	if o.marked, err = n.hasRuns(ctx, ws); err != nil {
		release()
		return 0, errorf("acquire", ws, vfs.EIO, err, "reading %s", RunsBucket)
	}
	if o.ws, err = nook.Open(ctx, path, wopts...); err != nil {
		release()
		return 0, errorf("acquire", ws, vfs.Code(err), err, "opening the workspace")
	}
	topts := n.opts.Tools
	topts.Runtime = o.ws.Runtime()
	o.set = tools.New(o.ws.FS(), topts)
	o.sub = &nats.Subscription{} // Unsubscribe on a zero one just errors
	n.mu.Lock()
	n.owned[ws] = o
	n.open[o] = struct{}{}
	n.mu.Unlock()
	o.mu.Lock()
	err = o.lost // a commit of the opening (recovery) was refused
	o.mu.Unlock()
	what := "opening the workspace"
	if err == nil {
		what = "subscribing"
		var sub *nats.Subscription
		if sub, err = n.nc.Subscribe(callPrefix+ws+".call", func(m *nats.Msg) { n.handleCall(o, m) }); err == nil {
			o.mu.Lock()
			o.sub = sub
			o.mu.Unlock()
			err = n.nc.Flush()
		}
	}
	if err != nil {
		n.drop(o, err)
		n.closeWS(o)
		release()
		return 0, errorf("acquire", ws, vfs.EIO, err, "%s", what)
	}
	n.wg.Add(1)
	go n.renew(o)
	return o.epoch, nil
}

// waitClosed waits until no copy of ws this node served earlier is still
// open (a lost lease closes its database once its calls are done): the
// restore replaces the file under it.
func (n *Node) waitClosed(ctx context.Context, ws string) error {
	for {
		n.mu.Lock()
		busy := false
		for o := range n.open {
			busy = busy || o.name == ws
		}
		n.mu.Unlock()
		if !busy {
			return nil
		}
		select {
		case <-ctx.Done():
			return errorf("acquire", ws, vfs.EIO, ctx.Err(), "an earlier copy of the workspace is still closing")
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// bumpEpoch raises the workspace's epoch counter by compare-and-set and
// returns the new value. Only the lease holder bumps, so epochs of
// successive owners increase.
func (n *Node) bumpEpoch(ctx context.Context, ws string) (uint64, error) {
	for range 10 {
		e, err := n.epochs.Get(ctx, ws)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			if _, err := n.epochs.Create(ctx, ws, []byte("1")); err == nil {
				return 1, nil
			} else if !errors.Is(err, jetstream.ErrKeyExists) {
				return 0, errorf("acquire", ws, vfs.EIO, err, "creating the epoch")
			}
			continue
		}
		if err != nil {
			return 0, errorf("acquire", ws, vfs.EIO, err, "reading the epoch")
		}
		var cur uint64
		json.Unmarshal(e.Value(), &cur)
		next := cur + 1
		if _, err := n.epochs.Update(ctx, ws, []byte(jsonUint(next)), e.Revision()); err == nil {
			return next, nil
		}
	}
	return 0, errorf("acquire", ws, vfs.EIO, nil, "raising the epoch: too much contention")
}

func jsonUint(u uint64) string { b, _ := json.Marshal(u); return string(b) }

// fence appends the acquire record after whatever the log subject holds,
// so that any earlier owner's next append (expecting an older last
// sequence) is refused by the broker.
func (n *Node) fence(ctx context.Context, o *owned) error {
	subj := logPrefix + o.name
	rec, _ := json.Marshal(logRecord{Op: "acquire", Node: n.opts.Name, Epoch: o.epoch})
	for range 10 {
		var last uint64
		m, err := n.log.GetLastMsgForSubject(ctx, subj)
		switch {
		case err == nil:
			last = m.Sequence
		case errors.Is(err, jetstream.ErrMsgNotFound):
		default:
			return errorf("acquire", o.name, vfs.EIO, err, "reading the log")
		}
		ack, err := n.js.Publish(ctx, subj, rec, jetstream.WithExpectLastSequencePerSubject(last))
		if err == nil {
			o.lastSeq = ack.Sequence
			return nil
		}
		if !wrongLastSeq(err) {
			return errorf("acquire", o.name, vfs.EIO, err, "appending to the log")
		}
		// A stale owner appended in between: read again.
	}
	return errorf("acquire", o.name, vfs.EIO, nil, "appending to the log: too much contention")
}

// wrongLastSeq reports a refused expected last sequence: code 10071, or
// 10164, which a replicated stream also gives (with the same text) when the
// subject's previous message is still being applied (see appendAfter).
func wrongLastSeq(err error) bool {
	var ae *jetstream.APIError
	return errors.As(err, &ae) && (ae.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
		ae.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant)
}

// appendAfter appends m to its log subject, expecting last as the
// subject's last sequence. An error for which wrongLastSeq holds means
// another owner appended after last. A replicated stream also refuses
// (code 10164) an append that arrives while the subject's previous
// message, acknowledged already, is still being applied: when the
// subject's last sequence read back is not past last, that refusal is
// retried until ctx ends.
func (n *Node) appendAfter(ctx context.Context, m *nats.Msg, last uint64) (*jetstream.PubAck, error) {
	backoff := time.Millisecond
	for {
		ack, err := n.js.PublishMsg(ctx, m, jetstream.WithExpectLastSequencePerSubject(last))
		var ae *jetstream.APIError
		if err == nil || !errors.As(err, &ae) || ae.ErrorCode != jetstream.JSErrCodeStreamWrongLastSequenceConstant {
			return ack, err
		}
		if lm, gerr := n.log.GetLastMsgForSubject(ctx, m.Subject); gerr == nil && lm.Sequence > last {
			return nil, err // another owner's append
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 50*time.Millisecond)
	}
}

// renew renews o's lease every third of the TTL until o is dropped; a
// refused renewal, or none succeeding within the TTL, loses the lease.
func (n *Node) renew(o *owned) {
	defer n.wg.Done()
	defer close(o.renewed)
	ttl := n.opts.LeaseTTL
	t := time.NewTicker(ttl / 3)
	defer t.Stop()
	for {
		select {
		case <-o.stop:
			return
		case <-n.ctx.Done():
			return
		case <-t.C:
		}
		if n.pauseRenew.Load() {
			continue
		}
		o.mu.Lock()
		rev := o.rev
		o.mu.Unlock()
		start := time.Now()
		val, _ := json.Marshal(Lease{Node: n.opts.Name, Epoch: o.epoch})
		ctx, cancel := context.WithTimeout(n.ctx, ttl/3)
		nrev, err := n.leases.Update(ctx, o.name, val, rev)
		cancel()
		if err == nil {
			o.mu.Lock()
			o.rev, o.validTo = nrev, start.Add(ttl)
			o.mu.Unlock()
			n.syncRuns(o)
			continue
		}
		if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrKeyExists) {
			n.lose(o, leaseLost("renew", o.name, n.opts.Name, o.epoch, "the renewal was refused (the lease expired or was taken)"))
			return
		}
		o.mu.Lock()
		expired := time.Now().After(o.validTo)
		o.mu.Unlock()
		if expired {
			n.lose(o, leaseLost("renew", o.name, n.opts.Name, o.epoch, "no renewal succeeded within the lease TTL: "+err.Error()))
			return
		}
	}
}

func (n *Node) handleCall(o *owned, m *nats.Msg) {
	o.mu.Lock()
	lost := o.lost != nil || o.moving
	if !lost {
		o.calls.Add(1)
	}
	o.mu.Unlock()
	if lost {
		b, _ := json.Marshal(callReply{Error: toWire(errorf("call", o.name, vfs.EIO, errNotOwner, "not served here"))})
		m.Respond(b)
		return
	}
	go func() {
		defer o.calls.Done()
		var req callRequest
		var rep callReply
		if err := json.Unmarshal(m.Data, &req); err != nil {
			rep.Error = toWire(errorf("call", o.name, vfs.EINVAL, err, "bad request"))
		} else {
			ctx, cancel := context.WithTimeout(n.ctx, n.opts.CallTimeout)
			r, err := n.serveLocked(ctx, o, req)
			cancel()
			if err != nil {
				rep.Error = toWire(err)
			} else {
				rep = *r
			}
		}
		b, err := json.Marshal(rep)
		if err != nil {
			b, _ = json.Marshal(callReply{Error: toWire(errorf("call", o.name, vfs.EIO, err, "encoding the result"))})
		}
		m.Respond(b)
	}()
}

// serve runs a request on a workspace this node serves.
func (n *Node) serve(ctx context.Context, o *owned, r callRequest) (*callReply, error) {
	o.mu.Lock()
	lost := o.lost != nil || o.moving
	if !lost {
		o.calls.Add(1)
	}
	o.mu.Unlock()
	if lost {
		return nil, errorf("call", o.name, vfs.EIO, errNotOwner, "not served here")
	}
	defer o.calls.Done()
	return n.serveLocked(ctx, o, r)
}

// serveLocked runs a call; the caller holds a count in o.calls. A mutating
// call is first appended to the workspace's log: when the broker refuses
// the append, the node has lost the lease, stops serving the workspace and
// does not run the call.
func (n *Node) serveLocked(ctx context.Context, o *owned, r callRequest) (*callReply, error) {
	switch r.Op {
	case "":
	case opPending:
		if err := n.checkLease(o); err != nil {
			return nil, err
		}
		p, err := o.ws.Runtime().Pending(ctx)
		if err != nil {
			return nil, errorf("pending", o.name, vfs.Code(err), err, "listing the waiting calls")
		}
		return &callReply{Pending: p}, nil
	case opRespond:
		// An answer commits (and resumes the run): admitted like a
		// mutating call, so that a stale owner does not take it.
		if err := n.appendCall(ctx, o, opRespond, r.Answer); err != nil {
			return nil, err
		}
		if err := o.ws.Runtime().Respond(ctx, r.Run, r.CallID, r.Answer); err != nil {
			return nil, errorf("respond", o.name, vfs.Code(err), err, "answering call %s", r.CallID)
		}
		return &callReply{}, nil
	default:
		return nil, errorf("call", o.name, vfs.EINVAL, nil, "unknown operation %q", r.Op)
	}
	tool, args := r.Tool, r.Args
	if t := o.set.Tool(tool); t != nil && !t.Annotations.ReadOnly {
		if err := n.appendCall(ctx, o, tool, args); err != nil {
			return nil, err
		}
		if runTools[tool] {
			done, err := n.markRuns(ctx, o)
			if err != nil {
				return nil, err
			}
			defer done()
		}
	} else if err := n.checkLease(o); err != nil {
		return nil, err
	}
	res, err := o.set.Call(ctx, tool, args)
	if err != nil {
		return nil, err
	}
	return &callReply{Result: res}, nil
}

// checkLease fails when the lease's local deadline has passed (the owner
// could not renew in time): the node stops serving rather than risk
// answering for a workspace another node may own.
func (n *Node) checkLease(o *owned) error {
	if n.noSelfFence.Load() {
		return nil
	}
	o.mu.Lock()
	expired := time.Now().After(o.validTo)
	o.mu.Unlock()
	if expired {
		err := leaseLost("call", o.name, n.opts.Name, o.epoch, "the lease expired before it could be renewed")
		n.lose(o, err)
		return err
	}
	return nil
}

// appendCall appends the record of a mutating call with the expected last
// subject sequence the owner last wrote.
func (n *Node) appendCall(ctx context.Context, o *owned, tool string, args json.RawMessage) error {
	if err := n.checkLease(o); err != nil {
		return err
	}
	sum := sha256.Sum256(args)
	rec, _ := json.Marshal(logRecord{Op: "call", Node: n.opts.Name, Epoch: o.epoch, Tool: tool,
		ArgsSH: hex.EncodeToString(sum[:]), ArgsN: len(args)})
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.lost != nil {
		return errorf("call", o.name, vfs.EIO, errNotOwner, "not served here")
	}
	if !n.noSelfFence.Load() {
		// Admitted after the lease's local deadline, the call could run
		// while another node owns the workspace.
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, o.validTo)
		defer cancel()
	}
	ack, err := n.appendAfter(ctx, &nats.Msg{Subject: logPrefix + o.name, Data: rec}, o.lastSeq)
	if err == nil {
		o.lastSeq = ack.Sequence
		return nil
	}
	if wrongLastSeq(err) {
		lerr := leaseLost("append", o.name, n.opts.Name, o.epoch,
			"the broker refused the append (another node took the workspace over)")
		o.mu.Unlock()
		n.lose(o, lerr)
		o.mu.Lock()
		return lerr
	}
	return errorf("append", o.name, vfs.EIO, err, "appending the call of %s to the log (not run)", tool)
}
