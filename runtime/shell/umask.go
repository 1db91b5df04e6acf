package shell

import (
	"fmt"
	"strconv"
	"strings"
)

// defaultUmask is the file mode creation mask a run starts with.
const defaultUmask = 0o022

// umaskCmd is the umask builtin, which the interpreter lacks: the run's
// mask (p.umask, applied to the files a redirect creates), printed in
// octal ("0022"), symbolically (-S) or as a command (-p), or set from an
// octal number or a symbolic mode, parsed as bash 5.2 parses it. It
// returns the command that gives the builtin's output and status.
func (p *runProgram) umaskCmd(args []string) []string {
	symbolic, reusable := false, false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		for _, c := range args[0][1:] {
			switch c {
			case 'S':
				symbolic = true
			case 'p':
				reusable = true
			default:
				return fail(2, fmt.Sprintf("bash: umask: -%c: invalid option\numask: usage: umask [-p] [-S] [mode]", c))
			}
		}
		args = args[1:]
	}
	mask := int(p.umask.Load())
	if len(args) == 0 {
		var out string
		switch {
		case symbolic:
			out = symbolicMask(mask)
		default:
			out = fmt.Sprintf("%04o", mask)
		}
		if reusable {
			if symbolic {
				out = "umask -S " + out
			} else {
				out = "umask " + out
			}
		}
		return []string{"__nook_printf", "%s\n", out}
	}
	mode := args[0] // bash reads the first operand only
	if mode != "" && mode[0] >= '0' && mode[0] <= '9' {
		n, err := strconv.ParseInt(mode, 8, 32)
		if err != nil || n > 0o7777 {
			return fail(1, "bash: umask: "+mode+": octal number out of range")
		}
		mask = int(n)
	} else {
		bits, msg := parseSymbolicMode(mode, ^mask&0o777)
		if msg != "" {
			return fail(1, "bash: umask: "+msg)
		}
		mask = ^bits & 0o777
	}
	p.umask.Store(int32(mask))
	if symbolic {
		return []string{"__nook_printf", "%s\n", symbolicMask(mask)}
	}
	return []string{"true"}
}

// symbolicMask is umask -S's form of mask: the permissions it leaves.
func symbolicMask(mask int) string {
	perms := ^mask & 0o777
	var parts []string
	for i, who := range []string{"u", "g", "o"} {
		shift := uint(6 - 3*i)
		s := who + "="
		for j, c := range "rwx" {
			if perms>>shift&(4>>j) != 0 {
				s += string(c)
			}
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ",")
}

// parseSymbolicMode applies the symbolic mode ("u=rwx,g-w", "a+x") to the
// permission bits bits, as bash's parse_symbolic_mode does; it returns a
// message when the mode is not valid.
func parseSymbolicMode(mode string, bits int) (int, string) {
	s := mode
	for {
		who, perm := 0, 0
		for len(s) > 0 && strings.IndexByte("agou", s[0]) >= 0 {
			switch s[0] {
			case 'u':
				who |= 0o700
			case 'g':
				who |= 0o070
			case 'o':
				who |= 0o007
			case 'a':
				who |= 0o777
			}
			s = s[1:]
		}
		if len(s) == 0 {
			return 0, "`': invalid symbolic mode operator"
		}
		op := s[0]
		s = s[1:]
		if op != '+' && op != '-' && op != '=' {
			return 0, fmt.Sprintf("`%c': invalid symbolic mode operator", op)
		}
		for len(s) > 0 && strings.IndexByte("rwx", s[0]) >= 0 {
			switch s[0] {
			case 'r':
				perm |= 0o444
			case 'w':
				perm |= 0o222
			case 'x':
				perm |= 0o111
			}
			s = s[1:]
		}
		if len(s) > 0 && s[0] != ',' {
			return 0, fmt.Sprintf("`%c': invalid symbolic mode character", s[0])
		}
		if who != 0 {
			perm &= who
		}
		switch op {
		case '+':
			bits |= perm
		case '-':
			bits &^= perm
		case '=':
			if who == 0 {
				who = 0o777
			}
			bits = bits&^who | perm
		}
		if len(s) == 0 {
			return bits, ""
		}
		s = s[1:]
	}
}
