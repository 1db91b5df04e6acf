package coreutils

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"github.com/itchyny/gojq"
)

func init() {
	register("jq", "jq [-rcnsej] [--arg NAME VALUE] [--argjson NAME JSON] FILTER [FILE]...", jq)
}

// jq runs a jq filter with gojq. Object keys are printed sorted (gojq's
// order), not in input order.
func jq(e *Env, args []string) int {
	a := args[1:]
	var raw, compact, null, slurp, exit, join, tab bool
	var names []string
	var values []any
	var ops []string
	for i := 0; i < len(a); i++ {
		s := a[i]
		switch {
		case s == "--arg" && i+2 < len(a):
			names, values = append(names, "$"+a[i+1]), append(values, a[i+2])
			i += 2
		case s == "--argjson" && i+2 < len(a):
			var v any
			if err := json.Unmarshal([]byte(a[i+2]), &v); err != nil {
				e.Errf("invalid JSON text passed to --argjson")
				return 2
			}
			names, values = append(names, "$"+a[i+1]), append(values, v)
			i += 2
		case s == "--raw-output":
			raw = true
		case s == "--compact-output":
			compact = true
		case s == "--null-input":
			null = true
		case s == "--slurp":
			slurp = true
		case s == "--tab":
			tab = true
		case len(s) > 1 && s[0] == '-' && s[1] != '-':
			for _, c := range s[1:] {
				switch c {
				case 'r':
					raw = true
				case 'c':
					compact = true
				case 'n':
					null = true
				case 's':
					slurp = true
				case 'e':
					exit = true
				case 'j':
					raw, join = true, true
				case 'M', 'C', 'S':
				default:
					e.Errf("Unknown option: %s", s)
					return 2
				}
			}
		default:
			ops = append(ops, s)
		}
	}
	if len(ops) == 0 {
		e.Errf("usage: jq [OPTIONS] FILTER [FILES...]")
		return 2
	}
	q, err := gojq.Parse(ops[0])
	if err != nil {
		e.Errf("error: %v", err)
		return 3
	}
	code, err := gojq.Compile(q, gojq.WithVariables(names))
	if err != nil {
		e.Errf("error: %v", err)
		return 3
	}
	var inputs []any
	if !null {
		var data []byte
		st := e.Inputs(ops[1:], func(_ string, b []byte) { data = append(data, b...) })
		if st != 0 {
			return 2
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		for {
			var v any
			if err := dec.Decode(&v); err == io.EOF {
				break
			} else if err != nil {
				e.Errf("error: cannot parse input: %v", err)
				return 2
			}
			inputs = append(inputs, normalizeJSON(v))
		}
		if slurp {
			inputs = []any{inputs}
		}
	} else {
		inputs = []any{nil}
	}
	status := 0
	var last any = true
	out := bufio.NewWriterSize(e.Stdout, 32<<10)
	defer out.Flush()
	for _, in := range inputs {
		iter := code.RunWithContext(e.Ctx, in, values...)
		for {
			v, ok := iter.Next()
			if !ok {
				break
			}
			if err, ok := v.(error); ok {
				e.Errf("error: %v", err)
				status = 5
				break
			}
			last = v
			if d := jqDepth(v, jqMaxDepth); d > jqMaxDepth {
				// Printing recurses once per level (a value built by
				// reduce ... [.] would overflow the Go stack).
				e.Errf("error: the result is nested more than %d levels deep and cannot be printed", jqMaxDepth)
				status = 5
				break
			}
			if s, ok := v.(string); ok && raw {
				out.WriteString(s)
			} else {
				var b []byte
				switch {
				case compact:
					b, _ = gojq.Marshal(v)
				case tab:
					b, _ = json.MarshalIndent(v, "", "\t")
				default:
					b, _ = json.MarshalIndent(v, "", "  ")
				}
				out.Write(b)
			}
			if !join {
				out.WriteByte('\n')
			}
		}
	}
	if status == 0 && exit && (last == nil || last == false) {
		return 1
	}
	return status
}

// jqMaxDepth is the deepest value jq prints: jq 1.7 parses JSON at most
// 10,000 levels deep (as does encoding/json, our parser).
const jqMaxDepth = 10_000

// jqDepth returns the nesting depth of v, counting no further than
// max+1, without recursion.
func jqDepth(v any, max int) int {
	type item struct {
		v any
		d int
	}
	deepest := 0
	stack := []item{{v, 1}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.d > deepest {
			deepest = it.d
			if deepest > max {
				return deepest
			}
		}
		switch x := it.v.(type) {
		case []any:
			for _, c := range x {
				stack = append(stack, item{c, it.d + 1})
			}
		case map[string]any:
			for _, c := range x {
				stack = append(stack, item{c, it.d + 1})
			}
		}
	}
	return deepest
}

// normalizeJSON turns json.Number into the int or float64 gojq expects.
func normalizeJSON(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return int(i)
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = normalizeJSON(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = normalizeJSON(x[k])
		}
	}
	return v
}
