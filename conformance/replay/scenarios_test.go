package replay_test

import (
	"testing"

	"github.com/nookdev/nook/conformance/scenario"
)

// TestScenarios runs each scenario uninterrupted, then crashes it after
// each of its calls (k = 0 is before the first) under each policy and
// resumes it: replay must give the uninterrupted result, output and files
// with the fakes executed as often (plus the calls in flight at the crash,
// which were executed and never journaled); restart must give the same
// result (for an idempotent module) with the fakes executed at least as
// often; fail must fail the run with the interruption's reason. In -short
// mode only the crashes before the first call, in the middle and after the
// last call are tried.
func TestScenarios(t *testing.T) {
	scenario.Test(t, scenario.Options{Interrupt: true}, "testdata/*.txtar")
}
