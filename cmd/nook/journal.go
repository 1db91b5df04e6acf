package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/nookdev/nook/runtime"
)

// The journal commands: runs recover, runs journal, approvals, replay.

func runsRecover(a *app, fl *flag.FlagSet, args []string) error {
	rt, err := a.openRuntime(fl, args, 0, 0)
	if err != nil {
		return err
	}
	ids, err := rt.Recover(a.ctx)
	if err != nil {
		return err
	}
	type recovered struct {
		ID       string         `json:"id"`
		Status   runtime.Status `json:"status"`
		ExitCode int            `json:"exitCode"`
	}
	out := []recovered{}
	for _, id := range ids {
		h, err := rt.GetExec(a.ctx, id, runtime.GetOptions{Tail: true})
		if err != nil {
			return err
		}
		res, err := h.Result(a.ctx)
		if err != nil {
			return err
		}
		out = append(out, recovered{res.ID, res.Status, res.ExitCode})
	}
	return a.emit(out, func() error {
		if len(out) == 0 {
			a.printf("no interrupted runs to resume\n")
		}
		for _, r := range out {
			a.printf("%s\t%s\texit %d\n", r.ID, r.Status, r.ExitCode)
		}
		return nil
	})
}

func runsJournal(a *app, fl *flag.FlagSet, args []string) error {
	rt, err := a.openRuntime(fl, args, 1, 1)
	if err != nil {
		return err
	}
	calls, err := rt.Journal(a.ctx, fl.Arg(0))
	if err != nil {
		return err
	}
	type callErrorJSON struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Syscall string `json:"syscall,omitempty"`
		Path    string `json:"path,omitempty"`
		Dest    string `json:"dest,omitempty"`
	}
	type callJSON struct {
		Seq    int64            `json:"seq"`
		Kind   runtime.CallKind `json:"kind"`
		Op     string           `json:"op"`
		Args   json.RawMessage  `json:"args"`
		Result json.RawMessage  `json:"result,omitempty"`
		Error  *callErrorJSON   `json:"error,omitempty"`
		Done   bool             `json:"done"`
		Unsafe bool             `json:"unsafe,omitempty"`
	}
	out := make([]callJSON, len(calls))
	for i, c := range calls {
		out[i] = callJSON{Seq: c.Seq, Kind: c.Kind, Op: c.Op, Args: c.Args, Result: c.Result, Done: c.Done, Unsafe: c.Unsafe}
		if e := c.Error; e != nil {
			out[i].Error = &callErrorJSON{e.Code, e.Message, e.Syscall, e.Path, e.Dest}
		}
	}
	return a.emit(out, func() error {
		if len(out) == 0 {
			a.printf("no journaled calls (only replay-policy runs are journaled)\n")
		}
		for _, c := range out {
			res := string(c.Result)
			switch {
			case c.Error != nil:
				res = "error: " + c.Error.Message
			case !c.Done:
				res = "(started, not finished)"
			}
			a.printf("%d\t%s %s %s\t→ %s\n", c.Seq, c.Kind, c.Op, clip(string(c.Args), 120), clip(res, 120))
		}
		return nil
	})
}

// clip shortens s for a one-line listing.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

var cmdApprovals = &command{
	name: "approvals", reads: true, group: "Runs", synopsis: "ls | respond RUN CALL JSON",
	summary: "list and answer host-module calls waiting for an answer",
	help: `A host-module function can pause a replay-policy run until someone answers
(CallContext.Interrupt): the run waits, with no process running it.

  ls                  the waiting calls: run, call id, since, payload
  respond RUN CALL JSON
                      answer call CALL (as listed, e.g. RUN/3) of run RUN with
                      the JSON value; the run then replays up to the call in
                      this process, and nook waits for it to finish. A call
                      that is not waiting fails with ENOTWAITING.`,
	run: runApprovals,
}

func runApprovals(a *app, fl *flag.FlagSet, args []string) error {
	if len(args) == 0 {
		return a.usagef("approvals: missing subcommand (ls or respond)")
	}
	sub, args := subcommand(args)
	if sub == "" {
		return a.parse(fl, args, 0, 0)
	}
	switch sub {
	case "ls":
		rt, err := a.openRuntime(fl, args, 0, 0)
		if err != nil {
			return err
		}
		ps, err := rt.Pending(a.ctx)
		if err != nil {
			return err
		}
		type pendingJSON struct {
			RunID   string          `json:"runId"`
			CallID  string          `json:"callId"`
			Since   string          `json:"since"`
			Payload json.RawMessage `json:"payload"`
		}
		out := make([]pendingJSON, len(ps))
		for i, p := range ps {
			out[i] = pendingJSON{p.RunID, p.CallID, p.Since.UTC().Format(time.RFC3339), p.Payload}
		}
		return a.emit(out, func() error {
			if len(out) == 0 {
				a.printf("no calls are waiting\n")
				return nil
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "RUN\tCALL\tSINCE\tPAYLOAD")
			for _, p := range out {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", p.RunID, p.CallID, p.Since, clip(string(p.Payload), 100))
			}
			return tw.Flush()
		})
	case "respond":
		rt, err := a.openRuntime(fl, args, 3, 3)
		if err != nil {
			return err
		}
		run, call, answer := fl.Arg(0), fl.Arg(1), fl.Arg(2)
		if !json.Valid([]byte(answer)) {
			return a.usagef("approvals respond: the answer is not valid JSON: %s", answer)
		}
		if err := rt.Respond(a.ctx, run, call, json.RawMessage(answer)); err != nil {
			return err
		}
		h, err := rt.GetExec(a.ctx, run, runtime.GetOptions{Tail: true})
		if err != nil {
			return err
		}
		res, err := h.Result(a.ctx)
		if err != nil {
			return err
		}
		return a.emit(map[string]any{"runId": run, "callId": call, "status": res.Status, "exitCode": res.ExitCode},
			func() error {
				a.printf("answered %s; run %s %s (exit %d)\n", call, run, res.Status, res.ExitCode)
				return nil
			})
	}
	return a.usagef("approvals: unknown subcommand %q (want ls or respond)", sub)
}

var cmdReplay = &command{
	name: "replay", reads: true, group: "Runs", synopsis: "--verify ID",
	summary: "check that a finished run replays exactly from its journal",
	help: `Runs the finished replay-policy run ID again against its journal without
touching anything: every call must be answered by the journal, and the
program must print exactly what the run printed and end the same way. Prints
"ok" or the first difference (exit status 1). The command line keeps the
journals of finished runs until retention prunes them.`,
	run: runReplay,
}

func runReplay(a *app, fl *flag.FlagSet, args []string) error {
	verify := fl.Bool("verify", false, "verify the run against its journal (required)")
	rt, err := a.openRuntime(fl, args, 1, 1)
	if err != nil {
		return err
	}
	if !*verify {
		return a.usagef("replay: only --verify is supported: nook replay --verify ID")
	}
	id := fl.Arg(0)
	if err := rt.Verify(a.ctx, id); err != nil {
		var div *runtime.DivergenceError
		if errors.As(err, &div) {
			a.emit(map[string]any{"id": id, "ok": false, "divergence": err.Error()}, func() error {
				a.printf("%s: %v\n", id, err)
				return nil
			})
			return &exitStatus{1}
		}
		return err
	}
	return a.emit(map[string]any{"id": id, "ok": true}, func() error {
		a.printf("%s: ok, the run replays exactly\n", id)
		return nil
	})
}
