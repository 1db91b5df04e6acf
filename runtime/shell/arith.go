package shell

import (
	"strconv"
	"strings"

	"github.com/nookdev/nook/internal/mvsh/syntax"
)

// The interpreter (mvdan.cc/sh) assigns in arithmetic only to plain
// names: "(( a[1]=5 ))", "(( a[i]++ ))" or "$(( m[k]+=2 ))" reach it as
// an assignment to the empty name, and it panics ("variable name must not
// be empty"). An associative array's subscript that parses as arithmetic
// ("${m[a+1]}") panics it too (it expects a word). Until the interpreter
// is forked (see RATIONALE.md), the rewrite works around both:
//
//   - a statement whose arithmetic assigns to array elements is run as
//     "__nook_aiN=${a[I]}; STMT; __nook_st=$?; a[I]=$__nook_aiN;
//     __nook_status $__nook_st", STMT assigning to __nook_aiN in place of
//     a[I] (its exit status is STMT's);
//   - an associative array's arithmetic subscript becomes the quoted key
//     bash uses, its text ("${m['a+1']}").
//
// Where no statement can hold the assignments (the arithmetic of a
// "for ((;;))" loop), the element is left alone and the guard of
// program.Run reports the interpreter's failure.

const (
	elemVar   = "__nook_ai" // the stand-in variables of array elements
	statusVar = "__nook_st" // a statement's exit status, kept across the assignments
	statusCmd = "__nook_status"
)

// indexedTarget returns the parameter expansion of w when w is an array
// element ("a[I]"), the target of an arithmetic assignment.
func indexedTarget(x syntax.ArithmExpr) (*syntax.Word, *syntax.ParamExp) {
	w, ok := x.(*syntax.Word)
	if !ok || len(w.Parts) != 1 {
		return nil, nil
	}
	pe, ok := w.Parts[0].(*syntax.ParamExp)
	if !ok || pe.Index == nil || pe.Param == nil || pe.Excl || pe.Length || pe.Exp != nil || pe.Repl != nil || pe.Slice != nil {
		return nil, nil
	}
	return w, pe
}

// arithElems replaces, in the arithmetic reachable from cmd without
// entering another statement, each array element assigned to by a
// stand-in variable, and returns the elements in order.
func arithElems(cmd syntax.Node, next *int) (elems []*syntax.ParamExp, names []string) {
	var visit func(x syntax.ArithmExpr)
	seen := map[string]string{}
	replace := func(x syntax.ArithmExpr) {
		w, pe := indexedTarget(x)
		if w == nil {
			visit(x)
			return
		}
		visit(pe.Index)
		// One element assigned twice ("a[0] += 2, a[0] *= 3") has one
		// stand-in.
		key := pe.Param.Value + "[" + arithText(pe.Index) + "]"
		name, ok := seen[key]
		if !ok {
			name = elemVar + strconv.Itoa(*next)
			*next++
			seen[key] = name
			elems, names = append(elems, &syntax.ParamExp{Param: &syntax.Lit{Value: pe.Param.Value}, Index: pe.Index}), append(names, name)
		}
		w.Parts = []syntax.WordPart{&syntax.Lit{Value: name}}
	}
	visit = func(x syntax.ArithmExpr) {
		switch x := x.(type) {
		case *syntax.BinaryArithm:
			switch x.Op {
			case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn,
				syntax.RemAssgn, syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn:
				replace(x.X)
			default:
				visit(x.X)
			}
			visit(x.Y)
		case *syntax.UnaryArithm:
			if x.Op == syntax.Inc || x.Op == syntax.Dec {
				replace(x.X)
			} else {
				visit(x.X)
			}
		case *syntax.ParenArithm:
			visit(x.X)
		}
	}
	syntax.Walk(cmd, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			return n == nil
		case *syntax.ForClause:
			return false // a loop's arithmetic runs many times: no single statement holds it
		case *syntax.ArithmCmd:
			visit(n.X)
			return false
		case *syntax.ArithmExp:
			visit(n.X)
			return false
		case *syntax.Assign:
			if n.Index != nil {
				visit(n.Index) // a[ a[0]=1 ]=X
			}
		case *syntax.ParamExp:
			if n.Index != nil {
				visit(n.Index)
			}
		}
		return true
	})
	return elems, names
}

// rewriteArithElems wraps stmt's command when its arithmetic assigns to
// array elements (see above); it reports whether it did.
func rewriteArithElems(stmt *syntax.Stmt, next *int, assoc map[string]bool) bool {
	if stmt.Cmd == nil {
		return false
	}
	switch stmt.Cmd.(type) {
	case *syntax.ArithmCmd, *syntax.CallExpr, *syntax.DeclClause:
	default:
		return false
	}
	elems, names := arithElems(stmt.Cmd, next)
	if len(elems) == 0 {
		return false
	}
	inner := &syntax.Stmt{Cmd: stmt.Cmd, Position: stmt.Position}
	var pre, post []*syntax.Assign
	for i, pe := range elems {
		idx := assocKey(pe.Param.Value, pe.Index, assoc)
		pre = append(pre, &syntax.Assign{Name: &syntax.Lit{Value: names[i]},
			Value: &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{
				&syntax.ParamExp{Param: &syntax.Lit{Value: pe.Param.Value}, Index: idx}}}}}})
		post = append(post, &syntax.Assign{Name: &syntax.Lit{Value: pe.Param.Value}, Index: idx,
			Value: &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{
				&syntax.ParamExp{Param: &syntax.Lit{Value: names[i]}}}}}}})
	}
	st := &syntax.Assign{Name: &syntax.Lit{Value: statusVar}, Value: &syntax.Word{Parts: []syntax.WordPart{
		&syntax.ParamExp{Short: true, Param: &syntax.Lit{Value: "?"}}}}}
	stmt.Cmd = &syntax.Block{Stmts: []*syntax.Stmt{
		{Cmd: &syntax.CallExpr{Assigns: pre}},
		inner,
		{Cmd: &syntax.CallExpr{Assigns: []*syntax.Assign{st}}},
		{Cmd: &syntax.CallExpr{Assigns: post}},
		{Cmd: &syntax.CallExpr{Args: []*syntax.Word{lit(statusCmd), {Parts: []syntax.WordPart{
			&syntax.ParamExp{Param: &syntax.Lit{Value: statusVar}}}}}}},
	}}
	return true
}

// assocKey is the subscript of name[idx]: for an associative array whose
// subscript parsed as arithmetic, the quoted key bash reads (its text).
func assocKey(name string, idx syntax.ArithmExpr, assoc map[string]bool) syntax.ArithmExpr {
	if _, ok := idx.(*syntax.Word); ok || !assoc[name] {
		return idx
	}
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: arithText(idx)}}}
}

// arithText writes an arithmetic expression back as text, without spaces.
func arithText(x syntax.ArithmExpr) string {
	switch x := x.(type) {
	case *syntax.Word:
		var b strings.Builder
		syntax.NewPrinter().Print(&b, x)
		return b.String()
	case *syntax.BinaryArithm:
		if x.Op == syntax.TernQuest {
			return arithText(x.X) + "?" + arithText(x.Y)
		}
		return arithText(x.X) + x.Op.String() + arithText(x.Y)
	case *syntax.UnaryArithm:
		if x.Post {
			return arithText(x.X) + x.Op.String()
		}
		return x.Op.String() + arithText(x.X)
	case *syntax.ParenArithm:
		return "(" + arithText(x.X) + ")"
	}
	return ""
}
