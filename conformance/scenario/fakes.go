package scenario

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"

	"github.com/nookdev/nook/runtime"
)

// fakeService serves the fakes of a scenario to every workspace of one
// case (the service outlives the process that crashed): results are handed
// out in call order and remembered by call id, so a call made again with
// the same id (a restart, a replay of a call in flight) gets the same
// result, as an idempotent service would. After freeze, the calls of the
// "crashed" workspace never return and count for nothing: that process is
// gone.
type fakeService struct {
	specs map[string]map[string]Fake

	mu          sync.Mutex
	frozen      bool
	used        map[string]map[int]bool // by function: canned results handed out
	memo        map[string]Result
	invocations map[string]int // by call id, real executions
	before      map[string]bool
}

func newFakeService(specs map[string]map[string]Fake) *fakeService {
	return &fakeService{specs: specs, used: map[string]map[int]bool{}, memo: map[string]Result{},
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

// total counts the real executions of the fakes.
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
// it is the workspace whose process the case crashes.
func (s *fakeService) modules(crashed bool) map[string]runtime.Module {
	mods := map[string]runtime.Module{}
	for name, fns := range s.specs {
		m := runtime.Module{}
		for fn, spec := range fns {
			key := name + "/" + fn
			f := func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
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
						r = Result{Value: map[string]any{"fn": fn, "args": args}}
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
				if spec.Wait != nil {
					answer, err := c.Interrupt(spec.Wait)
					if err != nil {
						return nil, err
					}
					return answer, nil
				}
				if r.Error != "" {
					return nil, fmt.Errorf("%s", r.Error)
				}
				return r.Value, nil
			}
			if spec.UnsafeToRepeat {
				f = runtime.UnsafeToRepeat(f)
			}
			m[fn] = f
		}
		mods[name] = m
	}
	return mods
}

// pick hands out the canned result for a call of key with args.
func (s *fakeService) pick(key string, results []Result, args []any) Result {
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
	return Result{Error: fmt.Sprintf("fake %s has no result left for arguments %s", key, a)}
}

// fakeFetch answers fetch from recorded exchanges, in order, by method and
// URL; like the module fakes it outlives a crashed process.
type fakeFetch struct {
	mu   sync.Mutex
	ex   []Exchange
	used []bool
}

func newFakeFetch(ex []Exchange) *fakeFetch { return &fakeFetch{ex: ex, used: make([]bool, len(ex))} }

// hosts lists the hosts of the exchanges, for the outbound policy.
func (f *fakeFetch) hosts() []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range f.ex {
		if u, err := url.Parse(e.URL); err == nil && !seen[u.Host] {
			seen[u.Host] = true
			out = append(out, u.Host)
		}
	}
	return out
}

func (f *fakeFetch) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		io.Copy(io.Discard, req.Body)
		req.Body.Close()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	// The first unused exchange for this request; when all are used, the
	// last one again: a request made again (by a restart) gets the answer
	// an idempotent server gives.
	match := -1
	for i, e := range f.ex {
		method := e.Method
		if method == "" {
			method = http.MethodGet
		}
		if method != req.Method || e.URL != req.URL.String() {
			continue
		}
		match = i
		if !f.used[i] {
			break
		}
	}
	if match >= 0 {
		f.used[match] = true
		e := f.ex[match]
		status := e.Status
		if status == 0 {
			status = http.StatusOK
		}
		h := http.Header{}
		for k, v := range e.Headers {
			h.Set(k, v)
		}
		return &http.Response{StatusCode: status, Status: fmt.Sprintf("%d %s", status, http.StatusText(status)),
			Header: h, Body: io.NopCloser(bytes.NewReader([]byte(e.Body))), ContentLength: int64(len(e.Body)),
			Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Request: req}, nil
	}
	return nil, fmt.Errorf("no recorded exchange for %s %s", req.Method, req.URL)
}
