package git

import (
	"fmt"
	"strconv"
	"strings"
)

// An opt is one option a command accepts, as git's parse-options knows it:
// a short letter, a long name, and whether it takes a value.
type opt struct {
	short byte   // 0 when the option has no short form
	long  string // "" when it has only a short form
	arg   int    // argNone, argRequired, argOptional (a value only as --long=value or -xVALUE)
	key   string // what it is stored under (default long, else the short letter)
}

const (
	argNone = iota
	argRequired
	argOptional
)

func (o opt) name() string {
	if o.key != "" {
		return o.key
	}
	if o.long != "" {
		return o.long
	}
	return string(o.short)
}

// flags is a parsed command line: options by key (repeated options keep
// every value; "--no-x" stores "\x00no"), positional arguments, and the
// paths after "--".
type flags struct {
	vals     map[string][]string
	order    []string // keys in the order given
	pos      []string
	paths    []string
	dashdash bool
}

func (f *flags) has(k string) bool { _, ok := f.vals[k]; return ok && !f.negated(k) }

func (f *flags) negated(k string) bool {
	v := f.vals[k]
	return len(v) > 0 && v[len(v)-1] == "\x00no"
}

// str is the last value of k ("" when unset).
func (f *flags) str(k string) string {
	v := f.vals[k]
	if len(v) == 0 || v[len(v)-1] == "\x00no" {
		return ""
	}
	return v[len(v)-1]
}

func (f *flags) all(k string) []string {
	var out []string
	for _, s := range f.vals[k] {
		if s != "\x00no" {
			out = append(out, s)
		}
	}
	return out
}

func (f *flags) set(k, v string) {
	if f.vals == nil {
		f.vals = map[string][]string{}
	}
	f.vals[k] = append(f.vals[k], v)
	f.order = append(f.order, k)
}

// usageErr is a command line git would refuse with its usage (exit 129).
type usageErr struct {
	msg   string // "error: ..." or "" for the usage alone
	usage string
}

func (e *usageErr) Error() string { return e.msg }

// parseOpts parses args as git's parse-options does: options anywhere
// before "--" (unless stopAtNonOpt), bundled short options (-am, -sb),
// values attached (-mmsg, -n5, --opt=value) or following (-m msg, --opt
// value), unique prefixes of long options, --no-<long>, and numeric
// options (-5) when numeric names the key to store them under.
func parseOpts(args []string, specs []opt, usage string, stopAtNonOpt bool, numeric string) (*flags, error) {
	f := &flags{vals: map[string][]string{}}
	bad := func(format string, a ...any) error {
		return &usageErr{msg: fmt.Sprintf(format, a...), usage: usage}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if f.dashdash {
			f.paths = append(f.paths, a)
			continue
		}
		if a == "--" {
			f.dashdash = true
			continue
		}
		if len(a) < 2 || a[0] != '-' {
			f.pos = append(f.pos, a)
			if stopAtNonOpt {
				f.pos = append(f.pos, args[i+1:]...)
				return f, nil
			}
			continue
		}
		if strings.HasPrefix(a, "--") {
			name, val, hasVal := strings.Cut(a[2:], "=")
			o, neg, err := findLong(specs, name)
			if err != nil {
				return nil, bad("%s", err.Error())
			}
			if o == nil {
				return nil, bad("error: unknown option `%s'", a[2:])
			}
			if neg {
				if hasVal {
					return nil, bad("error: option `no-%s' takes no value", o.long)
				}
				f.set(o.name(), "\x00no")
				continue
			}
			switch o.arg {
			case argNone:
				if hasVal {
					return nil, bad("error: option `%s' takes no value", o.long)
				}
				f.set(o.name(), "")
			case argOptional:
				f.set(o.name(), val)
			default:
				if !hasVal {
					if i+1 >= len(args) {
						return nil, bad("error: option `%s' requires a value", o.long)
					}
					i++
					val = args[i]
				}
				f.set(o.name(), val)
			}
			continue
		}
		// Short options, possibly bundled.
		if numeric != "" && isDigits(a[1:]) {
			f.set(numeric, a[1:])
			continue
		}
		for j := 1; j < len(a); j++ {
			o := findShort(specs, a[j])
			if o == nil {
				if numeric != "" && a[j] >= '0' && a[j] <= '9' {
					f.set(numeric, a[j:])
					break
				}
				return nil, bad("error: unknown switch `%c'", a[j])
			}
			if o.arg == argNone {
				f.set(o.name(), "")
				continue
			}
			rest := a[j+1:]
			if rest == "" && o.arg == argRequired {
				if i+1 >= len(args) {
					return nil, bad("error: switch `%c' requires a value", a[j])
				}
				i++
				rest = args[i]
			}
			f.set(o.name(), rest)
			break
		}
	}
	return f, nil
}

func findShort(specs []opt, c byte) *opt {
	for i := range specs {
		if specs[i].short == c {
			return &specs[i]
		}
	}
	return nil
}

// findLong finds a long option by its name or a unique prefix of it, and
// reports whether it was given as --no-<name>.
func findLong(specs []opt, name string) (*opt, bool, error) {
	for i := range specs {
		if specs[i].long == name {
			return &specs[i], false, nil
		}
	}
	if n, ok := strings.CutPrefix(name, "no-"); ok {
		for i := range specs {
			if specs[i].long == n && specs[i].arg != argRequired {
				return &specs[i], true, nil
			}
		}
	}
	var found *opt
	var names []string
	for i := range specs {
		if specs[i].long != "" && strings.HasPrefix(specs[i].long, name) && name != "" {
			if found == nil {
				found = &specs[i]
			}
			names = append(names, specs[i].long)
		}
	}
	if len(names) > 1 {
		return nil, false, fmt.Errorf("error: ambiguous option: %s (could be --%s or --%s)", name, names[0], names[1])
	}
	return found, false, nil
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// refuse returns the first of names the command line gave: options git
// has that nook's git accepts to parse but does not implement.
func (f *flags) refuse(names ...string) string {
	for _, n := range names {
		if f.has(n) {
			return n
		}
	}
	return ""
}

func atoiOr(s string, def int) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return def
	}
	return n
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}
