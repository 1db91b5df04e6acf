package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/nookdev/nook/vfs"
)

// command is one subcommand. run defines its flags on fl, parses args with
// a.parse and does the work.
type command struct {
	name     string
	group    string
	synopsis string // after "nook NAME"
	summary  string // one line for "nook help"
	help     string // paragraphs for "nook help NAME"
	run      func(a *app, fl *flag.FlagSet, args []string) error
	// argsEnd makes the first positional argument end the flags, as Go's
	// flag package does, and so does the first flag the command does
	// not define: for commands whose later arguments belong to something
	// else (git's own flags, before and after its command).
	argsEnd bool
	// reads marks a command that only looks at a workspace: it fails when
	// there is none at --db rather than create an empty one (a mistyped
	// path would otherwise list nothing and exit 0).
	reads bool
}

var groups = []string{"Files", "Search", "Host transfer", "Runs", "Model tools", "Workspace"}

// commands lists every command in the order "nook help" shows them; the
// command variables live in the file of their group.
var commands []*command

func register(c ...*command) { commands = append(commands, c...) }

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// usageError is a command-line mistake: exit status 2.
type usageError struct {
	msg string
	cmd *command
}

func (e *usageError) Error() string { return e.msg }

func (a *app) usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...), cmd: a.cmd}
}

// errHelpShown ends a command after -h printed its help.
var errHelpShown = errors.New("help shown")

func (a *app) flagSet(c *command) *flag.FlagSet {
	fl := flag.NewFlagSet("nook "+c.name, flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	return fl
}

// parseOpen parses a command's flags and arguments, then opens the
// workspace: the start of every command that works on one.
func (a *app) parseOpen(fl *flag.FlagSet, args []string, minArgs, maxArgs int) (*vfs.FS, error) {
	if err := a.parse(fl, args, minArgs, maxArgs); err != nil {
		return nil, err
	}
	return a.workspace()
}

// Usage texts of the global flags, which every command accepts too.
const (
	dbUsage   = "workspace database `FILE`, created by the first command that writes; one that only reads fails where there is none (default $NOOK_DB or " + defaultDB + ")"
	jsonUsage = "machine output: one JSON document per command"
	// isolationUsage: where programs run (see the process tier).
	isolationUsage = "run programs in sandboxed worker processes (`process`) or in nook's own (in-process)"
)

// parse parses a command's flags and checks its positional argument count
// (max < 0: no upper bound). Flags may come before, between and after the
// arguments ("nook rm /tmp/x -f"), "--" ends them, and the global flags
// --db and --json are accepted here too. fl.Args() then holds the
// positional arguments.
func (a *app) parse(fl *flag.FlagSet, args []string, minArgs, maxArgs int) error {
	if fl.Lookup("db") == nil {
		fl.StringVar(&a.dbPath, "db", a.dbPath, dbUsage)
	}
	if fl.Lookup("json") == nil {
		fl.BoolVar(&a.json, "json", a.json, jsonUsage)
	}
	if fl.Lookup("isolation") == nil {
		fl.StringVar(&a.isolation, "isolation", a.isolation, isolationUsage)
	}
	pos, err := parseInterleaved(fl, args, a.cmd != nil && a.cmd.argsEnd)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printCommandUsage(a.stdout, a.cmd, fl)
			return errHelpShown
		}
		return a.usagef("%s: %v", a.cmd.name, err)
	}
	n := len(pos)
	switch {
	case n < minArgs:
		return a.usagef("%s: missing argument", a.cmd.name)
	case maxArgs >= 0 && n > maxArgs:
		return a.usagef("%s: unexpected argument %q", a.cmd.name, pos[maxArgs])
	}
	return nil
}

// parseInterleaved parses the flags of fl found anywhere in args and leaves
// the other arguments, in order, as fl.Args(). A "-" alone is an argument
// (standard input); "--" ends the flags, and so does the first argument
// when argsEnd is set, as does the first flag fl does not define (which
// belongs to the command that follows: git's --no-pager, -P, --git-dir).
//
// It is a loop over Go's flag package, which stops at the first argument,
// rather than another flag library: each flag (with its value, when it
// takes one) is handed to fl.Parse in turn, so every flag keeps Go's
// syntax (-f, --flag, -flag=value, --flag value) and messages, and the
// commands keep defining their flags on a *flag.FlagSet.
func parseInterleaved(fl *flag.FlagSet, args []string, argsEnd bool) ([]string, error) {
	var pos []string
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if len(arg) < 2 || arg[0] != '-' {
			if argsEnd {
				pos = append(pos, args[i:]...)
				break
			}
			pos = append(pos, arg)
			continue
		}
		n := 1
		name, _, hasValue := strings.Cut(strings.TrimPrefix(arg[1:], "-"), "=")
		if argsEnd && fl.Lookup(name) == nil && name != "h" && name != "help" {
			// A flag of the command's own (git --no-pager) ends ours.
			pos = append(pos, args[i:]...)
			break
		}
		if f := fl.Lookup(name); f != nil && !hasValue && !isBoolFlag(f) && i+1 < len(args) {
			n = 2 // the value is the next argument, whatever it looks like
		}
		if err := fl.Parse(args[i : i+n]); err != nil {
			return nil, err
		}
		i += n - 1
	}
	// Leave the arguments as fl.Args().
	if err := fl.Parse(append([]string{"--"}, pos...)); err != nil {
		return nil, err
	}
	return pos, nil
}

// subcommand splits the arguments of a command with subcommands (runs,
// approvals, tools) into the subcommand and the rest, letting global flags
// come before the subcommand ("nook runs --json ls"). It returns "" when
// no subcommand comes first after them (a stray flag, -h, nothing).
func subcommand(args []string) (string, []string) {
	var global []string
	for i := 0; i < len(args); i++ {
		arg := args[i]
		name, _, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(arg, "-"), "-"), "=")
		switch {
		case !strings.HasPrefix(arg, "-"):
			return arg, append(global, args[i+1:]...)
		case name == "json":
			global = append(global, arg)
		case name == "db" && hasValue:
			global = append(global, arg)
		case name == "db" && i+1 < len(args):
			global = append(global, arg, args[i+1])
			i++
		default:
			return "", args
		}
	}
	return "", args
}

// isBoolFlag reports whether f takes no value (-f rather than -f VALUE).
func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

func printCommandUsage(w io.Writer, c *command, fl *flag.FlagSet) {
	fmt.Fprintf(w, "usage: nook %s %s\n\n%s\n", c.name, c.synopsis, c.summary)
	if c.help != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(c.help))
	}
	if fl != nil {
		printFlags(w, fl, "Flags (anywhere on the line; -- ends them)")
	}
}

// printFlags lists a flag set: one-letter flags with one dash, longer ones
// with two (Go's flag package accepts either form).
func printFlags(w io.Writer, fl *flag.FlagSet, title string) {
	var lines []string
	fl.VisitAll(func(f *flag.Flag) {
		if title != globalTitle && (f.Name == "db" && f.Usage == dbUsage || f.Name == "json" && f.Usage == jsonUsage ||
			f.Name == "isolation" && f.Usage == isolationUsage) {
			return // listed by "nook help"
		}
		name, usage := flag.UnquoteUsage(f)
		dash := "--"
		if len(f.Name) == 1 {
			dash = "-"
		}
		head := dash + f.Name
		if name != "" {
			head += " " + name
		}
		line := fmt.Sprintf("  %-18s %s", head, usage)
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "[]" && !strings.Contains(usage, "default") {
			line += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		lines = append(lines, line)
	})
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s:\n%s\n", title, strings.Join(lines, "\n"))
}

// globalTitle heads the list of global flags.
const globalTitle = "Global flags (before or after COMMAND)"

func printMainUsage(w io.Writer, g *flag.FlagSet) {
	fmt.Fprint(w, `nook: a durable sandboxed workspace for AI agents

usage: nook [--db FILE] [--json] COMMAND [flags] [args]

A workspace is one SQLite file holding a virtual filesystem. Workspace paths
are absolute; a relative PATH is taken from the root (/). Flags may come
before or after the arguments ("nook rm /dir -r"); "--" ends them, so
"nook rm -- -f" removes the file /-f.
`)
	printFlags(w, g, globalTitle)
	for _, grp := range groups {
		fmt.Fprintf(w, "\n%s:\n", grp)
		for _, c := range commands {
			if c.group == grp {
				fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
			}
		}
	}
	fmt.Fprint(w, `
Run "nook help COMMAND" or "nook COMMAND -h" for one command.
Exit status: 0 ok, 1 an operation failed (the message ends with its POSIX
code, e.g. "(ENOENT)") or grep found nothing, 2 usage error; exec and runs
tail exit with the run's exit code (124 timed out, 130 cancelled).
`)
}

func cmdHelp(a *app, g *flag.FlagSet, args []string) error {
	switch len(args) {
	case 0:
		printMainUsage(a.stdout, g)
		return nil
	case 1:
		if args[0] == "help" {
			printCommandUsage(a.stdout, a.cmd, nil)
			return nil
		}
		c := lookup(args[0])
		if c == nil {
			return a.usagef("help: unknown command %q", args[0])
		}
		// Every command prints its own usage, flags included, for -h.
		sub := &app{ctx: a.ctx, stdin: a.stdin, stdout: a.stdout, stderr: a.stderr, dbPath: a.dbPath, cmd: c}
		return c.run(sub, sub.flagSet(c), []string{"-h"})
	}
	return a.usagef("help: too many arguments")
}

func init() {
	register(
		cmdPut, cmdCat, cmdLs, cmdStat, cmdMkdir, cmdRm, cmdMv, cmdLn,
		cmdFind, cmdGrep,
		cmdImport, cmdExport,
		cmdExec, cmdRuns, cmdUndo, cmdApprovals, cmdReplay, cmdConformance,
		cmdMCP, cmdServe, cmdTools, cmdTool, cmdNode, cmdFleet,
		cmdDemo, cmdChanges, cmdCheckpoint, cmdCheckpoints, cmdRestore, cmdDiff, cmdFork, cmdUsage, cmdStatus, cmdGC, cmdVersion, cmdGit,
		&command{
			name: "help", group: "Workspace", synopsis: "[COMMAND]",
			summary: "show help for nook or for one command",
		},
	)
}

// stringList is a repeatable string flag (--exclude A --exclude B).
type stringList []string

func (s *stringList) String() string { return strings.Join(*s, ",") }

func (s *stringList) Set(v string) error {
	*s = append(*s, v)
	return nil
}

// modeFlag is an octal permission flag (--mode 0755).
type modeFlag struct{ v uint32 }

func (m *modeFlag) String() string {
	if m == nil || m.v == 0 {
		return ""
	}
	return fmt.Sprintf("%04o", m.v)
}

func (m *modeFlag) Set(s string) error {
	n, err := strconv.ParseUint(s, 8, 32)
	if err != nil || n > 0o7777 {
		return fmt.Errorf("mode %q: want octal permission bits such as 0644 (at most 7777)", s)
	}
	m.v = uint32(n)
	return nil
}
