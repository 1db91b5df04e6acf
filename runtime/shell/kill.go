package shell

import (
	"fmt"
	"strconv"
	"strings"
)

// signalNames are Linux's signals by number, as bash's kill -l names them.
var signalNames = []string{"EXIT", "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1",
	"SEGV", "USR2", "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "URG",
	"XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS"}

// signalNumber reads a signal as bash's kill does: a number, or a name
// with or without SIG, in any case; -1 when it is neither.
func signalNumber(s string) int {
	if n, err := strconv.Atoi(s); err == nil {
		if n >= 0 && n < len(signalNames) {
			return n
		}
		return -1
	}
	u := strings.TrimPrefix(strings.ToUpper(s), "SIG")
	for i, name := range signalNames {
		if name == u {
			return i
		}
	}
	return -1
}

// killCmd is the kill builtin, which the interpreter lacks. kill -l and
// -L list the signals or translate between their names and numbers (an
// exit status above 128 names the signal that ended a process), as bash
// does. Sending a signal is refused: the sandbox's jobs are not processes
// (exit status 1, with why).
func killCmd(args []string) []string {
	if len(args) > 0 && (args[0] == "-l" || args[0] == "-L") {
		args = args[1:]
		if len(args) == 0 {
			var b strings.Builder
			for i := 1; i < len(signalNames); i++ {
				fmt.Fprintf(&b, "%2d) SIG%s", i, signalNames[i])
				if i%5 == 0 || i == len(signalNames)-1 {
					b.WriteString("\n")
				} else {
					b.WriteString("\t")
				}
			}
			return []string{"__nook_printf", "%s", b.String()}
		}
		var out, errs []string
		for _, a := range args {
			if n, err := strconv.Atoi(a); err == nil {
				if n > 128 {
					n -= 128
				}
				if n >= 0 && n < len(signalNames) {
					out = append(out, signalNames[n])
					continue
				}
			} else if n := signalNumber(a); n > 0 {
				out = append(out, strconv.Itoa(n))
				continue
			}
			errs = append(errs, "bash: kill: "+a+": invalid signal specification")
		}
		return output(out, errs)
	}
	sig := "TERM"
	switch {
	case len(args) > 1 && (args[0] == "-s" || args[0] == "-n"):
		sig, args = args[1], args[2:]
	case len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 && args[0] != "--":
		sig, args = args[0][1:], args[1:]
	case len(args) > 0 && args[0] == "--":
		args = args[1:]
	}
	if signalNumber(sig) < 0 {
		return fail(1, "bash: kill: "+sig+": invalid signal specification")
	}
	if len(args) == 0 {
		return fail(2, "kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]")
	}
	for _, a := range args {
		// $! of a background job is "gN" (the interpreter's job id).
		_, err := strconv.Atoi(strings.TrimPrefix(a, "g"))
		if err != nil && !strings.HasPrefix(a, "%") {
			return fail(1, "bash: kill: "+a+": arguments must be process or job IDs")
		}
	}
	return fail(1, "bash: kill: ("+strings.Join(args, " ")+") - signals cannot be sent in the sandbox (its background jobs are not processes)")
}

// output is a builtin's result: the lines out on stdout and the errors
// errs on stderr, with status 1 when there are errors.
func output(out, errs []string) []string {
	text := ""
	if len(out) > 0 {
		text = strings.Join(out, "\n") + "\n"
	}
	if len(errs) == 0 {
		return []string{"__nook_printf", "%s", text}
	}
	return []string{"__nook_output", text, strings.Join(errs, "\n")}
}
