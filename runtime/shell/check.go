package shell

import (
	"errors"
	"fmt"
	"strings"

	"github.com/nookdev/nook/internal/mvsh/syntax"

	"github.com/nookdev/nook/runtime/host"
)

// Names the rewritten script uses in place of what would reach the host.
const (
	tickCmd = "__nook_tick" // counts a loop iteration (MaxLoopIterations)
	varsCmd = "__nook_vars" // checks the variables after an assignment (MaxAllocBytes), keeping $?
	catCmd  = "__nook_cat"  // our cat, for $(<file)
	replCmd = "__nook_repl" // checks the size a ${x//pat/rep} may reach (MaxAllocBytes)
	lenCmd  = "__nook_len"  // prints the number of elements of an array (${#m[@]} of an associative array)
	pidVar  = "__NOOK_PID"  // stands for $$ and $BASHPID (the host's pid otherwise)
	ppidVar = "__NOOK_PPID" // stands for $PPID
)

// check refuses constructs that would reach the host whatever handlers are
// installed: process substitution (the interpreter makes a FIFO in the
// host's TMPDIR and opens it directly), coprocesses, and the -O/-G tests
// (which read the host's user database).
func check(node syntax.Node) error {
	var err error
	syntax.Walk(node, func(n syntax.Node) bool {
		if err != nil {
			return false
		}
		switch n := n.(type) {
		case *syntax.ProcSubst:
			err = fmt.Errorf("line %d: process substitution %s(...) is not supported in the sandbox; "+
				"write the output to a file or use a pipe instead", n.Pos().Line(), n.Op)
		case *syntax.CoprocClause:
			err = fmt.Errorf("line %d: coproc is not supported in the sandbox", n.Pos().Line())
		case *syntax.UnaryTest:
			if n.Op == syntax.TsUsrOwn || n.Op == syntax.TsGrpOwn {
				err = fmt.Errorf("line %d: the test %s (file owner) is not supported in the sandbox", n.Pos().Line(), n.Op)
			}
		}
		return true
	})
	return err
}

var errRefused = errors.New("refused")

// checkNesting refuses a source nested deeper than max before it is
// parsed: the parser, the rewrite and the interpreter recurse once per
// level, and a megabyte of "(" would overflow the Go stack (a fatal error,
// not a panic). Brackets are counted without regard to quoting, so the
// count is an upper bound of the real nesting.
func checkNesting(src string, max int) error {
	depth, deepest := 0, 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '(', '{', '[':
			if depth++; depth > deepest {
				deepest = depth
			}
		case ')', '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	if deepest > max {
		return &host.LimitError{Limit: "MaxNestingDepth", Max: int64(max),
			What: fmt.Sprintf("a script nested %d brackets deep", deepest)}
	}
	return nil
}

func lit(s string) *syntax.Word {
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: s}}}
}

func tickStmt() *syntax.Stmt {
	return &syntax.Stmt{Cmd: &syntax.CallExpr{Args: []*syntax.Word{lit(tickCmd)}}}
}

// rewrite makes the script deterministic and bounded: $$, $PPID, $BASHPID
// and $SRANDOM read fixed or seeded values instead of the host's, every
// loop counts its iterations, an assignment that expands something is
// followed by a check of the variables' size, $(<file) runs our cat (the
// interpreter's shortcut copies the file into memory without a bound), and
// a background job reads an empty stdin that counts it (MaxProcesses). It
// returns the names of the functions the script declares (for type and
// command -v).
func rewrite(file syntax.Node) map[string]bool {
	funcs := map[string]bool{}
	done := map[*syntax.Stmt]bool{} // the statements the rewrite made
	assoc := assocNames(file)
	elems := 0
	syntax.Walk(file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ParamExp:
			if n.Index != nil && n.Param != nil {
				n.Index = assocKey(n.Param.Value, n.Index, assoc)
			}
		case *syntax.Assign:
			if n.Index != nil && n.Name != nil {
				n.Index = assocKey(n.Name.Value, n.Index, assoc)
			}
		case *syntax.Word:
			n.Parts = countAssoc(n.Parts, assoc)
		case *syntax.DblQuoted:
			n.Parts = countAssoc(n.Parts, assoc)
		case *syntax.Stmt:
			if n.Background || n.Disown {
				n.Redirs = append([]*syntax.Redirect{{Op: syntax.RdrIn, Word: lit(jobDev)}}, n.Redirs...)
			}
			if done[n] {
				break
			}
			if call, ok := n.Cmd.(*syntax.CallExpr); ok {
				getoptsCall(call)
				shiftCall(call)
			}
			if d, ok := n.Cmd.(*syntax.DeclClause); ok {
				if q := declQuery(d); q != nil {
					n.Cmd = q
				}
			}
			rewriteArithElems(n, &elems, assoc)
			if chk := replCheck(n.Cmd); chk != nil {
				inner := &syntax.Stmt{Cmd: n.Cmd, Position: n.Position}
				n.Cmd = &syntax.Block{Stmts: []*syntax.Stmt{chk, inner}}
				n = inner
			}
			if expandingAssign(n.Cmd) {
				inner := &syntax.Stmt{Cmd: n.Cmd, Position: n.Position}
				done[inner] = true
				n.Cmd = &syntax.Block{Stmts: []*syntax.Stmt{inner,
					{Cmd: &syntax.CallExpr{Args: []*syntax.Word{lit(varsCmd)}}}}}
			}
			done[n] = true
		case *syntax.CmdSubst:
			if len(n.Stmts) == 1 && n.Stmts[0].Cmd == nil && len(n.Stmts[0].Redirs) == 1 &&
				n.Stmts[0].Redirs[0].Op == syntax.RdrIn && !n.Stmts[0].Negated && !n.Stmts[0].Background {
				n.Stmts[0].Cmd = &syntax.CallExpr{Args: []*syntax.Word{lit(catCmd)}}
			}
		}
		rewriteNode(n, funcs)
		return true
	})
	return funcs
}

// replCheck returns the check to run before cm when one of its words
// holds a pattern substitution with a replacement: ${x//?/$y} makes up to
// len(x)×(len(y)+1) bytes in one expansion, which no later check would
// see in time. The check gets the lengths (${#x}, and ${#y} or the
// literal's length) in pairs.
func replCheck(cm syntax.Command) *syntax.Stmt {
	var words []*syntax.Word
	switch cm := cm.(type) {
	case *syntax.CallExpr:
		words = cm.Args
		for _, as := range cm.Assigns {
			if as.Value != nil {
				words = append(words, as.Value)
			}
		}
	case *syntax.DeclClause:
		for _, as := range cm.Args {
			if as.Value != nil {
				words = append(words, as.Value)
			}
		}
	}
	var args []*syntax.Word
	for _, w := range words {
		syntax.Walk(w, func(m syntax.Node) bool {
			switch m := m.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst:
				return false
			case *syntax.ParamExp:
				if m.Repl == nil || m.Repl.With == nil || m.Param == nil || m.Index != nil || m.Excl {
					return true
				}
				withLen := lenWord(m.Repl.With)
				if withLen == nil {
					return true
				}
				args = append(args, &syntax.Word{Parts: []syntax.WordPart{&syntax.ParamExp{Param: &syntax.Lit{Value: m.Param.Value}, Length: true}}}, withLen)
			}
			return true
		})
	}
	if len(args) == 0 {
		return nil
	}
	return &syntax.Stmt{Cmd: &syntax.CallExpr{Args: append([]*syntax.Word{lit(replCmd)}, args...)}}
}

// lenWord is a word expanding to the length of w's expansion, for a
// literal or a single plain parameter; nil otherwise.
func lenWord(w *syntax.Word) *syntax.Word {
	if lv := w.Lit(); lv != "" || len(w.Parts) == 0 {
		return lit(itoa(int64(len(lv))))
	}
	if len(w.Parts) == 1 {
		part := w.Parts[0]
		if dq, ok := part.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
			part = dq.Parts[0]
		}
		if pe, ok := part.(*syntax.ParamExp); ok && pe.Param != nil && pe.Index == nil && pe.Exp == nil && pe.Repl == nil && !pe.Length && !pe.Excl && pe.Slice == nil {
			return &syntax.Word{Parts: []syntax.WordPart{&syntax.ParamExp{Param: &syntax.Lit{Value: pe.Param.Value}, Length: true}}}
		}
	}
	// Anything else is not known before the expansion.
	return lit("-1")
}

// assocNames lists the names the code declares associative (declare -A,
// local -A, typeset -A).
func assocNames(node syntax.Node) map[string]bool {
	names := map[string]bool{}
	syntax.Walk(node, func(n syntax.Node) bool {
		d, ok := n.(*syntax.DeclClause)
		if !ok {
			return true
		}
		isAssoc := false
		for _, a := range d.Args {
			if a.Naked && a.Name == nil && a.Value != nil {
				if f := a.Value.Lit(); strings.HasPrefix(f, "-") && strings.Contains(f, "A") {
					isAssoc = true
				}
			}
		}
		if isAssoc {
			for _, a := range d.Args {
				if a.Name != nil {
					names[a.Name.Value] = true
				}
			}
		}
		return true
	})
	return names
}

// countAssoc replaces ${#m[@]} of an associative array m by $(__nook_len
// m): the interpreter counts 1 for it (the joined value), not the keys.
func countAssoc(parts []syntax.WordPart, assoc map[string]bool) []syntax.WordPart {
	if len(assoc) == 0 {
		return parts
	}
	for i, wp := range parts {
		pe, ok := wp.(*syntax.ParamExp)
		if !ok || !pe.Length || pe.Param == nil || !assoc[pe.Param.Value] || pe.Index == nil {
			continue
		}
		if w, ok := pe.Index.(*syntax.Word); !ok || (w.Lit() != "@" && w.Lit() != "*") {
			continue
		}
		parts[i] = &syntax.CmdSubst{Stmts: []*syntax.Stmt{{Cmd: &syntax.CallExpr{Args: []*syntax.Word{lit(lenCmd), lit(pe.Param.Value)}}}}}
	}
	return parts
}

// expandingAssign reports whether cm only assigns variables (x=..., local,
// declare, export, readonly) and some value expands a parameter or a
// command substitution, so the variables may have grown past the limit.
func expandingAssign(cm syntax.Command) bool {
	var assigns []*syntax.Assign
	switch cm := cm.(type) {
	case *syntax.CallExpr:
		if len(cm.Args) > 0 {
			return false
		}
		assigns = cm.Assigns
	case *syntax.DeclClause:
		assigns = cm.Args
	default:
		return false
	}
	found := false
	for _, as := range assigns {
		syntax.Walk(as, func(m syntax.Node) bool {
			switch m.(type) {
			case *syntax.ParamExp, *syntax.CmdSubst:
				found = true
			}
			return !found
		})
	}
	return found
}

// rewriteNode rewrites one node (parameters and loops) and records
// function declarations.
func rewriteNode(n syntax.Node, funcs map[string]bool) {
	switch n := n.(type) {
	case *syntax.ParamExp:
		if n.Param != nil {
			switch n.Param.Value {
			case "$", "BASHPID":
				n.Param.Value = pidVar
			case "PPID":
				n.Param.Value = ppidVar
			case "SRANDOM":
				n.Param.Value = "RANDOM"
			}
		}
	case *syntax.WhileClause:
		n.Cond = append([]*syntax.Stmt{tickStmt()}, n.Cond...)
	case *syntax.ForClause:
		n.Do = append([]*syntax.Stmt{tickStmt()}, n.Do...)
	case *syntax.FuncDecl:
		if n.Name != nil {
			funcs[n.Name.Value] = true
		}
	}
}

// maxErrorBacktrack bounds the lines beforeSyntaxError takes off a
// script that does not parse, looking for the commands before the error.
const maxErrorBacktrack = 64

// beforeSyntaxError is what bash runs of a script that does not parse: it
// reads and runs one command at a time, so the complete commands on the
// lines before the one with the error run, and then the shell exits with
// status 2. It returns those commands followed by one that prints the
// error and exits 2, or nil when no command comes before the error (the
// script is then refused before it runs, as a syntax error).
func beforeSyntaxError(src, name string, perr error) *syntax.File {
	var pos syntax.Pos
	var pe syntax.ParseError
	var le syntax.LangError
	switch {
	case errors.As(perr, &pe):
		pos = pe.Pos
	case errors.As(perr, &le):
		pos = le.Pos
	default:
		return nil
	}
	off := int(pos.Offset())
	if off <= 0 || off > len(src) {
		return nil
	}
	// The error is reported where the parser gave up, which may be past
	// the line of the command that does not parse (an unclosed "((" is
	// reported at the end): the longest prefix of whole lines before it
	// that parses is what bash ran. At most maxErrorBacktrack lines are
	// tried.
	prefix := src[:strings.LastIndex(src[:off], "\n")+1]
	var f *syntax.File
	for tries := 0; prefix != "" && tries < maxErrorBacktrack; tries++ {
		g, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(prefix), name)
		if err == nil {
			f = g
			break
		}
		prefix = prefix[:strings.LastIndex(prefix[:len(prefix)-1], "\n")+1]
	}
	if f == nil || len(f.Stmts) == 0 {
		return nil
	}
	msg, err := syntax.Quote("shell syntax error: "+perr.Error(), syntax.LangBash)
	if err != nil {
		return nil
	}
	tail, err := syntax.NewParser().Parse(strings.NewReader("__nook_fail 2 "+msg+"; exit 2"), "")
	if err != nil {
		return nil
	}
	f.Stmts = append(f.Stmts, tail.Stmts...)
	return f
}
