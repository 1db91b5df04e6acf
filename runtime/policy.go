package runtime

import (
	"crypto/rand"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"sync"
)

// Policy says what happens to a run that an interruption (a crash, a
// kill of its process, a restart) stopped before it finished.
type Policy string

// The policies.
const (
	// PolicyFail (the default) fails the run.
	PolicyFail Policy = "fail"
	// PolicyRestart runs the source again from the beginning: calls it
	// made run again, and its output repeats.
	PolicyRestart Policy = "restart"
	// PolicyReplay runs the source again against its journal: calls it
	// already made are answered from the record, clocks, timers and
	// randomness return what they returned, output is not printed twice,
	// and after the last recorded call the run goes on live. Only such a
	// run can wait for an answer (CallContext.Interrupt).
	PolicyReplay Policy = "replay"
)

// MaxAttempts is how many times a run may start: its first attempt and
// the attempts after interruptions. A run that journals new calls in an
// attempt gets its count started afresh.
const MaxAttempts = 3

var errNoAttempts = fmt.Errorf("Execution was interrupted too often: it has no attempts left (MaxAttempts %d).", MaxAttempts)

func (p Policy) valid() bool { return p == PolicyFail || p == PolicyRestart || p == PolicyReplay }

// policyFor is the policy of a run: the caller's, else its backend's, else
// fail.
func (r *Runtime) policyFor(backend string, p Policy) (Policy, error) {
	if p == "" {
		p = r.opts.OnInterrupt[backend]
	}
	if p == "" {
		return PolicyFail, nil
	}
	if !p.valid() {
		return "", errors.New(`the interrupt policy must be "fail", "restart" or "replay"`)
	}
	return p, nil
}

// newSeed returns a fresh random seed for a run.
func newSeed() []byte {
	b := make([]byte, 32)
	rand.Read(b)
	return b
}

// seededRandom returns the random source of a replayable run: ChaCha8
// keyed by its seed, so every attempt draws the same bytes in the same
// order.
func seededRandom(seed []byte) func(p []byte) {
	var key [32]byte
	copy(key[:], seed)
	var mu sync.Mutex
	c := mrand.NewChaCha8(key)
	return func(p []byte) {
		mu.Lock()
		c.Read(p)
		mu.Unlock()
	}
}
