// Package agent is how an embedder keeps its agents' runs as regression
// tests: a module of its own that depends on nook, with recorded runs in
// testdata/ (made by "nook runs export ID --scenario FILE") checked on
// every upgrade by scenario.Test.
package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/conformance/scenario"
	"github.com/nookdev/nook/runtime"
)

// The embedder's own host module, real (not a fake): ws:units converts
// units for its agents.
func units() (map[string]runtime.Module, func(*nook.Workspace)) {
	return map[string]runtime.Module{"ws:units": {
		"upper": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
			s, _ := args[0].(string)
			return strings.ToUpper(s), nil
		},
	}}, nil
}

// TestAgentRuns replays every recorded run, uninterrupted and crashed
// after each of its calls.
func TestAgentRuns(t *testing.T) {
	scenario.Test(t, scenario.Options{Interrupt: true, Short: true, Host: units}, "testdata/*.txtar")
}
