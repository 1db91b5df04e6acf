package coreutils

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/nookdev/nook/runtime/host"
)

// node, tsx, ts-node, npx and wasm: programs of another backend started
// from the shell. Each is one KindExec host call (the runtime prepares and
// runs the nested program as a run of its own, journaled, within this
// run's limits and access) whose result becomes the command's output and
// status. Output is not streamed: both streams arrive when the program
// ends.

// NodeVersion is what `node --version` prints: the version the JavaScript
// backend's Node surface follows (process.version in guest/js/process.js).
const NodeVersion = "v22.0.0"

func init() {
	nodeHelp := "node [OPTIONS] [FILE | -e SOURCE | -p EXPRESSION | -] [ARG]...\n" +
		"Runs JavaScript (ES modules or CommonJS; TypeScript for .ts files) on the workspace's js backend, as a nested run:\n" +
		"its stdin is read to the end first, its env is the shell's exported variables, its output arrives when it ends."
	register("node", nodeHelp, nodeCmd)
	register("nodejs", nodeHelp, nodeCmd)
	register("tsx", "tsx [OPTIONS] FILE [ARG]...\nRuns a TypeScript or JavaScript file on the js backend (like node FILE).", nodeCmd)
	register("ts-node", "ts-node [OPTIONS] FILE [ARG]...\nRuns a TypeScript or JavaScript file on the js backend (like node FILE).", nodeCmd)
	register("npx", "npx [-y] tsx|ts-node|node ARGS...\nThere is no npm registry: npx only starts the runners that are built in.", npxCmd)
	register("wasm", "wasm FILE.wasm [ARG]...\nRuns a WebAssembly (WASI preview1) module on the workspace's wasm backend; ./FILE.wasm does the same.", wasmCmd)
}

// nested is one program to run on another backend.
type nested struct {
	backend string // "js" or "wasm"
	what    string // the backend's name in messages
	source  string // inline program, or
	file    string // a workspace path
	args    []string
	// stdinIsSource: the program was read from stdin, the child's stdin is
	// empty.
	stdinIsSource bool
}

func nodeCmd(e *Env, args []string) int {
	name := args[0]
	n := &nested{backend: "js", what: "JavaScript"}
	a := args[1:]
	print := false
	have := false // source or file given
	for len(a) > 0 && !have {
		opt := a[0]
		val, hasVal := "", false
		if strings.HasPrefix(opt, "--") {
			if k, v, ok := strings.Cut(opt, "="); ok {
				opt, val, hasVal = k, v, true
			}
		}
		takeVal := func() bool {
			if hasVal {
				return true
			}
			if len(a) < 2 {
				fmt.Fprintf(e.Stderr, "%s: %s requires an argument\n", name, opt)
				return false
			}
			val, a = a[1], a[1:]
			return true
		}
		switch {
		case opt == "-v" || opt == "--version":
			fmt.Fprintln(e.Stdout, NodeVersion)
			return 0
		case opt == "-h" || opt == "--help":
			c, _ := Lookup(name)
			fmt.Fprintf(e.Stdout, "Usage: %s\n", c.Help)
			return 0
		case opt == "-e" || opt == "--eval" || opt == "-p" || opt == "--print" || opt == "-pe":
			if !takeVal() {
				return 9
			}
			print = opt == "-p" || opt == "--print" || opt == "-pe"
			n.source, have = val, true
		case opt == "--input-type":
			if !takeVal() {
				return 9
			}
			if val != "module" && val != "commonjs" {
				fmt.Fprintf(e.Stderr, "%s: --input-type must be \"module\" or \"commonjs\"\n", name)
				return 9
			}
		case opt == "-":
			n.stdinIsSource, have = true, true
		case opt == "--":
			a = a[1:]
			if len(a) > 0 {
				n.file, have = a[0], true
			}
			continue
		case opt == "--no-warnings" || opt == "--enable-source-maps" || opt == "--no-deprecation" ||
			opt == "--trace-warnings" || opt == "--trace-uncaught" || opt == "--expose-gc" ||
			strings.HasPrefix(opt, "--experimental-") || strings.HasPrefix(opt, "--no-experimental-") ||
			strings.HasPrefix(opt, "--max-old-space-size") || strings.HasPrefix(opt, "--stack-size") ||
			opt == "--harmony" || opt == "--quiet" || opt == "-q" || opt == "--esm" || opt == "--transpile-only" || opt == "-T":
			// Accepted and without effect here (ts-node's -T/--transpile-only:
			// types are never checked).
		case strings.HasPrefix(opt, "-"):
			fmt.Fprintf(e.Stderr, "%s: bad option: %s (supported: -e, -p, -, --input-type, --version; "+
				"there is no inspector, --require, --test or --check)\n", name, a[0])
			return 9
		default:
			n.file, have = opt, true
		}
		a = a[1:]
	}
	if !have {
		n.stdinIsSource = true
	}
	n.args = a
	if print {
		// node -p prints the value of the expression as console.log does.
		n.source = "console.log((\n" + n.source + "\n));\n"
	}
	return e.runNested(name, n)
}

func npxCmd(e *Env, args []string) int {
	a := args[1:]
	for len(a) > 0 && (a[0] == "-y" || a[0] == "--yes" || a[0] == "--no-install" || a[0] == "-q" || a[0] == "--quiet") {
		a = a[1:]
	}
	if len(a) == 0 {
		e.Errf("a package name is required; there is no npm registry in this sandbox (npx runs only tsx, ts-node and node)")
		return 1
	}
	switch a[0] {
	case "tsx", "ts-node", "node":
		return nodeCmd(e, a)
	}
	e.Errf("%s: there is no npm registry in this sandbox, so packages cannot be fetched; npx runs only tsx, ts-node and node "+
		"(JavaScript and TypeScript run on the js backend; write what the package would do, or use the built-in commands)", a[0])
	return 127
}

func wasmCmd(e *Env, args []string) int {
	if len(args) < 2 || strings.HasPrefix(args[1], "-") && args[1] != "--" {
		if len(args) == 2 && args[1] == "--help" {
			c, _ := Lookup("wasm")
			fmt.Fprintf(e.Stdout, "Usage: %s\n", c.Help)
			return 0
		}
		e.Errf("usage: wasm FILE.wasm [ARG]...")
		return 2
	}
	a := args[1:]
	if a[0] == "--" {
		a = a[1:]
	}
	return e.runNested("wasm", &nested{backend: "wasm", what: "WebAssembly", file: a[0], args: a[1:]})
}

// runNested issues the KindExec call and copies its result to the
// command's streams.
func (e *Env) runNested(name string, n *nested) int {
	lim := e.Limits.WithDefaults()
	var stdin []byte
	if e.Stdin != nil && (n.stdinIsSource || n.backend != "js" || e.readsStdin(n)) {
		b, err := io.ReadAll(io.LimitReader(e.Stdin, lim.MaxStdinBytes+1))
		if err != nil && e.Ctx.Err() != nil {
			return 1
		}
		if int64(len(b)) > lim.MaxStdinBytes {
			fmt.Fprintf(e.Stderr, "%s: %s\n", name, (&host.LimitError{Limit: "MaxStdinBytes", Max: lim.MaxStdinBytes,
				What: fmt.Sprintf("standard input of more than %d bytes", lim.MaxStdinBytes)}).Error())
			return 1
		}
		stdin = b
	}
	if n.stdinIsSource {
		if int64(len(stdin)) > lim.MaxSourceBytes {
			fmt.Fprintf(e.Stderr, "%s: %s\n", name, (&host.LimitError{Limit: "MaxSourceBytes", Max: lim.MaxSourceBytes,
				What: fmt.Sprintf("a program of %d bytes on standard input", len(stdin))}).Error())
			return 1
		}
		n.source, stdin = string(stdin), nil
	}
	env := map[string]any{}
	for _, kv := range e.Environ {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	argv := make([]any, len(n.args))
	for i, s := range n.args {
		argv[i] = s
	}
	req := map[string]any{"args": argv, "env": env, "cwd": e.Dir, "stdin": stdin, "maxBuffer": float64(lim.MaxOutputBytes)}
	if n.file != "" {
		req["file"] = e.Abs(n.file)
	} else {
		req["source"] = n.source
	}
	// The files the nested run changes belong to this run's change report
	// too: they are read from the workspace's change feed after it.
	rev, revErr := int64(0), error(nil)
	if !e.ReadOnly {
		rev, revErr = e.FS.Rev(e.Ctx)
	}
	v, err := e.FS.Host().Call(e.Ctx, &host.Call{Kind: host.KindExec, Op: n.backend, Args: req})
	if !e.ReadOnly && revErr == nil {
		// Also when this command gave up on it (timeout): what it changed
		// until it stopped is changed.
		defer e.FS.Changes().Since(context.WithoutCancel(e.Ctx), rev)
	}
	if err != nil {
		var le *host.LimitError
		if errors.As(err, &le) && e.Stop != nil {
			e.Stop(le)
			return 1
		}
		if e.Ctx.Err() != nil {
			return 1
		}
		var ce *host.CallError
		if !errors.As(err, &ce) {
			fmt.Fprintf(e.Stderr, "%s: %v\n", name, err)
			return 1
		}
		switch {
		case ce.Code == "ENOENT" && strings.Contains(ce.Message, "no backend"):
			fmt.Fprintf(e.Stderr, "%s: the %s backend is not configured in this workspace\n", name, n.what)
			return 127
		case ce.Code == "ENOENT" && n.backend == "js":
			fmt.Fprintf(e.Stderr, "%s: Error: Cannot find module '%s'\n", name, e.Abs(n.file))
			return 1
		case ce.Code == "ENOENT":
			fmt.Fprintf(e.Stderr, "%s: %s: No such file or directory\n", name, n.file)
			return 127
		}
		fmt.Fprintf(e.Stderr, "%s: %s\n", name, ce.Message)
		if ce.Code == "EACCES" {
			return 126
		}
		return 1
	}
	m, _ := v.(map[string]any)
	out, errb := resultBytes(m["stdout"]), resultBytes(m["stderr"])
	if st, _ := m["status"].(string); st == "cancelled" && e.Ctx.Err() != nil {
		// This command gave up on the program (timeout N node ...): the
		// runtime's note that the run was cancelled is not the program's.
		n := len(errb)
		errb = bytes.TrimSuffix(errb, []byte("Execution cancelled.\n"))
		if total, ok := m["stderrBytes"].(float64); ok {
			m["stderrBytes"] = total - float64(n-len(errb))
		}
	}
	if _, err := e.Stdout.Write(out); err != nil {
		return 1
	}
	e.Stderr.Write(errb)
	for _, s := range []struct {
		stream string
		kept   int
	}{{"stdout", len(out)}, {"stderr", len(errb)}} {
		if total, _ := m[s.stream+"Bytes"].(float64); int64(total) > int64(s.kept) {
			fmt.Fprintf(e.Stderr, "%s: the program wrote %d bytes on %s; the first %d are shown\n", name, int64(total), s.stream, s.kept)
		}
	}
	code, _ := m["code"].(float64)
	return int(code)
}

func resultBytes(v any) []byte {
	switch b := v.(type) {
	case []byte:
		return b
	case string:
		return []byte(b)
	}
	return nil
}

// stdinUse matches JavaScript that reads its standard input: process.stdin
// (readline over it included), /dev/stdin, or file descriptor 0.
var stdinUse = regexp.MustCompile(`stdin|(readFileSync|readSync|createReadStream|openSync|fstatSync)\(\s*0\s*[,)]`)

// readsStdin reports whether a JavaScript program may read its stdin.
// Node leaves stdin alone unless the program reads it, so
// `while read f; do node x.js "$f"; done < list` sees every line; the
// nested run needs its whole stdin up front, so the shell hands it over
// only to a program whose source mentions it (the entry file's: a module
// it imports that reads stdin is not seen).
func (e *Env) readsStdin(n *nested) bool {
	src := n.source
	if n.file != "" {
		b, err := e.FS.ReadAll(e.Ctx, e.Abs(n.file))
		if err != nil {
			return true // the nested run reports the error
		}
		src = string(b)
	}
	return stdinUse.MatchString(src)
}
