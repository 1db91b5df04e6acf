package shell

import (
	"strconv"
	"strings"
	"sync"

	"github.com/nookdev/nook/internal/mvsh/expand"
	"github.com/nookdev/nook/internal/mvsh/syntax"
)

// getoptsCmd stands for getopts: the rewrite gives it the positional
// parameters ("$@") after the caller's operands, which the handler
// cannot see otherwise.
const getoptsCmd = "__nook_getopts"

// getoptsState is where getopts is inside a cluster of flags ("-abc"):
// the character after the last one it returned, for the OPTIND it set
// (a different OPTIND starts at the beginning of that argument).
type getoptsState struct {
	mu   sync.Mutex
	ind  int
	next int
}

// getoptsCall rewrites a literal getopts call to getoptsCmd with "$@".
func getoptsCall(call *syntax.CallExpr) {
	if len(call.Args) == 0 || call.Args[0].Lit() != "getopts" {
		return
	}
	call.Args[0] = lit(getoptsCmd)
	// getoptsMark marks where the positional parameters start.
	call.Args = append(call.Args, lit(getoptsMark), &syntax.Word{Parts: []syntax.WordPart{
		&syntax.DblQuoted{Parts: []syntax.WordPart{&syntax.ParamExp{Param: &syntax.Lit{Value: "@"}}}}}})
}

// getoptsMark separates the caller's operands from the positional
// parameters in a getoptsCmd call.
const getoptsMark = "\x00nook-getopts-params"

// getopts is bash's getopts builtin: it parses the next option of the
// operands (or the positional parameters) by spec, setting the variable
// name, OPTARG and OPTIND as bash does, including the silent mode of a
// spec starting with ':', "--", and the end (status 1, name '?',
// OPTIND at the first operand). It returns the command that does so.
func (p *runProgram) getopts(env expand.Environ, args []string) []string {
	var ops, params []string
	for i, a := range args {
		if a == getoptsMark {
			ops, params = args[:i], args[i+1:]
			break
		}
	}
	if len(ops) < 2 {
		return fail(2, "bash: getopts: usage: getopts optstring name [arg ...]")
	}
	spec, name := ops[0], ops[1]
	if len(ops) > 2 {
		params = ops[2:]
	}
	silent := strings.HasPrefix(spec, ":")
	spec = strings.TrimPrefix(spec, ":")
	argv := append([]string{"getopts"}, params...)
	ind, err := strconv.Atoi(strings.TrimSpace(env.Get("OPTIND").String()))
	if err != nil || ind < 1 {
		ind = 1
	}
	st := &p.getoptsSt
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.ind != ind {
		st.next = 0
	}
	var code strings.Builder
	set := func(v, val string) { code.WriteString(v + "=" + singleQuote(val) + "; ") }
	finish := func(status int) []string {
		st.ind = ind
		set("OPTIND", strconv.Itoa(ind))
		if !syntax.ValidName(name) {
			code.WriteString("echo " + singleQuote("bash: getopts: `"+name+"': not a valid identifier") + " >&2; false")
		} else if status != 0 {
			code.WriteString("false")
		}
		return []string{"eval", code.String()}
	}
	end := func() []string {
		st.next = 0
		code.WriteString("unset OPTARG; ")
		if syntax.ValidName(name) {
			set(name, "?")
		}
		return finish(1)
	}
	if ind >= len(argv) {
		ind = len(argv)
		return end()
	}
	if st.next == 0 {
		a := argv[ind]
		if a == "--" {
			ind++
			return end()
		}
		if len(a) < 2 || a[0] != '-' {
			return end()
		}
		st.next = 1
	}
	a := argv[ind]
	c := a[st.next]
	st.next++
	last := st.next >= len(a)
	i := strings.IndexByte(spec, c)
	opt := string(c)
	result := opt
	unsetArg := true
	switch {
	case c == ':' || i < 0:
		result = "?"
		if silent {
			set("OPTARG", opt)
			unsetArg = false
		} else {
			code.WriteString("echo " + singleQuote("bash: illegal option -- "+opt) + " >&2; ")
		}
	case i+1 < len(spec) && spec[i+1] == ':':
		switch {
		case !last:
			set("OPTARG", a[st.next:])
			unsetArg, last = false, true
		case ind+1 < len(argv):
			ind++
			set("OPTARG", argv[ind])
			unsetArg = false
		case silent:
			result = ":"
			set("OPTARG", opt)
			unsetArg = false
		default:
			result = "?"
			code.WriteString("echo " + singleQuote("bash: option requires an argument -- "+opt) + " >&2; ")
		}
	}
	if unsetArg {
		code.WriteString("unset OPTARG; ")
	}
	if last {
		ind++
		st.next = 0
	}
	if syntax.ValidName(name) {
		set(name, result)
	}
	return finish(0)
}
