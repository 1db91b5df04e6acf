package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/conformance/scenario"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/tools"
	"github.com/nookdev/nook/tools/git"
)

var cmdConformance = &command{
	name: "conformance", group: "Runs",
	synopsis: "run [--interrupt] [--short] [--update] [--junit FILE] DIR|FILE...",
	summary:  "replay recorded runs (scenarios) and check they still give the same calls, output and files",
	help: `Runs each scenario (a .txtar file; a directory stands for its *.txtar) in a
fresh workspace of its own, with its host modules and fetches answered by
the fakes it recorded (see "nook runs export"), and checks its status, output,
value and files against its expectations. The workspace given with --db is
not used.

--interrupt also crashes each scenario after each of its host calls (and
before the first) and resumes it under each interrupt policy: replay must give
the same result with each call made once, restart the same result (or, for a
scenario that says "restart": "any", an end), fail the interruption's error.
Guest time is virtual: timers and sleeps with nothing else to wait for end at
once, and the guest clock gives the readings the scenario recorded. Programs
run in the tier --isolation names. A mismatch is shown as a unified diff of
want/... (the expectation) to got/... (what the run gave). --short tries only the first, middle and last crash.
--update rewrites the expectations of the scenarios whose uninterrupted run
no longer matches, after a deliberate change. --junit FILE also writes JUnit
XML for CI systems; --json prints the reports as JSON.

The exit status is 1 when a scenario failed.`,
	run: runConformance,
}

func runConformance(a *app, fl *flag.FlagSet, args []string) error {
	interrupt := fl.Bool("interrupt", false, "also crash each scenario after each call and resume it under each policy")
	short := fl.Bool("short", false, "with --interrupt, only the first, middle and last crash")
	update := fl.Bool("update", false, "rewrite the expectations of scenarios that no longer match")
	junit := fl.String("junit", "", "also write JUnit XML to `FILE`")
	if len(args) == 0 || args[0] != "run" {
		if len(args) > 0 && args[0][0] == '-' {
			return a.parse(fl, args, 0, 0)
		}
		return a.usagef("conformance: missing subcommand run")
	}
	if err := a.parse(fl, args[1:], 1, -1); err != nil {
		return err
	}
	scs, err := scenario.Load(fl.Args()...)
	if err != nil {
		return a.usagef("conformance: %v", err)
	}
	opts := scenario.Options{Interrupt: *interrupt, Short: *short, Backends: backends, Isolation: a.isolator(),
		Host: func() (map[string]runtime.Module, func(*nook.Workspace)) {
			toolsMod, bindTools := tools.LateModule(toolOptions(nil, false))
			gitMod, bindGit := git.LateModule(git.Options{})
			return map[string]runtime.Module{tools.ModuleName: toolsMod, git.ModuleName: gitMod}, func(ws *nook.Workspace) {
				bindTools(tools.New(ws.FS(), toolOptions(ws.Runtime(), false)))
				bindGit(ws.FS())
			}
		}}
	reps, err := scenario.RunAll(a.ctx, scs, opts)
	if err != nil {
		return err
	}
	if *update {
		for i, sc := range scs {
			if reps[i].Passed() {
				continue
			}
			scenario.Update(sc, reps[i])
			if err := scenario.WriteFile(sc); err != nil {
				return err
			}
			fmt.Fprintf(a.stderr, "nook: conformance: updated %s\n", sc.Path)
		}
	}
	if *junit != "" {
		f, err := os.Create(*junit)
		if err != nil {
			return err
		}
		if err := scenario.WriteJUnit(f, reps); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	if a.json {
		err = scenario.WriteJSON(a.stdout, reps)
	} else {
		scenario.WriteTable(a.stdout, reps)
	}
	if err != nil {
		return err
	}
	for _, r := range reps {
		if !r.Passed() && !*update {
			return &exitStatus{1}
		}
	}
	return nil
}

// runsExport writes a finished run as a scenario.
func runsExport(a *app, fl *flag.FlagSet, args []string) error {
	out := fl.String("scenario", "", "write the scenario to `FILE` (default: standard output)")
	if _, err := a.openRuntime(fl, args, 1, 1); err != nil {
		return err
	}
	sc, err := scenario.Export(a.ctx, a.ws, fl.Arg(0), scenario.ExportOptions{})
	if err != nil {
		return err
	}
	if *out == "" {
		_, err = a.stdout.Write(scenario.Format(sc))
	} else if err = os.WriteFile(*out, scenario.Format(sc), 0o644); err == nil {
		fmt.Fprintf(a.stderr, "nook: runs: wrote %s (%d host calls recorded as fakes, %d clock reads, %d files in, %d files out)\n",
			*out, countFakes(sc), len(sc.Config.ClockReads), len(sc.Files), len(sc.WantFiles))
	}
	for _, n := range sc.Notes {
		fmt.Fprintf(a.stderr, "nook: runs: note: %s\n", n)
	}
	return err
}

func countFakes(sc *scenario.Scenario) int {
	n := len(sc.Config.Fetch)
	for _, fns := range sc.Config.Modules {
		for _, f := range fns {
			n += len(f.Results)
		}
	}
	return n
}
