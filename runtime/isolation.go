package runtime

import (
	"context"
	"errors"
	"time"

	"github.com/nookdev/nook/journal"
)

type ownClockHost struct{ Host }

func (ownClockHost) OwnClock() {}

func isCrash(err error) bool {
	var c *SandboxCrashError
	return errors.As(err, &c)
}

// crashed reports whether exit ended an attempt by its sandbox process's
// death, which the run's policy turns into an interruption.
func (x *run) crashed(exit Exit) bool {
	return isCrash(exit.Err) && (x.policy == PolicyRestart || x.policy == PolicyReplay)
}

// interrupted ends an attempt whose sandbox process died, as a crash of
// this process would have: what it printed and journaled is stored, and
// the run's next attempt starts here (counted against MaxAttempts). The
// run stays reserved in the runtime until the next attempt takes its place.
func (x *run) interrupted() {
	r := x.rt
	evs, prog := x.out.close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var ticks []journal.Tick
	if x.jh != nil {
		ticks = x.jh.takeTicks()
	}
	r.appendEvents(ctx, x.id, evs, prog, ticks)
	// On failure (the database closed under the run) the record stays
	// running and the next runtime reaps it as interrupted.
	if rec, err := r.store.Get(ctx, x.id); err == nil {
		r.resumeRun(ctx, rec, nil, x)
	}
	r.mu.Lock()
	if r.runs[x.id] == x {
		delete(r.runs, x.id)
	}
	r.mu.Unlock()
	x.wakeReaders()
}
