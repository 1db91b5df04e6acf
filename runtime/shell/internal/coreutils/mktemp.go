package coreutils

import (
	"fmt"
	"strings"
)

func init() {
	register("mktemp", "mktemp [-d] [-p DIR] [TEMPLATE]", mktemp)
}

func mktemp(e *Env, args []string) int {
	o, ops, ok := e.parse(&flagSpec{bools: "dqtu", vals: "p", long: map[string]bool{"directory": false, "tmpdir": true, "suffix": true},
		alias: map[string]string{"directory": "d", "tmpdir": "p"}}, args)
	if !ok {
		return 1
	}
	tmpl := "tmp.XXXXXXXXXX"
	dir := ""
	if len(ops) > 0 {
		tmpl = ops[0]
	}
	if o.has("p") || o.has("t") || len(ops) == 0 {
		dir = o.last("p", e.Getenv("TMPDIR"))
		if dir == "" {
			dir = e.FS.Root() + "/.tmp"
		}
		if err := e.FS.Mkdir(e.Ctx, e.Abs(dir), true); err != nil {
			e.Errf("failed to create directory via template '%s': %s", tmpl, textOf(err))
			return 1
		}
	}
	n := len(tmpl) - len(strings.TrimRight(tmpl, "X"))
	if n < 3 {
		e.Errf("too few X's in template '%s'", tmpl)
		return 1
	}
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	for try := 0; try < 100; try++ {
		rnd := make([]byte, n)
		e.Random(rnd)
		for i := range rnd {
			rnd[i] = letters[int(rnd[i])%len(letters)]
		}
		name := tmpl[:len(tmpl)-n] + string(rnd) + o.last("suffix", "")
		if dir != "" {
			name = strings.TrimSuffix(dir, "/") + "/" + name
		}
		var err error
		if o.has("d") {
			err = e.FS.Mkdir(e.Ctx, e.Abs(name), false)
		} else {
			err = e.FS.WriteFile(e.Ctx, e.Abs(name), nil, "wx")
		}
		if codeOf(err) == "EEXIST" {
			continue
		}
		if err != nil {
			e.Errf("failed to create file via template '%s': %s", tmpl, textOf(err))
			return 1
		}
		fmt.Fprintln(e.Stdout, name)
		return 0
	}
	return 1
}
