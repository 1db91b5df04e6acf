package awk

import (
	"math"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/nookdev/nook/runtime/shell/internal/strftime"
)

// strlen is the length of s in characters (UTF-8 mode) or bytes.
func (in *interp) strlen(s string) int {
	if in.cfg.UTF8 {
		return utf8.RuneCountInString(s)
	}
	return len(s)
}

// byteOff converts a character offset of s to a byte offset.
func (in *interp) byteOff(s string, chars int) int {
	if !in.cfg.UTF8 {
		return min(chars, len(s))
	}
	i := 0
	for n := 0; n < chars && i < len(s); n++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return i
}

// charOff converts a byte offset of s to a character offset.
func (in *interp) charOff(s string, b int) int {
	if !in.cfg.UTF8 {
		return b
	}
	return utf8.RuneCountInString(s[:b])
}

func (in *interp) builtin(e *builtinExpr) value {
	a := e.args
	switch e.name {
	case "length":
		if len(a) == 0 {
			return num(float64(in.strlen(in.record)))
		}
		if vr, ok := a[0].(*varRef); ok {
			c := in.cellOf(vr)
			for c.ref != nil {
				c = c.ref
			}
			if c.isArr {
				return num(float64(len(c.arr)))
			}
		}
		return num(float64(in.strlen(in.toStr(in.eval(a[0])))))
	case "substr":
		s := in.toStr(in.eval(a[0]))
		m := toNumber(in.eval(a[1]))
		n := math.Inf(1)
		if len(a) == 3 {
			n = toNumber(in.eval(a[2]))
		}
		return str(in.substr(s, m, n))
	case "index":
		s := in.toStr(in.eval(a[0]))
		t := in.toStr(in.eval(a[1]))
		i := strings.Index(s, t)
		if i < 0 {
			return num(0)
		}
		return num(float64(in.charOff(s, i) + 1))
	case "split":
		s := in.toStr(in.eval(a[0]))
		arr := in.array(a[1].(*varRef))
		for k, v := range arr {
			in.mem -= int64(len(k) + len(v.s) + 32)
		}
		clear(arr)
		var parts []string
		switch {
		case len(a) < 3:
			parts = in.splitWith(s, in.toStr(in.globals[vFS].v), false, nil)
		default:
			if r, ok := a[2].(*regexLit); ok {
				parts = in.splitWith(s, "", false, in.regex(r.re))
			} else {
				parts = in.splitWith(s, in.toStr(in.eval(a[2])), false, nil)
			}
		}
		for i, p := range parts {
			in.setElem(arr, strconv.Itoa(i+1), strnum(p))
		}
		return num(float64(len(parts)))
	case "sub", "gsub":
		re := in.regexOf(a[0])
		repl := in.toStr(in.eval(a[1]))
		var target lref
		if len(a) == 3 {
			target = in.lref(a[2])
		} else {
			target = lref{fi: 0}
		}
		s := in.toStr(in.get(target))
		out, n := in.substitute(re, repl, s, e.name == "gsub")
		if n > 0 {
			in.set(target, str(out))
		}
		return num(float64(n))
	case "gensub":
		re := in.regexOf(a[0])
		repl := in.toStr(in.eval(a[1]))
		how := in.eval(a[2])
		s := in.record
		if len(a) == 4 {
			s = in.toStr(in.eval(a[3]))
		}
		return str(in.gensub(re, repl, how, s))
	case "match":
		s := in.toStr(in.eval(a[0]))
		re := in.regexOf(a[1])
		loc := re.FindStringSubmatchIndex(s)
		var arr map[string]value
		if len(a) == 3 {
			arr = in.array(a[2].(*varRef))
			clear(arr)
		}
		if loc == nil {
			in.globals[vRSTART].v = num(0)
			in.globals[vRLENGTH].v = num(-1)
			return num(0)
		}
		start := in.charOff(s, loc[0]) + 1
		in.globals[vRSTART].v = num(float64(start))
		in.globals[vRLENGTH].v = num(float64(in.strlen(s[loc[0]:loc[1]])))
		if arr != nil {
			sep := in.toStr(in.globals[vSUBSEP].v)
			for g := 0; g*2 < len(loc); g++ {
				if loc[2*g] < 0 {
					continue
				}
				k := strconv.Itoa(g)
				in.setElem(arr, k, strnum(s[loc[2*g]:loc[2*g+1]]))
				in.setElem(arr, k+sep+"start", num(float64(in.charOff(s, loc[2*g])+1)))
				in.setElem(arr, k+sep+"length", num(float64(in.strlen(s[loc[2*g]:loc[2*g+1]]))))
			}
		}
		return num(float64(start))
	case "sprintf":
		args := make([]value, len(a)-1)
		for i, x := range a[1:] {
			args[i] = in.eval(x)
		}
		out := sprintf(in.toStr(in.eval(a[0])), args, in)
		in.checkLen(len(out), "a string")
		return str(out)
	case "tolower":
		s := in.toStr(in.eval(a[0]))
		if in.cfg.UTF8 {
			return str(strings.ToLower(s))
		}
		return str(asciiMap(s, 'A', 'Z', 'a'-'A'))
	case "toupper":
		s := in.toStr(in.eval(a[0]))
		if in.cfg.UTF8 {
			return str(strings.ToUpper(s))
		}
		return str(asciiMap(s, 'a', 'z', -('a' - 'A')))
	case "int":
		return num(math.Trunc(toNumber(in.eval(a[0]))))
	case "sqrt":
		return num(math.Sqrt(toNumber(in.eval(a[0]))))
	case "exp":
		return num(math.Exp(toNumber(in.eval(a[0]))))
	case "log":
		return num(math.Log(toNumber(in.eval(a[0]))))
	case "sin":
		return num(math.Sin(toNumber(in.eval(a[0]))))
	case "cos":
		return num(math.Cos(toNumber(in.eval(a[0]))))
	case "atan2":
		y := toNumber(in.eval(a[0]))
		return num(math.Atan2(y, toNumber(in.eval(a[1]))))
	case "rand":
		return num(in.rng.Float64())
	case "srand":
		prev := in.seed
		var s float64
		if len(a) == 1 {
			s = toNumber(in.eval(a[0]))
		} else if in.cfg.Now != nil {
			s = float64(in.cfg.Now().Unix())
		}
		in.seed = s
		in.rng = rand.New(rand.NewPCG(math.Float64bits(s), 0x6e6f6f6b))
		return num(prev)
	case "systime":
		if in.cfg.Now == nil {
			return num(0)
		}
		return num(float64(in.cfg.Now().Unix()))
	case "strftime":
		format := "%a %b %e %H:%M:%S %Z %Y"
		var t time.Time
		if in.cfg.Now != nil {
			t = in.cfg.Now()
		}
		if len(a) > 0 {
			format = in.toStr(in.eval(a[0]))
		}
		if len(a) > 1 {
			t = time.Unix(int64(toNumber(in.eval(a[1]))), 0)
		}
		return str(strftime.Format(format, t.UTC()))
	case "system":
		cmd := in.toStr(in.eval(a[0]))
		if in.cfg.Exec == nil {
			in.fatalf("running commands is not supported: system(%q)", cmd)
		}
		in.flush()
		for _, name := range in.outOrder {
			if o := in.outputs[name]; !o.cmd {
				o.w.Flush()
			}
		}
		return num(float64(in.cfg.Exec(cmd, strings.NewReader(""), in.cfg.Stdout)))
	case "close":
		return num(float64(in.closeStream(in.toStr(in.eval(a[0])))))
	case "fflush":
		in.flush()
		for _, o := range in.outputs {
			if !o.cmd {
				o.w.Flush()
			}
		}
		return num(0)
	}
	in.fatalf("function %s is not supported", e.name)
	return value{}
}

func asciiMap(s string, lo, hi byte, delta int) string {
	b := []byte(s)
	for i, c := range b {
		if c >= lo && c <= hi {
			b[i] = byte(int(c) + delta)
		}
	}
	return string(b)
}

// substr is gawk's: the start and the length are truncated, a start
// before 1 counts from 1.
func (in *interp) substr(s string, m, n float64) string {
	if math.IsNaN(m) || math.IsNaN(n) {
		return ""
	}
	total := in.strlen(s)
	start := math.Trunc(m)
	length := math.Trunc(n)
	if start < 1 {
		start = 1
	}
	if length <= 0 || start > float64(total) {
		return ""
	}
	end := start - 1 + length
	if end > float64(total) {
		end = float64(total)
	}
	b0 := in.byteOff(s, int(start)-1)
	b1 := in.byteOff(s, int(end))
	return s[b0:b1]
}

// substitute replaces the first (or every) match of re in s with repl,
// where & is the match, \& a literal & and \\& a backslash then the match.
func (in *interp) substitute(re *regexp.Regexp, repl, s string, global bool) (string, int) {
	var locs [][]int
	if global {
		locs = re.FindAllStringIndex(s, -1)
	} else if loc := re.FindStringIndex(s); loc != nil {
		locs = [][]int{loc}
	}
	if len(locs) == 0 {
		return s, 0
	}
	var b strings.Builder
	last := 0
	for _, loc := range locs {
		b.WriteString(s[last:loc[0]])
		m := s[loc[0]:loc[1]]
		for i := 0; i < len(repl); i++ {
			c := repl[i]
			switch {
			case c == '\\' && i+1 < len(repl) && repl[i+1] == '&':
				b.WriteByte('&')
				i++
			case c == '\\' && i+2 < len(repl) && repl[i+1] == '\\' && repl[i+2] == '&':
				b.WriteByte('\\')
				b.WriteString(m)
				i += 2
			case c == '\\' && i+1 < len(repl) && repl[i+1] == '\\':
				b.WriteByte('\\')
				i++
			case c == '&':
				b.WriteString(m)
			default:
				b.WriteByte(c)
			}
		}
		last = loc[1]
		in.checkLen(b.Len(), "a string")
	}
	b.WriteString(s[last:])
	in.checkLen(b.Len(), "a string")
	return b.String(), len(locs)
}

// gensub is gawk's: how is "g" (every match) or the number of the match
// to replace; \0 or & is the match and \1..\9 its groups.
func (in *interp) gensub(re *regexp.Regexp, repl string, how value, s string) string {
	which := 0 // every match
	if hs := in.toStr(how); !(len(hs) > 0 && (hs[0] == 'g' || hs[0] == 'G')) {
		which = int(toNumber(how))
		if which < 1 {
			which = 1
		}
	}
	var b strings.Builder
	last := 0
	for i, loc := range re.FindAllStringSubmatchIndex(s, -1) {
		if which != 0 && i+1 != which {
			continue
		}
		b.WriteString(s[last:loc[0]])
		for j := 0; j < len(repl); j++ {
			c := repl[j]
			switch {
			case c == '\\' && j+1 < len(repl) && isDigit(repl[j+1]):
				g := int(repl[j+1] - '0')
				if 2*g+1 < len(loc) && loc[2*g] >= 0 {
					b.WriteString(s[loc[2*g]:loc[2*g+1]])
				}
				j++
			case c == '\\' && j+1 < len(repl) && repl[j+1] == '&':
				b.WriteByte('&')
				j++
			case c == '\\' && j+1 < len(repl) && repl[j+1] == '\\':
				b.WriteByte('\\')
				j++
			case c == '&':
				b.WriteString(s[loc[0]:loc[1]])
			default:
				b.WriteByte(c)
			}
		}
		last = loc[1]
		in.checkLen(b.Len(), "a string")
	}
	b.WriteString(s[last:])
	return b.String()
}
