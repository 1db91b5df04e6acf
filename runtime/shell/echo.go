package shell

import (
	"strconv"
	"strings"
)

// echoCmd is echo with options, as bash's builtin runs it: the options may
// be combined ("-en", "-neE"), -e reads \c (stop all output), \0NNN,
// \xHH, \uHHHH and \UHHHHHHHH besides the letters. The interpreter's echo
// reads each option apart and fewer escapes. With xpg (shopt -s
// xpg_echo) escapes are read unless -E says not to. It returns nil when
// args start with no option and xpg is off (the interpreter's echo prints
// them as they are).
func echoCmd(args []string, xpg bool) []string {
	newline, escapes, i := true, xpg, 0
	for ; i < len(args); i++ {
		a := args[i]
		if len(a) < 2 || a[0] != '-' || strings.Trim(a[1:], "neE") != "" {
			break
		}
		for _, c := range a[1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
	}
	if i == 0 && !xpg {
		return nil
	}
	var b strings.Builder
	for j, a := range args[i:] {
		if j > 0 {
			b.WriteByte(' ')
		}
		if !escapes {
			b.WriteString(a)
			continue
		}
		if stop := echoEscapes(&b, a); stop {
			return []string{"__nook_printf", "%s", b.String()}
		}
	}
	if newline {
		b.WriteByte('\n')
	}
	return []string{"__nook_printf", "%s", b.String()}
}

// echoEscapes writes s with echo -e's escapes read; it reports whether a
// \c ended the output.
func echoEscapes(b *strings.Builder, s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch c = s[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'c':
			return true
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\':
			b.WriteByte('\\')
		case '0':
			n, j := digits(s[i+1:], 3, 8)
			b.WriteByte(byte(n))
			i += j
		case 'x', 'u', 'U':
			max := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			n, j := digits(s[i+1:], max, 16)
			if j == 0 {
				b.WriteByte('\\')
				b.WriteByte(c)
				continue
			}
			if c == 'x' {
				b.WriteByte(byte(n))
			} else {
				b.WriteRune(rune(n))
			}
			i += j
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return false
}

// digits reads up to max digits of base at the start of s: their value and
// how many there were.
func digits(s string, max, base int) (int, int) {
	j := 0
	for j < len(s) && j < max {
		if _, err := strconv.ParseUint(s[j:j+1], base, 8); err != nil {
			break
		}
		j++
	}
	if j == 0 {
		return 0, 0
	}
	n, _ := strconv.ParseUint(s[:j], base, 64)
	return int(n), j
}
