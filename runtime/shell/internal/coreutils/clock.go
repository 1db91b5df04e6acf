package coreutils

// The clock commands: sleep waits (not at all under virtual time), date
// prints the run's clock.

import (
	"fmt"
	"strings"
	"time"
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

// strftime renders the date(1) format directives models use.
func strftime(f string, t time.Time) string {
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 >= len(f) {
			b.WriteByte(f[i])
			continue
		}
		i++
		pad := true
		if f[i] == '-' && i+1 < len(f) {
			pad = false
			i++
		}
		num := func(v, w int) {
			if pad {
				fmt.Fprintf(&b, "%0*d", w, v)
			} else {
				fmt.Fprint(&b, v)
			}
		}
		switch f[i] {
		case 'Y':
			fmt.Fprint(&b, t.Year())
		case 'y':
			num(t.Year()%100, 2)
		case 'm':
			num(int(t.Month()), 2)
		case 'd':
			num(t.Day(), 2)
		case 'e':
			fmt.Fprintf(&b, "%2d", t.Day())
		case 'H':
			num(t.Hour(), 2)
		case 'I':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			num(h, 2)
		case 'M':
			num(t.Minute(), 2)
		case 'S':
			num(t.Second(), 2)
		case 'N':
			fmt.Fprintf(&b, "%09d", t.Nanosecond())
		case 's':
			fmt.Fprint(&b, t.Unix())
		case 'j':
			num(t.YearDay(), 3)
		case 'U': // week of the year, Sunday first
			num((t.YearDay()+6-int(t.Weekday()))/7, 2)
		case 'W': // week of the year, Monday first
			num((t.YearDay()+6-(int(t.Weekday())+6)%7)/7, 2)
		case 'a':
			b.WriteString(t.Format("Mon"))
		case 'A':
			b.WriteString(t.Format("Monday"))
		case 'b', 'h':
			b.WriteString(t.Format("Jan"))
		case 'B':
			b.WriteString(t.Format("January"))
		case 'p':
			b.WriteString(t.Format("PM"))
		case 'Z':
			b.WriteString(t.Format("MST"))
		case 'z':
			b.WriteString(t.Format("-0700"))
		case 'F':
			b.WriteString(t.Format("2006-01-02"))
		case 'T':
			b.WriteString(t.Format("15:04:05"))
		case 'D':
			b.WriteString(t.Format("01/02/06"))
		case 'R':
			b.WriteString(t.Format("15:04"))
		case 'u':
			wd := int(t.Weekday())
			if wd == 0 {
				wd = 7
			}
			fmt.Fprint(&b, wd)
		case 'w':
			fmt.Fprint(&b, int(t.Weekday()))
		case 'c':
			b.WriteString(t.Format("Mon Jan _2 15:04:05 2006"))
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(f[i])
		}
	}
	return b.String()
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
	fmt.Fprintln(e.Stdout, strings.ReplaceAll(strftime(format, t), "%:z", "+00:00"))
	return 0
}
