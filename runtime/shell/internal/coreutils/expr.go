package coreutils

import (
	"fmt"
	"strconv"
	"strings"
)

func init() {
	register("expr", "expr EXPRESSION", exprCmd)
}

// exprCmd evaluates expr's arithmetic, comparison, length, substr and
// match operators.
func exprCmd(e *Env, args []string) int {
	a := args[1:]
	p := &exprParser{a: a}
	v, err := p.or()
	if err != nil || p.i < len(a) {
		e.Errf("syntax error")
		return 2
	}
	fmt.Fprintln(e.Stdout, v)
	if v == "" || v == "0" {
		return 1
	}
	return 0
}

type exprParser struct {
	a []string
	i int
}

func (p *exprParser) tok() string {
	if p.i < len(p.a) {
		return p.a[p.i]
	}
	return ""
}

func (p *exprParser) or() (string, error) {
	l, err := p.and()
	for err == nil && p.tok() == "|" {
		p.i++
		var r string
		r, err = p.and()
		if l == "" || l == "0" {
			l = r
		}
	}
	return l, err
}

func (p *exprParser) and() (string, error) {
	l, err := p.cmp()
	for err == nil && p.tok() == "&" {
		p.i++
		var r string
		r, err = p.cmp()
		if l == "" || l == "0" || r == "" || r == "0" {
			l = "0"
		}
	}
	return l, err
}

func (p *exprParser) cmp() (string, error) {
	l, err := p.add()
	for err == nil {
		op := p.tok()
		if op != "=" && op != "!=" && op != "<" && op != ">" && op != "<=" && op != ">=" && op != "==" {
			return l, nil
		}
		p.i++
		var r string
		if r, err = p.add(); err != nil {
			return "", err
		}
		x, e1 := strconv.ParseInt(l, 10, 64)
		y, e2 := strconv.ParseInt(r, 10, 64)
		c := strings.Compare(l, r)
		if e1 == nil && e2 == nil {
			c = 0
			if x < y {
				c = -1
			} else if x > y {
				c = 1
			}
		}
		res := map[string]bool{"=": c == 0, "==": c == 0, "!=": c != 0, "<": c < 0, ">": c > 0, "<=": c <= 0, ">=": c >= 0}[op]
		l = "0"
		if res {
			l = "1"
		}
	}
	return l, err
}

func (p *exprParser) add() (string, error) {
	l, err := p.mul()
	for err == nil && (p.tok() == "+" || p.tok() == "-") {
		op := p.tok()
		p.i++
		var r string
		if r, err = p.mul(); err != nil {
			return "", err
		}
		x, e1 := strconv.ParseInt(l, 10, 64)
		y, e2 := strconv.ParseInt(r, 10, 64)
		if e1 != nil || e2 != nil {
			return "", fmt.Errorf("non-integer argument")
		}
		if op == "+" {
			l = strconv.FormatInt(x+y, 10)
		} else {
			l = strconv.FormatInt(x-y, 10)
		}
	}
	return l, err
}

func (p *exprParser) mul() (string, error) {
	l, err := p.unary()
	for err == nil && (p.tok() == "*" || p.tok() == "/" || p.tok() == "%") {
		op := p.tok()
		p.i++
		var r string
		if r, err = p.unary(); err != nil {
			return "", err
		}
		x, e1 := strconv.ParseInt(l, 10, 64)
		y, e2 := strconv.ParseInt(r, 10, 64)
		if e1 != nil || e2 != nil || (op != "*" && y == 0) {
			return "", fmt.Errorf("bad argument")
		}
		switch op {
		case "*":
			l = strconv.FormatInt(x*y, 10)
		case "/":
			l = strconv.FormatInt(x/y, 10)
		default:
			l = strconv.FormatInt(x%y, 10)
		}
	}
	return l, err
}

func (p *exprParser) unary() (string, error) {
	t := p.tok()
	switch t {
	case "":
		return "", fmt.Errorf("missing argument")
	case "(":
		p.i++
		v, err := p.or()
		if p.tok() != ")" {
			return "", fmt.Errorf("expected )")
		}
		p.i++
		return v, err
	case "length":
		p.i++
		v, err := p.unary()
		return strconv.Itoa(len(v)), err
	case "substr":
		if p.i+3 >= len(p.a)+0 && p.i+3 > len(p.a) {
			return "", fmt.Errorf("missing argument")
		}
		s, pos, n := p.a[p.i+1], p.a[p.i+2], p.a[p.i+3]
		p.i += 4
		x, _ := strconv.Atoi(pos)
		y, _ := strconv.Atoi(n)
		if x < 1 || x > len(s) || y <= 0 {
			return "", nil
		}
		return s[x-1 : min(len(s), x-1+y)], nil
	case "index":
		s, chars := p.a[p.i+1], p.a[p.i+2]
		p.i += 3
		return strconv.Itoa(strings.IndexAny(s, chars) + 1), nil
	case "match":
		p.i++
		s, err := p.unary()
		if err != nil {
			return "", err
		}
		re, err := p.unary()
		if err != nil {
			return "", err
		}
		return exprMatch(s, re), nil
	}
	p.i++
	if p.tok() == ":" {
		p.i++
		re := p.tok()
		p.i++
		return exprMatch(t, re), nil
	}
	return t, nil
}

func exprMatch(s, pat string) string {
	re, err := compileRE("^"+pat, false, false)
	if err != nil {
		return "0"
	}
	m := re.FindStringSubmatch(s)
	if m == nil {
		if re.NumSubexp() > 0 {
			return ""
		}
		return "0"
	}
	if len(m) > 1 {
		return m[1]
	}
	return strconv.Itoa(len(m[0]))
}
