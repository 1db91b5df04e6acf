package shell

import (
	"context"
	"fmt"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/nookdev/nook/internal/mvsh/expand"
	"github.com/nookdev/nook/internal/mvsh/interp"
	"github.com/nookdev/nook/internal/mvsh/syntax"

	"github.com/nookdev/nook/runtime/host"
	"github.com/nookdev/nook/runtime/shell/internal/coreutils"
)

// callHandler sees every simple command before the interpreter runs it
// (functions and builtins included). It enforces the run's limits and
// rewrites the builtins whose implementation would look at the host:
// type, command -v/-V and pwd look up the host's PATH and symlinks, and
// source looks a script up in the host's PATH; eval, trap and alias parse
// code at run time, which is checked like the script itself.
func (p *runProgram) callHandler(ctx context.Context, args []string) ([]string, error) {
	if len(args) == 0 {
		return args, nil
	}
	if err := p.checkCall(ctx, args); err != nil {
		p.cancel(err)
		return nil, err
	}
	hc := interp.HandlerCtx(ctx)
	if err := p.checkSubst(hc.Stdout); err != nil {
		return nil, err
	}
	if err := p.seeFiles(hc.Stdout); err != nil {
		return nil, err
	}
	name, rest := args[0], args[1:]
	switch name {
	case varsCmd:
		if err := p.checkVars(ctx); err != nil {
			p.cancel(err)
			return nil, err
		}
		return keepStatus(hc.LastExitStatus), nil
	case replCmd:
		if err := p.checkRepl(rest); err != nil {
			return nil, err
		}
		return keepStatus(hc.LastExitStatus), nil
	case lenCmd:
		n := 0
		if len(rest) == 1 {
			vr := hc.Env.Get(rest[0])
			switch vr.Kind {
			case expand.Associative:
				n = len(vr.Map)
			case expand.Indexed:
				n = len(vr.List)
			default:
				if vr.IsSet() {
					n = 1
				}
			}
		}
		return []string{"echo", itoa(int64(n))}, nil
	case "read":
		return p.readCmd(ctx, rest), nil
	case "mapfile", "readarray":
		return p.mapfileCmd(ctx, name, rest), nil
	case "eval":
		return p.evalCmd(rest), nil
	case tickCmd:
		if err := p.tick(); err != nil {
			return nil, err
		}
		if err := p.checkVars(ctx); err != nil {
			p.cancel(err)
			return nil, err
		}
		return []string{":"}, nil
	case "type":
		return append([]string{"__nook_type"}, rest...), nil
	case "command":
		if len(rest) > 0 && (rest[0] == "-v" || rest[0] == "-V") {
			return append([]string{"__nook_command"}, rest...), nil
		}
	case "pwd":
		return append([]string{"__nook_pwd"}, rest...), nil
	case "printf":
		// The interpreter's printf lacks precision and %q; ours has them.
		// printf -v assigns a variable, which only the builtin can do.
		if len(rest) == 0 || rest[0] != "-v" {
			return append([]string{"__nook_printf"}, rest...), nil
		}
		if len(rest) < 3 || !syntax.ValidName(strings.SplitN(rest[1], "[", 2)[0]) {
			return fail(2, "printf: -v: invalid variable name or missing format"), nil
		}
		out := coreutils.Sprintf(rest[2], rest[3:])
		return []string{"eval", rest[1] + "=" + singleQuote(out)}, nil
	case "source", ".":
		return p.source(ctx, name, rest), nil
	case "umask":
		return p.umaskCmd(rest), nil
	case "set":
		if len(rest) == 0 {
			return p.declareCmd(hc.Env, []string{"set"}), nil
		}
	case shiftCmd:
		return shiftArgs(rest), nil
	case getoptsCmd:
		return p.getopts(hc.Env, rest), nil
	case declCmd:
		return p.declareCmd(hc.Env, rest), nil
	case "ulimit":
		return p.ulimitCmd(rest), nil
	case "kill":
		return killCmd(rest), nil
	case "echo":
		if xpg := hc.BashOpt("xpg_echo"); xpg || len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
			if out := echoCmd(rest, xpg); out != nil {
				return out, nil
			}
		}
	case "builtin":
		if len(rest) > 0 && rest[0] == "kill" {
			return killCmd(rest[1:]), nil
		}
	case "test", "[":
		for _, a := range rest {
			if a == "-O" || a == "-G" {
				return fail(2, name+": "+a+": file owner tests are not supported in the sandbox"), nil
			}
		}
		if bad, ok := notInteger(name, rest); ok {
			return fail(2, "bash: "+name+": "+bad+": integer expression expected"), nil
		}
	}
	if msg := checkRuntimeCode(args); msg != "" {
		return fail(1, msg), nil
	}
	return args, nil
}

// keepStatus is a command that exits with status (the checks the rewrite
// inserts must not change $?).
func keepStatus(status int) []string {
	if status == 0 {
		return []string{"true"}
	}
	return []string{"__nook_status", itoa(int64(status))}
}

// checkRepl checks that the pattern substitutions of the next command
// cannot make more than MaxAllocBytes: args are pairs of the lengths of
// the variable and of the replacement (-1: unknown, not checked).
func (p *runProgram) checkRepl(args []string) error {
	max := p.limits.MaxAllocBytes
	for i := 0; i+1 < len(args); i += 2 {
		x, _ := strconv.ParseInt(args[i], 10, 64)
		w, _ := strconv.ParseInt(args[i+1], 10, 64)
		if w >= 0 && x > 0 && (w+1) > max/x {
			err := &host.LimitError{Limit: "MaxAllocBytes", Max: max,
				What: fmt.Sprintf("a pattern substitution of %d bytes with a replacement of %d bytes (up to %d bytes)", x, w, x*(w+1))}
			p.cancel(err)
			return err
		}
	}
	return nil
}

// evalCmd checks and rewrites the code eval runs, as the script's own
// (loops count, assignments are bounded).
func (p *runProgram) evalCmd(args []string) []string {
	src := strings.Join(args, " ")
	if err := checkNesting(src, p.limits.MaxNestingDepth); err != nil {
		p.cancel(err)
		return fail(1, "eval: "+err.Error())
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return append([]string{"eval"}, args...) // the builtin reports it
	}
	if err := check(f); err != nil {
		return fail(1, "eval: "+err.Error())
	}
	rewrite(f)
	var sb strings.Builder
	syntax.NewPrinter().Print(&sb, f)
	return []string{"eval", sb.String()}
}

// tick counts one loop iteration (of the script, or of a command's own
// language such as awk) against MaxLoopIterations; past it the run stops.
func (p *runProgram) tick() error {
	if n := p.ticks.Add(1); n > p.b.opts.MaxLoopIterations {
		err := &host.LimitError{Limit: "MaxLoopIterations", Max: p.b.opts.MaxLoopIterations,
			What: fmt.Sprintf("loop iteration %d", n)}
		p.cancel(err)
		return err
	}
	return nil
}

// singleQuote quotes s for the shell's parser.
func singleQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// fail returns a command that prints msg on stderr and exits with code.
func fail(code int, msg string) []string {
	return []string{"__nook_fail", itoa(int64(code)), msg}
}

// checkRuntimeCode checks the code that eval, trap and alias would parse
// at run time (also behind "builtin" and "command").
func checkRuntimeCode(args []string) string {
	for len(args) > 1 && (args[0] == "builtin" || args[0] == "command") {
		args = args[1:]
	}
	var srcs []string
	switch args[0] {
	case "eval":
		srcs = []string{strings.Join(args[1:], " ")}
	case "trap":
		srcs = args[1:]
	case "alias":
		for _, a := range args[1:] {
			if _, v, ok := strings.Cut(a, "="); ok {
				srcs = append(srcs, v)
			}
		}
	default:
		return ""
	}
	for _, s := range srcs {
		if !strings.Contains(s, "(") {
			continue
		}
		f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(s), "")
		if err != nil {
			continue // the builtin reports it
		}
		if err := check(f); err != nil {
			return args[0] + ": " + err.Error()
		}
	}
	return ""
}

// source reads a script from the workspace and runs it with eval (the
// builtin would first look for it in the host's PATH).
func (p *runProgram) source(ctx context.Context, name string, args []string) []string {
	if len(args) == 0 {
		return fail(2, name+": filename argument required")
	}
	b, err := p.fs.ReadAll(p.ctx, abs(ctx, args[0]))
	if err != nil {
		return fail(1, name+": "+args[0]+": "+errText(err))
	}
	if err := checkNesting(string(b), p.limits.MaxNestingDepth); err != nil {
		p.cancel(err)
		return fail(1, name+": "+err.Error())
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(string(b)), args[0])
	if err != nil {
		return fail(1, name+": "+err.Error())
	}
	if err := check(f); err != nil {
		return fail(1, name+": "+args[0]+": "+err.Error())
	}
	rewrite(f)
	var sb strings.Builder
	syntax.NewPrinter().Print(&sb, f)
	return []string{"eval", sb.String()}
}

// checkCall enforces MaxArgs, MaxAllocBytes on the arguments and
// MaxFunctionDepth.
func (p *runProgram) checkCall(ctx context.Context, args []string) error {
	if len(args) > p.b.opts.MaxArgs {
		return &host.LimitError{Limit: "MaxArgs", Max: int64(p.b.opts.MaxArgs),
			What: fmt.Sprintf("command %s with %d arguments (after glob and word expansion)", args[0], len(args))}
	}
	var n int64
	for _, a := range args {
		n += int64(len(a))
	}
	if n > p.limits.MaxAllocBytes {
		return &host.LimitError{Limit: "MaxAllocBytes", Max: p.limits.MaxAllocBytes,
			What: fmt.Sprintf("arguments of %s (%d bytes)", args[0], n)}
	}
	return p.checkDepth()
}

// framesPerCall is a lower bound of the Go frames one shell function call
// adds to the interpreter's stack; a stack shorter than depth×framesPerCall
// cannot be too deep, so the frames are only counted past it. Once counted,
// the frames a call takes on this path raise that threshold (p.depthFrames)
// to 90% of the stack depth×calls would take, so the costly count (which
// reads every frame's function) runs only near the limit, not at every call
// past a fixed threshold.
const framesPerCall = 6

var framePool = sync.Pool{New: func() any { return new([]uintptr) }}

func (p *runProgram) checkDepth() error {
	limit := int(p.depthFrames.Load())
	var small [512]uintptr
	if goruntime.Callers(2, small[:]) < len(small) && len(small) < limit {
		return nil
	}
	bp := framePool.Get().(*[]uintptr)
	defer framePool.Put(bp)
	if cap(*bp) < limit+1 {
		*bp = make([]uintptr, limit+1)
	}
	buf := (*bp)[:limit+1]
	n := goruntime.Callers(2, buf)
	if n <= limit {
		return nil
	}
	// Past the threshold: count the calls on the whole stack.
	full := make([]uintptr, max(n*2, p.depth*framesPerCall*8))
	n = goruntime.Callers(2, full)
	calls := countCalls(full[:n])
	if calls-1 > p.depth || n == len(full) {
		return &host.LimitError{Limit: "MaxFunctionDepth", Max: int64(p.depth),
			What: fmt.Sprintf("%d nested shell function calls", calls-1)}
	}
	if calls > 0 {
		if next := int64(n) * int64(p.depth) / int64(calls) * 9 / 10; next > p.depthFrames.Load() {
			p.depthFrames.Store(next)
		}
	}
	return nil
}

// callEntry is the entry PC of interp.(*Runner).call, found once from
// symbolized frames; later counts compare entry PCs (no line tables).
var callEntry atomic.Uintptr

func countCalls(pcs []uintptr) int {
	calls := 0
	entry := callEntry.Load()
	if entry == 0 {
		frames := goruntime.CallersFrames(pcs)
		for {
			f, more := frames.Next()
			if strings.HasSuffix(f.Function, "interp.(*Runner).call") {
				callEntry.Store(f.Entry)
				calls++
			}
			if !more {
				return calls
			}
		}
	}
	for _, pc := range pcs {
		if fn := goruntime.FuncForPC(pc - 1); fn != nil && fn.Entry() == entry {
			calls++
		}
	}
	return calls
}

// checkVars bounds the memory the script's variables hold together.
func (p *runProgram) checkVars(ctx context.Context) error {
	var n int64
	interp.HandlerCtx(ctx).Env.Each(func(name string, vr expand.Variable) bool {
		n += int64(len(vr.Str))
		for _, s := range vr.List {
			n += int64(len(s))
		}
		for k, v := range vr.Map {
			n += int64(len(k) + len(v))
		}
		return n <= p.limits.MaxAllocBytes
	})
	if n > p.limits.MaxAllocBytes {
		return &host.LimitError{Limit: "MaxAllocBytes", Max: p.limits.MaxAllocBytes,
			What: fmt.Sprintf("shell variables of more than %d bytes", n)}
	}
	return nil
}

// notInteger returns the operand of test's integer comparison ("[ X -eq Y
// ]", also negated with !) that is not a decimal integer, which bash
// refuses with status 2 (the interpreter reads it as an arithmetic
// expression); false when there is none.
func notInteger(name string, args []string) (string, bool) {
	if name == "[" && len(args) > 0 && args[len(args)-1] == "]" {
		args = args[:len(args)-1]
	}
	if len(args) == 4 && args[0] == "!" {
		args = args[1:]
	}
	if len(args) != 3 {
		return "", false
	}
	switch args[1] {
	case "-eq", "-ne", "-lt", "-le", "-gt", "-ge":
	default:
		return "", false
	}
	for _, a := range []string{args[0], args[2]} {
		t := strings.TrimLeft(strings.TrimSpace(a), "+-")
		if t == "" || strings.Trim(t, "0123456789") != "" || len(strings.TrimSpace(a))-len(t) > 1 {
			return a, true
		}
	}
	return "", false
}
