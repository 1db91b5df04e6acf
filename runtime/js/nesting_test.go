package js

import (
	"math"
	"strings"
	"testing"
)

func depthOf(src string) int {
	s := &nestScanner{src: src, max: math.MaxInt, regexOK: true, stmt: true, over: -1}
	s.scan()
	return s.peak
}

func TestSourceNesting(t *testing.T) {
	deep := strings.Repeat("[", 2000) + strings.Repeat("]", 2000)
	for _, tc := range []struct {
		name, src string
		deep      bool
	}{
		{"brackets", "x = " + deep, true},
		{"unary", "x = " + strings.Repeat("!", 2000) + "1", true},
		{"minus", "x = " + strings.Repeat("- ", 2000) + "1", true},
		{"assign", strings.Repeat("a=", 2000) + "1", true},
		{"ternary", "x = " + strings.Repeat("a?1:", 2000) + "1", true},
		{"member", "x = a" + strings.Repeat(".b", 2000), true},
		{"call", "x = a" + strings.Repeat("()", 2000), true},
		{"index", "x = a" + strings.Repeat("[0]", 2000), true},
		{"if", strings.Repeat("if(a)", 2000) + "x;", true},
		{"else if", "if(a){}" + strings.Repeat("else if(a){}", 2000), true},
		{"else if with semicolons", "if(a)x;" + strings.Repeat("else if(a)x;", 2000), true},
		{"labels", strings.Repeat("a:", 2000) + "x;", true},
		{"arrows", "x = " + strings.Repeat("a=>", 2000) + "1", true},
		{"template", "x = " + strings.Repeat("`${", 2000) + "1" + strings.Repeat("}`", 2000), true},
		{"leading operators", "x = a" + strings.Repeat("\n+a", 2000), true},
		{"types", "let x: " + strings.Repeat("Array<", 2000) + "number" + strings.Repeat(">", 2000), true},
		// A '/' read the wrong way would hide the brackets after it.
		{"division after a function expression", "x = function(){} / " + deep + " / 1", true},
		{"division after an object literal", "x = {} / " + deep + " / 1", true},
		{"division after a ternary object", "x = c ? a : {} / " + deep + " / 1", true},
		{"division after a class expression", "x = class {} / " + deep + " / 1", true},
		{"regexp after if", "if (x) /'/.test(y); x = " + deep, true},
		{"regexp after a block", "{} /'/.test(y); x = " + deep, true},
		// JavaScript reads a / after a line break as a division, so the
		// quote opens a string (unterminated: a syntax error).
		{"division after a line break", "x = a\n/'/g.exec(b); y = " + deep, false},
		{"regexp after a line break and a block", "{}\n/'/g.exec(b); y = " + deep, true},
		{"regexp class", "x = /[/'(]/; y = " + deep, true},
		{"regexp after return", "function f() { return /'/ }; y = " + deep, true},
		{"line separator ends a comment", "// a\u2028x = " + deep, true},
		{"string with brackets", `x = "` + deep[:2000] + `"`, false},
		{"template text", "x = `" + deep[:2000] + "`", false},
		{"comment", "/* " + deep[:2000] + " */ //" + deep[:2000], false},
		{"regexp", "x = /" + strings.Repeat(`\(`, 2000) + "/", false},
		{"statements", strings.Repeat("x = a + b * c\n", 5000), false},
		{"statements;", strings.Repeat("x = a + b * c;", 5000), false},
		{"blocks", strings.Repeat("if (a) { f(x) }\n", 5000), false},
		{"calls", strings.Repeat("console.log(a.b.c, d[0])\n", 5000), false},
		{"object", "x = {" + strings.Repeat("a: 1, b: [2, 3], c: f(4),\n", 5000) + "}", false},
		{"cases", "switch (x) {" + strings.Repeat("case 1: ", 5000) + "}", false},
		{"array", "x = [" + strings.Repeat("1, ", 50000) + "]", false},
		{"comma", "x = (" + strings.Repeat("a, ", 50000) + "1)", false},
	} {
		got := sourceNesting(tc.src, 1000) >= 0
		if got != tc.deep {
			t.Errorf("%s: deep = %v, want %v (measure %d)", tc.name, got, tc.deep, depthOf(tc.src))
		}
	}
}

func TestCheckSource(t *testing.T) {
	err := checkSource("/workspace/a.js", "x = 1\ny = [[[[", 3)
	if err == nil || err.Error() != "/workspace/a.js nested deeper than 3 levels (at 2:7) exceeds the limit MaxNestingDepth (3)" {
		t.Errorf("err = %v", err)
	}
}
