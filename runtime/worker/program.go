package worker

import (
	"context"
	"fmt"
	"slices"
	"time"

	rthost "github.com/nookdev/nook/runtime/host"
)

// program is a run's program as the runtime sees it in the process tier:
// running it runs the real program in a worker.
type program struct {
	pool     *Pool
	orig     rthost.Program // the program, prepared in this process
	rec      *recipe        // its backend's recipe
	backend  string         // its backend's id
	req      rthost.Request
	snapshot []byte
}

// Run runs the program in a worker, serving its host calls with host,
// and enforces the run's limits on the worker from outside.
//
// The run's observer (host.StartStage) sees two stages: "worker wait",
// until a worker is handed out (started for the run when none was idle:
// nook.worker.cold), and "worker round trip", from the program sent to
// its exit received, the worker's host calls within it.
func (x *program) Run(ctx context.Context, host rthost.Host) rthost.Exit {
	_, waited := rthost.StartStage(ctx, "worker wait")
	w, cold, err := x.pool.get(ctx)
	if err != nil {
		waited(err, rthost.StageAttr{Key: "nook.worker.cold", Value: cold})
		if ctx.Err() != nil {
			return rthost.Exit{Code: 1, Err: ctx.Err()}
		}
		return failed(host, fmt.Errorf("the sandbox process could not start: %w", err))
	}
	pid := rthost.StageAttr{Key: "nook.worker.pid", Value: w.pid}
	waited(nil, pid, rthost.StageAttr{Key: "nook.worker.cold", Value: cold})
	if !slices.Contains(w.hello.Builders, x.rec.build.Builder) {
		// The worker cannot rebuild the backend (worker.Main was not
		// given its builder): only this process can run the program.
		x.pool.put(w)
		return x.orig.Run(ctx, host)
	}
	rctx, done := rthost.StartStage(ctx, "worker round trip")
	exit := w.run(rctx, host, x)
	done(exit.Err, pid)
	return exit
}

func failed(host rthost.Host, err error) rthost.Exit {
	host.Write(rthost.Stderr, []byte(err.Error()+"\n"))
	return rthost.Exit{Code: 1, Err: err}
}

// run runs x in w, which the pool handed out for it.
func (w *proc) run(ctx context.Context, host rthost.Host, x *program) rthost.Exit {
	p := w.pool
	lim := x.req.Limits.WithDefaults()
	// A call in flight when its worker dies runs to its end (or to the
	// end of the run) and is journaled: a replay answers it from the
	// record instead of making it again.
	s := &session{host: host, ctx: ctx, maxCall: lim.MaxCallBytes}
	s.tj, _ = host.(rthost.TimerJournal)
	w.mu.Lock()
	w.sess = s
	w.runs++
	w.mu.Unlock()
	w.stderr.reset()
	select {
	case <-w.idle:
	default:
	}
	// The CPU time the worker used before this run (read when it was
	// last idle), and the kernel's limits for the run, set before it
	// starts (a program may read them at once).
	usage0 := w.base
	if !w.armed || w.lim.MaxOpenFiles != lim.MaxOpenFiles || w.lim.MaxCPUTime != lim.MaxCPUTime {
		setLimits(w.pid, lim, usage0)
	}
	w.lim, w.armed = lim, false
	_, own := host.(rthost.OwnClock)
	st := &start{Backend: x.backend, Recipe: x.rec.serial, Request: x.req, Snapshot: x.snapshot,
		Timers: s.tj != nil, OwnClock: own}
	if !w.sent[x.rec.serial] {
		st.Build = &x.rec.build
	}
	err := w.c.send(&frame{T: tStart, Start: st})
	if err == nil {
		w.sent[x.rec.serial] = true
	}

	var ex *exit
	// The run's tree of runs shares its budgets (see limits.go).
	m := &member{pid: w.pid, lim: lim, base: usage0, kill: w.kill}
	tr := join(x.req.Tree, m)
	var over *rthost.LimitError
	stopped := false // the run's context ended: the worker was told
	var grace <-chan time.Time
	tick := time.NewTicker(p.opts.Sample)
	if err != nil {
		w.kill()
	}
wait:
	for {
		select {
		case ex = <-w.exits:
			break wait
		case <-w.dead:
			select {
			case ex = <-w.exits:
			default:
			}
			break wait
		case <-ctx.Done():
			if !stopped {
				stopped = true
				w.c.send(&frame{T: tCancel})
				grace = time.After(p.opts.Grace)
			}
		case <-grace:
			// The program did not return: a built-in runs on. Kill it.
			w.kill()
		case <-tick.C:
			if over == nil {
				over = tr.check(m)
			}
		}
	}
	tick.Stop()
	if over == nil && ex == nil {
		over = tr.passed() // killed for its tree by another of its runs
	}
	last := m.last
	tr.leave(x.req.Tree, m)
	if ex == nil || over != nil || stopped {
		// A worker whose run was stopped may have left a built-in
		// running: it is not reused.
		w.kill()
		<-w.dead
	}
	s.calls.Wait()
	w.mu.Lock()
	w.sess = nil
	w.mu.Unlock()

	switch {
	case over != nil:
		p.stats.limitKills.Add(1)
		p.discard(w)
		return failed(host, over)
	case ex != nil && !stopped:
		go w.recycle()
		if ex.Refused != "" {
			// The worker rebuilt another backend from the recipe:
			// this run and every later one of it run here.
			x.rec.refused.Store(true)
			return x.orig.Run(ctx, host)
		}
		e := rthost.Exit{Code: ex.Code, Value: ex.Value, Err: ex.Err.err(), Changes: ex.Changes}
		if e.Err == nil && s.wrErr != nil {
			// Writes cross asynchronously: the program learns of a
			// failed write only at its next one, and a last write
			// past MaxOutputBytes went unanswered. The run fails as
			// it would in process.
			e.Err, e.Value = s.wrErr, nil
			if e.Code == 0 {
				e.Code = 1
			}
		}
		return e
	case ex != nil:
		p.discard(w)
		return rthost.Exit{Code: ex.Code, Value: ex.Value, Err: ex.Err.err(), Changes: ex.Changes}
	}
	p.discard(w)
	if ctx.Err() != nil {
		// Killed after its grace: the runtime reports the run as
		// cancelled or timed out, from the context.
		return rthost.Exit{Code: 1, Err: context.Cause(ctx)}
	}
	// The kernel's backstop on CPU time (RLIMIT_CPU) kills with SIGKILL
	// too: tell it from a crash by the CPU time last seen.
	if last.cpu-usage0.cpu >= lim.MaxCPUTime-time.Second {
		p.stats.limitKills.Add(1)
		return failed(host, cpuLimit(lim, last.cpu-usage0.cpu))
	}
	p.stats.crashes.Add(1)
	detail := w.stderr.detail()
	if detail == "" && w.cmd.ProcessState != nil {
		detail = w.cmd.ProcessState.String()
	}
	if detail == "" {
		detail = "it stopped answering"
	}
	return rthost.Exit{Code: 1, Err: &rthost.SandboxCrashError{Detail: detail}}
}

// recycle returns w to the pool once it says it is idle, if nothing of
// its run was left behind.
func (w *proc) recycle() {
	p := w.pool
	select {
	case clean := <-w.idle:
		if clean {
			// Ready the next run: its CPU time counts from here, and
			// the limits are likely this run's.
			w.base, _ = readUsage(w.pid)
			setLimits(w.pid, w.lim, w.base)
			w.armed = true
			p.put(w)
			return
		}
	case <-w.dead:
	case <-time.After(time.Second):
	}
	p.discard(w)
}
