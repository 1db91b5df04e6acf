package worker

import "context"

// Ready reports whether the pool can give a run a worker now: it takes an
// idle worker that is alive, or starts one within ctx, and puts it back
// idle. A readiness probe calls it; it runs nothing in the worker.
func (p *Pool) Ready(ctx context.Context) error {
	w, _, err := p.take(ctx) // not a run: not in Stats
	if err != nil {
		return err
	}
	p.put(w)
	return nil
}
