package shell

import (
	"errors"
	"fmt"

	"mvdan.cc/sh/v3/syntax"
)

// Names the rewritten script uses in place of what would reach the host.
const (
	tickCmd = "__nook_tick" // counts a loop iteration (MaxLoopIterations)
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

func lit(s string) *syntax.Word {
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: s}}}
}

func tickStmt() *syntax.Stmt {
	return &syntax.Stmt{Cmd: &syntax.CallExpr{Args: []*syntax.Word{lit(tickCmd)}}}
}

// rewrite makes the script deterministic and bounded: $$, $PPID, $BASHPID
// and $SRANDOM read fixed or seeded values instead of the host's, and every
// loop counts its iterations. It returns the names of the functions the
// script declares (for type and command -v).
func rewrite(file *syntax.File) map[string]bool {
	funcs := map[string]bool{}
	syntax.Walk(file, func(n syntax.Node) bool {
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
		return true
	})
	return funcs
}
