package coreutils

import (
	"fmt"
	"strconv"
	"strings"
)

// formatC formats args with a C printf format (awk's printf and sprintf,
// seq -f): %d %i %o %x %X %u %c %s %e %f %g %E %G %%, with flags, width
// and precision (also "*"). Numbers may come as float64 or strings.
func formatC(format string, args []any) (string, int, error) {
	var b strings.Builder
	ai := 0
	next := func() any {
		if ai < len(args) {
			ai++
			return args[ai-1]
		}
		return nil
	}
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		if i+1 < len(format) && format[i+1] == '%' {
			b.WriteByte('%')
			i++
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("-+ #0", format[j]) >= 0 {
			j++
		}
		spec := format[i:j]
		for j < len(format) && (format[j] >= '0' && format[j] <= '9' || format[j] == '*') {
			if format[j] == '*' {
				spec += strconv.Itoa(int(toNum(next())))
			} else {
				spec += string(format[j])
			}
			j++
		}
		if j < len(format) && format[j] == '.' {
			spec += "."
			j++
			for j < len(format) && (format[j] >= '0' && format[j] <= '9' || format[j] == '*') {
				if format[j] == '*' {
					spec += strconv.Itoa(int(toNum(next())))
				} else {
					spec += string(format[j])
				}
				j++
			}
		}
		for j < len(format) && strings.IndexByte("hlLqjzt", format[j]) >= 0 {
			j++
		}
		if j >= len(format) {
			b.WriteString(format[i:])
			break
		}
		verb := format[j]
		i = j
		switch verb {
		case 'd', 'i':
			fmt.Fprintf(&b, spec+"d", int64(toNum(next())))
		case 'o', 'x', 'X':
			fmt.Fprintf(&b, spec+string(verb), int64(toNum(next())))
		case 'u':
			fmt.Fprintf(&b, spec+"d", uint64(int64(toNum(next()))))
		case 'e', 'E', 'f', 'F', 'g', 'G':
			v := verb
			if v == 'F' {
				v = 'f'
			}
			fmt.Fprintf(&b, spec+string(v), toNum(next()))
		case 'c':
			a := next()
			s := ""
			switch v := a.(type) {
			case float64:
				s = string(rune(int(v)))
			case string:
				if v != "" {
					s = string([]rune(v)[0])
				}
			}
			fmt.Fprintf(&b, spec+"s", s)
		case 's':
			fmt.Fprintf(&b, spec+"s", toStr(next()))
		default:
			b.WriteString(format[i-len(spec)+1 : j+1])
		}
	}
	return b.String(), ai, nil
}

func toNum(a any) float64 {
	switch v := a.(type) {
	case float64:
		return v
	case int:
		return float64(v)
	case string:
		return numPrefix(v)
	}
	return 0
}

func toStr(a any) string {
	switch v := a.(type) {
	case string:
		return v
	case float64:
		return fmtNum(v, "%.6g")
	case nil:
		return ""
	}
	return fmt.Sprint(a)
}

// fmtNum renders a number as awk does: integers without a fraction, others
// with the given format (CONVFMT/OFMT).
func fmtNum(v float64, f string) string {
	if v == float64(int64(v)) && v < 1e16 && v > -1e16 {
		return strconv.FormatInt(int64(v), 10)
	}
	s, _, _ := formatC(f, []any{v})
	return s
}
