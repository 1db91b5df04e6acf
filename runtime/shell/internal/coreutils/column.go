package coreutils

import (
	"fmt"
	"strings"
)

func init() {
	register("column", "column [-t] [-s SEP] [FILE]...", column)
}

func column(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "tnx", vals: "so", long: map[string]bool{"table": false, "separator": true, "output-separator": true},
		alias: map[string]string{"table": "t", "separator": "s", "output-separator": "o"}}, args)
	if !ok {
		return 1
	}
	var rows [][]string
	st := e.Inputs(files, func(_ string, b []byte) {
		for _, l := range splitLines(b) {
			if !o.has("t") {
				rows = append(rows, []string{l})
				continue
			}
			var f []string
			if sep := o.last("s", ""); sep != "" {
				for _, x := range strings.FieldsFunc(l, func(r rune) bool { return strings.ContainsRune(sep, r) }) {
					f = append(f, x)
				}
			} else {
				f = strings.Fields(l)
			}
			if len(f) > 0 {
				rows = append(rows, f)
			}
		}
	})
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	osep := o.last("o", "  ")
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-len([]rune(c))))
				b.WriteString(osep)
			}
		}
		fmt.Fprintln(e.Stdout, b.String())
	}
	return st
}
