package coreutils

// The clock commands: sleep waits (not at all under virtual time), date
// prints the run's clock.

import (
	"fmt"
	"strings"
	"time"

	"github.com/nookdev/nook/runtime/shell/internal/strftime"
)

func init() {
	register("sleep", "sleep NUMBER[smhd]...", sleep)
	register("date", "date [-u] [-d DATE] [+FORMAT]", date)
}

func sleep(e *Env, args []string) int {
	var total time.Duration
	for _, a := range args[1:] {
		d, ok := parseDuration(a)
		if !ok {
			e.Errf("invalid time interval '%s'", a)
			return 1
		}
		total += d
	}
	if e.VirtualTime {
		return 0
	}
	t := time.NewTimer(total)
	defer t.Stop()
	select {
	case <-t.C:
		return 0
	case <-e.Ctx.Done():
		return 1
	}
}

func date(e *Env, args []string) int {
	o, ops, ok := e.parse(&flagSpec{bools: "uRI", vals: "dr", long: map[string]bool{"utc": false, "date": true, "iso-8601": false, "rfc-3339": true, "reference": true},
		alias: map[string]string{"utc": "u", "date": "d", "reference": "r"}}, args)
	if !ok {
		return 1
	}
	t := e.Now().UTC()
	if o.has("d") {
		v, ok := parseDate(o.last("d", ""), t)
		if !ok {
			e.Errf("invalid date '%s'", o.last("d", ""))
			return 1
		}
		t = v.UTC()
	}
	if o.has("r") {
		fi, err := e.FS.Stat(e.Ctx, e.Abs(o.last("r", "")))
		if err != nil {
			e.FileErr(o.last("r", ""), err)
			return 1
		}
		t = fi.ModTime().UTC()
	}
	format := "%a %b %e %H:%M:%S %Z %Y"
	switch {
	case o.has("I") || o.has("iso-8601"):
		format = "%F"
	case o.has("R"):
		format = "%a, %d %b %Y %H:%M:%S %z"
	case o.has("rfc-3339"):
		format = "%F %T%:z"
		if o.last("rfc-3339", "") == "date" {
			format = "%F"
		}
	}
	for _, a := range ops {
		if strings.HasPrefix(a, "+") {
			format = a[1:]
		}
	}
	fmt.Fprintln(e.Stdout, strftime.Format(format, t))
	return 0
}
