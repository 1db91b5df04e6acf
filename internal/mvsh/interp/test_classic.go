// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package interp

import (
	"github.com/nookdev/nook/internal/mvsh/syntax"
)

const illegalTok = 0

// testUnaryOp is an exact copy of syntax's.
func testUnaryOp(val string) syntax.UnTestOperator {
	switch val {
	case "!":
		return syntax.TsNot
	case "(":
		return syntax.TsParen
	case "-e", "-a":
		return syntax.TsExists
	case "-f":
		return syntax.TsRegFile
	case "-d":
		return syntax.TsDirect
	case "-c":
		return syntax.TsCharSp
	case "-b":
		return syntax.TsBlckSp
	case "-p":
		return syntax.TsNmPipe
	case "-S":
		return syntax.TsSocket
	case "-L", "-h":
		return syntax.TsSmbLink
	case "-k":
		return syntax.TsSticky
	case "-g":
		return syntax.TsGIDSet
	case "-u":
		return syntax.TsUIDSet
	case "-G":
		return syntax.TsGrpOwn
	case "-O":
		return syntax.TsUsrOwn
	case "-N":
		return syntax.TsModif
	case "-r":
		return syntax.TsRead
	case "-w":
		return syntax.TsWrite
	case "-x":
		return syntax.TsExec
	case "-s":
		return syntax.TsNoEmpty
	case "-t":
		return syntax.TsFdTerm
	case "-z":
		return syntax.TsEmpStr
	case "-n":
		return syntax.TsNempStr
	case "-o":
		return syntax.TsOptSet
	case "-v":
		return syntax.TsVarSet
	case "-R":
		return syntax.TsRefVar
	default:
		return illegalTok
	}
}

// testBinaryOp is like syntax's, but with -a and -o, and without =~.
func testBinaryOp(val string) syntax.BinTestOperator {
	switch val {
	case "-a":
		return syntax.AndTest
	case "-o":
		return syntax.OrTest
	case "==", "=":
		return syntax.TsMatch
	case "!=":
		return syntax.TsNoMatch
	case "<": // nook: bash's test compares strings with < and >
		return syntax.TsBefore
	case ">":
		return syntax.TsAfter
	case "-nt":
		return syntax.TsNewer
	case "-ot":
		return syntax.TsOlder
	case "-ef":
		return syntax.TsDevIno
	case "-eq":
		return syntax.TsEql
	case "-ne":
		return syntax.TsNeq
	case "-le":
		return syntax.TsLeq
	case "-ge":
		return syntax.TsGeq
	case "-lt":
		return syntax.TsLss
	case "-gt":
		return syntax.TsGtr
	default:
		return illegalTok
	}
}

// testArgs parses the arguments of test (or [ without its ]) as bash's
// test.c does (nook): by their number first, as POSIX says (one argument
// is true when not empty; two are "! x" or a unary test; three are a
// binary test, "! a b" or "( x )"; four may start with "!" or be
// "( a b )"), then as an expression where a word followed by a binary
// operator is its left operand and -a binds tighter than -o. It returns
// nil for no arguments (false); errors go to p.err.
func testArgs(args []string, errf func(string, ...any)) syntax.TestExpr {
	t := &testArgParser{args: args, errf: errf}
	var x syntax.TestExpr
	switch len(args) {
	case 0:
		return nil
	case 1:
		x, t.pos = testWord(args[0]), 1
	case 2:
		x = t.two()
	case 3:
		x = t.three()
	case 4:
		switch {
		case args[0] == "!":
			t.pos = 1
			x = &syntax.UnaryTest{Op: syntax.TsNot, X: t.three()}
		case args[0] == "(" && args[3] == ")":
			t.pos = 1
			x = &syntax.ParenTest{X: t.two()}
			t.pos++
		default:
			x = t.or()
		}
	default:
		x = t.or()
	}
	if !t.failed && t.pos < len(args) {
		t.fail("too many arguments")
	}
	return x
}

type testArgParser struct {
	args   []string
	pos    int
	errf   func(string, ...any)
	failed bool
}

func (t *testArgParser) fail(format string, a ...any) {
	if !t.failed {
		t.failed = true
		t.errf(format, a...)
	}
}

func testWord(s string) *syntax.Word {
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: s}}}
}

// testBinop is a binary operator of test other than -a and -o.
func testBinop(s string) syntax.BinTestOperator {
	if s == "-a" || s == "-o" {
		return illegalTok
	}
	return testBinaryOp(s)
}

// testUnop is a unary operator of test ("-f", "-z"), not ! or (.
func testUnop(s string) syntax.UnTestOperator {
	if op := testUnaryOp(s); op != syntax.TsNot && op != syntax.TsParen {
		return op
	}
	return illegalTok
}

func (t *testArgParser) two() syntax.TestExpr {
	a, b := t.args[t.pos], t.args[t.pos+1]
	t.pos += 2
	if a == "!" {
		return &syntax.UnaryTest{Op: syntax.TsNot, X: testWord(b)}
	}
	if op := testUnop(a); op != illegalTok {
		return &syntax.UnaryTest{Op: op, X: testWord(b)}
	}
	t.fail("%s: unary operator expected", a)
	return nil
}

func (t *testArgParser) three() syntax.TestExpr {
	a, op, b := t.args[t.pos], t.args[t.pos+1], t.args[t.pos+2]
	if bop := testBinop(op); bop != illegalTok {
		t.pos += 3
		return &syntax.BinaryTest{Op: bop, X: testWord(a), Y: testWord(b)}
	}
	if op == "-a" || op == "-o" {
		t.pos += 3
		return &syntax.BinaryTest{Op: testBinaryOp(op), X: testWord(a), Y: testWord(b)}
	}
	if a == "!" {
		t.pos++
		return &syntax.UnaryTest{Op: syntax.TsNot, X: t.two()}
	}
	if a == "(" && b == ")" {
		t.pos += 3
		return &syntax.ParenTest{X: testWord(op)}
	}
	t.fail("%s: binary operator expected", op)
	t.pos += 3
	return nil
}

func (t *testArgParser) or() syntax.TestExpr {
	x := t.and()
	if !t.failed && t.pos < len(t.args) && t.args[t.pos] == "-o" {
		t.pos++
		return &syntax.BinaryTest{Op: syntax.OrTest, X: x, Y: t.or()}
	}
	return x
}

func (t *testArgParser) and() syntax.TestExpr {
	x := t.term()
	if !t.failed && t.pos < len(t.args) && t.args[t.pos] == "-a" {
		t.pos++
		return &syntax.BinaryTest{Op: syntax.AndTest, X: x, Y: t.and()}
	}
	return x
}

func (t *testArgParser) term() syntax.TestExpr {
	n := len(t.args)
	if t.failed {
		return nil
	}
	if t.pos >= n {
		t.fail("argument expected")
		return nil
	}
	a := t.args[t.pos]
	switch {
	case a == "!":
		t.pos++
		return &syntax.UnaryTest{Op: syntax.TsNot, X: t.term()}
	case a == "(":
		t.pos++
		x := t.or()
		if t.pos >= n || t.args[t.pos] != ")" {
			t.fail("`)' expected")
			return nil
		}
		t.pos++
		return &syntax.ParenTest{X: x}
	case t.pos+3 <= n && testBinop(t.args[t.pos+1]) != illegalTok:
		x := &syntax.BinaryTest{Op: testBinop(t.args[t.pos+1]), X: testWord(a), Y: testWord(t.args[t.pos+2])}
		t.pos += 3
		return x
	case t.pos+2 <= n && testUnop(a) != illegalTok:
		x := &syntax.UnaryTest{Op: testUnop(a), X: testWord(t.args[t.pos+1])}
		t.pos += 2
		return x
	}
	t.pos++
	return testWord(a)
}
