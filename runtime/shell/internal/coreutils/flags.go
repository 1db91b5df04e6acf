package coreutils

import (
	"fmt"
	"strings"
)

// flagSpec describes a command's options, GNU getopt style: short flags
// may be grouped ("-rn"), options may follow operands (they are permuted),
// "--" ends them, and long options take "--name=value" or "--name value".
type flagSpec struct {
	bools string          // short flags without a value
	vals  string          // short flags with a value
	long  map[string]bool // long names → takes a value
	// alias maps a long name to the short flag it stands for.
	alias map[string]string
	// noPermute stops at the first operand (xargs, find -exec style).
	noPermute bool
	// numeric lets "-5" stand for "-n 5" (head, tail).
	numeric byte
}

// opts are parsed options: the values given for each flag, in order.
type opts map[string][]string

func (o opts) has(k string) bool { _, ok := o[k]; return ok }

func (o opts) last(k, def string) string {
	if v, ok := o[k]; ok && len(v) > 0 {
		return v[len(v)-1]
	}
	return def
}

func (s *flagSpec) parse(args []string) (opts, []string, error) {
	o := opts{}
	var operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return o, append(operands, args[i+1:]...), nil
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			takes, ok := s.long[name]
			if !ok {
				// unique prefix of a long option
				var match []string
				for n := range s.long {
					if strings.HasPrefix(n, name) {
						match = append(match, n)
					}
				}
				if len(match) != 1 {
					return nil, nil, fmt.Errorf("unrecognized option '%s'", a)
				}
				name, takes = match[0], s.long[match[0]]
			}
			if takes && !hasVal {
				if i+1 >= len(args) {
					return nil, nil, fmt.Errorf("option '--%s' requires an argument", name)
				}
				i++
				val = args[i]
			}
			key := name
			if k, ok := s.alias[name]; ok {
				key = k
			}
			o[key] = append(o[key], val)
		case len(a) > 1 && a[0] == '-':
			if s.numeric != 0 && a[1] >= '0' && a[1] <= '9' {
				o[string(s.numeric)] = append(o[string(s.numeric)], a[1:])
				continue
			}
			for j := 1; j < len(a); j++ {
				c := a[j]
				switch {
				case strings.IndexByte(s.bools, c) >= 0:
					o[string(c)] = append(o[string(c)], "")
				case strings.IndexByte(s.vals, c) >= 0:
					val := a[j+1:]
					if val == "" {
						if i+1 >= len(args) {
							return nil, nil, fmt.Errorf("option requires an argument -- '%c'", c)
						}
						i++
						val = args[i]
					}
					o[string(c)] = append(o[string(c)], val)
					j = len(a)
				default:
					return nil, nil, fmt.Errorf("invalid option -- '%c'", c)
				}
			}
		default:
			if s.noPermute {
				return o, append(operands, args[i:]...), nil
			}
			operands = append(operands, a)
		}
	}
	return o, operands, nil
}

// parseOrFail parses args[1:]; on error it prints GNU's message and
// returns ok false (the command then exits with status 2 or 1).
func (e *Env) parse(s *flagSpec, args []string) (opts, []string, bool) {
	o, rest, err := s.parse(args[1:])
	if err != nil {
		e.Errf("%s", err)
		fmt.Fprintf(e.Stderr, "Try '%s --help' for more information.\n", e.name)
		return nil, nil, false
	}
	return o, rest, true
}
