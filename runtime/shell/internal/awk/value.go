package awk

import (
	"math"
	"strconv"
	"strings"
)

// kind is what a value is, for conversions and comparisons (POSIX awk's
// strnum rules).
type kind uint8

const (
	kUninit kind = iota // never assigned: "" and 0, compares as a strnum
	kNum                // a number
	kStr                // a string
	kStrNum             // input (fields, getline, ARGV, ENVIRON, -v): a number if it looks like one
)

type value struct {
	k kind
	s string
	n float64
}

func num(n float64) value   { return value{k: kNum, n: n} }
func str(s string) value    { return value{k: kStr, s: s} }
func strnum(s string) value { return value{k: kStrNum, s: s} }

func boolNum(b bool) value {
	if b {
		return num(1)
	}
	return num(0)
}

// looksNumeric reports whether s is a number with optional surrounding
// blanks, and its value (a strnum is numeric only then).
func looksNumeric(s string) (float64, bool) {
	i, j := 0, len(s)
	for i < j && isBlank(s[i]) {
		i++
	}
	for j > i && isBlank(s[j-1]) {
		j--
	}
	if i == j {
		return 0, false
	}
	t := s[i:j]
	k := 0
	if t[0] == '+' || t[0] == '-' {
		k++
	}
	digits := 0
	for k < len(t) && isDigit(t[k]) {
		k++
		digits++
	}
	if k < len(t) && t[k] == '.' {
		k++
		for k < len(t) && isDigit(t[k]) {
			k++
			digits++
		}
	}
	if digits == 0 {
		// gawk: +inf, -nan
		l := strings.ToLower(t)
		switch l {
		case "+inf":
			return math.Inf(1), true
		case "-inf":
			return math.Inf(-1), true
		case "+nan", "-nan":
			return math.NaN(), true
		}
		return 0, false
	}
	if k < len(t) && (t[k] == 'e' || t[k] == 'E') {
		m := k + 1
		if m < len(t) && (t[m] == '+' || t[m] == '-') {
			m++
		}
		if m < len(t) && isDigit(t[m]) {
			for m < len(t) && isDigit(t[m]) {
				m++
			}
			k = m
		}
	}
	if k != len(t) {
		return 0, false
	}
	v, _ := strconv.ParseFloat(t, 64)
	return v, true
}

func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// strtod converts the longest numeric prefix of s (after blanks), as awk
// does for a string in a numeric context; "0x1A" is 0, like gawk.
func strtod(s string) (float64, int) {
	i := 0
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	start := i
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && isDigit(s[i]) {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
			digits++
		}
	}
	if digits == 0 {
		rest := strings.ToLower(s[start:])
		switch {
		case strings.HasPrefix(rest, "+inf"):
			return math.Inf(1), start + 4
		case strings.HasPrefix(rest, "-inf"):
			return math.Inf(-1), start + 4
		case strings.HasPrefix(rest, "+nan"), strings.HasPrefix(rest, "-nan"):
			return math.NaN(), start + 4
		}
		return 0, 0
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		m := i + 1
		if m < len(s) && (s[m] == '+' || s[m] == '-') {
			m++
		}
		if m < len(s) && isDigit(s[m]) {
			for m < len(s) && isDigit(s[m]) {
				m++
			}
			i = m
		}
	}
	v, err := strconv.ParseFloat(s[start:i], 64)
	if err != nil {
		// out of range: ParseFloat returns ±Inf with the error
		return v, i
	}
	return v, i
}

// numToStr formats n as awk does: an integral value as an integer,
// anything else with format (CONVFMT or OFMT).
func numToStr(n float64, format string) string {
	if n == math.Trunc(n) {
		if n > -1e18 && n < 1e18 {
			return strconv.FormatInt(int64(n), 10)
		}
		if !math.IsInf(n, 0) {
			return strconv.FormatFloat(n, 'f', 0, 64)
		}
	}
	if math.IsInf(n, 0) || math.IsNaN(n) {
		return specialFloat(n)
	}
	if format == "%.6g" {
		return formatG(n, 6, false, false)
	}
	return sprintf(format, []value{num(n)}, nil)
}

func specialFloat(n float64) string {
	switch {
	case math.IsInf(n, 1):
		return "+inf"
	case math.IsInf(n, -1):
		return "-inf"
	case math.Signbit(n):
		return "-nan"
	}
	return "+nan"
}

// formatG is C's %g with a precision.
func formatG(n float64, prec int, alt, upper bool) string {
	if prec == 0 {
		prec = 1
	}
	if n == 0 {
		if alt {
			return "0." + strings.Repeat("0", prec-1)
		}
		if math.Signbit(n) {
			return "-0"
		}
		return "0"
	}
	// The exponent after rounding to prec significant digits.
	e := strconv.FormatFloat(n, 'e', prec-1, 64)
	ei := strings.LastIndexByte(e, 'e')
	exp, _ := strconv.Atoi(e[ei+1:])
	var s string
	if exp < -4 || exp >= prec {
		mant := e[:ei]
		if !alt && strings.Contains(mant, ".") {
			mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
		}
		es := e[ei+1:]
		sign := es[0]
		digits := es[1:]
		if len(digits) < 2 {
			digits = "0" + digits
		}
		s = mant + "e" + string(sign) + digits
	} else {
		s = strconv.FormatFloat(n, 'f', prec-1-exp, 64)
		if !alt && strings.Contains(s, ".") {
			s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
		}
	}
	if upper {
		s = strings.ToUpper(s)
	}
	return s
}
