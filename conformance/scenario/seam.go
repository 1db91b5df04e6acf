package scenario

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// The in-process crash seam. The runtime has no public crash hook, and
// closing a workspace records its runs as cancelled, so a run cannot be
// stopped in-process the way a dead process stops it. What a crash leaves
// is the committed state of the database at that instant: tripBackend
// wraps a backend so that its runs call trip right after their k-th host
// call returns (for a replay-policy run: once that call and its record have
// committed), or before their first call when k is 0, and trip copies the
// database with VACUUM INTO. The copy is then opened by a workspace whose
// clock is past the first runtime's lease, which sees the run as orphaned,
// exactly as a process opening the file after a crash would.

// tripBackend wraps a backend; its runs count their host calls and call
// trip(n) after the n-th returns (and trip(0) when they start).
type tripBackend struct {
	inner runtime.Backend
	trip  func(n int64)
}

func (b *tripBackend) Info() runtime.BackendInfo { return b.inner.Info() }

func (b *tripBackend) Prepare(ctx context.Context, fsys *vfs.FS, req *runtime.Request) (runtime.Program, error) {
	p, err := b.inner.Prepare(ctx, fsys, req)
	if err != nil {
		return nil, err
	}
	return &tripProgram{inner: p, trip: b.trip}, nil
}

func (b *tripBackend) Restore(ctx context.Context, snapshot []byte, req *runtime.Request) (runtime.Program, error) {
	rs, ok := b.inner.(runtime.Restorer)
	if !ok {
		return nil, fmt.Errorf("backend %s cannot restore", b.inner.Info().ID)
	}
	p, err := rs.Restore(ctx, snapshot, req)
	if err != nil {
		return nil, err
	}
	return &tripProgram{inner: p, trip: b.trip}, nil
}

type tripProgram struct {
	inner runtime.Program
	trip  func(n int64)
}

func (p *tripProgram) Snapshot() []byte {
	if s, ok := p.inner.(runtime.Snapshotter); ok {
		return s.Snapshot()
	}
	return nil
}

func (p *tripProgram) Run(ctx context.Context, host runtime.Host) runtime.Exit {
	p.trip(0)
	h := &tripHost{Host: host, trip: p.trip}
	if tj, ok := host.(runtime.TimerJournal); ok {
		return p.inner.Run(ctx, &tripTimerHost{h, tj})
	}
	return p.inner.Run(ctx, h)
}

// tripHost passes everything to the run's host, counting calls.
type tripHost struct {
	runtime.Host
	trip  func(n int64)
	calls atomic.Int64
}

func (h *tripHost) Call(ctx context.Context, c *runtime.Call) (any, error) {
	res, err := h.Host.Call(ctx, c)
	h.trip(h.calls.Add(1))
	return res, err
}

// tripTimerHost is a tripHost over a host that journals timers: the
// backend must see that it does.
type tripTimerHost struct {
	*tripHost
	tj runtime.TimerJournal
}

func (h *tripTimerHost) NextTimer() (int64, uint64, bool)  { return h.tj.NextTimer() }
func (h *tripTimerHost) TimerFired(id int64, after uint64) { h.tj.TimerFired(id, after) }
