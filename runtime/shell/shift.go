package shell

import (
	"strconv"

	"github.com/nookdev/nook/internal/mvsh/syntax"
)

// shiftCmd stands for shift: the rewrite gives it "$#" first, which the
// handler cannot see otherwise.
const shiftCmd = "__nook_shift"

// shiftCall rewrites a literal shift call to shiftCmd with "$#".
func shiftCall(call *syntax.CallExpr) {
	if len(call.Args) == 0 || call.Args[0].Lit() != "shift" {
		return
	}
	count := &syntax.Word{Parts: []syntax.WordPart{&syntax.ParamExp{Param: &syntax.Lit{Value: "#"}}}}
	call.Args = append([]*syntax.Word{lit(shiftCmd), count}, call.Args[1:]...)
}

// shiftArgs checks shift's operand as bash 5.2 does: a count that is not
// a number is an error, a count beyond $# or below 0 fails (status 1);
// else it returns the interpreter's shift.
func shiftArgs(args []string) []string {
	nargs, _ := strconv.Atoi(args[0])
	args = args[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		if nargs == 0 {
			return keepStatus(1)
		}
		return []string{"shift"}
	}
	if len(args) > 1 {
		return fail(2, "bash: shift: too many arguments")
	}
	n, err := strconv.Atoi(args[0])
	switch {
	case err != nil:
		return fail(1, "bash: shift: "+args[0]+": numeric argument required")
	case n < 0:
		return fail(1, "bash: shift: "+args[0]+": shift count out of range")
	case n > nargs:
		return keepStatus(1)
	}
	return []string{"shift", args[0]}
}
