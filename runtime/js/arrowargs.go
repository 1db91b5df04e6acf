package js

import (
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
)

// goja mis-compiles an arrow function that reads `arguments` when the
// function whose arguments they are does not read `arguments` itself
// before the arrow: the binding it creates for the arrow stays on that
// function's stack instead of its stash, so the arrow indexes past its
// closure (a Go panic: "index out of range", which a run reports as an
// internal error) or reads undefined. goja resolves the binding correctly
// once the function itself has read `arguments` first, so the workaround
// is to give each such function a leading `arguments;` statement (after
// its directive prologue, so "use strict" keeps working): a read with no
// effect other than materialising the arguments object, which the arrow
// needed anyway.
//
// argumentsFixes returns the functions of prg that need the statement.
// An arrow in a default parameter value is compiled before the body and
// is not covered (rare enough to leave).
func argumentsFixes(prg *ast.Program) []*ast.FunctionLiteral {
	w := argsWalker{marked: map[*ast.FunctionLiteral]bool{}}
	for _, s := range prg.Body {
		w.stmt(s)
	}
	return w.list
}

// mentionsArrowArguments is the cheap test before parsing for
// argumentsFixes: source without both `arguments` and `=>` needs nothing.
func mentionsArrowArguments(src string) bool {
	return strings.Contains(src, "arguments") && strings.Contains(src, "=>")
}

// fixArrowArguments inserts the statement into the functions of prg that
// need it (the compiled program's source text is unchanged, so positions
// and source maps stay right).
func fixArrowArguments(prg *ast.Program) {
	for _, f := range argumentsFixes(prg) {
		body := f.Body
		n := directives(body.List)
		st := &ast.ExpressionStatement{Expression: &ast.Identifier{Name: "arguments", Idx: body.LeftBrace}}
		list := make([]ast.Statement, 0, len(body.List)+1)
		list = append(list, body.List[:n]...)
		list = append(list, st)
		body.List = append(list, body.List[n:]...)
	}
}

// argumentsInsertions returns the source offsets (0-based) where
// `arguments;` goes for the functions of prg that need it, in descending
// order (so inserting them one by one keeps the earlier ones valid).
func argumentsInsertions(prg *ast.Program) []int {
	var at []int
	for _, f := range argumentsFixes(prg) {
		body := f.Body
		n := directives(body.List)
		if n == 0 {
			at = append(at, int(body.LeftBrace)) // just after the "{" (Idx is 1-based)
		} else {
			at = append(at, int(body.List[n-1].Idx1())-1)
		}
	}
	for i := 1; i < len(at); i++ {
		for j := i; j > 0 && at[j] > at[j-1]; j-- {
			at[j], at[j-1] = at[j-1], at[j]
		}
	}
	return at
}

// insertArguments returns src with ";arguments;" inserted at the offsets
// (descending) argumentsInsertions gave. The leading semicolon ends a
// directive that had none.
func insertArguments(src string, at []int) string {
	for _, i := range at {
		if i < 0 || i > len(src) {
			continue
		}
		src = src[:i] + ";arguments;" + src[i:]
	}
	return src
}

// directives counts the statements of a function body's directive
// prologue.
func directives(list []ast.Statement) int {
	n := 0
	for _, s := range list {
		es, ok := s.(*ast.ExpressionStatement)
		if !ok {
			break
		}
		if _, ok := es.Expression.(*ast.StringLiteral); !ok {
			break
		}
		n++
	}
	return n
}

// argsWalker visits every node; fn is the nearest enclosing non-arrow
// function (nil at the top level, in a class field or a static block),
// inArrow whether an arrow lies between fn and the current node.
type argsWalker struct {
	fn      *ast.FunctionLiteral
	inArrow bool
	marked  map[*ast.FunctionLiteral]bool
	list    []*ast.FunctionLiteral
}

func (w *argsWalker) reference(name string) {
	if name == "arguments" && w.inArrow && w.fn != nil && !w.marked[w.fn] {
		w.marked[w.fn] = true
		w.list = append(w.list, w.fn)
	}
}

func (w *argsWalker) function(f *ast.FunctionLiteral) {
	if f == nil {
		return
	}
	fn, in := w.fn, w.inArrow
	w.fn, w.inArrow = f, false
	w.params(f.ParameterList)
	if f.Body != nil {
		w.stmts(f.Body.List)
	}
	w.fn, w.inArrow = fn, in
}

// barrier visits code where `arguments` belongs to no function (class
// fields and static blocks).
func (w *argsWalker) barrier(visit func()) {
	fn, in := w.fn, w.inArrow
	w.fn, w.inArrow = nil, false
	visit()
	w.fn, w.inArrow = fn, in
}

func (w *argsWalker) params(p *ast.ParameterList) {
	if p == nil {
		return
	}
	for _, b := range p.List {
		w.binding(b)
	}
	w.expr(p.Rest)
}

func (w *argsWalker) binding(b *ast.Binding) {
	if b == nil {
		return
	}
	w.expr(b.Target)
	w.expr(b.Initializer)
}

func (w *argsWalker) stmts(list []ast.Statement) {
	for _, s := range list {
		w.stmt(s)
	}
}

func (w *argsWalker) exprs(list []ast.Expression) {
	for _, e := range list {
		w.expr(e)
	}
}

func (w *argsWalker) class(c *ast.ClassLiteral) {
	if c == nil {
		return
	}
	w.expr(c.SuperClass)
	for _, el := range c.Body {
		switch el := el.(type) {
		case *ast.MethodDefinition:
			if el.Computed {
				w.expr(el.Key)
			}
			w.function(el.Body)
		case *ast.FieldDefinition:
			if el.Computed {
				w.expr(el.Key)
			}
			w.barrier(func() { w.expr(el.Initializer) })
		case *ast.ClassStaticBlock:
			w.barrier(func() {
				if el.Block != nil {
					w.stmts(el.Block.List)
				}
			})
		}
	}
}

func (w *argsWalker) stmt(s ast.Statement) {
	switch s := s.(type) {
	case nil:
	case *ast.BlockStatement:
		if s != nil {
			w.stmts(s.List)
		}
	case *ast.CaseStatement:
		w.expr(s.Test)
		w.stmts(s.Consequent)
	case *ast.CatchStatement:
		w.expr(s.Parameter)
		if s.Body != nil {
			w.stmts(s.Body.List)
		}
	case *ast.DoWhileStatement:
		w.stmt(s.Body)
		w.expr(s.Test)
	case *ast.ExpressionStatement:
		w.expr(s.Expression)
	case *ast.ForInStatement:
		w.forInto(s.Into)
		w.expr(s.Source)
		w.stmt(s.Body)
	case *ast.ForOfStatement:
		w.forInto(s.Into)
		w.expr(s.Source)
		w.stmt(s.Body)
	case *ast.ForStatement:
		switch in := s.Initializer.(type) {
		case *ast.ForLoopInitializerExpression:
			w.expr(in.Expression)
		case *ast.ForLoopInitializerVarDeclList:
			for _, b := range in.List {
				w.binding(b)
			}
		case *ast.ForLoopInitializerLexicalDecl:
			for _, b := range in.LexicalDeclaration.List {
				w.binding(b)
			}
		}
		w.expr(s.Test)
		w.expr(s.Update)
		w.stmt(s.Body)
	case *ast.IfStatement:
		w.expr(s.Test)
		w.stmt(s.Consequent)
		w.stmt(s.Alternate)
	case *ast.LabelledStatement:
		w.stmt(s.Statement)
	case *ast.ReturnStatement:
		w.expr(s.Argument)
	case *ast.SwitchStatement:
		w.expr(s.Discriminant)
		for _, c := range s.Body {
			w.stmt(c)
		}
	case *ast.ThrowStatement:
		w.expr(s.Argument)
	case *ast.TryStatement:
		w.stmt(s.Body)
		if s.Catch != nil {
			w.stmt(s.Catch)
		}
		if s.Finally != nil {
			w.stmt(s.Finally)
		}
	case *ast.VariableStatement:
		for _, b := range s.List {
			w.binding(b)
		}
	case *ast.LexicalDeclaration:
		for _, b := range s.List {
			w.binding(b)
		}
	case *ast.WhileStatement:
		w.expr(s.Test)
		w.stmt(s.Body)
	case *ast.WithStatement:
		w.expr(s.Object)
		w.stmt(s.Body)
	case *ast.FunctionDeclaration:
		w.function(s.Function)
	case *ast.ClassDeclaration:
		w.class(s.Class)
	}
}

func (w *argsWalker) forInto(f ast.ForInto) {
	switch f := f.(type) {
	case *ast.ForIntoVar:
		w.binding(f.Binding)
	case *ast.ForDeclaration:
		w.expr(f.Target)
	case *ast.ForIntoExpression:
		w.expr(f.Expression)
	}
}

func (w *argsWalker) expr(e ast.Expression) {
	switch e := e.(type) {
	case nil:
	case *ast.Identifier:
		if e != nil {
			w.reference(string(e.Name))
		}
	case *ast.YieldExpression:
		w.expr(e.Argument)
	case *ast.AwaitExpression:
		w.expr(e.Argument)
	case *ast.ArrayLiteral:
		w.exprs(e.Value)
	case *ast.ArrayPattern:
		w.exprs(e.Elements)
		w.expr(e.Rest)
	case *ast.AssignExpression:
		w.expr(e.Left)
		w.expr(e.Right)
	case *ast.BinaryExpression:
		w.expr(e.Left)
		w.expr(e.Right)
	case *ast.BracketExpression:
		w.expr(e.Left)
		w.expr(e.Member)
	case *ast.CallExpression:
		w.expr(e.Callee)
		w.exprs(e.ArgumentList)
	case *ast.ConditionalExpression:
		w.expr(e.Test)
		w.expr(e.Consequent)
		w.expr(e.Alternate)
	case *ast.DotExpression:
		w.expr(e.Left)
	case *ast.PrivateDotExpression:
		w.expr(e.Left)
	case *ast.OptionalChain:
		w.expr(e.Expression)
	case *ast.Optional:
		w.expr(e.Expression)
	case *ast.FunctionLiteral:
		w.function(e)
	case *ast.ClassLiteral:
		w.class(e)
	case *ast.ArrowFunctionLiteral:
		in := w.inArrow
		w.inArrow = true
		w.params(e.ParameterList)
		switch b := e.Body.(type) {
		case *ast.BlockStatement:
			w.stmts(b.List)
		case *ast.ExpressionBody:
			w.expr(b.Expression)
		}
		w.inArrow = in
	case *ast.NewExpression:
		w.expr(e.Callee)
		w.exprs(e.ArgumentList)
	case *ast.ObjectLiteral:
		for _, p := range e.Value {
			w.expr(p)
		}
	case *ast.ObjectPattern:
		for _, p := range e.Properties {
			w.expr(p)
		}
		w.expr(e.Rest)
	case *ast.PropertyShort:
		w.reference(string(e.Name.Name))
		w.expr(e.Initializer)
	case *ast.PropertyKeyed:
		if e.Computed {
			w.expr(e.Key)
		}
		w.expr(e.Value)
	case *ast.SpreadElement:
		w.expr(e.Expression)
	case *ast.SequenceExpression:
		w.exprs(e.Sequence)
	case *ast.TemplateLiteral:
		w.expr(e.Tag)
		w.exprs(e.Expressions)
	case *ast.UnaryExpression:
		w.expr(e.Operand)
	case *ast.Binding:
		w.binding(e)
	}
}

// fixEvalSource returns the source given to eval with the workaround
// applied as text (eval compiles it itself). Source that does not parse is
// returned as it is, for eval to report.
func fixEvalSource(src string) string {
	if !mentionsArrowArguments(src) {
		return src
	}
	prg, err := goja.Parse("", src)
	if err != nil {
		return src
	}
	return insertArguments(src, argumentsInsertions(prg))
}

// fixFunctionSource applies the workaround to what a Function constructor
// compiles, text = prefix + params + "\n) {\n" + body + "\n})", and
// returns the parameters and the body to give it instead.
func fixFunctionSource(text string, prefix int, params, body string) (string, string) {
	if !mentionsArrowArguments(text) {
		return params, body
	}
	prg, err := goja.Parse("", text)
	if err != nil {
		return params, body
	}
	bodyAt := prefix + len(params) + len("\n) {\n")
	for _, o := range argumentsInsertions(prg) { // descending
		switch {
		case o >= bodyAt:
			body = insertArguments(body, []int{o - bodyAt})
		case o > prefix+len(params):
			// the "{" of the function itself: the start of the body
			body = insertArguments(body, []int{0})
		case o >= prefix:
			params = insertArguments(params, []int{o - prefix})
		}
	}
	return params, body
}
