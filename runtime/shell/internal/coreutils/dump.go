package coreutils

// Byte dumps: od and xxd.

import (
	"encoding/hex"
	"fmt"
	"strings"
)

func init() {
	register("od", "od [-c] [-An] [-t x1] [FILE]", od)
	register("xxd", "xxd [-p] [FILE]", xxd)
}

func od(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "cbx", vals: "Atjvn", long: map[string]bool{}}, args)
	if !ok {
		return 1
	}
	noAddr := o.last("A", "o") == "n"
	typ := o.last("t", "o2")
	if o.has("c") {
		typ = "c"
	}
	if o.has("x") {
		typ = "x2"
	}
	return e.Inputs(files, func(_ string, b []byte) {
		var sb strings.Builder
		for off := 0; off < len(b); off += 16 {
			chunk := b[off:min(off+16, len(b))]
			if !noAddr {
				fmt.Fprintf(&sb, "%07o", off)
			}
			switch typ {
			case "c":
				for _, c := range chunk {
					switch {
					case c == '\n':
						sb.WriteString("  \\n")
					case c == '\t':
						sb.WriteString("  \\t")
					case c == 0:
						sb.WriteString("  \\0")
					case c == '\r':
						sb.WriteString("  \\r")
					case c == '\v':
						sb.WriteString("  \\v")
					case c == '\f':
						sb.WriteString("  \\f")
					case c == '\b':
						sb.WriteString("  \\b")
					case c == 7:
						sb.WriteString("  \\a")
					case c >= 32 && c < 127:
						fmt.Fprintf(&sb, "   %c", c)
					default:
						fmt.Fprintf(&sb, " %03o", c)
					}
				}
			case "x1":
				for _, c := range chunk {
					fmt.Fprintf(&sb, " %02x", c)
				}
			case "x2":
				for i := 0; i < len(chunk); i += 2 {
					v := uint16(chunk[i])
					if i+1 < len(chunk) {
						v |= uint16(chunk[i+1]) << 8
					}
					fmt.Fprintf(&sb, " %04x", v)
				}
			default:
				for i := 0; i < len(chunk); i += 2 {
					v := uint16(chunk[i])
					if i+1 < len(chunk) {
						v |= uint16(chunk[i+1]) << 8
					}
					fmt.Fprintf(&sb, " %06o", v)
				}
			}
			sb.WriteString("\n")
		}
		if !noAddr {
			fmt.Fprintf(&sb, "%07o\n", len(b))
		}
		fmt.Fprint(e.Stdout, sb.String())
	})
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
