package awk

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// toNumber converts v for arithmetic.
func toNumber(v value) float64 {
	switch v.k {
	case kNum:
		return v.n
	case kStr, kStrNum:
		n, _ := strtod(v.s)
		return n
	}
	return 0
}

// sprintf formats args with an awk printf format. in may be nil (CONVFMT
// is then "%.6g").
func sprintf(format string, args []value, in *interp) string {
	var b strings.Builder
	ai := 0
	next := func() value {
		if ai < len(args) {
			ai++
			return args[ai-1]
		}
		return value{}
	}
	toS := func(v value) string {
		if in != nil {
			return in.toStr(v)
		}
		if v.k == kNum {
			return numToStr(v.n, "%.6g")
		}
		return v.s
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
		// %[flags][width][.prec]verb
		start := i
		j := i + 1
		var flags []byte
		for j < len(format) && strings.IndexByte("-+ #0'", format[j]) >= 0 {
			if format[j] != '\'' {
				flags = append(flags, format[j])
			}
			j++
		}
		width, prec := -1, -1
		if j < len(format) && format[j] == '*' {
			width = int(toNumber(next()))
			if width < 0 {
				flags = append(flags, '-')
				width = -width
			}
			j++
		} else {
			w := j
			for j < len(format) && isDigit(format[j]) {
				j++
			}
			if j > w {
				width, _ = strconv.Atoi(format[w:j])
			}
		}
		if j < len(format) && format[j] == '.' {
			j++
			if j < len(format) && format[j] == '*' {
				prec = int(toNumber(next()))
				j++
			} else {
				p := j
				for j < len(format) && isDigit(format[j]) {
					j++
				}
				prec, _ = strconv.Atoi(format[p:j])
			}
		}
		// length modifiers are ignored
		for j < len(format) && strings.IndexByte("hlLqjzt", format[j]) >= 0 {
			j++
		}
		if j >= len(format) {
			b.WriteString(format[i:])
			break
		}
		verb := format[j]
		i = j
		width = min(width, 1<<20)
		prec = min(prec, 1<<20)
		spec := func(v byte) string {
			var s strings.Builder
			s.WriteByte('%')
			s.Write(flags)
			if width >= 0 {
				s.WriteString(strconv.Itoa(width))
			}
			if prec >= 0 {
				s.WriteByte('.')
				s.WriteString(strconv.Itoa(prec))
			}
			s.WriteByte(v)
			return s.String()
		}
		switch verb {
		case 'd', 'i':
			n := toNumber(next())
			if math.IsInf(n, 0) || math.IsNaN(n) {
				b.WriteString(pad(specialFloat(n), width, flags))
				continue
			}
			n = math.Trunc(n)
			if n > -9.2e18 && n < 9.2e18 {
				b.WriteString(fmt.Sprintf(spec('d'), int64(n)))
			} else {
				p := prec
				prec = 0
				b.WriteString(fmt.Sprintf(spec('f'), n))
				prec = p
			}
		case 'o', 'x', 'X', 'u':
			n := math.Trunc(toNumber(next()))
			var u uint64
			if n < 0 {
				u = uint64(int64(n))
			} else if n < 1.8e19 {
				u = uint64(n)
			} else {
				u = math.MaxUint64
			}
			if verb == 'u' {
				verb = 'd'
			}
			b.WriteString(fmt.Sprintf(spec(verb), u))
		case 'e', 'E', 'f', 'F':
			n := toNumber(next())
			if math.IsInf(n, 0) || math.IsNaN(n) {
				b.WriteString(pad(specialFloat(n), width, flags))
				continue
			}
			b.WriteString(fmt.Sprintf(spec(verb), n))
		case 'g', 'G':
			n := toNumber(next())
			if math.IsInf(n, 0) || math.IsNaN(n) {
				b.WriteString(pad(specialFloat(n), width, flags))
				continue
			}
			p := prec
			if p < 0 {
				p = 6
			}
			alt := strings.IndexByte(string(flags), '#') >= 0
			s := formatG(math.Abs(n), p, alt, verb == 'G')
			sign := ""
			switch {
			case math.Signbit(n):
				sign = "-"
			case strings.IndexByte(string(flags), '+') >= 0:
				sign = "+"
			case strings.IndexByte(string(flags), ' ') >= 0:
				sign = " "
			}
			if strings.IndexByte(string(flags), '0') >= 0 && strings.IndexByte(string(flags), '-') < 0 && len(sign)+len(s) < width {
				s = strings.Repeat("0", width-len(sign)-len(s)) + s
			}
			b.WriteString(pad(sign+s, width, flags))
		case 'c':
			v := next()
			var s string
			if v.k == kNum || v.k == kStrNum && isNumericStrnum(v) {
				n := toNumber(v)
				if n >= 0 && n < 256 {
					s = string([]byte{byte(n)})
				} else if n >= 256 && n < utf8.MaxRune {
					s = string(rune(n))
				}
			} else {
				str := toS(v)
				if str != "" {
					_, size := utf8.DecodeRuneInString(str)
					s = str[:size]
				}
			}
			b.WriteString(pad(s, width, flags))
		case 's':
			s := toS(next())
			if prec >= 0 && prec < len(s) {
				s = s[:prec]
			}
			b.WriteString(pad(s, width, flags))
		default:
			// unknown conversion: printed as is
			b.WriteString(format[start : j+1])
		}
	}
	return b.String()
}

func isNumericStrnum(v value) bool {
	_, ok := looksNumeric(v.s)
	return ok
}

// pad pads s to width with blanks, on the left unless the flags hold "-".
func pad(s string, width int, flags []byte) string {
	n := utf8.RuneCountInString(s)
	if width <= n {
		return s
	}
	if strings.IndexByte(string(flags), '-') >= 0 {
		return s + strings.Repeat(" ", width-n)
	}
	return strings.Repeat(" ", width-n) + s
}
