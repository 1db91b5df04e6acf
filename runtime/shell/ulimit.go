package shell

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
)

// unlimited is the value of a resource limit that is not set.
const unlimited = -1

// resource is one of the limits ulimit shows, in bash's order for -a.
type resource struct {
	flag  byte
	name  string
	unit  string // shown with -a: "(blocks, -f)"
	scale int64  // bytes (or units) per unit of the value
	value int64  // the value a run starts with, soft and hard
}

// resources are the limits as bash 5.2 lists them, with the values a run
// starts with. They are the shell's table, kept per run: the sandbox
// enforces its own limits (MaxFileBytes, MaxOpenFiles, MaxProcesses, the
// run's time and memory), whatever this table says.
var resources = []resource{
	{'R', "real-time non-blocking time", "microseconds", 1, unlimited},
	{'c', "core file size", "blocks", 512, 0},
	{'d', "data seg size", "kbytes", 1024, unlimited},
	{'e', "scheduling priority", "", 1, 0},
	{'f', "file size", "blocks", 512, unlimited},
	{'i', "pending signals", "", 1, 63459},
	{'l', "max locked memory", "kbytes", 1024, 8192},
	{'m', "max memory size", "kbytes", 1024, unlimited},
	{'n', "open files", "", 1, 1024},
	{'p', "pipe size", "512 bytes", 512, 8},
	{'q', "POSIX message queues", "bytes", 1, 819200},
	{'r', "real-time priority", "", 1, 0},
	{'s', "stack size", "kbytes", 1024, 8192},
	{'t', "cpu time", "seconds", 1, unlimited},
	{'u', "max user processes", "", 1, 63459},
	{'v', "virtual memory", "kbytes", 1024, unlimited},
	{'x', "file locks", "", 1, unlimited},
}

// rlimits is a run's table of soft and hard limits, by flag.
type rlimits struct {
	mu   sync.Mutex
	soft map[byte]int64
	hard map[byte]int64
}

func (l *rlimits) get(flag byte, hard bool) int64 {
	if l.soft == nil {
		l.soft, l.hard = map[byte]int64{}, map[byte]int64{}
		for _, r := range resources {
			l.soft[r.flag], l.hard[r.flag] = r.value, r.value
		}
	}
	if hard {
		return l.hard[flag]
	}
	return l.soft[flag]
}

// less reports a < b where unlimited is the largest value.
func less(a, b int64) bool {
	if a == unlimited {
		return false
	}
	return b == unlimited || a < b
}

const ulimitUsage = "ulimit: usage: ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]"

// ulimitCmd is the ulimit builtin (the interpreter lacks it), parsed as
// bash 5.2 parses it: -S/-H choose the soft or hard limit (printing shows
// the soft one, setting sets both), each resource flag may take the
// next operand as its value ("unlimited", "soft", "hard" or a number),
// -a lists them all. A soft limit cannot exceed the hard one and a hard
// limit cannot be raised, with bash's errors and status 1.
func (p *runProgram) ulimitCmd(args []string) []string {
	var soft, hard, all bool
	type op struct {
		r     resource
		value string
		set   bool
	}
	var ops []op
	find := func(c byte) (resource, bool) {
		for _, r := range resources {
			if r.flag == c {
				return r, true
			}
		}
		return resource{}, false
	}
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		for j := 1; j < len(a); j++ {
			switch c := a[j]; c {
			case 'S':
				soft = true
			case 'H':
				hard = true
			case 'a':
				all = true
			default:
				r, ok := find(c)
				if !ok {
					return fail(2, fmt.Sprintf("bash: ulimit: -%c: invalid option\n%s", c, ulimitUsage))
				}
				ops = append(ops, op{r: r})
				// The next operand, when not an option, is its value.
				if j == len(a)-1 && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
					i++
					ops[len(ops)-1].value, ops[len(ops)-1].set = args[i], true
				}
			}
		}
	}
	if i < len(args) {
		// An operand after the options is the value of the last (or -f).
		if len(ops) == 0 {
			r, _ := find('f')
			ops = append(ops, op{r: r})
		}
		ops[len(ops)-1].value, ops[len(ops)-1].set = args[i], true
	}
	l := &p.rlimits
	l.mu.Lock()
	defer l.mu.Unlock()
	show := func(r resource) string {
		v := l.get(r.flag, hard && !soft)
		if v == unlimited {
			return "unlimited\n"
		}
		return strconv.FormatInt(v, 10) + "\n"
	}
	if all {
		var b strings.Builder
		for _, r := range resources {
			b.WriteString(label(r, show(r)))
		}
		return []string{"__nook_printf", "%s", b.String()}
	}
	if len(ops) == 0 {
		r, _ := find('f')
		ops = append(ops, op{r: r})
	}
	var out strings.Builder
	printing := 0
	for _, o := range ops {
		if !o.set {
			printing++
		}
	}
	for _, o := range ops {
		if !o.set {
			if printing > 1 {
				out.WriteString(label(o.r, show(o.r)))
			} else {
				out.WriteString(show(o.r))
			}
			continue
		}
		var v int64
		switch o.value {
		case "unlimited":
			v = unlimited
		case "hard":
			v = l.get(o.r.flag, true)
		case "soft":
			v = l.get(o.r.flag, false)
		default:
			n, err := strconv.ParseInt(o.value, 10, 64)
			if err != nil || n < 0 {
				if err != nil && strings.Trim(o.value, "0123456789") == "" {
					return fail(1, "bash: ulimit: "+o.value+": limit out of range")
				}
				return fail(1, "bash: ulimit: "+o.value+": invalid number")
			}
			if n > math.MaxInt64/o.r.scale {
				return fail(1, "bash: ulimit: "+o.value+": limit out of range")
			}
			v = n
		}
		setSoft, setHard := soft || !hard, hard || !soft
		curHard := l.get(o.r.flag, true)
		newSoft, newHard := l.get(o.r.flag, false), curHard
		if setSoft {
			newSoft = v
		}
		if setHard {
			newHard = v
		}
		switch {
		case less(curHard, newHard):
			return fail(1, "bash: ulimit: "+o.r.name+": cannot modify limit: Operation not permitted")
		case less(newHard, newSoft):
			return fail(1, "bash: ulimit: "+o.r.name+": cannot modify limit: Invalid argument")
		}
		l.soft[o.r.flag], l.hard[o.r.flag] = newSoft, newHard
	}
	if out.Len() == 0 {
		return []string{"true"}
	}
	return []string{"__nook_printf", "%s", out.String()}
}

// label is the line of -a for r: its name, unit and flag, then value.
func label(r resource, value string) string {
	unit := "(-" + string(r.flag) + ")"
	if r.unit != "" {
		unit = "(" + r.unit + ", -" + string(r.flag) + ")"
	}
	pad := max(40-len(unit)-len(r.name), 2)
	return r.name + strings.Repeat(" ", pad) + unit + " " + value
}
