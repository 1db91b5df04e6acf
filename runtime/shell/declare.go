package shell

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/nookdev/nook/internal/mvsh/expand"
	"github.com/nookdev/nook/internal/mvsh/syntax"
)

// declCmd stands for a declaration builtin that only prints (declare -p,
// declare -F, declare with no operand, export -p, readonly -p): the
// interpreter's output differs from bash's, ours matches it.
const declCmd = "__nook_declare"

// declQuery returns the call that stands for d when d only prints: its
// operands are all names or flags, one flag has p or F, or there is no
// operand at all (declare, typeset, export, readonly). It returns nil
// when d assigns, or prints functions' bodies (-f).
func declQuery(d *syntax.DeclClause) *syntax.CallExpr {
	variant := d.Variant.Value
	if variant == "local" || variant == "nameref" {
		return nil
	}
	args := []*syntax.Word{lit(declCmd), lit(variant)}
	query := len(d.Args) == 0
	for _, a := range d.Args {
		switch {
		case !a.Naked || a.Index != nil || a.Array != nil:
			return nil
		case a.Name != nil && a.Value == nil:
			args = append(args, lit(a.Name.Value))
		case a.Value != nil:
			if s := a.Value.Lit(); strings.HasPrefix(s, "-") {
				if strings.ContainsRune(s, 'f') {
					return nil
				}
				if strings.ContainsAny(s, "pF") {
					query = true
				}
			}
			args = append(args, a.Value)
		default:
			return nil
		}
	}
	if !query {
		return nil
	}
	return &syntax.CallExpr{Args: args}
}

// declareCmd prints what bash's declaration builtins print: with -p each
// variable as the declare command that makes it again (all of them, or
// those with the attributes given, when no name is given); with -F the
// functions' names; with no operand every variable as name=value. A name
// that is not declared is an error (status 1).
func (p *runProgram) declareCmd(env expand.Environ, args []string) []string {
	variant, args := args[0], args[1:]
	var print, names bool
	var want string // attributes a variable must have to be listed
	switch variant {
	case "set":
		// set with no operand: every variable as name=value.
	case "export":
		want, print = "x", true
	case "readonly":
		want, print = "r", true
	}
	var operands []string
	for i, a := range args {
		if a == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' {
			for _, c := range a[1:] {
				switch c {
				case 'p':
					print = true
				case 'F':
					names = true
				case 'a', 'A', 'r', 'x', 'n':
					want += string(c)
				case 'g', 'i', 'l', 'u', 't':
				default:
					return fail(2, fmt.Sprintf("bash: %s: -%c: invalid option", variant, c))
				}
			}
			continue
		}
		operands = append(operands, a)
	}
	var out, errs strings.Builder
	status := 0
	if names {
		if len(operands) == 0 {
			funcs := make([]string, 0, len(p.funcs))
			for f := range p.funcs {
				funcs = append(funcs, f)
			}
			sort.Strings(funcs)
			for _, f := range funcs {
				out.WriteString("declare -f " + f + "\n")
			}
		}
		for _, f := range operands {
			if p.funcs[f] {
				out.WriteString(f + "\n")
			} else {
				status = 1
			}
		}
		return reply(out.String(), errs.String(), status)
	}
	if len(operands) == 0 {
		var all []string
		env.Each(func(name string, vr expand.Variable) bool {
			if !strings.HasPrefix(name, "__NOOK_") && vr.Declared() {
				all = append(all, name)
			}
			return true
		})
		sort.Strings(all)
		for _, name := range all {
			vr := env.Get(name)
			if !hasFlags(vr, want) {
				continue
			}
			if print || want != "" {
				out.WriteString(declLine(name, vr))
			} else if vr.IsSet() {
				out.WriteString(setLine(name, vr))
			}
		}
		return reply(out.String(), "", 0)
	}
	if variant == "export" || variant == "readonly" {
		// bash's export -p and readonly -p print nothing for names.
		return keepStatus(0)
	}
	for _, name := range operands {
		vr := env.Get(name)
		if !syntax.ValidName(name) || !vr.Declared() {
			fmt.Fprintf(&errs, "bash: %s: %s: not found\n", variant, name)
			status = 1
			continue
		}
		out.WriteString(declLine(name, vr))
	}
	return reply(out.String(), strings.TrimSuffix(errs.String(), "\n"), status)
}

// reply is the command that prints out and errs and exits with status.
func reply(out, errs string, status int) []string {
	switch {
	case status != 0 && errs == "":
		if out == "" {
			return keepStatus(status)
		}
		return []string{"__nook_output", out, "", strconv.Itoa(status)}
	case status != 0:
		return []string{"__nook_output", out, errs, strconv.Itoa(status)}
	}
	return []string{"__nook_printf", "%s", out}
}

func hasFlags(vr expand.Variable, want string) bool {
	flags := vr.Flags()
	for _, c := range want {
		if !strings.ContainsRune(flags, c) {
			return false
		}
	}
	return true
}

// declLine is the declare command that makes the variable again.
func declLine(name string, vr expand.Variable) string {
	flags := vr.Flags()
	if flags == "" {
		flags = "-"
	}
	head := "declare -" + flags + " " + name
	if !vr.IsSet() {
		return head + "\n"
	}
	return head + "=" + declValue(vr, declQuote) + "\n"
}

// setLine is the variable as set and declare with no operand show it.
func setLine(name string, vr expand.Variable) string {
	return name + "=" + declValue(vr, setQuote) + "\n"
}

func declValue(vr expand.Variable, quote func(string) string) string {
	switch vr.Kind {
	case expand.Indexed:
		var b strings.Builder
		b.WriteString("(")
		for i, v := range vr.List {
			idx := i
			if vr.Indexes != nil {
				idx = vr.Indexes[i]
			}
			if i > 0 {
				b.WriteString(" ")
			}
			fmt.Fprintf(&b, "[%d]=%s", idx, declQuote(v))
		}
		return b.String() + ")"
	case expand.Associative:
		if len(vr.Map) == 0 {
			return "()"
		}
		keys := make([]string, 0, len(vr.Map))
		for k := range vr.Map {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var b strings.Builder
		b.WriteString("(")
		for _, k := range keys {
			key := k
			if needsQuotes(k) {
				key = declQuote(k)
			}
			fmt.Fprintf(&b, "[%s]=%s ", key, declQuote(vr.Map[k]))
		}
		return b.String() + ")"
	}
	return quote(vr.Str)
}

func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return true
		}
	}
	return false
}

// declQuote quotes s as declare -p does: in double quotes, or as $'...'
// when it holds control characters.
func declQuote(s string) string {
	if hasControl(s) {
		return ansiQuote(s)
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, `$`, `\$`, "`", "\\`")
	return `"` + r.Replace(s) + `"`
}

// needsQuotes reports whether s holds a character the shell would read
// as syntax (or is empty).
func needsQuotes(s string) bool {
	return s == "" || strings.ContainsAny(s, " \t\n|&;()<>\"'`$\\*?[]#~=%{}!")
}

// setQuote quotes s as set and declare with no operand do: as it is
// when it needs no quotes, else in single quotes, or as $'...'.
func setQuote(s string) string {
	switch {
	case hasControl(s):
		return ansiQuote(s)
	case s == "" || !needsQuotes(s):
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ansiQuote quotes s as $'...', control characters escaped.
func ansiQuote(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\v':
			b.WriteString(`\v`)
		case 0x1b:
			b.WriteString(`\E`)
		case '\\':
			b.WriteString(`\\`)
		case '\'':
			b.WriteString(`\'`)
		default:
			if c < 0x20 || c == 0x7f {
				fmt.Fprintf(&b, "\\%03o", c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	return b.String() + "'"
}
