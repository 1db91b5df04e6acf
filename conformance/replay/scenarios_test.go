package replay_test

import (
	"testing"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/conformance/scenario"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/tools"
	"github.com/nookdev/nook/tools/git"
)

// TestScenarios runs each scenario (testdata/*.txtar, over the three
// backends) uninterrupted, then crashes it after each of its calls (k = 0
// is before the first) under each policy and resumes it: replay must give
// the uninterrupted result, output and files with the fakes executed as
// often (plus the calls in flight at the crash, which were executed and
// never journaled); restart must give the same result (for an idempotent
// program) with the fakes executed at least as often; fail must fail the
// run with the interruption's reason. In -short mode only the crashes
// before the first call, in the middle and after the last call are tried.
// ws:tools and ws:git are real modules, as the command line has them.
func TestScenarios(t *testing.T) {
	scenario.Test(t, scenario.Options{Interrupt: true, Host: realModules}, "testdata/*.txtar")
}

func realModules() (map[string]runtime.Module, func(*nook.Workspace)) {
	toolsMod, bindTools := tools.LateModule(tools.Options{})
	gitMod, bindGit := git.LateModule(git.Options{})
	return map[string]runtime.Module{tools.ModuleName: toolsMod, git.ModuleName: gitMod}, func(ws *nook.Workspace) {
		bindTools(tools.New(ws.FS(), tools.Options{Runtime: ws.Runtime()}))
		bindGit(ws.FS())
	}
}
