package coreutils

import (
	"bufio"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/nookdev/nook/runtime/host"
)

// bc: POSIX bc's arbitrary-precision decimal arithmetic (math/big).
// A number is an integer scaled by 10^scale digits, as in bc, so results
// truncate exactly as GNU bc's do. Statements: expressions (printed),
// assignments (= += -= *= /= %= ^=), ++/--, if/else, while, for, break,
// continue, blocks, print, quit, define with auto and return. Builtins:
// scale, ibase, obase (2..16), length(), scale(), sqrt(); -l sets scale=20
// (the math library's s, c, a, l, e, j are not provided). Every loop
// iteration counts against MaxLoopIterations and numbers are bounded in
// size.

func init() {
	register("bc", "bc [-lqs] [FILE]...\nArbitrary-precision arithmetic: scale, ibase, obase, if/while/for, define, sqrt(); -l sets scale=20 (no s/c/a/l/e/j).", bcCmd)
}

type bcNum struct {
	v     *big.Int // value × 10^scale
	scale int
}

func bcInt(n int64) bcNum { return bcNum{big.NewInt(n), 0} }

var bigTen = big.NewInt(10)

func pow10(n int) *big.Int { return new(big.Int).Exp(bigTen, big.NewInt(int64(n)), nil) }

// rescale returns n with s digits after the point (truncating).
func (n bcNum) rescale(s int) bcNum {
	switch {
	case s == n.scale:
		return n
	case s > n.scale:
		return bcNum{new(big.Int).Mul(n.v, pow10(s-n.scale)), s}
	}
	return bcNum{new(big.Int).Quo(n.v, pow10(n.scale-s)), s}
}

func (n bcNum) isZero() bool { return n.v.Sign() == 0 }

func (n bcNum) cmp(m bcNum) int {
	s := max(n.scale, m.scale)
	return n.rescale(s).v.Cmp(m.rescale(s).v)
}

func (n bcNum) toInt() int64 {
	return n.rescale(0).v.Int64()
}

func (n bcNum) String() string { return n.format(10) }

func (n bcNum) format(base int) string {
	if n.v.Sign() == 0 {
		return "0"
	}
	neg := n.v.Sign() < 0
	a := new(big.Int).Abs(n.v)
	p := pow10(n.scale)
	ip, fp := new(big.Int).QuoRem(a, p, new(big.Int))
	var s string
	if base == 10 {
		s = ip.String()
		if n.scale > 0 {
			f := fp.String()
			s += "." + strings.Repeat("0", n.scale-len(f)) + f
			if ip.Sign() == 0 {
				s = s[1:] // bc prints .5, not 0.5
			}
		}
	} else {
		s = strings.ToUpper(ip.Text(base))
		if n.scale > 0 {
			// the fraction in base: as many digits as needed for the scale
			var b strings.Builder
			frac := new(big.Rat).SetFrac(fp, p)
			digits := 0
			for need := new(big.Int).Set(p); need.Cmp(big.NewInt(1)) > 0; need.Quo(need, big.NewInt(int64(base))) {
				digits++
			}
			bb := big.NewRat(int64(base), 1)
			for i := 0; i < digits; i++ {
				frac.Mul(frac, bb)
				d := new(big.Int).Quo(frac.Num(), frac.Denom())
				b.WriteString(strings.ToUpper(d.Text(base)))
				frac.Sub(frac, new(big.Rat).SetInt(d))
			}
			s += "." + b.String()
			if ip.Sign() == 0 {
				s = s[1:]
			}
		}
	}
	if neg && n.v.Sign() != 0 {
		s = "-" + s
	}
	// bc breaks lines longer than 70 characters with a backslash (68
	// characters, the backslash and the newline).
	var out strings.Builder
	for len(s) > 69 {
		out.WriteString(s[:68] + "\\\n")
		s = s[68:]
	}
	out.WriteString(s)
	return out.String()
}

type bcTok struct {
	kind string // "num", "id", "str", "op", "nl", "eof"
	s    string
}

// bcLex splits src into tokens; a token takes 32 bytes, so a program of
// more than maxBytes/32 tokens is refused (MaxAllocBytes: a file of ten
// million "(" would take 320 MB of tokens).
func bcLex(src string, maxBytes int64) ([]bcTok, error) {
	var toks []bcTok
	maxToks := int(maxBytes / 32)
	ops := []string{"++", "--", "+=", "-=", "*=", "/=", "%=", "^=", "==", "!=", "<=", ">=", "&&", "||", "+", "-", "*", "/", "%", "^",
		"=", "<", ">", "!", "(", ")", "{", "}", "[", "]", ",", ";"}
	for i := 0; i < len(src); {
		if maxToks > 0 && len(toks) > maxToks {
			return nil, &host.LimitError{Limit: "MaxAllocBytes", Max: maxBytes,
				What: fmt.Sprintf("a program of more than %d tokens", maxToks)}
		}
		c := src[i]
		switch {
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n':
			i += 2
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '\n':
			toks = append(toks, bcTok{"nl", "\n"})
			i++
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				return nil, errors.New("end of file in comment")
			}
			i += j + 4
		case c == '"':
			j := strings.IndexByte(src[i+1:], '"')
			if j < 0 {
				return nil, errors.New("end of file in string")
			}
			toks = append(toks, bcTok{"str", src[i+1 : i+1+j]})
			i += j + 2
		case c >= '0' && c <= '9' || c >= 'A' && c <= 'F' || c == '.':
			j := i
			for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] >= 'A' && src[j] <= 'F' || src[j] == '.' || src[j] == '\\' && j+1 < len(src) && src[j+1] == '\n') {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			toks = append(toks, bcTok{"num", strings.ReplaceAll(src[i:j], "\\\n", "")})
			i = j
		case c >= 'a' && c <= 'z' || c == '_':
			j := i
			for j < len(src) && (src[j] >= 'a' && src[j] <= 'z' || src[j] >= '0' && src[j] <= '9' || src[j] == '_') {
				j++
			}
			toks = append(toks, bcTok{"id", src[i:j]})
			i = j
		default:
			found := false
			for _, op := range ops {
				if strings.HasPrefix(src[i:], op) {
					toks = append(toks, bcTok{"op", op})
					i += len(op)
					found = true
					break
				}
			}
			if !found {
				return nil, fmt.Errorf("illegal character: %c", c)
			}
		}
	}
	return append(toks, bcTok{"eof", ""}), nil
}

// bc's AST: statements and expressions as closures would hide structure;
// a small node type keeps it simple.
type bcNode struct {
	kind string // num var idx call un bin assign pre post; stmt kinds: expr str if while for block brk cont ret quit print auto
	s    string
	a, b *bcNode
	c, d *bcNode
	list []*bcNode
	num  bcNum
}

type bcFunc struct {
	params []string
	autos  []string
	body   *bcNode
}

type bcParser struct {
	toks  []bcTok
	pos   int
	depth int // nesting of expressions and statements being parsed
}

// bcMaxNesting bounds how deep expressions and blocks nest: the parser
// and the evaluator recurse once per level, and the input (a file of a
// million "(") must not overflow the Go stack. GNU bc's parser stack
// gives out near the same depth ("memory exhausted").
const bcMaxNesting = 10_000

func (p *bcParser) enter() error {
	if p.depth++; p.depth > bcMaxNesting {
		return fmt.Errorf("syntax error: nested more than %d levels deep", bcMaxNesting)
	}
	return nil
}

func (p *bcParser) peek() bcTok { return p.toks[p.pos] }
func (p *bcParser) next() bcTok { t := p.toks[p.pos]; p.pos++; return t }
func (p *bcParser) isOp(s string) bool {
	t := p.peek()
	return t.kind == "op" && t.s == s
}
func (p *bcParser) expect(s string) error {
	if !p.isOp(s) {
		return fmt.Errorf("syntax error: expected %s near %q", s, p.peek().s)
	}
	p.pos++
	return nil
}
func (p *bcParser) skipNL() {
	for p.peek().kind == "nl" || p.isOp(";") {
		p.pos++
	}
}

func (p *bcParser) stmt(defs map[string]*bcFunc) (*bcNode, error) {
	defer func() { p.depth-- }()
	if err := p.enter(); err != nil {
		return nil, err
	}
	t := p.peek()
	switch {
	case t.kind == "str":
		p.pos++
		return &bcNode{kind: "str", s: t.s}, nil
	case t.kind == "op" && t.s == "{":
		p.pos++
		var list []*bcNode
		for {
			p.skipNL()
			if p.isOp("}") {
				p.pos++
				return &bcNode{kind: "block", list: list}, nil
			}
			if p.peek().kind == "eof" {
				return nil, errors.New("syntax error: unexpected end of input in a block")
			}
			s, err := p.stmt(defs)
			if err != nil {
				return nil, err
			}
			list = append(list, s)
		}
	case t.kind == "id":
		switch t.s {
		case "if", "while":
			p.pos++
			if err := p.expect("("); err != nil {
				return nil, err
			}
			cond, err := p.expr()
			if err != nil {
				return nil, err
			}
			if err := p.expect(")"); err != nil {
				return nil, err
			}
			for p.peek().kind == "nl" {
				p.pos++
			}
			body, err := p.stmt(defs)
			if err != nil {
				return nil, err
			}
			n := &bcNode{kind: t.s, a: cond, b: body}
			if t.s == "if" {
				save := p.pos
				for p.peek().kind == "nl" || p.isOp(";") {
					p.pos++
				}
				if p.peek().kind == "id" && p.peek().s == "else" {
					p.pos++
					for p.peek().kind == "nl" {
						p.pos++
					}
					if n.c, err = p.stmt(defs); err != nil {
						return nil, err
					}
				} else {
					p.pos = save
				}
			}
			return n, nil
		case "for":
			p.pos++
			if err := p.expect("("); err != nil {
				return nil, err
			}
			var parts [3]*bcNode
			for i := 0; i < 3; i++ {
				end := ";"
				if i == 2 {
					end = ")"
				}
				if !p.isOp(end) {
					e, err := p.expr()
					if err != nil {
						return nil, err
					}
					parts[i] = e
				}
				if err := p.expect(end); err != nil {
					return nil, err
				}
			}
			for p.peek().kind == "nl" {
				p.pos++
			}
			body, err := p.stmt(defs)
			if err != nil {
				return nil, err
			}
			return &bcNode{kind: "for", a: parts[0], b: parts[1], c: parts[2], d: body}, nil
		case "break", "continue", "quit", "halt":
			p.pos++
			return &bcNode{kind: t.s}, nil
		case "return":
			p.pos++
			n := &bcNode{kind: "ret"}
			if p.isOp("(") || !(p.peek().kind == "nl" || p.isOp(";") || p.isOp("}") || p.peek().kind == "eof") {
				e, err := p.expr()
				if err != nil {
					return nil, err
				}
				n.a = e
			}
			return n, nil
		case "print":
			p.pos++
			n := &bcNode{kind: "print"}
			for {
				if p.peek().kind == "str" {
					n.list = append(n.list, &bcNode{kind: "str", s: p.next().s})
				} else {
					e, err := p.expr()
					if err != nil {
						return nil, err
					}
					n.list = append(n.list, e)
				}
				if !p.isOp(",") {
					return n, nil
				}
				p.pos++
			}
		case "auto":
			p.pos++
			n := &bcNode{kind: "auto"}
			for p.peek().kind == "id" {
				n.list = append(n.list, &bcNode{kind: "var", s: p.next().s})
				if p.isOp("[") {
					p.pos += 2
				}
				if !p.isOp(",") {
					break
				}
				p.pos++
			}
			return n, nil
		case "define":
			p.pos++
			name := p.next()
			if name.kind != "id" {
				return nil, errors.New("syntax error: define needs a name")
			}
			if err := p.expect("("); err != nil {
				return nil, err
			}
			f := &bcFunc{}
			for p.peek().kind == "id" {
				f.params = append(f.params, p.next().s)
				if !p.isOp(",") {
					break
				}
				p.pos++
			}
			if err := p.expect(")"); err != nil {
				return nil, err
			}
			for p.peek().kind == "nl" {
				p.pos++
			}
			body, err := p.stmt(defs)
			if err != nil {
				return nil, err
			}
			if body.kind == "block" {
				for _, s := range body.list {
					if s.kind == "auto" {
						for _, v := range s.list {
							f.autos = append(f.autos, v.s)
						}
					}
				}
			}
			f.body = body
			defs[name.s] = f
			return &bcNode{kind: "block"}, nil
		}
	}
	e, err := p.expr()
	if err != nil {
		return nil, err
	}
	return &bcNode{kind: "expr", a: e}, nil
}

var bcPrec = map[string]int{"||": 1, "&&": 2, "==": 4, "!=": 4, "<": 4, ">": 4, "<=": 4, ">=": 4, "+": 5, "-": 5, "*": 6, "/": 6, "%": 6, "^": 7}

func (p *bcParser) expr() (*bcNode, error) { return p.binary(0) }

func (p *bcParser) binary(min int) (*bcNode, error) {
	defer func() { p.depth-- }()
	if err := p.enter(); err != nil {
		return nil, err
	}
	left, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		prec, ok := bcPrec[t.s]
		if t.kind != "op" || !ok || prec < min {
			return left, nil
		}
		p.pos++
		next := prec + 1
		if t.s == "^" {
			next = prec // right associative
		}
		right, err := p.binary(next)
		if err != nil {
			return nil, err
		}
		left = &bcNode{kind: "bin", s: t.s, a: left, b: right}
	}
}

func (p *bcParser) unary() (*bcNode, error) {
	t := p.peek()
	if t.kind == "op" {
		switch t.s {
		case "-", "!":
			p.pos++
			prec := 7
			if t.s == "!" {
				prec = 3
			}
			a, err := p.binary(prec)
			if err != nil {
				return nil, err
			}
			return &bcNode{kind: "un", s: t.s, a: a}, nil
		case "++", "--":
			p.pos++
			a, err := p.primary()
			if err != nil {
				return nil, err
			}
			return &bcNode{kind: "pre", s: t.s, a: a}, nil
		}
	}
	return p.primary()
}

func (p *bcParser) primary() (*bcNode, error) {
	t := p.next()
	var n *bcNode
	switch t.kind {
	case "num":
		n = &bcNode{kind: "lit", s: t.s}
	case "id":
		if p.isOp("(") {
			p.pos++
			n = &bcNode{kind: "call", s: t.s}
			for !p.isOp(")") {
				a, err := p.expr()
				if err != nil {
					return nil, err
				}
				n.list = append(n.list, a)
				if !p.isOp(",") {
					break
				}
				p.pos++
			}
			if err := p.expect(")"); err != nil {
				return nil, err
			}
		} else if p.isOp("[") {
			p.pos++
			i, err := p.expr()
			if err != nil {
				return nil, err
			}
			if err := p.expect("]"); err != nil {
				return nil, err
			}
			n = &bcNode{kind: "idx", s: t.s, a: i}
		} else {
			n = &bcNode{kind: "var", s: t.s}
		}
	case "op":
		if t.s == "(" {
			e, err := p.expr()
			if err != nil {
				return nil, err
			}
			if err := p.expect(")"); err != nil {
				return nil, err
			}
			n = e
			break
		}
		fallthrough
	default:
		if t.kind == "eof" {
			return nil, errors.New("syntax error: unexpected end of input")
		}
		return nil, fmt.Errorf("syntax error near %q", t.s)
	}
	if (n.kind == "var" || n.kind == "idx") && p.peek().kind == "op" {
		switch op := p.peek().s; op {
		case "=", "+=", "-=", "*=", "/=", "%=", "^=":
			p.pos++
			v, err := p.expr()
			if err != nil {
				return nil, err
			}
			return &bcNode{kind: "assign", s: op, a: n, b: v}, nil
		case "++", "--":
			p.pos++
			return &bcNode{kind: "post", s: op, a: n}, nil
		}
	}
	return n, nil
}

type bcInterp struct {
	e      *Env
	vars   []map[string]bcNum
	arrays map[string]map[int64]bcNum
	defs   map[string]*bcFunc
	scale  int
	ibase  int
	obase  int
	out    *bufio.Writer
	depth  int
}

type bcCtl int

const (
	ctlNone bcCtl = iota
	ctlBreak
	ctlContinue
	ctlReturn
	ctlQuit
)

var errBcQuit = errors.New("quit")

func (in *bcInterp) get(name string) bcNum {
	switch name {
	case "scale":
		return bcInt(int64(in.scale))
	case "ibase":
		return bcInt(int64(in.ibase))
	case "obase":
		return bcInt(int64(in.obase))
	}
	for i := len(in.vars) - 1; i >= 0; i-- {
		if v, ok := in.vars[i][name]; ok {
			return v
		}
	}
	return bcInt(0)
}

func (in *bcInterp) set(name string, v bcNum) error {
	switch name {
	case "scale":
		s := v.toInt()
		if s < 0 || s > 10000 {
			return fmt.Errorf("scale out of range: %d", s)
		}
		in.scale = int(s)
		return nil
	case "ibase", "obase":
		b := v.toInt()
		if b < 2 || b > 16 {
			return fmt.Errorf("%s too small or too large (2..16 in the sandbox)", name)
		}
		if name == "ibase" {
			in.ibase = int(b)
		} else {
			in.obase = int(b)
		}
		return nil
	}
	for i := len(in.vars) - 1; i > 0; i-- {
		if _, ok := in.vars[i][name]; ok {
			in.vars[i][name] = v
			return nil
		}
	}
	in.vars[0][name] = v
	return nil
}

func (in *bcInterp) parseNum(s string) (bcNum, error) {
	ip, fp, _ := strings.Cut(s, ".")
	base := int64(in.ibase)
	if len(ip) == 1 && len(fp) == 0 && !strings.Contains(s, ".") {
		// single digits are taken at their value whatever ibase is
		d := int64(strings.IndexByte("0123456789ABCDEF", ip[0]))
		return bcInt(d), nil
	}
	v := new(big.Int)
	for _, c := range ip {
		d := int64(strings.IndexRune("0123456789ABCDEF", c))
		if d >= base {
			d = base - 1
		}
		v.Mul(v, big.NewInt(base)).Add(v, big.NewInt(d))
	}
	if fp == "" {
		return bcNum{v, 0}, nil
	}
	if base == 10 {
		f, _ := new(big.Int).SetString(fp, 10)
		return bcNum{new(big.Int).Add(new(big.Int).Mul(v, pow10(len(fp))), f), len(fp)}, nil
	}
	r := new(big.Rat).SetInt(v)
	den := big.NewRat(1, 1)
	for _, c := range fp {
		d := int64(strings.IndexRune("0123456789ABCDEF", c))
		den.Quo(den, big.NewRat(base, 1))
		r.Add(r, new(big.Rat).Mul(den, big.NewRat(d, 1)))
	}
	sc := len(fp)
	x := new(big.Rat).Mul(r, new(big.Rat).SetInt(pow10(sc)))
	return bcNum{new(big.Int).Quo(x.Num(), x.Denom()), sc}, nil
}

const bcMaxDigits = 100_000

func (in *bcInterp) check(n bcNum) (bcNum, error) {
	if n.v.BitLen() > bcMaxDigits*4 {
		return n, fmt.Errorf("number of more than %d digits", bcMaxDigits)
	}
	return n, nil
}

func (in *bcInterp) eval(n *bcNode) (bcNum, error) {
	if err := in.e.Ctx.Err(); err != nil {
		return bcNum{}, err
	}
	switch n.kind {
	case "lit":
		return in.parseNum(n.s)
	case "var":
		return in.get(n.s), nil
	case "idx":
		i, err := in.eval(n.a)
		if err != nil {
			return bcNum{}, err
		}
		if v, ok := in.arrays[n.s][i.toInt()]; ok {
			return v, nil
		}
		return bcInt(0), nil
	case "un":
		a, err := in.eval(n.a)
		if err != nil {
			return bcNum{}, err
		}
		if n.s == "!" {
			if a.isZero() {
				return bcInt(1), nil
			}
			return bcInt(0), nil
		}
		return bcNum{new(big.Int).Neg(a.v), a.scale}, nil
	case "pre", "post":
		old, err := in.eval(n.a)
		if err != nil {
			return bcNum{}, err
		}
		d := bcInt(1)
		var nv bcNum
		if n.s == "++" {
			nv = bcAdd(old, d)
		} else {
			nv = bcAdd(old, bcNum{big.NewInt(-1), 0})
		}
		if err := in.store(n.a, nv); err != nil {
			return bcNum{}, err
		}
		if n.kind == "pre" {
			return nv, nil
		}
		return old, nil
	case "assign":
		v, err := in.eval(n.b)
		if err != nil {
			return bcNum{}, err
		}
		if n.s != "=" {
			old, err := in.eval(n.a)
			if err != nil {
				return bcNum{}, err
			}
			if v, err = in.binop(n.s[:1], old, v); err != nil {
				return bcNum{}, err
			}
		}
		return v, in.store(n.a, v)
	case "bin":
		if n.s == "&&" || n.s == "||" {
			a, err := in.eval(n.a)
			if err != nil {
				return bcNum{}, err
			}
			if n.s == "&&" && a.isZero() || n.s == "||" && !a.isZero() {
				return bcInt(map[bool]int64{true: 1, false: 0}[n.s == "||"]), nil
			}
			b, err := in.eval(n.b)
			if err != nil {
				return bcNum{}, err
			}
			if b.isZero() {
				return bcInt(0), nil
			}
			return bcInt(1), nil
		}
		a, err := in.eval(n.a)
		if err != nil {
			return bcNum{}, err
		}
		b, err := in.eval(n.b)
		if err != nil {
			return bcNum{}, err
		}
		r, err := in.binop(n.s, a, b)
		if err != nil {
			return bcNum{}, err
		}
		return in.check(r)
	case "call":
		return in.call(n)
	}
	return bcNum{}, fmt.Errorf("cannot evaluate %s", n.kind)
}

func (in *bcInterp) store(target *bcNode, v bcNum) error {
	if target.kind == "idx" {
		i, err := in.eval(target.a)
		if err != nil {
			return err
		}
		if in.arrays[target.s] == nil {
			in.arrays[target.s] = map[int64]bcNum{}
		}
		in.arrays[target.s][i.toInt()] = v
		return nil
	}
	return in.set(target.s, v)
}

func bcAdd(a, b bcNum) bcNum {
	s := max(a.scale, b.scale)
	return bcNum{new(big.Int).Add(a.rescale(s).v, b.rescale(s).v), s}
}

func (in *bcInterp) binop(op string, a, b bcNum) (bcNum, error) {
	bool2 := func(c bool) bcNum {
		if c {
			return bcInt(1)
		}
		return bcInt(0)
	}
	switch op {
	case "+":
		return bcAdd(a, b), nil
	case "-":
		return bcAdd(a, bcNum{new(big.Int).Neg(b.v), b.scale}), nil
	case "*":
		r := bcNum{new(big.Int).Mul(a.v, b.v), a.scale + b.scale}
		return r.rescale(min(a.scale+b.scale, max(in.scale, a.scale, b.scale))), nil
	case "/":
		if b.isZero() {
			return bcNum{}, errors.New("Divide by zero")
		}
		// (a / b) with scale digits: a×10^(scale+b.scale-a.scale) / b
		num := new(big.Int).Set(a.v)
		shift := in.scale + b.scale - a.scale
		if shift >= 0 {
			num.Mul(num, pow10(shift))
		} else {
			num.Quo(num, pow10(-shift))
		}
		return bcNum{num.Quo(num, b.v), in.scale}, nil
	case "%":
		if b.isZero() {
			return bcNum{}, errors.New("Modulo by zero")
		}
		q, err := in.binop("/", a, b)
		if err != nil {
			return bcNum{}, err
		}
		// a - (a/b)*b at scale max(scale+b.scale, a.scale)
		s := max(in.scale+b.scale, a.scale)
		prod := bcNum{new(big.Int).Mul(q.v, b.v), q.scale + b.scale}
		return bcAdd(a.rescale(s), bcNum{new(big.Int).Neg(prod.v), prod.scale}).rescale(s), nil
	case "^":
		e := b.rescale(0).v
		if !e.IsInt64() || e.Int64() > 1_000_000 || e.Int64() < -1_000_000 {
			return bcNum{}, errors.New("exponent too large")
		}
		x := e.Int64()
		neg := x < 0
		if neg {
			x = -x
		}
		if int64(a.v.BitLen())*x > bcMaxDigits*4 {
			return bcNum{}, fmt.Errorf("number of more than %d digits", bcMaxDigits)
		}
		r := bcNum{new(big.Int).Exp(a.v, big.NewInt(x), nil), a.scale * int(x)}
		if neg {
			return in.binop("/", bcInt(1), r)
		}
		return r.rescale(min(a.scale*int(x), max(in.scale, a.scale))), nil
	case "==":
		return bool2(a.cmp(b) == 0), nil
	case "!=":
		return bool2(a.cmp(b) != 0), nil
	case "<":
		return bool2(a.cmp(b) < 0), nil
	case ">":
		return bool2(a.cmp(b) > 0), nil
	case "<=":
		return bool2(a.cmp(b) <= 0), nil
	case ">=":
		return bool2(a.cmp(b) >= 0), nil
	}
	return bcNum{}, fmt.Errorf("unknown operator %s", op)
}

func (in *bcInterp) call(n *bcNode) (bcNum, error) {
	var args []bcNum
	for _, a := range n.list {
		v, err := in.eval(a)
		if err != nil {
			return bcNum{}, err
		}
		args = append(args, v)
	}
	switch n.s {
	case "length":
		if len(args) == 1 {
			s := strings.TrimLeft(new(big.Int).Abs(args[0].v).String(), "0")
			if len(s) < args[0].scale {
				return bcInt(int64(args[0].scale)), nil
			}
			return bcInt(int64(max(len(s), 1))), nil
		}
	case "scale":
		if len(args) == 1 {
			return bcInt(int64(args[0].scale)), nil
		}
	case "sqrt":
		if len(args) == 1 {
			a := args[0]
			if a.v.Sign() < 0 {
				return bcNum{}, errors.New("Square root of a negative number")
			}
			s := max(in.scale, a.scale)
			x := a.rescale(2 * s)
			return bcNum{new(big.Int).Sqrt(x.v), s}, nil
		}
	}
	f := in.defs[n.s]
	if f == nil {
		return bcNum{}, fmt.Errorf("Function %s not defined", n.s)
	}
	if len(args) != len(f.params) {
		return bcNum{}, fmt.Errorf("Parameter number mismatch calling %s", n.s)
	}
	if in.depth >= in.e.MaxDepth && in.e.MaxDepth > 0 {
		return bcNum{}, fmt.Errorf("function calls nested deeper than %d (MaxFunctionDepth)", in.e.MaxDepth)
	}
	frame := map[string]bcNum{}
	for i, p := range f.params {
		frame[p] = args[i]
	}
	for _, a := range f.autos {
		frame[a] = bcInt(0)
	}
	in.vars = append(in.vars, frame)
	in.depth++
	ctl, ret, err := in.exec(f.body)
	in.depth--
	in.vars = in.vars[:len(in.vars)-1]
	if err != nil {
		return bcNum{}, err
	}
	if ctl == ctlReturn {
		return ret, nil
	}
	return bcInt(0), nil
}

func (in *bcInterp) exec(n *bcNode) (bcCtl, bcNum, error) {
	none := bcNum{}
	switch n.kind {
	case "expr":
		v, err := in.eval(n.a)
		if err != nil {
			return ctlNone, none, err
		}
		if n.a.kind != "assign" {
			in.out.WriteString(v.format(in.obase) + "\n")
			in.last(v)
		}
	case "str":
		in.out.WriteString(unescapeBc(n.s))
	case "print":
		for _, x := range n.list {
			if x.kind == "str" {
				in.out.WriteString(unescapeBc(x.s))
				continue
			}
			v, err := in.eval(x)
			if err != nil {
				return ctlNone, none, err
			}
			in.out.WriteString(v.format(in.obase))
		}
	case "block":
		for _, s := range n.list {
			ctl, v, err := in.exec(s)
			if err != nil || ctl != ctlNone {
				return ctl, v, err
			}
		}
	case "if":
		c, err := in.eval(n.a)
		if err != nil {
			return ctlNone, none, err
		}
		if !c.isZero() {
			return in.exec(n.b)
		} else if n.c != nil {
			return in.exec(n.c)
		}
	case "while", "for":
		if n.kind == "for" && n.a != nil {
			if _, err := in.eval(n.a); err != nil {
				return ctlNone, none, err
			}
		}
		for {
			if in.e.Tick != nil {
				if err := in.e.Tick(); err != nil {
					return ctlNone, none, err
				}
			}
			cond := n.a
			body := n.b
			if n.kind == "for" {
				cond, body = n.b, n.d
			}
			if cond != nil {
				c, err := in.eval(cond)
				if err != nil {
					return ctlNone, none, err
				}
				if c.isZero() {
					break
				}
			}
			ctl, v, err := in.exec(body)
			if err != nil {
				return ctlNone, none, err
			}
			if ctl == ctlBreak {
				break
			}
			if ctl == ctlReturn || ctl == ctlQuit {
				return ctl, v, nil
			}
			if n.kind == "for" && n.c != nil {
				if _, err := in.eval(n.c); err != nil {
					return ctlNone, none, err
				}
			}
		}
	case "break":
		return ctlBreak, none, nil
	case "continue":
		return ctlContinue, none, nil
	case "ret":
		if n.a == nil {
			return ctlReturn, bcInt(0), nil
		}
		v, err := in.eval(n.a)
		return ctlReturn, v, err
	case "quit", "halt":
		return ctlQuit, none, nil
	case "auto":
	}
	return ctlNone, none, nil
}

func (in *bcInterp) last(v bcNum) { in.vars[0]["last"] = v }

func unescapeBc(s string) string {
	return strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`, `\"`, `"`, `\a`, "\a", `\b`, "\b", `\f`, "\f", `\r`, "\r", `\q`, `"`).Replace(s)
}

func bcCmd(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "lqsiwv", long: map[string]bool{"mathlib": false, "quiet": false, "standard": false,
		"warn": false, "interactive": false}, alias: map[string]string{"mathlib": "l", "quiet": "q", "standard": "s", "warn": "w", "interactive": "i"}}, args)
	if !ok {
		return 1
	}
	w := bufio.NewWriter(e.Stdout)
	defer w.Flush()
	in := &bcInterp{e: e, vars: []map[string]bcNum{{}}, arrays: map[string]map[int64]bcNum{}, defs: map[string]*bcFunc{},
		ibase: 10, obase: 10, out: w}
	if o.has("l") {
		in.scale = 20
	}
	var srcs []string
	for _, f := range files {
		b, err := e.ReadAll(f)
		if err != nil {
			fmt.Fprintf(e.Stderr, "File %s is unavailable.\n", f)
			return 1
		}
		srcs = append(srcs, string(b))
	}
	if len(files) == 0 {
		b, err := e.ReadAll("-")
		if err != nil {
			e.FileErr("-", err)
			return 1
		}
		srcs = append(srcs, string(b))
	}
	status := 0
	for _, src := range srcs {
		toks, err := bcLex(src, e.MaxBytes)
		if err != nil {
			w.Flush()
			fmt.Fprintf(e.Stderr, "(standard_in) 1: %v\n", err)
			var le *host.LimitError
			if errors.As(err, &le) && e.Stop != nil {
				e.Stop(le)
			}
			return 1
		}
		p := &bcParser{toks: toks}
		for {
			p.skipNL()
			if p.peek().kind == "eof" {
				break
			}
			st, err := p.stmt(in.defs)
			if err != nil {
				w.Flush()
				fmt.Fprintf(e.Stderr, "(standard_in) %d: %v\n", 1+countNL(toks[:p.pos]), err)
				status = 1
				// skip to the next line
				for p.peek().kind != "nl" && p.peek().kind != "eof" {
					p.pos++
				}
				continue
			}
			ctl, _, err := in.exec(st)
			if err != nil {
				if e.Ctx.Err() != nil {
					return 1
				}
				w.Flush()
				// GNU bc reports runtime errors and goes on, with status 0.
				fmt.Fprintf(e.Stderr, "Runtime error (func=(main), adr=0): %v\n", err)
			}
			if ctl == ctlQuit {
				return status
			}
		}
	}
	return status
}

func countNL(toks []bcTok) int {
	n := 0
	for _, t := range toks {
		if t.kind == "nl" {
			n++
		}
	}
	return n
}
