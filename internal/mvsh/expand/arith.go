// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package expand

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/nookdev/nook/internal/mvsh/syntax"
)

// TODO(v4): the arithmetic APIs should return int64 for portability with 32-bit systems,
// even if Bash only supports native int sizes.

func Arithm(cfg *Config, expr syntax.ArithmExpr) (int, error) {
	switch expr := expr.(type) {
	case *syntax.Word:
		str, err := Literal(cfg, expr)
		if err != nil {
			return 0, err
		}
		if str == "LINENO" {
			// nook: as in ${LINENO}, the line of the expression (of
			// the command, inside a trap).
			if cfg.LineOverride != 0 {
				return int(cfg.LineOverride), nil
			}
			return int(expr.Pos().Line()), nil
		}
		// nook: a name's value is an expression of its own, numbers are
		// read as bash reads them (arithValue).
		return cfg.arithValue(str)
	case *syntax.ParenArithm:
		return Arithm(cfg, expr.X)
	case *syntax.UnaryArithm:
		switch expr.Op {
		case syntax.Inc, syntax.Dec:
			// nook: the target may be an array element (arith_elem.go).
			target, err := arithTargetOf(expr.X)
			if err != nil {
				return 0, err
			}
			cur, err := cfg.arithGet(target)
			if err != nil {
				return 0, err
			}
			oldV, err := cfg.arithValue(cur)
			if err != nil {
				return 0, err
			}
			old := int64(oldV)
			val := old
			if expr.Op == syntax.Inc {
				val++
			} else {
				val--
			}
			if err := cfg.arithSet(target, strconv.FormatInt(val, 10)); err != nil {
				return 0, err
			}
			if expr.Post {
				return int(old), nil
			}
			return int(val), nil
		}
		val, err := Arithm(cfg, expr.X)
		if err != nil {
			return 0, err
		}
		switch expr.Op {
		case syntax.Not:
			return oneIf(val == 0), nil
		case syntax.BitNegation:
			return ^val, nil
		case syntax.Plus:
			return val, nil
		case syntax.Minus:
			return -val, nil
		default:
			return 0, fmt.Errorf("unsupported unary arithmetic operator: %q", expr.Op)
		}
	case *syntax.BinaryArithm:
		switch expr.Op {
		case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn,
			syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
			syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn,
			syntax.ShlAssgn, syntax.ShrAssgn:
			return cfg.assgnArit(expr)
		case syntax.TernQuest: // TernColon can't happen here
			cond, err := Arithm(cfg, expr.X)
			if err != nil {
				return 0, err
			}
			b2 := expr.Y.(*syntax.BinaryArithm) // must have Op==TernColon
			if cond != 0 {
				return Arithm(cfg, b2.X)
			}
			return Arithm(cfg, b2.Y)
		case syntax.AndArit, syntax.OrArit:
			// Like Bash, short-circuit the right operand.
			left, err := Arithm(cfg, expr.X)
			if err != nil {
				return 0, err
			}
			if expr.Op == syntax.AndArit && left == 0 {
				return 0, nil
			}
			if expr.Op == syntax.OrArit && left != 0 {
				return 1, nil
			}
			right, err := Arithm(cfg, expr.Y)
			if err != nil {
				return 0, err
			}
			return oneIf(right != 0), nil
		}
		left, err := Arithm(cfg, expr.X)
		if err != nil {
			return 0, err
		}
		right, err := Arithm(cfg, expr.Y)
		if err != nil {
			return 0, err
		}
		return binArit(expr.Op, left, right)
	case *syntax.FlagsArithm: // e.g. zsh's ${a[(r)b]}
		return 0, fmt.Errorf("unsupported")
	default:
		panic(fmt.Sprintf("unexpected arithm expr: %T", expr))
	}
}

func oneIf(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (cfg *Config) assgnArit(b *syntax.BinaryArithm) (int, error) {
	// nook: the target may be an array element (arith_elem.go).
	target, err := arithTargetOf(b.X)
	if err != nil {
		return 0, err
	}
	cur, err := cfg.arithGet(target)
	if err != nil {
		return 0, err
	}
	var val int64
	if b.Op != syntax.Assgn {
		v, err := cfg.arithValue(cur)
		if err != nil {
			return 0, err
		}
		val = int64(v)
	}
	arg_, err := Arithm(cfg, b.Y)
	if err != nil {
		return 0, err
	}
	arg := int64(arg_)
	switch b.Op {
	case syntax.Assgn:
		val = arg
	case syntax.AddAssgn:
		val += arg
	case syntax.SubAssgn:
		val -= arg
	case syntax.MulAssgn:
		val *= arg
	case syntax.QuoAssgn:
		if arg == 0 {
			return 0, &ArithmError{Msg: "division by 0"}
		}
		val /= arg
	case syntax.RemAssgn:
		if arg == 0 {
			return 0, &ArithmError{Msg: "division by 0"}
		}
		val %= arg
	case syntax.AndAssgn:
		val &= arg
	case syntax.OrAssgn:
		val |= arg
	case syntax.XorAssgn:
		val ^= arg
	case syntax.ShlAssgn:
		val <<= uint(arg)
	case syntax.ShrAssgn:
		val >>= uint(arg)
	}
	if err := cfg.arithSet(target, strconv.FormatInt(val, 10)); err != nil {
		return 0, err
	}
	return int(val), nil
}

func intPow(a, b int) int {
	p := 1
	for b > 0 {
		if b&1 != 0 {
			p *= a
		}
		b >>= 1
		a *= a
	}
	return p
}

func binArit(op syntax.BinAritOperator, x, y int) (int, error) {
	switch op {
	case syntax.Add:
		return x + y, nil
	case syntax.Sub:
		return x - y, nil
	case syntax.Mul:
		return x * y, nil
	case syntax.Quo:
		if y == 0 {
			return 0, &ArithmError{Msg: "division by 0"}
		}
		return x / y, nil
	case syntax.Rem:
		if y == 0 {
			return 0, &ArithmError{Msg: "division by 0"}
		}
		return x % y, nil
	case syntax.Pow:
		if y < 0 {
			return 0, &ArithmError{Msg: "exponent less than 0"}
		}
		return intPow(x, y), nil
	case syntax.Eql:
		return oneIf(x == y), nil
	case syntax.Gtr:
		return oneIf(x > y), nil
	case syntax.Lss:
		return oneIf(x < y), nil
	case syntax.Neq:
		return oneIf(x != y), nil
	case syntax.Leq:
		return oneIf(x <= y), nil
	case syntax.Geq:
		return oneIf(x >= y), nil
	case syntax.And:
		return x & y, nil
	case syntax.Or:
		return x | y, nil
	case syntax.Xor:
		return x ^ y, nil
	case syntax.Shr:
		return x >> uint(y), nil
	case syntax.Shl:
		return x << uint(y), nil
	case syntax.Comma:
		// x is executed but its result discarded
		return y, nil
	default:
		return 0, fmt.Errorf("unsupported binary arithmetic operator: %q", op)
	}
}

// maxArithDepth bounds how deep variables whose values are expressions
// may nest ("x=y+1 y=x+1"), as bash's MAX_EXPR_RECURSION_LEVEL does.
const maxArithDepth = 1024

// An ArithmError is an arithmetic expression bash refuses when it
// evaluates it: a bad constant ("09", "2#A"), a division by 0, an
// expression in a variable's value that does not parse. The command it is
// in fails with status 1 (nook).
type ArithmError struct {
	Expr  string // the expression's text, where known
	Msg   string // what is wrong, in bash's words
	Token string // the part bash names as the error token, where known
}

func (e *ArithmError) Error() string {
	s := e.Msg
	if e.Expr != "" {
		s = e.Expr + ": " + s
	}
	if e.Token != "" {
		s += fmt.Sprintf(" (error token is %q)", e.Token)
	}
	return s
}

// arithValue is the value of an operand of an arithmetic expression, as
// bash reads it: a name stands for its variable, whose value (when not
// empty) is itself an expression; a number is a decimal, 0 octal, 0x hex
// or BASE#DIGITS constant whose digits must fit the base; any other text
// (from a variable's value) is parsed as an expression (nook).
func (cfg *Config) arithValue(str string) (int, error) {
	str = strings.TrimSpace(str)
	if str == "" {
		return 0, nil
	}
	if digits := strings.TrimLeft(str, "+-"); digits != "" && (digits[0] != '0' || digits == "0") {
		if n, err := strconv.ParseInt(str, 10, 64); err == nil {
			return int(n), nil
		}
	}
	if cfg.arithDepth >= maxArithDepth {
		return 0, &ArithmError{Expr: str, Msg: "expression recursion level exceeded", Token: str}
	}
	cfg.arithDepth++
	defer func() { cfg.arithDepth-- }()
	if syntax.ValidName(str) {
		val := cfg.envGet(str)
		if val == "" {
			return 0, nil
		}
		return cfg.arithValue(val)
	}
	if c := str[0]; c >= '0' && c <= '9' && isConstWord(str) {
		n, err := arithConst(str)
		return int(n), err
	}
	if str == "@" || str == "*" {
		return 0, nil // the subscript of a[@], a[*] where a number is read
	}
	expr, err := syntax.NewParser().Arithmetic(strings.NewReader(str))
	if w, ok := expr.(*syntax.Word); ok && w.Lit() == str {
		err = errors.New("not an operand") // would read itself again
	}
	if err != nil || expr == nil {
		return 0, &ArithmError{Expr: str, Msg: "syntax error: operand expected", Token: str}
	}
	n, err := Arithm(cfg, expr)
	if ae, ok := err.(*ArithmError); ok && ae.Expr == "" {
		ae.Expr = str
	}
	return n, err
}

// arithConst reads a numeric constant as bash does: "0x1f", "017",
// "2#101", "64#_@", "42"; a digit too great for the base is an error
// ("09", "2#2", "42x"), and so is a base outside 2 to 64. Values wrap
// around on overflow, as bash's do.
func arithConst(s string) (int64, error) {
	tooGreat := &ArithmError{Expr: s, Msg: "value too great for base", Token: s}
	base, digits := int64(10), s
	switch {
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		base, digits = 16, s[2:]
	case strings.Contains(s, "#"):
		b, d, _ := strings.Cut(s, "#")
		n, err := strconv.ParseInt(b, 10, 64)
		if err != nil || n < 2 || n > 64 {
			return 0, &ArithmError{Expr: s, Msg: "invalid arithmetic base", Token: s}
		}
		base, digits = n, d
		if digits == "" {
			return 0, tooGreat
		}
	case len(s) > 1 && s[0] == '0':
		base, digits = 8, s[1:]
	}
	var n int64
	for i := 0; i < len(digits); i++ {
		var d int64
		switch c := digits[i]; {
		case c >= '0' && c <= '9':
			d = int64(c - '0')
		case c >= 'a' && c <= 'z':
			d = int64(c-'a') + 10
		case c >= 'A' && c <= 'Z':
			d = int64(c-'A') + 10
			if base > 36 {
				d += 26
			}
		case c == '@' && base > 36:
			d = 62
		case c == '_' && base > 36:
			d = 63
		default:
			return 0, &ArithmError{Expr: s, Msg: "syntax error: invalid arithmetic operator", Token: digits[i:]}
		}
		if d >= base {
			return 0, tooGreat
		}
		n = n*base + d
	}
	return n, nil
}

// isConstWord reports whether s is one word of a constant's characters
// (digits, letters, #, @, _), not an expression.
func isConstWord(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '#' || c == '@' || c == '_') {
			return false
		}
	}
	return true
}
