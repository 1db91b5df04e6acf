package shell

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/nookdev/nook/internal/mvsh/expand"
	"github.com/nookdev/nook/internal/mvsh/interp"
	"github.com/nookdev/nook/internal/mvsh/syntax"

	"github.com/nookdev/nook/runtime/shell/internal/coreutils"
	"github.com/nookdev/nook/runtime/shell/internal/hostfs"
)

// execMiddleware replaces the interpreter's exec handler: a command that
// is not a function or builtin runs from our table, never as a host
// program. It never calls next.
func (p *runProgram) execMiddleware(next interp.ExecHandlerFunc) interp.ExecHandlerFunc {
	return func(ctx context.Context, args []string) error {
		hc := interp.HandlerCtx(ctx)
		if args[0] == "sleep" && p.mem != nil {
			// Waiting: the memory watchdog charges it nothing.
			p.mem.Leave()
			defer p.mem.Enter()
		}
		if st := p.runCommand(ctx, hc, args, hc.Stdin, p.boundStdout(hc.Stdout), p.boundStdout(hc.Stderr)); st != 0 {
			return interp.ExitStatus(uint8(st))
		}
		return nil
	}
}

func errText(err error) string { return hostfs.Text(err) }

// runCommand runs one command of the table, or one of the commands that
// need the interpreter (sh, bash, type, command -v, which).
func (p *runProgram) runCommand(ctx context.Context, hc interp.HandlerContext, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if err := ctx.Err(); err != nil {
		return 1
	}
	name := args[0]
	// A path to a command ("/usr/bin/ls", "./x") names it by its base
	// name only when it is one of ours in a PATH directory.
	if strings.Contains(name, "/") {
		base := name[strings.LastIndex(name, "/")+1:]
		if _, ok := coreutils.Lookup(base); ok && strings.HasPrefix(name, "/") && inPath(name[:len(name)-len(base)-1]) {
			name = base
		} else if strings.HasSuffix(base, ".wasm") {
			// ./prog.wasm runs the module on the wasm backend.
			args = append([]string{"wasm", name}, args[1:]...)
			name = "wasm"
		} else {
			return p.runScriptFile(ctx, hc, name, args[1:], stdin, stdout, stderr)
		}
	}
	switch name {
	case "__nook_fail":
		code, _ := strconv.Atoi(args[1])
		fmt.Fprintln(stderr, args[2])
		return code
	case "__nook_status":
		code, _ := strconv.Atoi(args[1])
		return code
	case "__nook_output":
		// A builtin's lines and errors (kill -l): status 1, or the
		// status given after them.
		io.WriteString(stdout, args[1])
		if args[2] != "" {
			fmt.Fprintln(stderr, args[2])
		}
		if len(args) > 3 {
			code, _ := strconv.Atoi(args[3])
			return code
		}
		return 1
	case catCmd:
		name = "cat"
	case "__nook_type":
		return p.typeCmd(ctx, hc, args[1:], stdout, stderr)
	case "__nook_command":
		return p.commandV(ctx, hc, args[1:], stdout)
	case "which":
		return p.which(ctx, hc, args[1:], stdout, stderr)
	case "__nook_pwd":
		name = "pwd"
	case "__nook_printf":
		name = "printf"
	case "sh", "bash":
		return p.shCmd(ctx, hc, args, stdin, stdout, stderr)
	case "git":
		if p.hasGit() {
			return p.gitCmd(ctx, hc, args, stdin, stdout, stderr)
		}
	case "publish":
		if p.hasPublish() {
			return p.publishCmd(hc.Dir, args, stdout, stderr)
		}
	}
	if _, ok := coreutils.Lookup(name); !ok {
		if file := p.lookPath(ctx, hc, name); file != "" {
			return p.runScriptFile(ctx, hc, file, args[1:], stdin, stdout, stderr)
		}
	}
	environ := exported(hc.Env)
	getenv := func(k string) string { return hc.Env.Get(k).String() }
	if vars, ok := coreutils.EnvironFrom(ctx); ok {
		// env VAR=x CMD: CMD sees exactly env's environment.
		environ = vars
		getenv = func(k string) string {
			for _, v := range vars {
				if name, val, _ := strings.Cut(v, "="); name == k {
					return val
				}
			}
			return ""
		}
	}
	env := &coreutils.Env{
		Ctx: ctx, FS: p.fs, Dir: hc.Dir,
		Getenv:  getenv,
		Environ: environ,
		Stdin:   stdin, Stdout: stdout, Stderr: stderr,
		Now: p.host.Now, Random: p.host.Random,
		MaxBytes: p.limits.MaxAllocBytes,
		Tick:     p.tick,
		Stop:     p.cancel,
		MaxDepth: p.depth,
		Limits:   p.limits,
		ReadOnly: p.b.opts.ReadOnly,

		VirtualTime: p.req.VirtualTime,
	}
	env.ExecContext = func(c context.Context, a []string, in io.Reader, out, errw io.Writer) int {
		if err := p.checkCall(ctx, a); err != nil {
			p.cancel(err)
			return 1
		}
		return p.runCommand(c, hc, a, in, out, errw)
	}
	env.Exec = func(a []string, in io.Reader, out, errw io.Writer) int {
		return env.ExecContext(ctx, a, in, out, errw)
	}
	return coreutils.Run(env, append([]string{name}, args[1:]...))
}

// lookPath finds a command that is not one of ours as a file in a
// workspace directory of PATH ("PATH=$PWD/bin:$PATH; tool.sh"), as bash
// does: the first regular file of that name with an execute bit. It
// returns "" when there is none; directories outside the backend's root
// are never looked in.
func (p *runProgram) lookPath(ctx context.Context, hc interp.HandlerContext, name string) string {
	root := p.b.opts.Root
	for _, dir := range strings.Split(hc.Env.Get("PATH").String(), ":") {
		if dir == "" {
			dir = hc.Dir
		} else if !strings.HasPrefix(dir, "/") {
			dir = hc.Dir + "/" + dir
		}
		if dir != root && !strings.HasPrefix(dir, root+"/") {
			continue
		}
		file := strings.TrimSuffix(dir, "/") + "/" + name
		if st, err := p.fs.Stat(ctx, file); err == nil && st.Kind == "file" && st.FMode&0o111 != 0 {
			return file
		}
	}
	return ""
}

func inPath(dir string) bool {
	for _, d := range strings.Split(defaultPath, ":") {
		if d == dir {
			return true
		}
	}
	return false
}

// exported lists the exported variables, without the shell's own.
func exported(env expand.Environ) []string {
	var out []string
	env.Each(func(name string, vr expand.Variable) bool {
		if vr.Exported && vr.IsSet() && !strings.HasPrefix(name, "__NOOK_") {
			out = append(out, name+"="+vr.String())
		}
		return true
	})
	return out
}

// shCmd runs "sh -c script [name args...]" or "sh file args..." in a new
// interpreter with the same doors. The shell's options come first, as
// bash reads them: single letters ("-eu", "+x", "-ec"), "-o NAME" and
// "+o NAME", "-O NAME" and "+O NAME" (shopt), "--norc", "--noprofile"
// and "--rcfile FILE" (there is no startup file to read), "--".
func (p *runProgram) shCmd(ctx context.Context, hc interp.HandlerContext, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := args[1:]
	var set, shopts []string
	cmdMode := false
	bad := func(opt string) int {
		fmt.Fprintf(stderr, "%s: %s: invalid option\n", args[0], opt)
		return 2
	}
flags:
	for len(a) > 0 {
		arg := a[0]
		switch {
		case arg == "--" || arg == "-":
			a = a[1:]
			break flags
		case arg == "--norc" || arg == "--noprofile":
			a = a[1:]
		case arg == "--rcfile" || arg == "--init-file":
			if len(a) < 2 {
				fmt.Fprintf(stderr, "%s: %s: option requires an argument\n", args[0], arg)
				return 2
			}
			a = a[2:]
		case strings.HasPrefix(arg, "--"):
			return bad(arg)
		case arg == "-o" || arg == "+o" || arg == "-O" || arg == "+O":
			if len(a) < 2 {
				fmt.Fprintf(stderr, "%s: %s: option requires an argument\n", args[0], arg)
				return 2
			}
			if arg[1] == 'o' {
				set = append(set, arg, a[1])
			} else if arg[0] == '-' {
				shopts = append(shopts, "-s", a[1])
			} else {
				shopts = append(shopts, "-u", a[1])
			}
			a = a[2:]
		case len(arg) > 1 && (arg[0] == '-' || arg[0] == '+'):
			for _, c := range arg[1:] {
				switch {
				case c == 'c' && arg[0] == '-':
					cmdMode = true
				case strings.ContainsRune("aefnuxBCEhT", c):
					set = append(set, string(arg[0])+string(c))
				default:
					return bad(string(arg[0]) + string(c))
				}
			}
			a = a[1:]
		default:
			break flags
		}
	}
	var extra []interp.RunnerOption
	if len(set) > 0 {
		extra = append(extra, interp.Params(set...))
	}
	for i := 0; i < len(shopts); i += 2 {
		extra = append(extra, interp.BashOpts(shopts[i], shopts[i+1]))
	}
	if cmdMode {
		if len(a) < 1 {
			fmt.Fprintf(stderr, "%s: -c: option requires an argument\n", args[0])
			return 2
		}
		// sh -c CODE NAME ARGS...: NAME is $0.
		name := args[0]
		if len(a) > 1 {
			name = a[1]
		}
		var params []string
		if len(a) > 2 {
			params = a[2:]
		}
		extra = append(extra, interp.Invocation("c"))
		return p.runSource(ctx, hc, name, a[0], params, stdin, stdout, stderr, extra...)
	}
	if len(a) == 0 {
		b, err := io.ReadAll(io.LimitReader(stdin, p.limits.MaxSourceBytes))
		if err != nil {
			return 1
		}
		extra = append(extra, interp.Invocation("s"))
		return p.runSource(ctx, hc, args[0], string(b), nil, stdin, stdout, stderr, extra...)
	}
	return p.runScriptFile(ctx, hc, a[0], a[1:], stdin, stdout, stderr, extra...)
}

// runScriptFile runs a workspace file as a shell script ("./build.sh",
// "bash x.sh").
func (p *runProgram) runScriptFile(ctx context.Context, hc interp.HandlerContext, file string, params []string, stdin io.Reader, stdout, stderr io.Writer, extra ...interp.RunnerOption) int {
	ap := file
	if !strings.HasPrefix(ap, "/") {
		ap = hc.Dir + "/" + ap
	}
	b, err := p.fs.ReadAll(p.ctx, ap)
	if err != nil {
		if hostfs.Code(err) == "ENOENT" && !strings.Contains(file, "/") {
			fmt.Fprintf(stderr, "%s: command not found\n", file)
			return 127
		}
		fmt.Fprintf(stderr, "bash: %s: %s\n", file, errText(err))
		if hostfs.Code(err) == "ENOENT" {
			return 127
		}
		return 126
	}
	if prog := shebang(b); prog != "" {
		// "#!/usr/bin/env node" (or tsx, python3, ...): the script runs
		// under that command, as the kernel would start it.
		return p.runCommand(ctx, hc, append([]string{prog, file}, params...), stdin, stdout, stderr)
	}
	return p.runSource(ctx, hc, file, string(b), params, stdin, stdout, stderr, extra...)
}

// shebang returns the command a script's "#!" line names when it is not a
// shell ("#!/usr/bin/env node" → "node", "#!/usr/bin/env -S tsx" → "tsx");
// "" for shell scripts and files without one.
func shebang(b []byte) string {
	if !bytes.HasPrefix(b, []byte("#!")) {
		return ""
	}
	line, _, _ := bytes.Cut(b[2:], []byte("\n"))
	f := strings.Fields(string(line))
	if len(f) == 0 {
		return ""
	}
	prog := f[0][strings.LastIndex(f[0], "/")+1:]
	if prog == "env" {
		f = f[1:]
		for len(f) > 0 && strings.HasPrefix(f[0], "-") {
			f = f[1:]
		}
		if len(f) == 0 {
			return ""
		}
		prog = f[0][strings.LastIndex(f[0], "/")+1:]
	}
	switch prog {
	case "sh", "bash", "dash", "zsh", "ksh", "ash":
		return ""
	}
	return prog
}

// runSource parses, checks and runs src in a fresh interpreter that shares
// the run's doors and limits; extra sets its options.
func (p *runProgram) runSource(ctx context.Context, hc interp.HandlerContext, name, src string, params []string, stdin io.Reader, stdout, stderr io.Writer, extra ...interp.RunnerOption) int {
	if err := checkNesting(src, p.limits.MaxNestingDepth); err != nil {
		p.cancel(err)
		return 1
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), name)
	if err != nil {
		if f = beforeSyntaxError(src, name, err); f == nil {
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			return 2
		}
	}
	if err := check(f); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 2
	}
	rewrite(f)
	environ := exported(hc.Env)
	if vars, ok := coreutils.EnvironFrom(ctx); ok {
		environ = vars
		ctx = coreutils.WithEnviron(ctx, nil) // the new interpreter's commands see its variables
	}
	// The interpreter fills a missing HOME, UID, EUID or GID from the host
	// process (os.UserHomeDir, os.Getuid): never let it.
	// $_ starts as the path the shell was started by, which bash's parent
	// puts in its environment.
	for _, kv := range []string{"HOME=" + p.b.opts.Root, "UID=1000", "EUID=1000", "GID=1000", "_=/usr/bin/bash"} {
		name, _, _ := strings.Cut(kv, "=")
		if !hasVar(environ, name) {
			environ = append(environ, kv)
		}
	}
	// A nested interpreter's builtins write to the caller's streams
	// without the command's write guard (they may run in goroutines of
	// their own; see coreutils.Quiet).
	stdout, stderr = coreutils.Quiet(stdout), coreutils.Quiet(stderr)
	r, err := interp.New(append([]interp.RunnerOption{
		interp.Env(expand.ListEnviron(append(environ, "PWD="+hc.Dir)...)),
		dirOption(hc.Dir),
		interp.StdIO(stdin, stdout, stderr),
		interp.Params(append([]string{"--"}, params...)...),
	}, append(p.doors(), extra...)...)...)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	pf, _ := syntax.NewParser().Parse(strings.NewReader(pidVar+"=1; "+ppidVar+"=1"), "")
	r.Run(ctx, pf)
	err = p.runGuarded(ctx, r, f)
	if err == nil {
		return 0
	}
	if st, ok := interp.IsExitStatus(err); ok {
		return int(st)
	}
	if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		fmt.Fprintln(stderr, err)
	}
	return 1
}

func hasVar(environ []string, name string) bool {
	for _, kv := range environ {
		if strings.HasPrefix(kv, name+"=") {
			return true
		}
	}
	return false
}

func (p *runProgram) isCommand(name string) bool {
	_, ok := coreutils.Lookup(name)
	return ok || name == "sh" || name == "bash" || name == "which" || name == "git" && p.hasGit() || name == "publish" && p.hasPublish()
}

// pathFiles lists where name is found as a file along PATH, in order,
// as the path bash prints (a relative PATH entry stays relative): our
// commands are in /usr/bin and /bin, and a workspace directory holds a
// file when it is a regular file with an execute bit.
func (p *runProgram) pathFiles(ctx context.Context, hc interp.HandlerContext, name string) []string {
	if strings.Contains(name, "/") || name == "" {
		return nil
	}
	var out []string
	for _, dir := range strings.Split(hc.Env.Get("PATH").String(), ":") {
		shown := strings.TrimSuffix(dir, "/") + "/" + name
		if dir == "" {
			shown = name
		}
		if dir == "/usr/bin" || dir == "/bin" {
			if p.isCommand(name) {
				out = append(out, shown)
			}
			continue
		}
		full := dir
		if dir == "" {
			full = hc.Dir
		} else if !strings.HasPrefix(dir, "/") {
			full = hc.Dir + "/" + dir
		}
		if st, err := p.fs.Stat(ctx, strings.TrimSuffix(full, "/")+"/"+name); err == nil && st.Kind == "file" && st.FMode&0o111 != 0 {
			out = append(out, shown)
		}
	}
	return out
}

// typeCmd is the type builtin: for each name, what running it would run
// (keyword, function, builtin, then the files along PATH), with bash's
// flags: -a all of them, -f no functions, -t the kind only, -p the
// file's path only (nothing for the others), -P files only.
func (p *runProgram) typeCmd(ctx context.Context, hc interp.HandlerContext, args []string, stdout, stderr io.Writer) int {
	var all, noFunc, kindOnly, pathOnly, filesOnly bool
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		for _, c := range args[0][1:] {
			switch c {
			case 'a':
				all = true
			case 'f':
				noFunc = true
			case 't':
				kindOnly = true
			case 'p':
				pathOnly = true
			case 'P':
				filesOnly = true
			default:
				fmt.Fprintf(stderr, "bash: type: -%c: invalid option\ntype: usage: type [-afptP] name [name ...]\n", c)
				return 2
			}
		}
		args = args[1:]
	}
	st := 0
	for _, a := range args {
		type found struct{ kind, desc string }
		var fs []found
		if !filesOnly {
			if syntax.IsKeyword(a) {
				fs = append(fs, found{"keyword", a + " is a shell keyword"})
			}
			if p.funcs[a] && !noFunc {
				fs = append(fs, found{"function", a + " is a function"})
			}
			if interp.IsBuiltin(a) || a == "pwd" {
				fs = append(fs, found{"builtin", a + " is a shell builtin"})
			}
		}
		files := p.pathFiles(ctx, hc, a)
		if filesOnly || pathOnly || len(fs) == 0 || all {
			for _, f := range files {
				fs = append(fs, found{"file", a + " is " + f})
			}
		}
		if len(fs) == 0 {
			if !kindOnly && !pathOnly && !filesOnly {
				fmt.Fprintf(stderr, "bash: type: %s: not found\n", a)
			}
			st = 1
			continue
		}
		if !all {
			fs = fs[:1]
		}
		for _, f := range fs {
			switch {
			case pathOnly || filesOnly:
				if f.kind == "file" {
					fmt.Fprintln(stdout, strings.TrimPrefix(f.desc, a+" is "))
				}
			case kindOnly:
				fmt.Fprintln(stdout, f.kind)
			default:
				fmt.Fprintln(stdout, f.desc)
			}
		}
	}
	return st
}

// commandV is command -v / -V: what type shows first, a file as its path.
func (p *runProgram) commandV(ctx context.Context, hc interp.HandlerContext, args []string, stdout io.Writer) int {
	verbose := args[0] == "-V"
	st := 0
	for _, a := range args[1:] {
		switch {
		case p.funcs[a] || interp.IsBuiltin(a) || syntax.IsKeyword(a) || a == "pwd":
			if verbose {
				p.typeCmd(ctx, hc, []string{a}, stdout, io.Discard)
			} else {
				fmt.Fprintln(stdout, a)
			}
		default:
			files := p.pathFiles(ctx, hc, a)
			if len(files) == 0 {
				st = 1
				continue
			}
			if verbose {
				fmt.Fprintf(stdout, "%s is %s\n", a, files[0])
			} else {
				fmt.Fprintln(stdout, files[0])
			}
		}
	}
	return st
}

// which prints the first file along PATH for each name (-a: all of them).
func (p *runProgram) which(ctx context.Context, hc interp.HandlerContext, args []string, stdout, stderr io.Writer) int {
	st, all := 0, false
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			all = all || strings.Contains(a, "a")
			continue
		}
		files := p.pathFiles(ctx, hc, a)
		if len(files) == 0 {
			st = 1
			continue
		}
		if !all {
			files = files[:1]
		}
		for _, f := range files {
			fmt.Fprintln(stdout, f)
		}
	}
	return st
}
