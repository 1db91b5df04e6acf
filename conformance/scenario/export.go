package scenario

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// ExportOptions configure Export.
type ExportOptions struct {
	// Redact, when set, sees each recorded host-module result before it is
	// written and returns what to keep (a secret replaced, say).
	Redact func(module, fn string, args []any, result any) any
}

// Export turns finished run id of ws, with its kept journal (a
// replay-policy run of a runtime with Options.KeepJournal, as the command
// line's), into a scenario: its program, request and seed; every
// host-module and fetch exchange as a fake; the files it read before
// changing them, and the files its relative imports name, as the initial
// tree; and its end as expectations (status, exit code, output, value, the
// files it changed). The guest clock of a scenario is not the run's: output
// that shows times needs placeholders before the scenario passes.
func Export(ctx context.Context, ws *nook.Workspace, id string, opts ExportOptions) (*Scenario, error) {
	rt := ws.Runtime()
	req, err := rt.Record(ctx, id)
	if err != nil {
		return nil, err
	}
	h, err := rt.GetExec(ctx, id, runtime.GetOptions{})
	if err != nil {
		return nil, err
	}
	res, err := h.Result(ctx)
	if err != nil {
		return nil, err
	}
	if res.Status == runtime.StatusRunning {
		return nil, fmt.Errorf("run %s has not finished", id)
	}
	if req.Policy != runtime.PolicyReplay {
		return nil, fmt.Errorf("run %s ran under the %s policy: only replay-policy runs journal their calls", id, req.Policy)
	}
	calls, err := rt.Journal(ctx, id)
	if err != nil {
		return nil, err
	}
	root := "/workspace"
	for _, b := range rt.Backends() {
		if b.ID == req.Backend {
			root = b.Root
		}
	}
	sc := &Scenario{Name: id, Files: map[string]string{}, WantFiles: map[string]string{},
		Comment: fmt.Sprintf("Exported from run %s (%s backend).\n", id, req.Backend)}
	sc.Config = Config{Version: Version, Backend: req.Backend, Input: req.Input, Env: req.Env, Args: req.Args,
		Stdin: string(req.Stdin), Seed: hex.EncodeToString(req.Seed), Modules: map[string]map[string]Fake{}}
	if req.Cwd != root {
		sc.Config.Cwd = req.Cwd
	}
	switch req.Backend {
	case "shell":
		sc.Entry = "main.sh"
	case "wasm":
		sc.Entry = "main.wasm.b64"
	default:
		sc.Entry = "main.js"
	}
	sc.Source = []byte(req.Source)

	// The clock: the run's start, and every reading it made.
	reads, err := rt.ClockReads(ctx, id)
	if err != nil {
		return nil, err
	}
	if sc.Config.Timers, err = rt.TimerFirings(ctx, id); err != nil {
		return nil, err
	}
	if start := res.Created.UTC(); !start.IsZero() {
		sc.Config.Clock = start.Format(time.RFC3339Nano)
		for _, t := range reads {
			sc.Config.ClockReads = append(sc.Config.ClockReads, int64(t.Sub(start)))
		}
	}

	rel := func(p string) (string, bool) {
		if !path.IsAbs(p) {
			p = path.Join(req.Cwd, p)
		}
		p = path.Clean(p)
		if p == root {
			return "", true
		}
		r, ok := strings.CutPrefix(p, root+"/")
		return r, ok
	}
	fsc := newFSCalls(rel, root)
	for _, c := range calls {
		if !c.Done {
			continue
		}
		switch c.Kind {
		case runtime.KindModule:
			mod, fn, _ := strings.Cut(c.Op, "/")
			var args []any
			json.Unmarshal(c.Args, &args)
			r := Result{Args: args}
			if c.Error != nil {
				r.Error = c.Error.Message
			} else {
				var v any
				json.Unmarshal(c.Result, &v)
				if opts.Redact != nil {
					v = opts.Redact(mod, fn, args, v)
				}
				r.Value = v
			}
			if sc.Config.Modules[mod] == nil {
				sc.Config.Modules[mod] = map[string]Fake{}
			}
			f := sc.Config.Modules[mod][fn]
			f.Results = append(f.Results, r)
			sc.Config.Modules[mod][fn] = f
		case runtime.KindFetch:
			var a struct {
				URL, Method string
			}
			json.Unmarshal(c.Args, &a)
			var r struct {
				Status  int
				Headers [][]string
				Body    json.RawMessage
			}
			json.Unmarshal(c.Result, &r)
			ex := Exchange{Method: a.Method, URL: a.URL, Status: r.Status, Body: decodeData(r.Body)}
			if ex.Method == "GET" {
				ex.Method = ""
			}
			for _, kv := range r.Headers {
				if len(kv) == 2 {
					if ex.Headers == nil {
						ex.Headers = map[string]string{}
					}
					ex.Headers[kv[0]] = kv[1]
				}
			}
			sc.Config.Fetch = append(sc.Config.Fetch, ex)
		case runtime.KindFS:
			fsc.call(c)
		}
	}
	if err := fsc.finish(ctx, ws.FS(), sc); err != nil {
		return nil, err
	}
	if len(sc.Config.Modules) == 0 {
		sc.Config.Modules = nil
	}
	// Relative imports of a module program, from the workspace as it is.
	if sc.Entry == "main.js" {
		addImports(ctx, ws.FS(), req.Cwd, root, string(sc.Source), sc.Files, map[string]bool{})
	}

	// Expectations.
	if res.Status != runtime.StatusCompleted {
		sc.Config.Want.Status = string(res.Status)
	}
	if _, def := sc.wantStatus(); res.ExitCode != def {
		code := res.ExitCode
		sc.Config.Want.ExitCode = &code
	}
	stdout, stderr := res.Stdout, res.Stderr
	if res.Truncated {
		if b, err := ws.FS().ReadFile(ctx, res.StdoutPath); res.StdoutPath != "" && err == nil {
			stdout = b
		}
		if b, err := ws.FS().ReadFile(ctx, res.StderrPath); res.StderrPath != "" && err == nil {
			stderr = b
		}
	}
	sc.WantStdout, sc.WantStderr = string(stdout), string(stderr)
	if len(res.Value) > 0 && string(res.Value) != "null" {
		v := canonicalValue(res.Value)
		sc.WantValue = &v
	}
	for r := range fsc.changed {
		b, err := ws.FS().ReadFile(ctx, root+"/"+r)
		if err == nil {
			sc.WantFiles[r] = string(b)
		} else if !errors.Is(err, fs.ErrNotExist) && vfs.Code(err) != vfs.EISDIR {
			return nil, err
		}
	}
	// A program that a restart does not run the same way.
	if reasons := fsc.notIdempotent(); len(reasons) > 0 {
		sc.Config.Restart = "any"
		note := `"restart": "any": a restart runs the program again over the files its first attempt changed, and this one ` +
			strings.Join(reasons, ", ") + `; restart cases check only that the run ends (replay cases check everything)`
		sc.Notes = append(sc.Notes, note)
	}
	sc.Notes = append(sc.Notes, fsc.notes...)
	for _, n := range sc.Notes {
		sc.Comment += "Note: " + n + ".\n"
	}
	return sc, nil
}

// decodeData returns the text of a journaled value: a string, or bytes
// kept as {"$b": base64}.
func decodeData(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var b struct {
		B string `json:"$b"`
	}
	if json.Unmarshal(raw, &b) == nil {
		if d, err := base64.StdEncoding.DecodeString(b.B); err == nil {
			return string(d)
		}
	}
	return string(raw)
}

// importSpec finds the relative module specifiers of static imports,
// re-exports, dynamic imports and requires.
var importSpec = regexp.MustCompile(`(?:from|import|require)\s*\(?\s*["'](\.{1,2}/[^"']+)["']`)

// addImports adds the files src imports relatively (from dir), and
// theirs, to files.
func addImports(ctx context.Context, f *vfs.FS, dir, root, src string, files map[string]string, seen map[string]bool) {
	for _, m := range importSpec.FindAllStringSubmatch(src, -1) {
		p := path.Join(dir, m[1])
		for _, cand := range []string{p, p + ".js", p + ".ts", p + ".mjs", p + "/index.js"} {
			if seen[cand] {
				break
			}
			b, err := f.ReadFile(ctx, cand)
			if err != nil {
				continue
			}
			seen[cand] = true
			if r, ok := strings.CutPrefix(cand, root+"/"); ok {
				if _, have := files[r]; !have {
					files[r] = string(b)
				}
			}
			addImports(ctx, f, path.Dir(cand), root, string(b), files, seen)
			break
		}
	}
}
