package coreutils

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// cmp, comm and join: comparing and joining files.

func init() {
	register("cmp", "cmp [-bls] [-i SKIP] [-n LIMIT] FILE1 [FILE2]", cmp)
	register("comm", "comm [-123] [--output-delimiter=STR] [--nocheck-order] FILE1 FILE2", comm)
	register("join", "join [-i] [-t CHAR] [-1 FIELD] [-2 FIELD] [-j FIELD] [-a 1|2] [-v 1|2] [-e EMPTY] [-o FORMAT] FILE1 FILE2", join)
}

// cmp streams both inputs (files of any size) and stops at the first
// difference unless -l.
func cmp(e *Env, args []string) int {
	o, ops, ok := e.parse(&flagSpec{bools: "blsz", vals: "in", long: map[string]bool{"print-bytes": false, "verbose": false, "silent": false,
		"quiet": false, "ignore-initial": true, "bytes": true},
		alias: map[string]string{"print-bytes": "b", "verbose": "l", "silent": "s", "quiet": "s", "ignore-initial": "i", "bytes": "n"}}, args)
	if !ok {
		return 2
	}
	if len(ops) == 0 {
		e.Errf("missing operand after 'cmp'")
		return 2
	}
	if len(ops) == 1 {
		ops = append(ops, "-")
	}
	skip1, skip2 := int64(0), int64(0)
	if v := o.last("i", ""); v != "" {
		a, b, two := strings.Cut(v, ":")
		var err1, err2 error
		skip1, err1 = parseSize(a)
		skip2 = skip1
		if two {
			skip2, err2 = parseSize(b)
		}
		if err1 != nil || err2 != nil {
			e.Errf("invalid --ignore-initial value '%s'", v)
			return 2
		}
	}
	limit := int64(-1)
	if v := o.last("n", ""); v != "" {
		n, err := parseSize(v)
		if err != nil {
			e.Errf("invalid --bytes value '%s'", v)
			return 2
		}
		limit = n
	}
	var rs [2]*bufio.Reader
	for i, f := range ops[:2] {
		r, err := e.Open(f)
		if err != nil {
			e.FileErr(f, err)
			return 2
		}
		defer r.Close()
		rs[i] = bufio.NewReaderSize(r, 64<<10)
	}
	if _, err := io.CopyN(io.Discard, rs[0], skip1); err != nil && err != io.EOF {
		return 2
	}
	if _, err := io.CopyN(io.Discard, rs[1], skip2); err != nil && err != io.EOF {
		return 2
	}
	w := bufio.NewWriter(e.Stdout)
	defer w.Flush()
	var pos, line int64 = 1, 1
	lastNL := false
	status := 0
	for limit < 0 || pos <= limit {
		if pos%65536 == 0 && e.Ctx.Err() != nil {
			return 2
		}
		a, errA := rs[0].ReadByte()
		b, errB := rs[1].ReadByte()
		if errA != nil || errB != nil {
			if errA != nil && errB != nil {
				break
			}
			short := ops[0]
			if errB != nil {
				short = ops[1]
			}
			if !o.has("s") {
				w.Flush()
				if pos == 1 {
					fmt.Fprintf(e.Stderr, "cmp: EOF on %s which is empty\n", short)
				} else {
					if lastNL {
						fmt.Fprintf(e.Stderr, "cmp: EOF on %s after byte %d, line %d\n", short, pos-1, line-1)
					} else {
						fmt.Fprintf(e.Stderr, "cmp: EOF on %s after byte %d, in line %d\n", short, pos-1, line)
					}
				}
			}
			return 1
		}
		if a != b {
			status = 1
			switch {
			case o.has("s"):
				return 1
			case o.has("l"):
				if o.has("b") {
					fmt.Fprintf(w, "%d %3o %-4s %3o %s\n", pos, a, printByte(a), b, printByte(b))
				} else {
					fmt.Fprintf(w, "%d %3o %3o\n", pos, a, b)
				}
			default:
				if o.has("b") {
					fmt.Fprintf(w, "%s %s differ: byte %d, line %d is %3o %s %3o %s\n", ops[0], ops[1], pos, line, a, printByte(a), b, printByte(b))
				} else {
					// GNU cmp says "byte" in a multibyte locale (the
					// default C.UTF-8), "char" in the C locale.
					unit := "char"
					if e.utf8Locale() {
						unit = "byte"
					}
					fmt.Fprintf(w, "%s %s differ: %s %d, line %d\n", ops[0], ops[1], unit, pos, line)
				}
				return 1
			}
		}
		lastNL = a == '\n'
		if lastNL {
			line++
		}
		pos++
	}
	return status
}

// printByte is cmp -b's rendering of a byte (cat -v style).
func printByte(c byte) string {
	s := ""
	if c >= 128 {
		s = "M-"
		c -= 128
	}
	switch {
	case c < 32:
		return s + "^" + string(rune(c+64))
	case c == 127:
		return s + "^?"
	}
	return s + string(rune(c))
}

// parseSize parses a byte count with GNU's suffixes (K, M, G, KB, KiB...).
func parseSize(s string) (int64, error) {
	mult := int64(1)
	units := []struct {
		suf string
		m   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"kB", 1000}, {"KB", 1000}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
		{"K", 1 << 10}, {"k", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40}, {"b", 512}, {"c", 1}, {"w", 2}}
	for _, u := range units {
		if strings.HasSuffix(s, u.suf) && len(s) > len(u.suf) {
			s, mult = s[:len(s)-len(u.suf)], u.m
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("invalid number")
	}
	if mult > 1 && n > (1<<62)/mult {
		return 0, fmt.Errorf("too large")
	}
	return n * mult, nil
}

func comm(e *Env, args []string) int {
	o, ops, ok := e.parse(&flagSpec{bools: "123iz", long: map[string]bool{"output-delimiter": true, "check-order": false,
		"nocheck-order": false, "total": false, "zero-terminated": false}, alias: map[string]string{"zero-terminated": "z"}}, args)
	if !ok {
		return 1
	}
	if len(ops) != 2 {
		if len(ops) < 2 {
			e.Errf("missing operand")
		} else {
			e.Errf("extra operand '%s'", ops[2])
		}
		return 1
	}
	var data [2][]string
	for i, f := range ops {
		b, err := e.ReadAll(f)
		if err != nil {
			e.FileErr(f, err)
			return 1
		}
		data[i] = splitLines(b)
	}
	sep := o.last("output-delimiter", "\t")
	show := [3]bool{!o.has("1"), !o.has("2"), !o.has("3")}
	w := bufio.NewWriter(e.Stdout)
	defer w.Flush()
	var counts [3]int
	emit := func(col int, s string) {
		counts[col]++
		if !show[col] {
			return
		}
		for c := 0; c < col; c++ {
			if show[c] {
				w.WriteString(sep)
			}
		}
		w.WriteString(s)
		w.WriteByte('\n')
	}
	status := 0
	warned := [2]bool{}
	checkOrder := func(k int, i int) {
		if o.has("nocheck-order") || warned[k] || i == 0 || data[k][i-1] <= data[k][i] {
			return
		}
		warned[k] = true
		w.Flush()
		fmt.Fprintf(e.Stderr, "comm: file %d is not in sorted order\n", k+1)
		status = 1
	}
	i, j := 0, 0
	a, b := data[0], data[1]
	for i < len(a) || j < len(b) {
		switch {
		case j >= len(b) || i < len(a) && a[i] < b[j]:
			checkOrder(0, i)
			emit(0, a[i])
			i++
		case i >= len(a) || b[j] < a[i]:
			checkOrder(1, j)
			emit(1, b[j])
			j++
		default:
			checkOrder(0, i)
			checkOrder(1, j)
			emit(2, a[i])
			i++
			j++
		}
	}
	if o.has("total") {
		fmt.Fprintf(w, "%d%s%d%s%d%stotal\n", counts[0], sep, counts[1], sep, counts[2], sep)
	}
	if status != 0 {
		w.Flush()
		fmt.Fprintln(e.Stderr, "comm: input is not in sorted order")
	}
	return status
}

// join joins two files sorted on their join fields.
func join(e *Env, args []string) int {
	o, ops, ok := e.parse(&flagSpec{bools: "i", vals: "t12javeo", long: map[string]bool{"ignore-case": false, "check-order": false,
		"nocheck-order": false, "header": false}, alias: map[string]string{"ignore-case": "i"}}, args)
	if !ok {
		return 1
	}
	if len(ops) != 2 {
		e.Errf("missing operand")
		return 1
	}
	field := func(k string) int {
		n, _ := strconv.Atoi(o.last(k, o.last("j", "1")))
		if n < 1 {
			n = 1
		}
		return n - 1
	}
	f1, f2 := field("1"), field("2")
	sep := o.last("t", "")
	split := func(l string) []string {
		if sep == "" {
			return strings.Fields(l)
		}
		return strings.Split(l, sep[:1])
	}
	outSep := " "
	if sep != "" {
		outSep = sep[:1]
	}
	var rows [2][][]string
	for i, f := range ops {
		b, err := e.ReadAll(f)
		if err != nil {
			e.FileErr(f, err)
			return 1
		}
		for _, l := range splitLines(b) {
			rows[i] = append(rows[i], split(l))
		}
	}
	key := func(r []string, f int) string {
		k := ""
		if f < len(r) {
			k = r[f]
		}
		if o.has("i") {
			k = strings.ToLower(k)
		}
		return k
	}
	unpaired := map[string]bool{}
	for _, v := range o["a"] {
		unpaired[v] = true
	}
	only := map[string]bool{}
	for _, v := range o["v"] {
		only[v] = true
	}
	empty := o.last("e", "")
	var format [][2]int // file (0 = join field), field
	if f := o.last("o", ""); f != "" && f != "auto" {
		for _, spec := range strings.FieldsFunc(f, func(r rune) bool { return r == ',' || r == ' ' }) {
			if spec == "0" {
				format = append(format, [2]int{0, 0})
				continue
			}
			fi, fld, ok := strings.Cut(spec, ".")
			n, err := strconv.Atoi(fld)
			if !ok || (fi != "1" && fi != "2") || err != nil || n < 1 {
				e.Errf("invalid field specifier: '%s'", spec)
				return 1
			}
			format = append(format, [2]int{int(fi[0] - '0'), n - 1})
		}
	}
	w := bufio.NewWriter(e.Stdout)
	defer w.Flush()
	emit := func(r1, r2 []string) {
		var out []string
		jf := ""
		if r1 != nil {
			jf = get(r1, f1)
		} else {
			jf = get(r2, f2)
		}
		if format != nil {
			for _, spec := range format {
				switch {
				case spec[0] == 0:
					out = append(out, jf)
				case spec[0] == 1 && r1 != nil && spec[1] < len(r1):
					out = append(out, r1[spec[1]])
				case spec[0] == 2 && r2 != nil && spec[1] < len(r2):
					out = append(out, r2[spec[1]])
				default:
					out = append(out, empty)
				}
			}
		} else {
			out = append(out, jf)
			for i, v := range r1 {
				if i != f1 {
					out = append(out, v)
				}
			}
			for i, v := range r2 {
				if i != f2 {
					out = append(out, v)
				}
			}
		}
		w.WriteString(strings.Join(out, outSep))
		w.WriteByte('\n')
	}
	a, b := rows[0], rows[1]
	i, j := 0, 0
	if o.has("header") && len(a) > 0 && len(b) > 0 {
		emit(a[0], b[0])
		i, j = 1, 1
	}
	for i < len(a) || j < len(b) {
		if e.Ctx.Err() != nil {
			return 1
		}
		switch {
		case j >= len(b) || i < len(a) && key(a[i], f1) < key(b[j], f2):
			if unpaired["1"] || only["1"] {
				emit(a[i], nil)
			}
			i++
		case i >= len(a) || key(b[j], f2) < key(a[i], f1):
			if unpaired["2"] || only["2"] {
				emit(nil, b[j])
			}
			j++
		default:
			k := key(a[i], f1)
			i2, j2 := i, j
			for i2 < len(a) && key(a[i2], f1) == k {
				i2++
			}
			for j2 < len(b) && key(b[j2], f2) == k {
				j2++
			}
			if len(only) == 0 {
				for x := i; x < i2; x++ {
					for y := j; y < j2; y++ {
						emit(a[x], b[y])
					}
				}
			}
			i, j = i2, j2
		}
	}
	return 0
}

func get(r []string, i int) string {
	if i < len(r) {
		return r[i]
	}
	return ""
}
