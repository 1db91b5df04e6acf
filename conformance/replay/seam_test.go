package replay_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
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

// fakeSpec is a host-module function's fake: canned results handed out
// in call order, or an echo of its arguments, each after DelayMs.
type fakeSpec struct {
	Results []fakeResult `json:"results"`
	Echo    bool         `json:"echo"`
	DelayMs int          `json:"delayMs"`
}

// fakeResult is one canned result. With Args, it answers the first call
// with those arguments (calls made concurrently reach the fake in any
// order); without, the next call in arrival order.
type fakeResult struct {
	Args  []any  `json:"args,omitempty"`
	Value any    `json:"value"`
	Error string `json:"error"`
}

// fakeService serves the fakes of a scenario to every workspace of one
// test case (the service outlives the process that crashed): results are
// handed out in call order and remembered by call id, so a call made again
// with the same id (a restart, a replay of a call in flight) gets the same
// result, as an idempotent service would. After freeze, the calls of the
// "crashed" workspace fail and count for nothing: that process is gone.
type fakeService struct {
	specs map[string]map[string]fakeSpec

	mu          sync.Mutex
	frozen      bool
	used        map[string]map[int]bool // by function: canned results handed out
	memo        map[string]fakeResult
	invocations map[string]int // by call id, real executions
	before      map[string]bool
}

func newFakeService(specs map[string]map[string]fakeSpec) *fakeService {
	return &fakeService{specs: specs, used: map[string]map[int]bool{}, memo: map[string]fakeResult{},
		invocations: map[string]int{}}
}

// freeze marks the crash: it returns the calls executed until now.
func (s *fakeService) freeze() map[string]bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.frozen = true
	s.before = map[string]bool{}
	for id := range s.invocations {
		s.before[id] = true
	}
	return s.before
}

func (s *fakeService) total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.invocations {
		n += c
	}
	return n
}

// modules returns the host modules of one workspace; crashed says whether
// it is the workspace whose process the test crashes.
func (s *fakeService) modules(crashed bool) map[string]runtime.Module {
	mods := map[string]runtime.Module{}
	for name, fns := range s.specs {
		m := runtime.Module{}
		for fn, spec := range fns {
			key := name + "/" + fn
			m[fn] = func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
				s.mu.Lock()
				if crashed && s.frozen {
					// The process is gone: its calls never return.
					s.mu.Unlock()
					<-ctx.Done()
					return nil, ctx.Err()
				}
				s.invocations[c.CallID]++
				r, ok := s.memo[c.CallID]
				if !ok {
					if spec.Echo {
						r = fakeResult{Value: map[string]any{"fn": fn, "args": args}}
					} else {
						r = s.pick(key, spec.Results, args)
					}
					s.memo[c.CallID] = r
				}
				s.mu.Unlock()
				if spec.DelayMs > 0 {
					if err := sleepCtx(ctx, spec.DelayMs); err != nil {
						return nil, err
					}
				}
				if r.Error != "" {
					return nil, fmt.Errorf("%s", r.Error)
				}
				return r.Value, nil
			}
		}
		mods[name] = m
	}
	return mods
}

// pick hands out the canned result for a call of key with args.
func (s *fakeService) pick(key string, results []fakeResult, args []any) fakeResult {
	if s.used[key] == nil {
		s.used[key] = map[int]bool{}
	}
	a, _ := json.Marshal(args)
	for i, r := range results {
		if s.used[key][i] {
			continue
		}
		if r.Args != nil {
			if b, _ := json.Marshal(r.Args); string(a) != string(b) {
				continue
			}
		}
		s.used[key][i] = true
		return r
	}
	return fakeResult{Error: fmt.Sprintf("fake %s has no result left for arguments %s", key, a)}
}
