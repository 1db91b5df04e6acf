package editmatch

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// foldRune applies the enabled folding rules to one rune and reports
// which rule (if any) changed it.
func foldRune(r rune, mask ruleSet) (rune, ruleSet) {
	switch {
	case r >= 0x2018 && r <= 0x201B: // ‘ ’ ‚ ‛
		if mask&ruleQuotes != 0 {
			return '\'', ruleQuotes
		}
	case r >= 0x201C && r <= 0x201F: // “ ” „ ‟
		if mask&ruleQuotes != 0 {
			return '"', ruleQuotes
		}
	case r >= 0x2010 && r <= 0x2015, r == 0x2212: // hyphens, dashes, minus
		if mask&ruleDashes != 0 {
			return '-', ruleDashes
		}
	case r == 0x00A0, r >= 0x2002 && r <= 0x200A, r == 0x202F, r == 0x205F, r == 0x3000:
		if mask&ruleSpaces != 0 {
			return ' ', ruleSpaces
		}
	}
	return r, 0
}

// isTrimSpace reports whether r is trailing whitespace that the
// trailing-whitespace rule trims (JavaScript's trimEnd set, minus the
// line feed that separates lines).
func isTrimSpace(r rune) bool {
	return r != '\n' && (unicode.IsSpace(r) || r == 0xFEFF)
}

func isASCII[T ~string | ~[]byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// isIndent reports whether c is an indentation byte.
func isIndent(c byte) bool { return c == ' ' || c == '\t' }

// indentLen returns the length of the leading run of spaces and tabs.
func indentLen[T ~string | ~[]byte](s T) int {
	i := 0
	for i < len(s) && isIndent(s[i]) {
		i++
	}
	return i
}

// normLine normalises one line (no '\n') with the rules in mask, in
// Computer's order: NFKC, folding, trailing-whitespace trim.
func normLine(line string, mask ruleSet) string {
	if !isASCII(line) {
		if mask&ruleNFKC != 0 {
			line = norm.NFKC.String(line)
		}
		if mask&foldRules != 0 {
			var b strings.Builder
			b.Grow(len(line))
			for _, r := range line {
				f, _ := foldRune(r, mask)
				b.WriteRune(f)
			}
			line = b.String()
		}
	}
	if mask&ruleTrailing != 0 {
		line = strings.TrimRightFunc(line, isTrimSpace)
	}
	return line
}

// normLineExclusive is normLine for rule attribution: a rune in a
// folding table is handled by its folding rule alone (kept as is when that
// rule is off), never by NFKC, so that disabling one rule shows whether
// it was needed.
func normLineExclusive(line string, mask ruleSet) string {
	if !isASCII(line) {
		var b, chunk strings.Builder
		flush := func() {
			if mask&ruleNFKC != 0 {
				b.WriteString(norm.NFKC.String(chunk.String()))
			} else {
				b.WriteString(chunk.String())
			}
			chunk.Reset()
		}
		for _, r := range line {
			if _, rule := foldRune(r, foldRules); rule != 0 {
				flush()
				f, _ := foldRune(r, mask)
				b.WriteRune(f)
				continue
			}
			chunk.WriteRune(r)
		}
		flush()
		line = b.String()
	}
	if mask&ruleTrailing != 0 {
		line = strings.TrimRightFunc(line, isTrimSpace)
	}
	return line
}

// normTextExclusive applies normLineExclusive to every line.
func normTextExclusive(s string, mask ruleSet) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = normLineExclusive(l, mask)
	}
	return strings.Join(lines, "\n")
}

// normText normalises LF text line by line with the rules in mask. With
// baseRules it produces exactly what the base index holds for the same
// text.
func normText(s string, mask ruleSet) string {
	if isASCII(s) && mask&ruleTrailing == 0 {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = normLine(l, mask)
	}
	return strings.Join(lines, "\n")
}

// collapseLine collapses every run of spaces and tabs after the leading
// indentation into a single space. Leading indentation is kept.
func collapseLine(line string) string {
	lead := indentLen(line)
	rest := line[lead:]
	if !strings.Contains(rest, "  ") && strings.IndexByte(rest, '\t') < 0 {
		return line
	}
	var b strings.Builder
	b.Grow(len(line))
	b.WriteString(line[:lead])
	for i := 0; i < len(rest); {
		if isIndent(rest[i]) {
			for i < len(rest) && isIndent(rest[i]) {
				i++
			}
			b.WriteByte(' ')
			continue
		}
		b.WriteByte(rest[i])
		i++
	}
	return b.String()
}

// collapseText applies collapseLine to every line.
func collapseText(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = collapseLine(l)
	}
	return strings.Join(lines, "\n")
}

// firedRules reports which base rules change something in s, classifying
// each rune by the folding tables first and by NFKC otherwise.
func firedRules(s string) ruleSet {
	var fired ruleSet
	for _, line := range strings.Split(s, "\n") {
		if strings.TrimRightFunc(line, isTrimSpace) != line {
			fired |= ruleTrailing
		}
		if isASCII(line) {
			continue
		}
		for _, r := range line {
			if _, rule := foldRune(r, foldRules); rule != 0 {
				fired |= rule
			}
		}
		if !norm.NFKC.IsNormalString(line) {
			// Attribute NFKC only if it does more than the folding rules.
			var b strings.Builder
			for _, r := range line {
				if _, rule := foldRune(r, foldRules); rule == 0 {
					b.WriteRune(r)
				}
			}
			if !norm.NFKC.IsNormalString(b.String()) {
				fired |= ruleNFKC
			}
		}
	}
	return fired
}
