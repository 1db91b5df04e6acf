// Package strftime formats times with the conversions of C's strftime as
// GNU date(1) and gawk's strftime() print them in the C locale: the shell's
// date command and awk's strftime() both format through Format.
//
// A conversion is '%', optional flags, an optional width, an optional E or
// O modifier (accepted and ignored, as in the C locale), and a conversion
// character. Flags: '-' no padding, '_' pad with spaces, '0' pad with zeros,
// '+' as '0', '^' upper case, '#' swap case (names upper case, %Z and %p lower case).
// GNU's %:z, %::z and %:::z give the offset with colons. An unknown
// conversion is copied through as written, as GNU date does.
package strftime

import (
	"strconv"
	"strings"
	"time"
)

// Format renders format for t.
func Format(format string, t time.Time) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 >= len(format) {
			b.WriteByte(c)
			continue
		}
		start := i
		i++
		var flag byte
		upper, swap := false, false
	flags:
		for ; i < len(format); i++ {
			switch format[i] {
			case '-', '_', '0':
				flag = format[i]
			case '+':
				flag = '0'
			case '^':
				upper = true
			case '#':
				swap = true
			default:
				break flags
			}
		}
		width := -1
		for ; i < len(format) && format[i] >= '0' && format[i] <= '9'; i++ {
			if width < 0 {
				width = 0
			}
			if width < 1<<16 {
				width = width*10 + int(format[i]-'0')
			}
		}
		colons := 0
		for ; i < len(format) && format[i] == ':' && colons < 3; i++ {
			colons++
		}
		if i < len(format) && (format[i] == 'E' || format[i] == 'O') && colons == 0 {
			i++
		}
		if i >= len(format) {
			b.WriteString(format[start:])
			break
		}
		conv := format[i]
		if colons > 0 && conv != 'z' {
			b.WriteString(format[start : i+1])
			continue
		}
		s, ok := conversion(conv, colons, width, flag, t)
		if !ok {
			b.WriteString(format[start : i+1])
			continue
		}
		switch {
		case upper:
			s.text = strings.ToUpper(s.text)
		case swap && (conv == 'Z' || conv == 'p'):
			s.text = strings.ToLower(s.text)
		case swap && s.name:
			s.text = strings.ToUpper(s.text)
		}
		b.WriteString(pad(s, flag, width))
	}
	return b.String()
}

// field is one converted value with its default padding.
type field struct {
	text  string
	width int  // default width
	zero  bool // padded with zeros by default (else spaces)
	num   bool // numeric: the flags choose its padding
	name  bool // a name (%a, %b, ...): '#' upper-cases it
}

func pad(f field, flag byte, width int) string {
	w := f.width
	fill := byte(' ')
	if f.zero {
		fill = '0'
	}
	switch flag {
	case '-':
		if f.num {
			return f.text
		}
	case '_':
		fill = ' '
	case '0':
		if f.num || width >= 0 {
			fill = '0'
		}
	}
	if width >= 0 {
		w = width
	}
	neg := f.num && strings.HasPrefix(f.text, "-")
	if len(f.text) >= w {
		return f.text
	}
	if neg && fill == '0' {
		return "-" + strings.Repeat("0", w-len(f.text)) + f.text[1:]
	}
	if !f.num && fill == '0' && flag != '0' {
		fill = ' '
	}
	return strings.Repeat(string(fill), w-len(f.text)) + f.text
}

func num(v, width int) field {
	return field{text: strconv.Itoa(v), width: width, zero: true, num: true}
}

func spaced(v, width int) field {
	return field{text: strconv.Itoa(v), width: width, num: true}
}

func text(s string) field { return field{text: s} }

func name(s string) field { return field{text: s, name: true} }

// conversion converts one conversion character; ok is false for an
// unknown one.
func conversion(c byte, colons, width int, flag byte, t time.Time) (f field, ok bool) {
	switch c {
	case 'Y':
		return num(t.Year(), 4), true
	case 'C':
		return num(floorDiv(t.Year(), 100), 2), true
	case 'y':
		return num(mod(t.Year(), 100), 2), true
	case 'G':
		y, _ := t.ISOWeek()
		return num(y, 4), true
	case 'g':
		y, _ := t.ISOWeek()
		return num(mod(y, 100), 2), true
	case 'm':
		return num(int(t.Month()), 2), true
	case 'd':
		return num(t.Day(), 2), true
	case 'e':
		return spaced(t.Day(), 2), true
	case 'H':
		return num(t.Hour(), 2), true
	case 'k':
		return spaced(t.Hour(), 2), true
	case 'I':
		return num(hour12(t), 2), true
	case 'l':
		return spaced(hour12(t), 2), true
	case 'M':
		return num(t.Minute(), 2), true
	case 'S':
		return num(t.Second(), 2), true
	case 'N':
		digits := strconv.Itoa(1_000_000_000 + t.Nanosecond())[1:]
		if width > 0 && width < 9 {
			digits = digits[:width]
		}
		return field{text: digits, width: len(digits), zero: true}, true
	case 's':
		return num(int(t.Unix()), 1), true
	case 'j':
		return num(t.YearDay(), 3), true
	case 'U': // week of the year, weeks starting on Sunday
		return num((t.YearDay()+6-int(t.Weekday()))/7, 2), true
	case 'W': // week of the year, weeks starting on Monday
		return num((t.YearDay()+6-(int(t.Weekday())+6)%7)/7, 2), true
	case 'V':
		_, w := t.ISOWeek()
		return num(w, 2), true
	case 'u':
		wd := int(t.Weekday())
		if wd == 0 {
			wd = 7
		}
		return num(wd, 1), true
	case 'w':
		return num(int(t.Weekday()), 1), true
	case 'q':
		return num((int(t.Month())+2)/3, 1), true
	case 'a':
		return name(t.Weekday().String()[:3]), true
	case 'A':
		return name(t.Weekday().String()), true
	case 'b', 'h':
		return name(t.Month().String()[:3]), true
	case 'B':
		return name(t.Month().String()), true
	case 'p':
		if t.Hour() < 12 {
			return text("AM"), true
		}
		return text("PM"), true
	case 'P':
		if t.Hour() < 12 {
			return text("am"), true
		}
		return text("pm"), true
	case 'Z':
		zone, _ := t.Zone()
		return text(zone), true
	case 'z':
		return field{text: offset(t, colons), num: true, zero: true}, true
	case 'F':
		return text(Format("%Y-%m-%d", t)), true
	case 'T':
		return text(Format("%H:%M:%S", t)), true
	case 'D', 'x':
		return text(Format("%m/%d/%y", t)), true
	case 'R':
		return text(Format("%H:%M", t)), true
	case 'r':
		return text(Format("%I:%M:%S %p", t)), true
	case 'X':
		return text(Format("%H:%M:%S", t)), true
	case 'c':
		return text(Format("%a %b %e %H:%M:%S %Y", t)), true
	case 'n':
		return text("\n"), true
	case 't':
		return text("\t"), true
	case '%':
		return text("%"), true
	}
	return field{}, false
}

func hour12(t time.Time) int {
	h := t.Hour() % 12
	if h == 0 {
		h = 12
	}
	return h
}

// offset is the zone offset: +hhmm, or with colons +hh:mm, +hh:mm:ss and
// (:::) the shortest of +hh, +hh:mm, +hh:mm:ss that is exact.
func offset(t time.Time, colons int) string {
	_, off := t.Zone()
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	h, m, s := off/3600, off/60%60, off%60
	two := func(v int) string { return strconv.Itoa(100 + v)[1:] }
	out := string(sign) + two(h)
	switch colons {
	case 0:
		return out + two(m)
	case 1:
		return out + ":" + two(m)
	case 2:
		return out + ":" + two(m) + ":" + two(s)
	}
	if s != 0 {
		return out + ":" + two(m) + ":" + two(s)
	}
	if m != 0 {
		return out + ":" + two(m)
	}
	return out
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func mod(a, b int) int {
	m := a % b
	if m < 0 {
		m += b
	}
	return m
}
