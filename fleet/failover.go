package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/nookdev/nook/vfs"
)

// Run failover (see RATIONALE.md, "Run failover"): while a workspace has
// runs in flight, its key in RunsBucket names its owner. The key outlives
// the owner's lease, so when the owner dies the survivors find the
// workspace without waiting for a call to it: every node sweeps the bucket
// and places each workspace whose lease is gone. The new owner opens its
// restored copy as the sole owner with recovery, so the runtime finishes or
// resumes each interrupted run by its policy, claiming each one by a
// conditional update that only the lease holder can commit.

// runTools are the tools whose calls start runs: the workspace is marked
// as having runs in flight before such a call runs.
var runTools = map[string]bool{"exec": true}

// maxRunsListed bounds the runs the owner lists to tell whether any is
// still in flight (a workspace retains DefaultMaxRetained finished runs).
const maxRunsListed = 1000

// runsMark is the value of a workspace's key in RunsBucket.
type runsMark struct {
	Node  string    `json:"node"`
	Epoch uint64    `json:"epoch"`
	Since time.Time `json:"since"`
}

// hasRuns reports whether ws is marked as having runs in flight.
func (n *Node) hasRuns(ctx context.Context, ws string) (bool, error) {
	_, err := n.runs.Get(ctx, ws)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return false, nil
	}
	return err == nil, err
}

// markRuns marks o as having runs in flight before a call that may start
// one; done is called when that call returns. The mark is not cleared
// while such a call is in progress.
func (n *Node) markRuns(ctx context.Context, o *owned) (done func(), err error) {
	o.markMu.Lock()
	defer o.markMu.Unlock()
	if !o.marked {
		b, _ := json.Marshal(runsMark{Node: n.opts.Name, Epoch: o.epoch, Since: time.Now().UTC()})
		if _, err := n.runs.Put(ctx, o.name, b); err != nil {
			return nil, errorf("call", o.name, vfs.EIO, err, "marking the workspace as running code in %s (not run)", RunsBucket)
		}
		o.marked = true
	}
	o.starting++
	return func() {
		o.markMu.Lock()
		o.starting--
		o.markMu.Unlock()
	}, nil
}

// syncRuns brings o's mark up to date with its runtime after a renewal:
// set while a run has not finished (one started otherwise than by a
// tool call), cleared once none is left.
func (n *Node) syncRuns(o *owned) {
	o.markMu.Lock()
	defer o.markMu.Unlock()
	o.mu.Lock()
	lost := o.lost
	o.mu.Unlock()
	if lost != nil || o.starting > 0 {
		return
	}
	ctx, cancel := context.WithTimeout(n.ctx, n.opts.LeaseTTL/3)
	defer cancel()
	runs, err := o.ws.Runtime().Runs(ctx, maxRunsListed)
	if err != nil {
		return // tried again after the next renewal
	}
	inFlight := false
	for _, r := range runs {
		inFlight = inFlight || r.Finished.IsZero()
	}
	switch {
	case inFlight && !o.marked:
		b, _ := json.Marshal(runsMark{Node: n.opts.Name, Epoch: o.epoch, Since: time.Now().UTC()})
		if _, err := n.runs.Put(ctx, o.name, b); err == nil {
			o.marked = true
		}
	case !inFlight && o.marked:
		if err := n.runs.Delete(ctx, o.name); err == nil {
			o.marked = false
		}
	}
}

// sweeps takes over, every quarter of the lease TTL, the workspaces marked
// as having runs in flight whose lease is gone (their owner died or
// closed): each is placed as a call to it would place it. The marks are
// followed with one watcher for the node's lifetime (creating a consumer
// on every tick would load the cluster's meta leader), and each marked
// workspace's lease is read by a direct get.
func (n *Node) sweeps() {
	defer n.wg.Done()
	marked := map[string]bool{}
	w, err := n.runs.WatchAll(n.ctx)
	for err != nil {
		select {
		case <-n.ctx.Done():
			return
		case <-time.After(n.opts.LeaseTTL / 4):
		}
		w, err = n.runs.WatchAll(n.ctx)
	}
	defer w.Stop()
	t := time.NewTicker(n.opts.LeaseTTL / 4)
	defer t.Stop()
	for {
		select {
		case <-n.ctx.Done():
			return
		case e, ok := <-w.Updates():
			if !ok {
				return
			}
			if e != nil {
				marked[e.Key()] = e.Operation() == jetstream.KeyValuePut
				if !marked[e.Key()] {
					delete(marked, e.Key())
				}
			}
			continue
		case <-t.C:
		}
		if n.pauseRenew.Load() || len(marked) == 0 {
			continue
		}
		ctx, cancel := context.WithTimeout(n.ctx, n.opts.LeaseTTL)
		n.sweep(ctx, marked)
		cancel()
	}
}

func (n *Node) sweep(ctx context.Context, marked map[string]bool) {
	for ws := range marked {
		if n.servedHere(ws) != nil || CheckName("workspace", ws) != nil {
			continue
		}
		if _, ok, err := n.Owner(ctx, ws); err != nil || ok {
			continue
		}
		n.place(ctx, ws) // an error: tried again on the next tick
		if ctx.Err() != nil {
			return
		}
	}
}
