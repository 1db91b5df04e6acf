package editmatch

import (
	"sort"
	"strings"
)

// indentWidth is the column width of an indentation string with the
// given tab width.
func indentWidth(s string, tab int) int {
	w := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\t' {
			w += tab - w%tab
		} else {
			w++
		}
	}
	return w
}

// indentMap checks that the (old indentation, file indentation) pairs of
// a candidate describe one consistent re-indentation and returns it as a
// map. It requires:
//   - a bijection: equal old indents map to equal file indents and vice
//     versa;
//   - the same order: sorted by width, both sides strictly increase, at
//     tab widths 4 and 8 alike (so mixed tabs and spaces cannot reorder);
//   - proportional steps: consecutive width differences on the two sides
//     keep one ratio (a uniform change of indent unit plus an offset).
func indentMap(pairs [][2]string) (map[string]string, bool) {
	fwd := make(map[string]string, len(pairs))
	back := make(map[string]string, len(pairs))
	for _, p := range pairs {
		if f, ok := fwd[p[0]]; ok {
			if f != p[1] {
				return nil, false
			}
			continue
		}
		if _, ok := back[p[1]]; ok {
			return nil, false
		}
		fwd[p[0]], back[p[1]] = p[1], p[0]
	}
	keys := make([]string, 0, len(fwd))
	for o := range fwd {
		keys = append(keys, o)
	}
	sort.Slice(keys, func(a, b int) bool { return indentWidth(keys[a], 4) < indentWidth(keys[b], 4) })
	var stepO, stepF int // first step, for the ratio check
	for a := 1; a < len(keys); a++ {
		o0, o1 := keys[a-1], keys[a]
		f0, f1 := fwd[o0], fwd[o1]
		for _, tab := range []int{4, 8} {
			if indentWidth(o0, tab) >= indentWidth(o1, tab) || indentWidth(f0, tab) >= indentWidth(f1, tab) {
				return nil, false
			}
		}
		dO := indentWidth(o1, 4) - indentWidth(o0, 4)
		dF := indentWidth(f1, 4) - indentWidth(f0, 4)
		if a == 1 {
			stepO, stepF = dO, dF
		} else if dO*stepF != dF*stepO {
			return nil, false
		}
	}
	return fwd, true
}

// reindent rewrites the leading indentation of the replacement's lines
// from the model's style to the file's, using the mapping found for the
// matched lines. Indents not in the mapping are derived from the indent
// unit (one level of old indentation and its file counterpart) when that
// is known; a line whose indent cannot be translated is left as written.
// Blank and whitespace-only lines are left alone, and so is the first
// line when the match started after the file line's indentation.
func reindent(text string, imap map[string]string, skipFirst bool) string {
	identity := true
	for o, f := range imap {
		if o != f {
			identity = false
			break
		}
	}
	if identity {
		return text
	}
	unitO, unitF := indentUnit(imap)
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if i == 0 && skipFirst {
			continue
		}
		n := indentLen(l)
		if n == len(l) {
			continue
		}
		if f, ok := convertIndent(l[:n], imap, unitO, unitF); ok {
			lines[i] = f + l[n:]
		}
	}
	return strings.Join(lines, "\n")
}

// indentUnit finds one indentation level in the old style and its file
// counterpart: the smallest step between consecutive known indents, or,
// failing that, the smallest known indent when both sides of it are made
// of a single repeated character. It returns empty strings when unknown.
func indentUnit(imap map[string]string) (string, string) {
	keys := make([]string, 0, len(imap))
	for o := range imap {
		keys = append(keys, o)
	}
	sort.Slice(keys, func(a, b int) bool { return indentWidth(keys[a], 4) < indentWidth(keys[b], 4) })
	var u, v string
	for a := 1; a < len(keys); a++ {
		o0, o1 := keys[a-1], keys[a]
		f0, f1 := imap[o0], imap[o1]
		if !strings.HasPrefix(o1, o0) || !strings.HasPrefix(f1, f0) {
			continue
		}
		du, dv := reduceUnit(o1[len(o0):], f1[len(f0):])
		if du != "" && dv != "" && (u == "" || len(du) < len(u)) {
			u, v = du, dv
		}
	}
	if u == "" && len(keys) > 0 {
		o, f := keys[0], imap[keys[0]]
		if o != "" && f != "" && uniform(o) && uniform(f) {
			u, v = reduceUnit(o, f)
		}
	}
	return u, v
}

// reduceUnit splits a and b into the largest common number of equal
// repetitions and returns one repetition of each.
func reduceUnit(a, b string) (string, string) {
	for k := min(len(a), len(b)); k >= 1; k-- {
		if len(a)%k != 0 || len(b)%k != 0 {
			continue
		}
		u, v := a[:len(a)/k], b[:len(b)/k]
		if strings.Repeat(u, k) == a && strings.Repeat(v, k) == b {
			return u, v
		}
	}
	return "", ""
}

// uniform reports whether s is one character repeated.
func uniform(s string) bool {
	return s != "" && strings.Count(s, s[:1]) == len(s)
}

// repeats reports how many times s repeats u exactly.
func repeats(s, u string) (int, bool) {
	if u == "" || len(s)%len(u) != 0 || strings.Repeat(u, len(s)/len(u)) != s {
		return 0, false
	}
	return len(s) / len(u), true
}

// convertIndent translates one old-style indent to the file's style.
func convertIndent(n string, imap map[string]string, unitO, unitF string) (string, bool) {
	if f, ok := imap[n]; ok {
		return f, true
	}
	if unitO == "" {
		return "", false
	}
	// Deeper than a known indent: extend it by whole units.
	var base string
	found := false
	for o := range imap {
		if strings.HasPrefix(n, o) && (!found || len(o) > len(base)) {
			base, found = o, true
		}
	}
	if found {
		if t, ok := repeats(n[len(base):], unitO); ok {
			return imap[base] + strings.Repeat(unitF, t), true
		}
	}
	// Shallower than a known indent: remove whole units.
	found = false
	for o := range imap {
		if strings.HasPrefix(o, n) && (!found || len(o) < len(base)) {
			base, found = o, true
		}
	}
	if found {
		if t, ok := repeats(base[len(n):], unitO); ok {
			f, cut := imap[base], strings.Repeat(unitF, t)
			if strings.HasSuffix(f, cut) {
				return f[:len(f)-len(cut)], true
			}
		}
	}
	return "", false
}
