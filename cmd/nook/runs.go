package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

var cmdRuns = &command{
	name: "runs", group: "Runs", synopsis: "ls|show|tail|kill|dispose|recover|undo|journal|backends [flags] [ID]",
	summary: "list, inspect, follow, stop and delete runs",
	help: `Every run of "nook exec" (or of the exec tool, or of Runtime.Exec) is recorded
in the workspace with its output, until it is disposed of or pruned by
retention. Subcommands:

  ls [--limit N]      the runs, newest first: id, backend, status, exit code,
                      start time, duration and output size
  show ID             a run's status, exit code, value and output
  tail [--from SEQ] ID
                      print a run's output events after SEQ (default 0: all)
                      and, while it runs, follow it until it ends; works from
                      any process sharing the workspace. nook exits with the
                      run's exit code; Ctrl-C stops following, not the run
  kill ID             stop a running run (it ends cancelled, exit code 130);
                      a run that has finished is an error
  dispose ID          delete a finished run, its output and output files
  recover             resume the runs interrupted by a dead process (restart
                      and replay policies; fail-policy runs are failed) and
                      wait for them to finish
  undo [--force] ID   revert what a run started with "nook exec --checkpoint"
                      changed in the files ("nook undo ID")
  journal ID          the calls a replay-policy run made out of its sandbox,
                      as journaled: number, kind, operation, arguments, result
  backends            the backends runs can use, the default first
  export [--scenario FILE] ID
                      a finished replay-policy run as a conformance scenario
                      (its host calls as fakes, the files it read, its seed
                      and clock readings, its end as expectations) for "nook
                      conformance run"; a program a restart would not run
                      the same way (it appends to a file) gets "restart":
                      "any", and a note on stderr says why

Flags come after the subcommand: "nook runs tail --from 12 ID".`,
	run: runRuns,
}

func runRuns(a *app, fl *flag.FlagSet, args []string) error {
	if len(args) == 0 {
		return a.usagef("runs: missing subcommand (ls, show, tail, kill, dispose, recover, undo, journal, export or backends)")
	}
	sub, args := subcommand(args)
	if sub == "" {
		// "nook runs -h" and stray flags.
		return a.parse(fl, args, 0, 0)
	}
	// A workspace that is not there has no runs; "backends" describes
	// what any workspace would run, so it asks an empty one in memory
	// rather than create one at --db.
	if sub == "backends" {
		if workspaceExists(a.dbPath) != nil {
			a.dbPath = ""
		}
	} else {
		a.reads = true
	}
	switch sub {
	case "ls":
		return runsLs(a, fl, args)
	case "show":
		return runsShow(a, fl, args)
	case "tail":
		return runsTail(a, fl, args)
	case "kill":
		return runsKill(a, fl, args)
	case "dispose":
		return runsDispose(a, fl, args)
	case "backends":
		return runsBackends(a, fl, args)
	case "recover":
		return runsRecover(a, fl, args)
	case "journal":
		return runsJournal(a, fl, args)
	case "undo":
		return runUndo(a, fl, args)
	case "export":
		return runsExport(a, fl, args)
	}
	return a.usagef("runs: unknown subcommand %q (want ls, show, tail, kill, dispose, recover, undo, journal, export or backends)", sub)
}

// openRuntime parses the arguments, opens the workspace and returns its
// runtime.
func (a *app) openRuntime(fl *flag.FlagSet, args []string, minArgs, maxArgs int) (*runtime.Runtime, error) {
	if _, err := a.parseOpen(fl, args, minArgs, maxArgs); err != nil {
		return nil, err
	}
	return a.ws.Runtime(), nil
}

type runInfoJSON struct {
	ID          string         `json:"id"`
	Backend     string         `json:"backend"`
	Status      runtime.Status `json:"status"`
	ExitCode    *int           `json:"exitCode"`
	Created     string         `json:"created"`
	Finished    string         `json:"finished,omitempty"`
	DurationMs  int64          `json:"durationMs"`
	StdoutBytes int64          `json:"stdoutBytes"`
	StderrBytes int64          `json:"stderrBytes"`
	// Interrupted marks a run whose status is running but whose process
	// is gone: "nook runs recover" resumes it.
	Interrupted bool `json:"interrupted,omitempty"`
	// Parent is the run that started a nested run.
	Parent string `json:"parent,omitempty"`
}

// interruptedText describes an interrupted run in place of "running".
const interruptedText = "interrupted (its process is gone): nook runs recover resumes it"

// interrupted returns the set of the runtime's interrupted runs.
func (a *app) interrupted(rt *runtime.Runtime) (map[string]bool, error) {
	ids, err := rt.Interrupted(a.ctx)
	if err != nil {
		return nil, err
	}
	set := make(map[string]bool, len(ids))
	for _, id := range ids {
		set[id] = true
	}
	return set, nil
}

func runInfoJSONOf(r runtime.RunInfo, now time.Time) runInfoJSON {
	out := runInfoJSON{ID: r.ID, Backend: r.Backend, Status: r.Status, Created: r.Created.Format(time.RFC3339Nano),
		DurationMs: runDuration(r, now).Milliseconds(), StdoutBytes: r.StdoutBytes, StderrBytes: r.StderrBytes,
		Parent: r.Parent}
	if !r.Finished.IsZero() {
		code := r.ExitCode
		out.ExitCode = &code
		out.Finished = r.Finished.Format(time.RFC3339Nano)
	}
	return out
}

// runDuration is how long a run ran, or has been running.
func runDuration(r runtime.RunInfo, now time.Time) time.Duration {
	end := r.Finished
	if end.IsZero() {
		end = now
	}
	return max(0, end.Sub(r.Created))
}

// durationString renders d for people: "12ms", "3.4s", "2m5s".
func durationString(d time.Duration) string {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

func runsLs(a *app, fl *flag.FlagSet, args []string) error {
	limit := fl.Int("limit", 100, "list at most `N` runs")
	rt, err := a.openRuntime(fl, args, 0, 0)
	if err != nil {
		return err
	}
	if *limit < 1 {
		return a.usagef("runs ls: --limit must be at least 1")
	}
	runs, err := rt.Runs(a.ctx, *limit)
	if err != nil {
		return err
	}
	gone, err := a.interrupted(rt)
	if err != nil {
		return err
	}
	now := time.Now()
	out := []runInfoJSON{}
	for _, r := range runs {
		j := runInfoJSONOf(r, now)
		j.Interrupted = gone[r.ID]
		out = append(out, j)
	}
	return a.emit(map[string]any{"runs": out}, func() error {
		if len(runs) == 0 {
			return nil
		}
		tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tBACKEND\tSTATUS\tEXIT\tCREATED\tDURATION\tOUTPUT")
		for _, r := range runs {
			exit := "-"
			if !r.Finished.IsZero() {
				exit = fmt.Sprint(r.ExitCode)
			}
			status := string(r.Status)
			if gone[r.ID] {
				status = "interrupted"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Backend, status, exit,
				r.Created.Local().Format("2006-01-02 15:04:05"), durationString(runDuration(r, now)),
				humanBytes(r.StdoutBytes+r.StderrBytes))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if len(gone) > 0 {
			a.printf("interrupted: its process is gone; nook runs recover resumes it\n")
		}
		return nil
	})
}

// runInfo returns the listing entry of one run, which must exist.
func runInfo(ctx context.Context, rt *runtime.Runtime, id string) (runtime.RunInfo, error) {
	h, err := rt.GetExec(ctx, id, runtime.GetOptions{Tail: true})
	if err != nil {
		return runtime.RunInfo{}, err
	}
	return rt.Info(ctx, h.ID)
}

func runsShow(a *app, fl *flag.FlagSet, args []string) error {
	rt, err := a.openRuntime(fl, args, 1, 1)
	if err != nil {
		return err
	}
	id := fl.Arg(0)
	info, err := runInfo(a.ctx, rt, id)
	if err != nil {
		return err
	}
	if info.Finished.IsZero() {
		gone, err := a.interrupted(rt)
		if err != nil {
			return err
		}
		j := runInfoJSONOf(info, time.Now())
		j.Interrupted = gone[info.ID]
		return a.emit(j, func() error {
			if j.Interrupted {
				a.printf("id:       %s\nbackend:  %s\nstatus:   %s\n", info.ID, info.Backend, interruptedText)
				a.printf("output:   %s so far\n", humanBytes(info.StdoutBytes+info.StderrBytes))
				return nil
			}
			a.printf("id:       %s\nbackend:  %s\nstatus:   running for %s\n", info.ID, info.Backend,
				durationString(runDuration(info, time.Now())))
			a.printf("output:   %s so far; follow it with: nook runs tail %s\n", humanBytes(info.StdoutBytes+info.StderrBytes), info.ID)
			return nil
		})
	}
	h, err := rt.GetExec(a.ctx, id, runtime.GetOptions{})
	if err != nil {
		return err
	}
	res, err := h.Result(a.ctx)
	if err != nil {
		return err
	}
	return a.emit(runResultJSON(res), func() error {
		a.printf("id:       %s\nbackend:  %s\nstatus:   %s\nexit:     %d\n", res.ID, res.Backend, res.Status, res.ExitCode)
		a.printf("created:  %s\nduration: %s\n", res.Created.Local().Format("2006-01-02 15:04:05"),
			durationString(res.Finished.Sub(res.Created)))
		if res.Error != "" {
			a.printf("error:    %s\n", res.Error)
		}
		if len(res.Value) > 0 {
			a.printf("value:    %s\n", res.Value)
		}
		if res.OutputError != "" {
			a.printf("warning:  %s\n", res.OutputError)
		}
		a.showStream("stdout", res.Stdout, res.StdoutBytes, res.StdoutPath)
		a.showStream("stderr", res.Stderr, res.StderrBytes, res.StderrPath)
		return nil
	})
}

// showStream prints one whole output stream of a finished run: from the
// workspace file that holds it when the record holds only its start.
func (a *app) showStream(name string, stored []byte, total int64, path string) {
	if total == 0 {
		return
	}
	a.printf("--- %s (%s) ---\n", name, humanBytes(total))
	data := stored
	if path != "" {
		if r, err := a.ws.FS().NewReader(a.ctx, path); err == nil {
			defer r.Close()
			var sb strings.Builder
			if _, err := io.Copy(&sb, r); err == nil {
				data = []byte(sb.String())
			}
		}
	}
	a.stdout.Write(data)
	if len(data) > 0 && data[len(data)-1] != '\n' {
		a.printf("\n")
	}
}

type eventJSON struct {
	Seq      int64             `json:"seq"`
	Kind     string            `json:"kind"`
	Data     string            `json:"data,omitempty"`
	Paths    map[string]string `json:"paths,omitempty"`
	Status   runtime.Status    `json:"status,omitempty"`
	ExitCode *int              `json:"exitCode,omitempty"`
	Value    json.RawMessage   `json:"value,omitempty"`
}

func runsTail(a *app, fl *flag.FlagSet, args []string) error {
	from := fl.Int64("from", 0, "print the events after sequence number `SEQ`")
	rt, err := a.openRuntime(fl, args, 1, 1)
	if err != nil {
		return err
	}
	if *from < 0 {
		return a.usagef("runs tail: --from must not be negative")
	}
	h, err := rt.GetExec(a.ctx, fl.Arg(0), runtime.GetOptions{After: *from})
	if err != nil {
		return err
	}
	if a.json {
		// One JSON line per event.
		for {
			ev, err := h.Next(a.ctx)
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			doc := eventJSON{Seq: ev.Seq, Kind: ev.Kind.String(), Data: string(ev.Data), Paths: ev.Paths}
			if ev.Kind == runtime.EventExit {
				code := ev.ExitCode
				doc.Status, doc.ExitCode, doc.Value = ev.Status, &code, ev.Value
			}
			if err := a.writeJSON(doc); err != nil {
				return err
			}
			if ev.Kind == runtime.EventExit {
				return exitFor(ev.ExitCode)
			}
		}
	}
	exit, err := a.follow(rt, h, false, *from == 0)
	if err != nil {
		return err
	}
	if len(exit.Value) > 0 {
		a.printf("%s\n", exit.Value)
	}
	return exitFor(exit.ExitCode)
}

func runsKill(a *app, fl *flag.FlagSet, args []string) error {
	rt, err := a.openRuntime(fl, args, 1, 1)
	if err != nil {
		return err
	}
	id := fl.Arg(0)
	if info, err := runInfo(a.ctx, rt, id); err != nil {
		return err
	} else if !info.Finished.IsZero() {
		return &runtime.Error{Op: "kill", ID: id, Code: vfs.EINVAL,
			Text: fmt.Sprintf("run %s has already finished (%s, exit code %d)", id, info.Status, info.ExitCode)}
	}
	if err := rt.KillExec(a.ctx, id); err != nil {
		return err
	}
	// A run of another process stops within a fraction of a second: wait
	// for its record, so that "runs show" right after sees the end.
	h, err := rt.GetExec(a.ctx, id, runtime.GetOptions{Tail: true})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(a.ctx, stopWait)
	defer cancel()
	if err := h.Wait(ctx); err != nil {
		return err
	}
	info, err := runInfo(a.ctx, rt, id)
	if err != nil {
		return err
	}
	return a.emit(runInfoJSONOf(info, time.Now()), nil)
}

func runsDispose(a *app, fl *flag.FlagSet, args []string) error {
	rt, err := a.openRuntime(fl, args, 1, 1)
	if err != nil {
		return err
	}
	id := fl.Arg(0)
	if err := rt.DisposeExec(a.ctx, id); err != nil {
		return err
	}
	return a.emit(map[string]any{"id": id, "disposed": true}, nil)
}

func runsBackends(a *app, fl *flag.FlagSet, args []string) error {
	rt, err := a.openRuntime(fl, args, 0, 0)
	if err != nil {
		return err
	}
	type backendJSON struct {
		ID          string `json:"id"`
		Description string `json:"description"`
		Callable    bool   `json:"callable"`
		Root        string `json:"root"`
		ReadOnly    bool   `json:"readOnly"`
		TimeoutMs   int64  `json:"defaultTimeoutMs"`
		MaxTimeout  int64  `json:"maxTimeoutMs"`
	}
	out := []backendJSON{}
	for _, b := range rt.Backends() {
		out = append(out, backendJSON{ID: b.ID, Description: b.Description, Callable: b.Callable, Root: b.Root,
			ReadOnly: b.Access == runtime.ReadOnly, TimeoutMs: b.DefaultTimeout.Milliseconds(), MaxTimeout: b.MaxTimeout.Milliseconds()})
	}
	iso := a.isolationText()
	return a.emit(map[string]any{"backends": out, "isolation": iso}, func() error {
		if len(out) == 0 {
			a.printf("no backends: this build of nook cannot run code\n")
		}
		defer a.printf("isolation: %s\n", iso)
		for i, b := range out {
			tags := []string{"root " + b.Root}
			if b.Callable {
				tags = append([]string{"callable"}, tags...)
			}
			if i == 0 {
				tags = append(tags, "default")
			}
			a.printf("%s (%s): %s\n", b.ID, strings.Join(tags, ", "), b.Description)
		}
		return nil
	})
}
