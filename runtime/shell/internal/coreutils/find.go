package coreutils

import (
	"bytes"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"
)

func init() {
	register("find", "find [PATH]... [-name GLOB] [-iname GLOB] [-path GLOB] [-type f|d|l] [-maxdepth N] [-mindepth N] [-mtime N] [-newer F] [-size N] [-empty] [-not|!] [-o] [( )] [-print] [-print0] [-delete] [-exec CMD {} ;|+] [-prune]", find)
	register("xargs", "xargs [-0] [-n N] [-I REPLACE] [-d DELIM] [-r] [-t] [COMMAND [ARG]...]", xargs)
}

type findNode struct {
	rel   string // path as printed
	abs   string
	kind  string
	depth int
	info  func() (size int64, mtime time.Time, ok bool)
}

// find expressions: a small recursive-descent evaluator.
type fexpr func(n *findNode) bool

type findRun struct {
	e        *Env
	toks     []string
	pos      int
	action   bool // an action (-print, -exec, -delete) was given
	execPlus map[int][]string
	plusCmds [][]string
	status   int
	prune    bool
	out      *bytes.Buffer
}

func find(e *Env, args []string) int {
	a := args[1:]
	var roots []string
	for len(a) > 0 && !strings.HasPrefix(a[0], "-") && a[0] != "(" && a[0] != "!" {
		roots = append(roots, a[0])
		a = a[1:]
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	maxDepth, minDepth := -1, 0
	var toks []string
	for i := 0; i < len(a); i++ {
		switch a[i] {
		case "-maxdepth", "-mindepth":
			if i+1 >= len(a) {
				e.Errf("missing argument to `%s'", a[i])
				return 1
			}
			n, err := strconv.Atoi(a[i+1])
			if err != nil {
				e.Errf("invalid argument `%s' to `%s'", a[i+1], a[i])
				return 1
			}
			if a[i] == "-maxdepth" {
				maxDepth = n
			} else {
				minDepth = n
			}
			i++
		default:
			toks = append(toks, a[i])
		}
	}
	f := &findRun{e: e, toks: toks, execPlus: map[int][]string{}, out: &bytes.Buffer{}}
	expr, err := f.parseOr()
	if err == nil && f.pos < len(f.toks) {
		err = fmt.Errorf("unexpected `%s'", f.toks[f.pos])
	}
	if err != nil {
		e.Errf("%s", err)
		return 1
	}
	if expr == nil {
		expr = func(*findNode) bool { return true }
	}
	for _, root := range roots {
		ar := e.Abs(root)
		fi, err := e.FS.Lstat(e.Ctx, ar)
		if err != nil {
			e.Errf("'%s': %s", root, textOf(err))
			f.status = 1
			continue
		}
		if fi.Kind == "symlink" && root != "" && strings.HasSuffix(root, "/") {
			if s, err := e.FS.Stat(e.Ctx, ar); err == nil {
				fi = s
			}
		}
		nodes := []*findNode{{rel: root, abs: ar, kind: fi.Kind, depth: 0}}
		if fi.Kind == "dir" && maxDepth != 0 {
			entries, err := e.FS.ReadDirRecursive(e.Ctx, ar)
			if err != nil {
				e.Errf("'%s': %s", root, textOf(err))
				f.status = 1
			}
			// depth-first, in name order, as GNU find does on a sorted
			// directory
			children := map[string][]*findNode{}
			for _, en := range entries {
				parent := path.Dir(en.Name)
				if parent == "." {
					parent = ""
				}
				rel := strings.TrimSuffix(root, "/") + "/" + en.Name
				if root == "/" {
					rel = "/" + en.Name
				}
				children[parent] = append(children[parent], &findNode{rel: rel, abs: ar + "/" + en.Name, kind: en.Kind, depth: strings.Count(en.Name, "/") + 1})
			}
			var walk func(key string)
			walk = func(key string) {
				for _, c := range children[key] {
					nodes = append(nodes, c)
					if c.kind == "dir" {
						walk(strings.TrimPrefix(c.abs[len(ar):], "/"))
					}
				}
			}
			walk("")
		}
		var pruned []string
	nodeLoop:
		for _, n := range nodes {
			if e.Ctx.Err() != nil {
				return 1
			}
			for _, p := range pruned {
				if strings.HasPrefix(n.abs, p+"/") {
					continue nodeLoop
				}
			}
			if maxDepth >= 0 && n.depth > maxDepth {
				continue
			}
			n := n
			n.info = func() (int64, time.Time, bool) {
				fi, err := e.FS.Lstat(e.Ctx, n.abs)
				if err != nil {
					return 0, time.Time{}, false
				}
				return fi.Size(), fi.ModTime(), true
			}
			f.prune = false
			if n.depth >= minDepth {
				if expr(n) && !f.action {
					fmt.Fprintln(f.out, n.rel)
				}
			}
			if f.prune {
				pruned = append(pruned, n.abs)
			}
			if f.out.Len() > 32<<10 {
				e.Stdout.Write(f.out.Bytes())
				f.out.Reset()
			}
		}
	}
	e.Stdout.Write(f.out.Bytes())
	f.out.Reset()
	for _, cmd := range f.plusCmds {
		if len(cmd) > 0 {
			if st := e.Exec(cmd, e.Stdin, e.Stdout, e.Stderr); st != 0 {
				f.status = 1
			}
		}
	}
	return f.status
}

func (f *findRun) peek() string {
	if f.pos < len(f.toks) {
		return f.toks[f.pos]
	}
	return ""
}

func (f *findRun) parseOr() (fexpr, error) {
	l, err := f.parseAnd()
	if err != nil {
		return nil, err
	}
	for f.peek() == "-o" || f.peek() == "-or" {
		f.pos++
		r, err := f.parseAnd()
		if err != nil {
			return nil, err
		}
		if r == nil {
			return nil, fmt.Errorf("expected an expression after -o")
		}
		ll := l
		l = func(n *findNode) bool { return ll(n) || r(n) }
	}
	return l, nil
}

func (f *findRun) parseAnd() (fexpr, error) {
	var l fexpr
	for {
		t := f.peek()
		if t == "" || t == "-o" || t == "-or" || t == ")" {
			return l, nil
		}
		if t == "-a" || t == "-and" {
			f.pos++
			continue
		}
		r, err := f.parseNot()
		if err != nil {
			return nil, err
		}
		if l == nil {
			l = r
		} else {
			ll := l
			l = func(n *findNode) bool { return ll(n) && r(n) }
		}
	}
}

func (f *findRun) parseNot() (fexpr, error) {
	if t := f.peek(); t == "!" || t == "-not" {
		f.pos++
		x, err := f.parseNot()
		if err != nil {
			return nil, err
		}
		return func(n *findNode) bool { return !x(n) }, nil
	}
	return f.primary()
}

func (f *findRun) arg(name string) (string, error) {
	if f.pos >= len(f.toks) {
		return "", fmt.Errorf("missing argument to `%s'", name)
	}
	f.pos++
	return f.toks[f.pos-1], nil
}

// cmpNum builds a test for find's numeric arguments: +N (more), -N
// (less), N (exactly).
func cmpNum(s string) (func(v int64) bool, error) {
	mode := byte(0)
	if s != "" && (s[0] == '+' || s[0] == '-') {
		mode, s = s[0], s[1:]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return nil, err
	}
	switch mode {
	case '+':
		return func(v int64) bool { return v > n }, nil
	case '-':
		return func(v int64) bool { return v < n }, nil
	}
	return func(v int64) bool { return v == n }, nil
}

func (f *findRun) primary() (fexpr, error) {
	t := f.toks[f.pos]
	f.pos++
	e := f.e
	switch t {
	case "(":
		x, err := f.parseOr()
		if err != nil {
			return nil, err
		}
		if f.peek() != ")" {
			return nil, fmt.Errorf("invalid expression; I was expecting to find a ')' somewhere but did not see one.")
		}
		f.pos++
		if x == nil {
			x = func(*findNode) bool { return true }
		}
		return x, nil
	case "-name", "-iname", "-path", "-ipath", "-wholename", "-regex", "-iregex":
		pat, err := f.arg(t)
		if err != nil {
			return nil, err
		}
		fold := strings.HasPrefix(t, "-i")
		if t == "-regex" || t == "-iregex" {
			re, err := compileRE(pat, false, fold)
			if err != nil {
				return nil, err
			}
			return func(n *findNode) bool {
				loc := re.FindStringIndex(n.rel)
				return loc != nil && loc[0] == 0 && loc[1] == len(n.rel)
			}, nil
		}
		if fold {
			pat = strings.ToLower(pat)
		}
		return func(n *findNode) bool {
			s := n.rel
			if t == "-name" || t == "-iname" {
				s = baseOf(n.rel)
			}
			if fold {
				s = strings.ToLower(s)
			}
			ok, _ := doublestar.Match(strings.ReplaceAll(pat, "**", "*"), s)
			if !ok && (t == "-path" || t == "-ipath" || t == "-wholename") {
				ok = globAcross(pat, s)
			}
			return ok
		}, nil
	case "-type":
		k, err := f.arg(t)
		if err != nil {
			return nil, err
		}
		want := map[string]string{"f": "file", "d": "dir", "l": "symlink"}
		var kinds []string
		for _, part := range strings.Split(k, ",") {
			w, ok := want[part]
			if !ok {
				return nil, fmt.Errorf("Unknown argument to -type: %s", k)
			}
			kinds = append(kinds, w)
		}
		return func(n *findNode) bool {
			for _, k := range kinds {
				if n.kind == k {
					return true
				}
			}
			return false
		}, nil
	case "-mtime", "-mmin":
		v, err := f.arg(t)
		if err != nil {
			return nil, err
		}
		c, err := cmpNum(v)
		if err != nil {
			return nil, fmt.Errorf("invalid argument `%s' to `%s'", v, t)
		}
		now := e.Now()
		unit := 24 * time.Hour
		if t == "-mmin" {
			unit = time.Minute
		}
		return func(n *findNode) bool {
			_, mt, ok := n.info()
			if !ok {
				return false
			}
			age := now.Sub(mt)
			if t == "-mmin" {
				// -mmin rounds up
				return c(int64((age + unit - 1) / unit))
			}
			return c(int64(age / unit))
		}, nil
	case "-newer":
		ref, err := f.arg(t)
		if err != nil {
			return nil, err
		}
		fi, err := e.FS.Stat(e.Ctx, e.Abs(ref))
		if err != nil {
			return nil, fmt.Errorf("'%s': %s", ref, textOf(err))
		}
		return func(n *findNode) bool {
			_, mt, ok := n.info()
			return ok && mt.After(fi.ModTime())
		}, nil
	case "-size":
		v, err := f.arg(t)
		if err != nil {
			return nil, err
		}
		unit := int64(512)
		switch {
		case strings.HasSuffix(v, "c"):
			unit, v = 1, v[:len(v)-1]
		case strings.HasSuffix(v, "k"):
			unit, v = 1024, v[:len(v)-1]
		case strings.HasSuffix(v, "M"):
			unit, v = 1<<20, v[:len(v)-1]
		case strings.HasSuffix(v, "G"):
			unit, v = 1<<30, v[:len(v)-1]
		case strings.HasSuffix(v, "b"):
			v = v[:len(v)-1]
		}
		c, err := cmpNum(v)
		if err != nil {
			return nil, fmt.Errorf("invalid -size argument")
		}
		return func(n *findNode) bool {
			size, _, ok := n.info()
			return ok && c((size+unit-1)/unit)
		}, nil
	case "-empty":
		return func(n *findNode) bool {
			if n.kind == "dir" {
				l, err := e.FS.ReadDir(e.Ctx, n.abs)
				return err == nil && len(l) == 0
			}
			size, _, ok := n.info()
			return ok && n.kind == "file" && size == 0
		}, nil
	case "-true":
		return func(*findNode) bool { return true }, nil
	case "-false":
		return func(*findNode) bool { return false }, nil
	case "-print", "-print0":
		f.action = true
		end := "\n"
		if t == "-print0" {
			end = "\x00"
		}
		return func(n *findNode) bool { f.out.WriteString(n.rel + end); return true }, nil
	case "-printf":
		format, err := f.arg(t)
		if err != nil {
			return nil, err
		}
		f.action = true
		return func(n *findNode) bool { f.out.WriteString(findPrintf(format, n)); return true }, nil
	case "-prune":
		return func(*findNode) bool { f.prune = true; return true }, nil
	case "-quit":
		return func(*findNode) bool { return true }, nil
	case "-delete":
		f.action = true
		return func(n *findNode) bool {
			if err := e.FS.Remove(e.Ctx, n.abs, n.kind == "dir", false); err != nil {
				e.Errf("cannot delete '%s': %s", n.rel, textOf(err))
				f.status = 1
				return false
			}
			return true
		}, nil
	case "-exec", "-execdir", "-ok":
		f.action = true
		var cmd []string
		for {
			if f.pos >= len(f.toks) {
				return nil, fmt.Errorf("missing argument to `%s'", t)
			}
			a := f.toks[f.pos]
			f.pos++
			if a == ";" {
				break
			}
			if a == "+" && len(cmd) > 0 && cmd[len(cmd)-1] == "{}" {
				idx := len(f.plusCmds)
				f.plusCmds = append(f.plusCmds, nil)
				base := cmd[:len(cmd)-1]
				return func(n *findNode) bool {
					if f.plusCmds[idx] == nil {
						f.plusCmds[idx] = append([]string{}, base...)
					}
					f.plusCmds[idx] = append(f.plusCmds[idx], n.rel)
					return true
				}, nil
			}
			cmd = append(cmd, a)
		}
		if len(cmd) == 0 {
			return nil, fmt.Errorf("missing argument to `%s'", t)
		}
		return func(n *findNode) bool {
			argv := make([]string, len(cmd))
			for i, c := range cmd {
				argv[i] = strings.ReplaceAll(c, "{}", n.rel)
			}
			e.Stdout.Write(f.out.Bytes())
			f.out.Reset()
			return e.Exec(argv, e.Stdin, e.Stdout, e.Stderr) == 0
		}, nil
	}
	return nil, fmt.Errorf("unknown predicate `%s'", t)
}

// globAcross matches a -path pattern where "*" may cross "/", as find's
// fnmatch without FNM_PATHNAME does.
func globAcross(pat, s string) bool {
	re := "^"
	for i := 0; i < len(pat); i++ {
		switch c := pat[i]; c {
		case '*':
			re += ".*"
		case '?':
			re += "."
		case '[':
			j := strings.IndexByte(pat[i:], ']')
			if j < 0 {
				re += `\[`
				continue
			}
			re += pat[i : i+j+1]
			i += j
		default:
			re += regexpQuote(string(c))
		}
	}
	r, err := compileRE(re+"$", true, false)
	return err == nil && r.MatchString(s)
}

func regexpQuote(s string) string {
	if strings.ContainsAny(s, `\.+*?()|[]{}^$`) {
		return `\` + s
	}
	return s
}

func findPrintf(format string, n *findNode) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c == '\\' && i+1 < len(format) {
			i++
			switch format[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case '0':
				b.WriteByte(0)
			default:
				b.WriteByte(format[i])
			}
			continue
		}
		if c != '%' || i+1 >= len(format) {
			b.WriteByte(c)
			continue
		}
		i++
		switch format[i] {
		case 'p':
			b.WriteString(n.rel)
		case 'f':
			b.WriteString(baseOf(n.rel))
		case 'h':
			b.WriteString(dirOf(n.rel))
		case 's':
			s, _, _ := n.info()
			fmt.Fprint(&b, s)
		case 'd':
			fmt.Fprint(&b, n.depth)
		case 'y':
			b.WriteString(map[string]string{"file": "f", "dir": "d", "symlink": "l"}[n.kind])
		case 'T', 't':
			_, mt, _ := n.info()
			if format[i] == 'T' && i+1 < len(format) {
				i++
				if format[i] == '@' {
					fmt.Fprintf(&b, "%d", mt.Unix())
				}
			} else {
				b.WriteString(mt.UTC().Format(time.ANSIC))
			}
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(format[i])
		}
	}
	return b.String()
}

func xargs(e *Env, args []string) int {
	o, cmd, ok := e.parse(&flagSpec{bools: "0rtpx", vals: "nIdLPsE", noPermute: true, long: map[string]bool{"null": false, "no-run-if-empty": false,
		"max-args": true, "replace": true, "delimiter": true, "verbose": false, "max-procs": true},
		alias: map[string]string{"null": "0", "no-run-if-empty": "r", "max-args": "n", "replace": "I", "delimiter": "d", "verbose": "t", "max-procs": "P"}}, args)
	if !ok {
		return 1
	}
	if len(cmd) == 0 {
		cmd = []string{"echo"}
	}
	in, err := e.readStdin()
	if err != nil {
		e.Errf("%v", err)
		return 1
	}
	var items []string
	switch {
	case o.has("0"):
		items = strings.Split(string(in), "\x00")
		if len(items) > 0 && items[len(items)-1] == "" {
			items = items[:len(items)-1]
		}
	case o.has("d"):
		d := unescapeTr(o.last("d", "\n"))
		items = strings.Split(string(in), d)
		if len(items) > 0 && items[len(items)-1] == "" || len(items) > 0 && items[len(items)-1] == "\n" {
			items = items[:len(items)-1]
		}
	case o.has("I") || o.has("L"):
		for _, l := range splitLines(in) {
			if o.has("I") {
				l = strings.TrimLeft(l, " \t")
			}
			if l != "" {
				items = append(items, l)
			}
		}
	default:
		items = xargsSplit(string(in))
	}
	if len(items) == 0 && (o.has("r") || o.has("I")) {
		return 0
	}
	run := func(argv []string) int {
		if o.has("t") {
			fmt.Fprintln(e.Stderr, strings.Join(argv, " "))
		}
		st := e.Exec(argv, strings.NewReader(""), e.Stdout, e.Stderr)
		if st == 127 {
			return 127
		}
		if st == StatusPipe {
			// GNU xargs stops when a command dies of a signal.
			e.Errf("%s: terminated by signal 13", argv[0])
			return 125
		}
		if st != 0 {
			return 123
		}
		return 0
	}
	status := 0
	if rep := o.last("I", ""); o.has("I") {
		for _, it := range items {
			argv := make([]string, len(cmd))
			for i, c := range cmd {
				argv[i] = strings.ReplaceAll(c, rep, it)
			}
			if st := run(argv); st != 0 {
				status = st
				if st == 127 || st == 125 {
					return st
				}
			}
		}
		return status
	}
	n := len(items)
	if o.has("n") {
		n, _ = strconv.Atoi(o.last("n", "1"))
	}
	if o.has("L") {
		n, _ = strconv.Atoi(o.last("L", "1"))
	}
	if n <= 0 {
		n = max(1, len(items))
	}
	if len(items) == 0 {
		return run(cmd)
	}
	for i := 0; i < len(items); i += n {
		end := min(i+n, len(items))
		if st := run(append(append([]string{}, cmd...), items[i:end]...)); st != 0 {
			status = st
			if st == 127 || st == 125 {
				return st
			}
		}
	}
	return status
}

// xargsSplit splits input on blanks and newlines, honouring quotes and
// backslashes as xargs does.
func xargsSplit(s string) []string {
	var out []string
	var cur strings.Builder
	have := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if have {
				out = append(out, cur.String())
				cur.Reset()
				have = false
			}
		case c == '\'' || c == '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				cur.WriteString(s[i+1:])
				i = len(s)
			} else {
				cur.WriteString(s[i+1 : i+1+j])
				i += j + 1
			}
			have = true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			have = true
		default:
			cur.WriteByte(c)
			have = true
		}
	}
	if have {
		out = append(out, cur.String())
	}
	return out
}
