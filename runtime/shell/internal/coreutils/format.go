package coreutils

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
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

// formatShell is bash's printf: C formats plus %b (escapes in the
// argument) and %q (shell-quoted); "\c" in a %b argument stops output.
func formatShell(format string, args []any) (string, int, bool) {
	var b strings.Builder
	used := 0
	rest := format
	for rest != "" {
		i := strings.IndexByte(rest, '%')
		if i < 0 {
			b.WriteString(rest)
			break
		}
		b.WriteString(rest[:i])
		rest = rest[i:]
		j := 1
		for j < len(rest) && strings.IndexByte("-+ #0123456789.*", rest[j]) >= 0 {
			j++
		}
		if j >= len(rest) {
			b.WriteString(rest)
			break
		}
		spec, verb := rest[:j], rest[j]
		rest = rest[j+1:]
		arg := func() any {
			if used < len(args) {
				used++
				return args[used-1]
			}
			return nil
		}
		switch verb {
		case '%':
			b.WriteByte('%')
		case 'b':
			s := toStr(arg())
			stop := false
			if k := strings.Index(s, `\c`); k >= 0 {
				s, stop = s[:k], true
			}
			fmt.Fprintf(&b, spec+"s", unescapeC(s, true))
			if stop {
				return b.String(), used, true
			}
		case 'q':
			fmt.Fprintf(&b, spec+"s", shellQuote(toStr(arg())))
		case 'd', 'i', 'o', 'x', 'X', 'u', 'c', 'e', 'E', 'f', 'F', 'g', 'G', 's':
			var list []any
			nStar := strings.Count(spec, "*")
			for k := 0; k < nStar; k++ {
				list = append(list, toNumArg(arg()))
			}
			a := arg()
			if a == nil {
				if verb == 's' || verb == 'c' {
					a = ""
				} else {
					a = "0"
				}
			}
			if verb != 's' && verb != 'c' {
				a = toNumArg(a)
			}
			list = append(list, a)
			s, _, _ := formatC(spec+string(verb), list)
			b.WriteString(s)
		default:
			b.WriteString(spec + string(verb))
		}
	}
	return b.String(), used, false
}

func toNumArg(a any) any {
	s, ok := a.(string)
	if !ok {
		return a
	}
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') {
		return float64([]rune(s[1:])[0])
	}
	if v, err := strconv.ParseInt(s, 0, 64); err == nil {
		return float64(v)
	}
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

// shellQuote quotes s as bash's printf %q does (in a UTF-8 locale): as
// $'...' when s holds a control character or a byte that is not UTF-8,
// else with a backslash before each character the shell would read as
// syntax ('~' at the start or after ':' or '=', '#' at the start only).
func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	if strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f || r == utf8.RuneError }) {
		var b strings.Builder
		b.WriteString("$'")
		for i := 0; i < len(s); {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size <= 1 {
				fmt.Fprintf(&b, "\\%03o", s[i])
				i++
				continue
			}
			switch r {
			case '\a':
				b.WriteString(`\a`)
			case '\b':
				b.WriteString(`\b`)
			case 0x1b:
				b.WriteString(`\E`)
			case '\f':
				b.WriteString(`\f`)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			case '\v':
				b.WriteString(`\v`)
			case '\\':
				b.WriteString(`\\`)
			case '\'':
				b.WriteString(`\'`)
			default:
				if r < 0x20 || r == 0x7f {
					fmt.Fprintf(&b, "\\%03o", r)
				} else {
					b.WriteString(s[i : i+size])
				}
			}
			i += size
		}
		return b.String() + "'"
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case strings.ContainsRune(" \t'\"\\$`!&|;()<>*?[]{}^,", r),
			r == '~' && (i == 0 || s[i-1] == ':' || s[i-1] == '='),
			r == '#' && i == 0:
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Sprintf formats args with bash printf's rules (printf -v).
func Sprintf(format string, args []string) string {
	format = unescapeC(format, true)
	var b strings.Builder
	for {
		vals := make([]any, len(args))
		for i, r := range args {
			vals[i] = r
		}
		s, n, stop := formatShell(format, vals)
		b.WriteString(s)
		if stop || n <= 0 || n >= len(args) {
			return b.String()
		}
		args = args[n:]
	}
}
