package awk

import "fmt"

// The special variables, at fixed global indices.
const (
	vNF = iota
	vNR
	vFNR
	vFS
	vOFS
	vORS
	vRS
	vSUBSEP
	vCONVFMT
	vOFMT
	vRSTART
	vRLENGTH
	vFILENAME
	vENVIRON
	vARGC
	vARGV
	nSpecial
)

var specialNames = [nSpecial]string{"NF", "NR", "FNR", "FS", "OFS", "ORS", "RS", "SUBSEP", "CONVFMT",
	"OFMT", "RSTART", "RLENGTH", "FILENAME", "ENVIRON", "ARGC", "ARGV"}

// maxNesting bounds the nesting of expressions and statements, so a
// hostile program cannot exhaust the parser's stack.
const maxNesting = 500

type parser struct {
	lex    lexer
	tok    token
	prog   *Program
	fn     *function      // the function being parsed, or nil
	locals map[string]int // its parameters
	calls  []*callExpr
	depth  int
	loops  int
}

// Parse parses an awk program.
func Parse(src string) (prog *Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			pe, ok := r.(*ParseError)
			if !ok {
				panic(r)
			}
			prog, err = nil, pe
		}
	}()
	p := &parser{lex: newLexer(src), prog: &Program{funcs: map[string]*function{}, globals: map[string]int{}}}
	for i, n := range specialNames {
		p.prog.globals[n] = i
	}
	p.prog.nglob = nSpecial
	p.advance()
	p.program()
	for _, c := range p.calls {
		f, ok := p.prog.funcs[c.name]
		if !ok {
			return nil, &ParseError{Line: 0, Msg: fmt.Sprintf("function `%s' not defined", c.name)}
		}
		if len(c.args) > len(f.params) {
			return nil, &ParseError{Line: 0, Msg: fmt.Sprintf("function `%s' called with more arguments than declared", c.name)}
		}
		c.fn = f
	}
	return p.prog, nil
}

func (p *parser) advance() { p.tok = p.lex.next() }

func (p *parser) errorf(format string, args ...any) {
	panic(&ParseError{Line: p.tok.line, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) unexpected() {
	switch p.tok.kind {
	case tEOF:
		p.errorf("unexpected end of program")
	case tNewline:
		p.errorf("unexpected newline")
	}
	p.errorf("unexpected %q", p.tok.val)
}

func (p *parser) expect(k tok) token {
	if p.tok.kind != k {
		p.unexpected()
	}
	t := p.tok
	p.advance()
	return t
}

func (p *parser) optNewlines() {
	for p.tok.kind == tNewline {
		p.advance()
	}
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxNesting {
		p.errorf("program nested too deeply")
	}
}

func (p *parser) leave() { p.depth-- }

func (p *parser) program() {
	for {
		for p.tok.kind == tNewline || p.tok.kind == tSemi {
			p.advance()
		}
		if p.tok.kind == tEOF {
			return
		}
		switch p.tok.kind {
		case tBegin:
			p.advance()
			p.optNewlines()
			p.prog.begin = append(p.prog.begin, p.action())
		case tEnd:
			p.advance()
			p.optNewlines()
			p.prog.end = append(p.prog.end, p.action())
		case tFunction:
			p.function()
		default:
			var it item
			if p.tok.kind != tLbrace {
				it.pattern = p.expr(false, false)
				if p.tok.kind == tComma {
					p.advance()
					p.optNewlines()
					it.pattern2 = p.expr(false, false)
				}
			}
			if p.tok.kind == tLbrace {
				it.action = p.action()
				it.hasAction = true
			}
			p.prog.items = append(p.prog.items, it)
			if !it.hasAction {
				switch p.tok.kind {
				case tNewline, tSemi, tEOF:
				default:
					p.unexpected()
				}
			}
		}
	}
}

func (p *parser) function() {
	p.advance()
	name := p.tok.val
	if p.tok.kind != tName && p.tok.kind != tFuncName {
		p.errorf("function name expected")
	}
	if _, ok := p.prog.funcs[name]; ok {
		p.errorf("function `%s' defined twice", name)
	}
	if _, ok := p.prog.globals[name]; ok && p.prog.globals[name] < nSpecial {
		p.errorf("cannot use special variable `%s' as a function name", name)
	}
	p.advance()
	p.expect(tLparen)
	f := &function{name: name}
	p.locals = map[string]int{}
	for p.tok.kind != tRparen {
		if p.tok.kind != tName {
			p.errorf("parameter name expected")
		}
		if _, dup := p.locals[p.tok.val]; dup {
			p.errorf("duplicate parameter %s", p.tok.val)
		}
		p.locals[p.tok.val] = len(f.params)
		f.params = append(f.params, p.tok.val)
		p.advance()
		if p.tok.kind == tComma {
			p.advance()
			p.optNewlines()
		} else if p.tok.kind != tRparen {
			p.unexpected()
		}
	}
	p.advance()
	p.optNewlines()
	p.prog.funcs[name] = f
	p.fn = f
	f.body = p.action()
	f.nlocals = len(f.params)
	p.fn, p.locals = nil, nil
}

// action parses "{ statements }".
func (p *parser) action() []stmt {
	p.expect(tLbrace)
	var body []stmt
	for {
		for p.tok.kind == tNewline || p.tok.kind == tSemi {
			p.advance()
		}
		if p.tok.kind == tRbrace {
			p.advance()
			return body
		}
		body = append(body, p.stmt())
	}
}

// endSimple ends a simple statement: ";", a newline, or before "}".
func (p *parser) endSimple() {
	switch p.tok.kind {
	case tSemi, tNewline:
		p.advance()
	case tRbrace, tEOF:
	default:
		p.unexpected()
	}
}

// body parses the statement of an if, a loop or an else.
func (p *parser) body() stmt {
	p.optNewlines()
	if p.tok.kind == tSemi {
		p.advance()
		return &blockStmt{}
	}
	return p.stmt()
}

func (p *parser) stmt() stmt {
	p.enter()
	defer p.leave()
	switch p.tok.kind {
	case tLbrace:
		return &blockStmt{body: p.action()}
	case tIf:
		p.advance()
		p.expect(tLparen)
		cond := p.expr(false, false)
		p.expect(tRparen)
		s := &ifStmt{cond: cond, then: p.body()}
		// "else" may follow on a later line, after an optional ";"
		save, saveTok := p.lex, p.tok
		for p.tok.kind == tNewline || p.tok.kind == tSemi {
			p.advance()
		}
		if p.tok.kind == tElse {
			p.advance()
			s.els_ = p.body()
		} else {
			p.lex, p.tok = save, saveTok
		}
		return s
	case tWhile:
		p.advance()
		p.expect(tLparen)
		cond := p.expr(false, false)
		p.expect(tRparen)
		if p.tok.kind == tSemi {
			p.advance()
			return &whileStmt{cond: cond, body: &blockStmt{}}
		}
		p.loops++
		b := p.body()
		p.loops--
		return &whileStmt{cond: cond, body: b}
	case tDo:
		p.advance()
		p.loops++
		b := p.body()
		p.loops--
		for p.tok.kind == tNewline || p.tok.kind == tSemi {
			p.advance()
		}
		p.expect(tWhile)
		p.expect(tLparen)
		cond := p.expr(false, false)
		p.expect(tRparen)
		p.endSimple()
		return &doStmt{body: b, cond: cond}
	case tFor:
		return p.forStmt()
	case tSemi:
		p.advance()
		return &blockStmt{}
	}
	s := p.simpleStmt()
	p.endSimple()
	return s
}

func (p *parser) forStmt() stmt {
	p.advance()
	p.expect(tLparen)
	// for (name in array) or for ((name) in array)
	save, saveTok := p.lex, p.tok
	if p.tok.kind == tName {
		v := p.tok
		p.advance()
		if p.tok.kind == tIn {
			p.advance()
			if p.tok.kind == tName {
				arr := p.tok
				p.advance()
				if p.tok.kind == tRparen {
					p.advance()
					p.loops++
					b := p.body()
					p.loops--
					return &forInStmt{v: p.variable(v.val), arr: p.variable(arr.val), body: b}
				}
			}
		}
	}
	p.lex, p.tok = save, saveTok
	f := &forStmt{}
	if p.tok.kind != tSemi {
		f.init = p.simpleStmt()
	}
	p.expect(tSemi)
	p.optNewlines()
	if p.tok.kind != tSemi {
		f.cond = p.expr(false, false)
	}
	p.expect(tSemi)
	p.optNewlines()
	if p.tok.kind != tRparen {
		f.post = p.simpleStmt()
	}
	p.expect(tRparen)
	if p.tok.kind == tSemi {
		p.advance()
		f.body = &blockStmt{}
		return f
	}
	p.loops++
	f.body = p.body()
	p.loops--
	return f
}

func (p *parser) simpleStmt() stmt {
	switch p.tok.kind {
	case tPrint, tPrintf:
		return p.printStmt()
	case tNext:
		p.advance()
		return &nextStmt{}
	case tNextfile:
		p.advance()
		return &nextfileStmt{}
	case tExit:
		p.advance()
		s := &exitStmt{}
		if p.startsExpr() {
			s.e = p.expr(false, false)
		}
		return s
	case tReturn:
		if p.fn == nil {
			p.errorf("return used outside a function")
		}
		p.advance()
		s := &returnStmt{}
		if p.startsExpr() {
			s.e = p.expr(false, false)
		}
		return s
	case tBreak:
		if p.loops == 0 {
			p.errorf("break is not allowed outside a loop")
		}
		p.advance()
		return &breakStmt{}
	case tContinue:
		if p.loops == 0 {
			p.errorf("continue is not allowed outside a loop")
		}
		p.advance()
		return &continueStmt{}
	case tDelete:
		p.advance()
		if p.tok.kind != tName {
			p.errorf("delete needs an array name")
		}
		arr := p.variable(p.tok.val)
		p.advance()
		s := &deleteStmt{arr: arr}
		if p.tok.kind == tLbracket {
			p.advance()
			s.index = p.exprList()
			p.expect(tRbracket)
		}
		return s
	}
	return &exprStmt{e: p.expr(false, false)}
}

// startsExpr reports whether the current token can start an expression
// (after print, exit and return).
func (p *parser) startsExpr() bool {
	switch p.tok.kind {
	case tSemi, tNewline, tRbrace, tEOF, tGT, tAppend, tPipe:
		return false
	}
	return true
}

func (p *parser) printStmt() stmt {
	s := &printStmt{printf: p.tok.kind == tPrintf}
	p.advance()
	if p.startsExpr() {
		s.args = p.exprListNoGT()
		if len(s.args) == 1 {
			if g, ok := s.args[0].(*groupExpr); ok {
				s.args = g.exprs
			}
		}
	}
	if s.printf && len(s.args) == 0 {
		p.errorf("printf: no format")
	}
	switch p.tok.kind {
	case tGT, tAppend, tPipe:
		s.redir = p.tok.kind
		p.advance()
		s.dest = p.concat(true, false)
	}
	return s
}

func (p *parser) exprListNoGT() []expr {
	l := []expr{p.expr(true, false)}
	for p.tok.kind == tComma {
		p.advance()
		p.optNewlines()
		l = append(l, p.expr(true, false))
	}
	return l
}

func (p *parser) exprList() []expr {
	l := []expr{p.expr(false, false)}
	for p.tok.kind == tComma {
		p.advance()
		p.optNewlines()
		l = append(l, p.expr(false, false))
	}
	return l
}

// variable resolves a name to a local or global variable.
func (p *parser) variable(name string) *varRef {
	if p.locals != nil {
		if i, ok := p.locals[name]; ok {
			return &varRef{local: true, idx: i, name: name}
		}
	}
	if _, ok := p.prog.funcs[name]; ok {
		p.errorf("function `%s' used as a variable", name)
	}
	i, ok := p.prog.globals[name]
	if !ok {
		i = p.prog.nglob
		p.prog.globals[name] = i
		p.prog.nglob++
	}
	return &varRef{idx: i, name: name}
}

func isLvalue(e expr) bool {
	switch e.(type) {
	case *varRef, *fieldRef, *indexExpr:
		return true
	}
	return false
}

// expr parses an expression. noGT: ">" is a redirection (print); noIn:
// "in" is not an operator (unused for now, kept for the for-in form).
func (p *parser) expr(noGT, noIn bool) expr {
	p.enter()
	defer p.leave()
	left := p.ternary(noGT, noIn)
	switch p.tok.kind {
	case tAssign, tAddAssign, tSubAssign, tMulAssign, tDivAssign, tModAssign, tPowAssign:
		if !isLvalue(left) {
			if p.tok.kind == tDivAssign {
				break
			}
			p.errorf("assignment to a value that is not a variable")
		}
		op := p.tok.kind
		p.advance()
		p.optNewlines()
		return &assignExpr{lhs: left, op: op, rhs: p.expr(noGT, noIn)}
	}
	return left
}

func (p *parser) ternary(noGT, noIn bool) expr {
	c := p.or(noGT, noIn)
	if p.tok.kind != tQuestion {
		return c
	}
	p.advance()
	p.optNewlines()
	a := p.expr(noGT, noIn)
	p.optNewlines()
	p.expect(tColon)
	p.optNewlines()
	b := p.expr(noGT, noIn)
	return &condExpr{c: c, a: a, b: b}
}

func (p *parser) or(noGT, noIn bool) expr {
	l := p.and(noGT, noIn)
	for p.tok.kind == tOr {
		p.advance()
		p.optNewlines()
		l = &orExpr{l: l, r: p.and(noGT, noIn)}
	}
	return l
}

func (p *parser) and(noGT, noIn bool) expr {
	l := p.in(noGT, noIn)
	for p.tok.kind == tAnd {
		p.advance()
		p.optNewlines()
		l = &andExpr{l: l, r: p.in(noGT, noIn)}
	}
	return l
}

func (p *parser) in(noGT, noIn bool) expr {
	l := p.match(noGT, noIn)
	for p.tok.kind == tIn && !noIn {
		p.advance()
		if p.tok.kind != tName {
			p.errorf("array name expected after in")
		}
		arr := p.variable(p.tok.val)
		p.advance()
		idx := []expr{l}
		if g, ok := l.(*groupExpr); ok {
			idx = g.exprs
		}
		l = &inExpr{index: idx, arr: arr}
	}
	return l
}

func (p *parser) match(noGT, noIn bool) expr {
	l := p.comparison(noGT, noIn)
	for p.tok.kind == tMatch || p.tok.kind == tNoMatch {
		neg := p.tok.kind == tNoMatch
		p.advance()
		l = &matchExpr{l: l, re: p.comparison(noGT, noIn), neg: neg}
	}
	return l
}

func (p *parser) comparison(noGT, noIn bool) expr {
	l := p.concat(noGT, noIn)
	for {
		switch p.tok.kind {
		case tLT, tLE, tNE, tEQ, tGE:
		case tGT:
			if noGT {
				return l
			}
		case tPipe:
			// cmd | getline [var]
			save, saveTok := p.lex, p.tok
			p.advance()
			if p.tok.kind != tGetline {
				p.lex, p.tok = save, saveTok
				return l
			}
			p.advance()
			g := &getlineExpr{kind: getlineCmd, src: l}
			if p.startsLvalue() {
				g.lhs = p.lvalue()
			}
			l = g
			continue
		default:
			return l
		}
		op := p.tok.kind
		p.advance()
		l = &binaryExpr{op: op, l: l, r: p.concat(noGT, noIn)}
	}
}

func (p *parser) concat(noGT, noIn bool) expr {
	l := p.additive()
	for {
		switch p.tok.kind {
		case tNumber, tString, tName, tFuncName, tBuiltin, tDollar, tNot, tLparen, tIncr, tDecr:
		default:
			return l
		}
		l = &concatExpr{l: l, r: p.additive()}
	}
}

func (p *parser) additive() expr {
	l := p.multiplicative()
	for p.tok.kind == tAdd || p.tok.kind == tSub {
		op := p.tok.kind
		p.advance()
		l = &binaryExpr{op: op, l: l, r: p.multiplicative()}
	}
	return l
}

func (p *parser) multiplicative() expr {
	l := p.unary()
	for p.tok.kind == tMul || p.tok.kind == tDiv || p.tok.kind == tMod {
		op := p.tok.kind
		p.advance()
		l = &binaryExpr{op: op, l: l, r: p.unary()}
	}
	return l
}

func (p *parser) unary() expr {
	switch p.tok.kind {
	case tNot, tSub, tAdd:
		op := p.tok.kind
		p.advance()
		p.enter()
		defer p.leave()
		return &unaryExpr{op: op, e: p.unary()}
	}
	return p.pow()
}

func (p *parser) pow() expr {
	base := p.postfix()
	if p.tok.kind == tPow {
		p.advance()
		p.enter()
		defer p.leave()
		// right associative; the exponent may have a sign
		var exp expr
		switch p.tok.kind {
		case tSub, tAdd, tNot:
			op := p.tok.kind
			p.advance()
			exp = &unaryExpr{op: op, e: p.powOperand()}
		default:
			exp = p.powOperand()
		}
		return &binaryExpr{op: tPow, l: base, r: exp}
	}
	return base
}

func (p *parser) powOperand() expr { return p.pow() }

func (p *parser) postfix() expr {
	e := p.primary()
	if isLvalue(e) && (p.tok.kind == tIncr || p.tok.kind == tDecr) {
		inc := p.tok.kind == tIncr
		p.advance()
		return &incdecExpr{lhs: e, inc: inc}
	}
	return e
}

func (p *parser) startsLvalue() bool {
	return p.tok.kind == tName || p.tok.kind == tDollar
}

// lvalue parses a variable, an array element or a field.
func (p *parser) lvalue() expr {
	if p.tok.kind == tDollar {
		p.advance()
		return &fieldRef{index: p.fieldIndex()}
	}
	name := p.expect(tName).val
	if p.tok.kind == tLbracket {
		p.advance()
		idx := p.exprList()
		p.expect(tRbracket)
		return &indexExpr{arr: p.variable(name), index: idx}
	}
	return p.variable(name)
}

// fieldIndex parses the operand of "$": a primary, or a pre-increment.
func (p *parser) fieldIndex() expr {
	p.enter()
	defer p.leave()
	switch p.tok.kind {
	case tIncr, tDecr:
		inc := p.tok.kind == tIncr
		p.advance()
		return &incdecExpr{lhs: p.lvalue(), pre: true, inc: inc}
	case tSub, tAdd, tNot:
		op := p.tok.kind
		p.advance()
		return &unaryExpr{op: op, e: p.primary()}
	}
	return p.primary()
}

func (p *parser) primary() expr {
	p.enter()
	defer p.leave()
	t := p.tok
	switch t.kind {
	case tNumber:
		p.advance()
		return &numLit{v: t.num}
	case tString:
		p.advance()
		return &strLit{s: t.val}
	case tRegex:
		p.advance()
		return &regexLit{re: t.val}
	case tDiv, tDivAssign:
		// a "/" where an operand is expected starts a regular expression
		p.lex.pos -= len(t.val)
		p.lex.last = tNewline
		p.advance()
		return p.primary()
	case tLparen:
		p.advance()
		p.optNewlines()
		l := p.exprList()
		p.optNewlines()
		p.expect(tRparen)
		if len(l) > 1 {
			if p.tok.kind != tIn {
				switch p.tok.kind {
				case tGT, tAppend, tPipe, tSemi, tNewline, tRbrace, tEOF:
					return &groupExpr{exprs: l}
				}
				p.errorf("a parenthesized list must be followed by in")
			}
			return &groupExpr{exprs: l}
		}
		return &groupExpr{exprs: l}
	case tDollar:
		p.advance()
		return &fieldRef{index: p.fieldIndex()}
	case tIncr, tDecr:
		p.advance()
		if !p.startsLvalue() {
			p.unexpected()
		}
		return &incdecExpr{lhs: p.lvalue(), pre: true, inc: t.kind == tIncr}
	case tSub, tAdd, tNot:
		p.advance()
		return &unaryExpr{op: t.kind, e: p.unary()}
	case tName:
		return p.lvalue()
	case tFuncName:
		p.advance()
		p.expect(tLparen)
		c := &callExpr{name: t.val}
		p.optNewlines()
		if p.tok.kind != tRparen {
			c.args = p.exprList()
		}
		p.optNewlines()
		p.expect(tRparen)
		p.calls = append(p.calls, c)
		return c
	case tBuiltin:
		return p.builtin()
	case tGetline:
		p.advance()
		g := &getlineExpr{kind: getlinePlain}
		if p.startsLvalue() {
			g.lhs = p.lvalue()
		}
		if p.tok.kind == tLT {
			p.advance()
			g.kind = getlineFile
			g.src = p.primaryNoConcat()
		}
		return g
	}
	p.unexpected()
	return nil
}

// primaryNoConcat parses the file of getline < file: a primary, or a
// field.
func (p *parser) primaryNoConcat() expr {
	return p.primary()
}

func (p *parser) builtin() expr {
	name := p.tok.val
	p.advance()
	b := &builtinExpr{name: name}
	if p.tok.kind != tLparen {
		if name == "length" {
			return b
		}
		p.errorf("%s needs arguments in parentheses", name)
	}
	p.advance()
	p.optNewlines()
	if p.tok.kind != tRparen {
		b.args = p.exprList()
	}
	p.optNewlines()
	p.expect(tRparen)
	min, max := builtinArity(name)
	if len(b.args) < min || len(b.args) > max {
		p.errorf("%s: wrong number of arguments (%d)", name, len(b.args))
	}
	switch name {
	case "split":
		if _, ok := b.args[1].(*varRef); !ok {
			p.errorf("split: second argument must be an array name")
		}
	case "sub", "gsub":
		if len(b.args) == 3 && !isLvalue(b.args[2]) {
			p.errorf("%s: third argument must be a variable, field or array element", name)
		}
	case "match":
		if len(b.args) == 3 {
			if _, ok := b.args[2].(*varRef); !ok {
				p.errorf("match: third argument must be an array name")
			}
		}
	}
	return b
}

func builtinArity(name string) (int, int) {
	switch name {
	case "length":
		return 0, 1
	case "substr":
		return 2, 3
	case "index", "atan2":
		return 2, 2
	case "split":
		return 2, 4
	case "sub", "gsub":
		return 2, 3
	case "match":
		return 2, 3
	case "sprintf":
		return 1, 1 << 20
	case "tolower", "toupper", "int", "sqrt", "exp", "log", "sin", "cos", "system", "close":
		return 1, 1
	case "rand", "systime":
		return 0, 0
	case "srand", "fflush":
		return 0, 1
	case "gensub":
		return 3, 4
	case "strftime":
		return 0, 3
	}
	return 0, 0
}
