package coreutils

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

func init() {
	register("timeout", "timeout [-v] [-s SIGNAL] [-k DURATION] [--preserve-status] [--foreground] DURATION COMMAND [ARG]...\n"+
		"DURATION is a number with an optional suffix s, m, h or d (0 disables the timeout). When it runs out, COMMAND and\n"+
		"everything it started stop, and timeout exits with 124 (128+9 with -s KILL).", timeoutCmd)
}

// signals are the names timeout -s accepts, with their numbers.
var signals = map[string]int{"HUP": 1, "INT": 2, "QUIT": 3, "KILL": 9, "USR1": 10, "USR2": 12, "ALRM": 14, "TERM": 15}

func parseDuration(s string) (time.Duration, bool) {
	unit := time.Second
	switch {
	case strings.HasSuffix(s, "s"):
		s = s[:len(s)-1]
	case strings.HasSuffix(s, "m"):
		unit, s = time.Minute, s[:len(s)-1]
	case strings.HasSuffix(s, "h"):
		unit, s = time.Hour, s[:len(s)-1]
	case strings.HasSuffix(s, "d"):
		unit, s = 24*time.Hour, s[:len(s)-1]
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 {
		return 0, false
	}
	return time.Duration(v * float64(unit)), true
}

func timeoutCmd(e *Env, args []string) int {
	o, ops, ok := e.parse(&flagSpec{bools: "v", vals: "sk", noPermute: true, long: map[string]bool{"signal": true, "kill-after": true,
		"preserve-status": false, "foreground": false, "verbose": false},
		alias: map[string]string{"signal": "s", "kill-after": "k", "verbose": "v"}}, args)
	if !ok {
		return 125
	}
	sig := strings.TrimPrefix(strings.ToUpper(o.last("s", "TERM")), "SIG")
	signum, known := signals[sig]
	if n, err := strconv.Atoi(sig); err == nil {
		signum, known = n, n > 0 && n < 65
		for name, v := range signals {
			if v == n {
				sig = name
			}
		}
	}
	if !known {
		e.Errf("%s: invalid signal", o.last("s", ""))
		return 125
	}
	if k := o.last("k", ""); k != "" {
		if _, ok := parseDuration(k); !ok {
			e.Errf("invalid time interval '%s'", k)
			return 125
		}
	}
	if len(ops) < 2 {
		if len(ops) == 0 {
			e.Errf("missing operand")
		} else {
			e.Errf("missing operand after '%s'", ops[0])
		}
		return 125
	}
	d, ok := parseDuration(ops[0])
	if !ok {
		e.Errf("invalid time interval '%s'", ops[0])
		return 125
	}
	ctx, cancel := context.WithCancel(e.Ctx)
	defer cancel()
	if d > 0 {
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	// A command blocked reading a pipe returns when the time is up.
	if f, ok := e.Stdin.(*os.File); ok {
		stop := context.AfterFunc(ctx, func() { f.SetReadDeadline(time.Now()) })
		defer func() {
			if !stop() {
				f.SetReadDeadline(time.Time{})
			}
		}()
	}
	st := e.ExecContext(ctx, ops[1:], e.Stdin, e.Stdout, e.Stderr)
	if e.Ctx.Err() != nil || ctx.Err() == nil {
		return st
	}
	if o.has("v") {
		fmt.Fprintf(e.Stderr, "timeout: sending signal %s to command '%s'\n", sig, ops[1])
	}
	switch {
	case o.has("preserve-status"):
		return 128 + signum
	case signum == 9:
		return 137
	}
	return 124
}
