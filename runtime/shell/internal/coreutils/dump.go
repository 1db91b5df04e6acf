package coreutils

// Byte dumps: od and xxd.

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

func init() {
	register("od", "od [-bcdiloxsv] [-A RADIX] [-t TYPE]... [-j SKIP] [-N COUNT] [-w WIDTH] [FILE]...", od)
	register("xxd", "xxd [-p] [FILE]", xxd)
}

func od(e *Env, args []string) int {
	var types []odType
	addr, width, skip, count, verbose := byte('o'), 16, int64(0), int64(-1), false
	var files []string
	bad := func(format string, a ...any) int {
		e.Errf(format, a...)
		fmt.Fprintf(e.Stderr, "Try '%s --help' for more information.\n", e.name)
		return 1
	}
	rest := args[1:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			files = append(files, rest[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			files = append(files, a)
			continue
		}
		// value takes the rest of a clustered flag or the next argument.
		for j := 1; j < len(a); j++ {
			f := a[j]
			value := func() (string, bool) {
				if j+1 < len(a) {
					v := a[j+1:]
					j = len(a)
					return v, true
				}
				if i+1 < len(rest) {
					i++
					return rest[i], true
				}
				return "", false
			}
			switch f {
			case 'b':
				types = append(types, odType{'o', 1})
			case 'c':
				types = append(types, odType{'c', 1})
			case 'd':
				types = append(types, odType{'u', 2})
			case 'o':
				types = append(types, odType{'o', 2})
			case 's':
				types = append(types, odType{'d', 2})
			case 'x':
				types = append(types, odType{'x', 2})
			case 'i':
				types = append(types, odType{'d', 4})
			case 'l':
				types = append(types, odType{'d', 8})
			case 'v':
				verbose = true
			case 'A', 't', 'j', 'N', 'w':
				v, ok := value()
				if !ok {
					return bad("option requires an argument -- '%c'", f)
				}
				switch f {
				case 'A':
					if len(v) != 1 || !strings.Contains("odxn", v) {
						return bad("invalid output address radix '%s'; it must be one character from [doxn]", v)
					}
					addr = v[0]
				case 't':
					ts, err := odTypes(v)
					if err != nil {
						return bad("%s", err)
					}
					types = append(types, ts...)
				case 'w':
					n, err := strconv.Atoi(v)
					if err != nil || n <= 0 {
						return bad("invalid -w argument '%s'", v)
					}
					width = n
				default:
					n, err := strconv.ParseInt(v, 0, 64)
					if err != nil || n < 0 {
						return bad("invalid -%c argument '%s'", f, v)
					}
					if f == 'j' {
						skip = n
					} else {
						count = n
					}
				}
			default:
				return bad("invalid option -- '%c'", f)
			}
		}
	}
	if len(types) == 0 {
		types = []odType{{'o', 2}}
	}
	var data []byte
	if len(files) == 0 {
		files = []string{"-"}
	}
	status := 0
	for _, f := range files {
		b, err := e.ReadAll(f)
		if err != nil {
			e.FileErr(f, err)
			status = 1
			continue
		}
		data = append(data, b...)
	}
	data = data[min(skip, int64(len(data))):]
	if count >= 0 && count < int64(len(data)) {
		data = data[:count]
	}
	e.Stdout.Write([]byte(odDump(data, types, addr, width, skip, verbose)))
	return status
}

// odType is one output format of od: a kind (a c d f o u x) and the size
// of its unit in bytes.
type odType struct {
	kind byte
	size int
}

// odTypes parses the argument of -t: one or more formats, each a kind
// with an optional size (1 2 4 8, or C S I L).
func odTypes(s string) ([]odType, error) {
	var ts []odType
	for i := 0; i < len(s); {
		k := s[i]
		i++
		t := odType{kind: k, size: 1}
		switch k {
		case 'a', 'c':
		case 'd', 'o', 'u', 'x':
			t.size = 4
			if i < len(s) {
				switch c := s[i]; c {
				case '1', '2', '4', '8':
					t.size = int(c - '0')
					i++
				case 'C':
					t.size, i = 1, i+1
				case 'S':
					t.size, i = 2, i+1
				case 'I':
					t.size, i = 4, i+1
				case 'L':
					t.size, i = 8, i+1
				}
			}
		default:
			return nil, fmt.Errorf("invalid type string '%s'", s)
		}
		ts = append(ts, t)
	}
	return ts, nil
}

// width is the width of one field of t, without its separating space.
func (t odType) width() int {
	switch t.kind {
	case 'a', 'c':
		return 3
	case 'x':
		return 2 * t.size
	case 'o':
		return [9]int{1: 3, 2: 6, 4: 11, 8: 22}[t.size]
	case 'u':
		return [9]int{1: 3, 2: 5, 4: 10, 8: 20}[t.size]
	}
	return [9]int{1: 4, 2: 6, 4: 11, 8: 20}[t.size] // d
}

var odNames = [...]string{"nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "nl", "vt", "ff", "cr", "so", "si",
	"dle", "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb", "can", "em", "sub", "esc", "fs", "gs", "rs", "us", "sp"}

// field formats the unit at b (len(b) == t.size, little-endian).
func (t odType) field(b []byte) string {
	switch t.kind {
	case 'c':
		switch c := b[0]; {
		case c == 0:
			return `\0`
		case c == 7:
			return `\a`
		case c == '\b':
			return `\b`
		case c == '\t':
			return `\t`
		case c == '\n':
			return `\n`
		case c == '\v':
			return `\v`
		case c == '\f':
			return `\f`
		case c == '\r':
			return `\r`
		case c >= 32 && c < 127:
			return string(rune(c))
		default:
			return fmt.Sprintf("%03o", c)
		}
	case 'a':
		c := b[0] & 0x7f
		switch {
		case c <= 32:
			return odNames[c]
		case c == 127:
			return "del"
		}
		return string(rune(c))
	}
	var v uint64
	for i := len(b) - 1; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	switch t.kind {
	case 'x':
		return fmt.Sprintf("%0*x", t.width(), v)
	case 'o':
		return fmt.Sprintf("%0*o", t.width(), v)
	case 'u':
		return strconv.FormatUint(v, 10)
	}
	shift := 64 - 8*uint(t.size)
	return strconv.FormatInt(int64(v<<shift)>>shift, 10)
}

// odDump formats data as GNU od does: a line per format for each block
// of width bytes, the fields of all formats aligned, a repeated block
// shown as "*" unless verbose, then the end offset.
func odDump(data []byte, types []odType, addr byte, width int, start int64, verbose bool) string {
	blockWidth := func(t odType) int { return (width / t.size) * (t.width() + 1) }
	maxw := 0
	for _, t := range types {
		maxw = max(maxw, blockWidth(t))
	}
	address := func(off int64) string {
		switch addr {
		case 'd':
			return fmt.Sprintf("%07d", off)
		case 'x':
			return fmt.Sprintf("%06x", off)
		case 'n':
			return ""
		}
		return fmt.Sprintf("%07o", off)
	}
	var sb strings.Builder
	var prev []byte
	starred := false
	for off := 0; off < len(data); off += width {
		block := data[off:min(off+width, len(data))]
		if !verbose && prev != nil && len(block) == width && bytes.Equal(block, prev) {
			if !starred {
				sb.WriteString("*\n")
				starred = true
			}
			continue
		}
		starred = false
		prev = block
		for ti, t := range types {
			if ti == 0 {
				sb.WriteString(address(start + int64(off)))
			} else {
				sb.WriteString(strings.Repeat(" ", len(address(0))))
			}
			// Pad a short last block with zero bytes to whole units.
			unit := block
			if r := len(unit) % t.size; r != 0 {
				unit = append(append([]byte(nil), unit...), make([]byte, t.size-r)...)
			}
			n := width / t.size
			pad := maxw - blockWidth(t)
			remaining := pad
			fields := len(unit) / t.size
			for i := 0; i < fields; i++ {
				next := pad * (n - i - 1) / n
				fmt.Fprintf(&sb, " %*s", remaining-next+t.width(), t.field(unit[i*t.size:(i+1)*t.size]))
				remaining = next
			}
			sb.WriteString("\n")
		}
	}
	if addr != 'n' {
		sb.WriteString(address(start+int64(len(data))) + "\n")
	}
	return sb.String()
}

func xxd(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "pr", vals: "lc"}, args)
	if !ok {
		return 1
	}
	return e.Inputs(files, func(_ string, b []byte) {
		var sb strings.Builder
		if o.has("r") {
			out, _ := hex.DecodeString(strings.Join(strings.Fields(string(b)), ""))
			e.Stdout.Write(out)
			return
		}
		if o.has("p") {
			s := hex.EncodeToString(b)
			for len(s) > 60 {
				sb.WriteString(s[:60] + "\n")
				s = s[60:]
			}
			if s != "" {
				sb.WriteString(s + "\n")
			}
			fmt.Fprint(e.Stdout, sb.String())
			return
		}
		for off := 0; off < len(b); off += 16 {
			chunk := b[off:min(off+16, len(b))]
			fmt.Fprintf(&sb, "%08x:", off)
			for i := 0; i < 16; i += 2 {
				if i < len(chunk) {
					fmt.Fprintf(&sb, " %02x", chunk[i])
					if i+1 < len(chunk) {
						fmt.Fprintf(&sb, "%02x", chunk[i+1])
					} else {
						sb.WriteString("  ")
					}
				} else {
					sb.WriteString("     ")
				}
			}
			sb.WriteString("  ")
			for _, c := range chunk {
				if c >= 32 && c < 127 {
					sb.WriteByte(c)
				} else {
					sb.WriteByte('.')
				}
			}
			sb.WriteString("\n")
		}
		fmt.Fprint(e.Stdout, sb.String())
	})
}
