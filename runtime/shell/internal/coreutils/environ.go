package coreutils

// What a script learns of where it runs: exit statuses, the environment,
// the (fixed) system, user and host names.

import (
	"fmt"
	"sort"
	"strings"
)

func init() {
	register("true", "true", func(*Env, []string) int { return 0 })
	register("false", "false", func(*Env, []string) int { return 1 })
	register("env", "env [-i] [NAME=VALUE]... [COMMAND [ARG]...]", env)
	register("printenv", "printenv [NAME]...", printenv)
	register("uname", "uname [-a]", func(e *Env, a []string) int { fmt.Fprintln(e.Stdout, "Linux"); return 0 })
	register("whoami", "whoami", func(e *Env, a []string) int { fmt.Fprintln(e.Stdout, "nook"); return 0 })
	register("hostname", "hostname", func(e *Env, a []string) int { fmt.Fprintln(e.Stdout, "nook"); return 0 })
}

func env(e *Env, args []string) int {
	a := args[1:]
	vars := append([]string{}, e.Environ...)
	for len(a) > 0 && (a[0] == "-i" || a[0] == "-" || a[0] == "-u") {
		if a[0] == "-u" && len(a) > 1 {
			name := a[1]
			out := vars[:0]
			for _, v := range vars {
				if !strings.HasPrefix(v, name+"=") {
					out = append(out, v)
				}
			}
			vars = out
			a = a[2:]
			continue
		}
		vars = []string{}
		a = a[1:]
	}
	for len(a) > 0 && strings.Contains(a[0], "=") && !strings.HasPrefix(a[0], "=") {
		vars = append(vars, a[0])
		a = a[1:]
	}
	if len(a) == 0 {
		sort.Strings(vars)
		for _, v := range vars {
			fmt.Fprintln(e.Stdout, v)
		}
		return 0
	}
	return e.ExecContext(WithEnviron(e.Ctx, vars), a, e.Stdin, e.Stdout, e.Stderr)
}

func printenv(e *Env, args []string) int {
	if len(args) == 1 {
		vars := append([]string{}, e.Environ...)
		sort.Strings(vars)
		for _, v := range vars {
			fmt.Fprintln(e.Stdout, v)
		}
		return 0
	}
	st := 0
	for _, n := range args[1:] {
		found := false
		for _, v := range e.Environ {
			if k, val, _ := strings.Cut(v, "="); k == n {
				fmt.Fprintln(e.Stdout, val)
				found = true
			}
		}
		if !found {
			st = 1
		}
	}
	return st
}
