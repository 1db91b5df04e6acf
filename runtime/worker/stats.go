package worker

import (
	"sync/atomic"
	"time"
)

// Stats are a pool's totals since it was made, for an operator's metrics.
type Stats struct {
	// Started counts the workers started; StartFailures the starts that
	// failed (the run that needed the worker failed with the reason).
	Started, StartFailures uint64
	// Runs counts the runs given a worker; ColdStarts those of them that
	// found no idle worker and waited for one to start. Waited is the
	// time runs spent waiting for a worker, all told.
	Runs, ColdStarts uint64
	Waited           time.Duration
	// LimitKills counts the workers killed because their run passed a
	// limit (memory, CPU time, output, open files, ...); Crashes the
	// workers that died under a run of their own accord.
	LimitKills, Crashes uint64
}

// poolStats are the counters behind Stats.
type poolStats struct {
	started, startFailures, runs, coldStarts, waited, limitKills, crashes atomic.Uint64
}

// Stats returns the pool's totals.
func (p *Pool) Stats() Stats {
	s := &p.stats
	return Stats{Started: s.started.Load(), StartFailures: s.startFailures.Load(), Runs: s.runs.Load(),
		ColdStarts: s.coldStarts.Load(), Waited: time.Duration(s.waited.Load()), LimitKills: s.limitKills.Load(),
		Crashes: s.crashes.Load()}
}
