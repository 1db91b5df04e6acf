package awk

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Config is what a program runs with. Every door out (files, commands,
// the clock, randomness) is a function given by the caller.
type Config struct {
	Ctx    context.Context
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Open opens a file for reading (main input operands, getline <).
	Open func(name string) (io.ReadCloser, error)
	// Create opens a file for writing (print >, print >>).
	Create func(name string, appendTo bool) (io.WriteCloser, error)
	// Exec runs a shell command line (print | cmd, cmd | getline,
	// system) and returns its exit status; nil refuses commands.
	Exec func(cmd string, stdin io.Reader, stdout io.Writer) int
	// Environ is ENVIRON ("K=V").
	Environ []string
	Random  func([]byte)
	Now     func() time.Time
	// Tick is called at every loop iteration; an error stops the program.
	Tick func() error
	// MaxBytes bounds one string and the arrays together (0: 64 MiB).
	MaxBytes int64
	// MaxDepth bounds nested function calls (0: 1,000).
	MaxDepth int
	// UTF8 makes length, substr, index and match count characters
	// instead of bytes.
	UTF8 bool
}

// RuntimeError is a fatal error of a running program.
type RuntimeError struct{ Msg string }

func (e *RuntimeError) Error() string { return e.Msg }

// LimitError reports a limit a program reached.
type LimitError struct {
	Limit string
	Max   int64
	What  string
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("%s exceeds the limit %s (%d)", e.What, e.Limit, e.Max)
}

// abort carries an error from the depths of the interpreter to Run.
type abort struct{ err error }

// signal carries next, nextfile and exit out of a function call.
type signal struct{ c ctrl }

type ctrl int

const (
	cNone ctrl = iota
	cBreak
	cContinue
	cNext
	cNextFile
	cExit
	cReturn
)

type cell struct {
	v     value
	arr   map[string]value
	isArr bool
	ref   *cell // an array (or an untyped variable) passed to a function
}

type interp struct {
	cfg     *Config
	prog    *Program
	ctx     context.Context
	globals []cell
	frame   []cell
	depth   int
	retval  value
	code    int

	record   string
	fields   []value
	nf       int
	split    bool
	recordFS string
	para     bool

	argIndex  int
	usedFile  bool
	cur       *recordReader
	mainDone  bool
	stdinUsed bool

	out      *bufio.Writer
	outputs  map[string]*output
	outOrder []string
	inputs   map[string]*recordReader

	regexes  map[string]*regexp.Regexp
	convfmt  string
	ofmt     string
	rng      *rand.Rand
	seed     float64
	ticks    int64
	mem      int64
	maxBytes int64
	maxDepth int
	ranges   []bool
}

// Run runs prog with the operands args (files and var=value
// assignments) after the -v assignments assigns ("var=value"). It
// returns the exit status; err is a fatal error (status 2) or a limit.
func Run(prog *Program, cfg *Config, args, assigns []string) (code int, err error) {
	in := &interp{cfg: cfg, prog: prog, ctx: cfg.Ctx, globals: make([]cell, prog.nglob),
		outputs: map[string]*output{}, inputs: map[string]*recordReader{}, regexes: map[string]*regexp.Regexp{},
		convfmt: "%.6g", ofmt: "%.6g", maxBytes: cfg.MaxBytes, maxDepth: cfg.MaxDepth,
		ranges: make([]bool, len(prog.items))}
	if in.ctx == nil {
		in.ctx = context.Background()
	}
	if in.maxBytes <= 0 {
		in.maxBytes = 64 << 20
	}
	if in.maxDepth <= 0 {
		in.maxDepth = 1000
	}
	in.out = bufio.NewWriterSize(cfg.Stdout, 32<<10)
	var seed [16]byte
	if cfg.Random != nil {
		cfg.Random(seed[:])
	}
	in.rng = rand.New(rand.NewPCG(leUint64(seed[:8]), leUint64(seed[8:])))
	in.init(args)
	defer func() {
		if r := recover(); r != nil {
			switch x := r.(type) {
			case *RuntimeError:
				code, err = 2, x
			case *abort:
				code, err = 2, x.err
			default:
				panic(r)
			}
			in.closeAll()
		}
	}()
	for _, a := range assigns {
		name, val, _ := strings.Cut(a, "=")
		in.assignName(name, val)
	}
	in.run()
	in.closeAll()
	return in.code, nil
}

func leUint64(b []byte) uint64 {
	var v uint64
	for i := 7; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

func (in *interp) fatalf(format string, args ...any) {
	panic(&RuntimeError{Msg: fmt.Sprintf(format, args...)})
}

func (in *interp) limit(what string) {
	panic(&abort{&LimitError{Limit: "MaxAllocBytes", Max: in.maxBytes, What: what}})
}

func (in *interp) init(args []string) {
	g := in.globals
	g[vFS].v = str(" ")
	g[vOFS].v = str(" ")
	g[vORS].v = str("\n")
	g[vRS].v = str("\n")
	g[vSUBSEP].v = str("\x1c")
	g[vCONVFMT].v = str("%.6g")
	g[vOFMT].v = str("%.6g")
	g[vNR].v = num(0)
	g[vFNR].v = num(0)
	g[vNF].v = num(0)
	g[vRSTART].v = num(0)
	g[vRLENGTH].v = num(-1)
	g[vFILENAME].v = str("")
	env := map[string]value{}
	for _, kv := range in.cfg.Environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = strnum(v)
		}
	}
	g[vENVIRON] = cell{arr: env, isArr: true}
	argv := map[string]value{"0": str("awk")}
	for i, a := range args {
		argv[strconv.Itoa(i+1)] = strnum(a)
	}
	g[vARGV] = cell{arr: argv, isArr: true}
	g[vARGC].v = num(float64(len(args) + 1))
	in.split = true
}

// assignName performs a command-line assignment (-v or an operand).
func (in *interp) assignName(name, val string) {
	i, ok := in.prog.globals[name]
	if !ok {
		return
	}
	if in.globals[i].isArr {
		in.fatalf("cannot assign to array %s on the command line", name)
	}
	in.setVar(&varRef{idx: i, name: name}, strnum(Unescape(val)))
}

func (in *interp) run() {
	exiting := false
	for _, b := range in.prog.begin {
		if in.runBlock(b) == cExit {
			exiting = true
			break
		}
	}
	if !exiting && (len(in.prog.items) > 0 || len(in.prog.end) > 0) {
		for in.nextMain() {
			if in.runItems() == cExit {
				exiting = true
				break
			}
		}
	}
	_ = exiting
	for _, b := range in.prog.end {
		if in.runBlock(b) == cExit {
			break
		}
	}
}

// runBlock runs a BEGIN or END action; next in them is an error.
func (in *interp) runBlock(b []stmt) (c ctrl) {
	defer func() {
		if r := recover(); r != nil {
			s, ok := r.(*signal)
			if !ok {
				panic(r)
			}
			c = s.c
		}
	}()
	c = in.execBlock(b)
	if c == cNext || c == cNextFile {
		in.fatalf("next used in BEGIN or END")
	}
	return c
}

// runItems runs the pattern-action items on the current record.
func (in *interp) runItems() (c ctrl) {
	defer func() {
		if r := recover(); r != nil {
			s, ok := r.(*signal)
			if !ok {
				panic(r)
			}
			c = in.afterItem(s.c)
		}
	}()
	for i := range in.prog.items {
		it := &in.prog.items[i]
		if !in.matches(i, it) {
			continue
		}
		if !it.hasAction {
			in.write(in.out, in.record)
			in.write(in.out, in.toStr(in.globals[vORS].v))
			continue
		}
		c := in.execBlock(it.action)
		if c != cNone {
			return in.afterItem(c)
		}
	}
	return cNone
}

func (in *interp) afterItem(c ctrl) ctrl {
	switch c {
	case cNextFile:
		if in.cur != nil {
			in.cur.close()
			in.cur = nil
		}
		return cNone
	case cExit:
		return cExit
	}
	return cNone
}

func (in *interp) matches(i int, it *item) bool {
	if it.pattern == nil {
		return true
	}
	if it.pattern2 == nil {
		return in.truth(in.eval(it.pattern))
	}
	if !in.ranges[i] {
		if !in.truth(in.eval(it.pattern)) {
			return false
		}
		in.ranges[i] = !in.truth(in.eval(it.pattern2))
		return true
	}
	if in.truth(in.eval(it.pattern2)) {
		in.ranges[i] = false
	}
	return true
}

func (in *interp) tick() {
	in.ticks++
	if in.cfg.Tick != nil {
		if err := in.cfg.Tick(); err != nil {
			panic(&abort{err})
		}
	}
	if in.ticks&1023 == 0 {
		if err := in.ctx.Err(); err != nil {
			panic(&abort{err})
		}
	}
}

func (in *interp) execBlock(body []stmt) ctrl {
	for _, s := range body {
		if c := in.exec(s); c != cNone {
			return c
		}
	}
	return cNone
}

func (in *interp) exec(s stmt) ctrl {
	switch s := s.(type) {
	case *exprStmt:
		in.eval(s.e)
	case *printStmt:
		in.print(s)
	case *blockStmt:
		return in.execBlock(s.body)
	case *ifStmt:
		if in.truth(in.eval(s.cond)) {
			return in.exec(s.then)
		} else if s.els_ != nil {
			return in.exec(s.els_)
		}
	case *whileStmt:
		for {
			in.tick()
			if !in.truth(in.eval(s.cond)) {
				return cNone
			}
			switch c := in.exec(s.body); c {
			case cBreak:
				return cNone
			case cNone, cContinue:
			default:
				return c
			}
		}
	case *doStmt:
		for {
			in.tick()
			switch c := in.exec(s.body); c {
			case cBreak:
				return cNone
			case cNone, cContinue:
			default:
				return c
			}
			if !in.truth(in.eval(s.cond)) {
				return cNone
			}
		}
	case *forStmt:
		if s.init != nil {
			in.exec(s.init)
		}
		for {
			in.tick()
			if s.cond != nil && !in.truth(in.eval(s.cond)) {
				return cNone
			}
			switch c := in.exec(s.body); c {
			case cBreak:
				return cNone
			case cNone, cContinue:
			default:
				return c
			}
			if s.post != nil {
				in.exec(s.post)
			}
		}
	case *forInStmt:
		arr := in.array(s.arr)
		for _, k := range sortedKeys(arr) {
			in.tick()
			if _, ok := arr[k]; !ok {
				continue // deleted during the loop
			}
			in.set(in.lref(s.v), strnum(k))
			switch c := in.exec(s.body); c {
			case cBreak:
				return cNone
			case cNone, cContinue:
			default:
				return c
			}
		}
	case *nextStmt:
		return cNext
	case *nextfileStmt:
		return cNextFile
	case *exitStmt:
		if s.e != nil {
			in.code = int(toNumber(in.eval(s.e))) & 0xff
		}
		return cExit
	case *returnStmt:
		if s.e != nil {
			in.retval = in.eval(s.e)
		} else {
			in.retval = value{}
		}
		return cReturn
	case *breakStmt:
		return cBreak
	case *continueStmt:
		return cContinue
	case *deleteStmt:
		arr := in.array(s.arr)
		if s.index == nil {
			for k, v := range arr {
				in.mem -= int64(len(k) + len(v.s) + 32)
			}
			clear(arr)
		} else {
			k := in.subscript(s.index)
			if v, ok := arr[k]; ok {
				in.mem -= int64(len(k) + len(v.s) + 32)
				delete(arr, k)
			}
		}
	default:
		in.fatalf("unknown statement %T", s)
	}
	return cNone
}

// sortedKeys lists an array's keys in a stable order: numerically when
// every key is an integer, else by bytes (awk leaves the order
// unspecified; a fixed one keeps runs reproducible).
func sortedKeys(arr map[string]value) []string {
	keys := make([]string, 0, len(arr))
	allInt := true
	for k := range arr {
		keys = append(keys, k)
		if allInt {
			if _, err := strconv.ParseInt(k, 10, 64); err != nil {
				allInt = false
			}
		}
	}
	if allInt {
		sort.Slice(keys, func(i, j int) bool {
			a, _ := strconv.ParseInt(keys[i], 10, 64)
			b, _ := strconv.ParseInt(keys[j], 10, 64)
			return a < b
		})
	} else {
		sort.Strings(keys)
	}
	return keys
}

// --- values

func (in *interp) toStr(v value) string {
	switch v.k {
	case kNum:
		return numToStr(v.n, in.convfmt)
	case kStr, kStrNum:
		return v.s
	}
	return ""
}

func (in *interp) toOut(v value) string {
	if v.k == kNum {
		return numToStr(v.n, in.ofmt)
	}
	return in.toStr(v)
}

func (in *interp) truth(v value) bool {
	switch v.k {
	case kNum:
		return v.n != 0
	case kStr:
		return v.s != ""
	case kStrNum:
		if n, ok := looksNumeric(v.s); ok {
			return n != 0
		}
		return v.s != ""
	}
	return false
}

// numeric reports whether v compares as a number, and its value.
func numeric(v value) (float64, bool) {
	switch v.k {
	case kNum:
		return v.n, true
	case kUninit:
		return 0, true
	case kStrNum:
		return looksNumeric(v.s)
	}
	return 0, false
}

func (in *interp) compare(a, b value) int {
	if x, ok := numeric(a); ok {
		if y, ok := numeric(b); ok {
			switch {
			case x < y:
				return -1
			case x > y:
				return 1
			case x == y:
				return 0
			}
			return 1 // NaN
		}
	}
	return strings.Compare(in.toStr(a), in.toStr(b))
}

func (in *interp) checkLen(n int, what string) {
	if int64(n) > in.maxBytes {
		in.limit(fmt.Sprintf("%s of %d bytes", what, n))
	}
}

// --- variables

func (in *interp) cellOf(r *varRef) *cell {
	if r.local {
		return &in.frame[r.idx]
	}
	return &in.globals[r.idx]
}

func (in *interp) getVar(r *varRef) value {
	if !r.local && r.idx == vNF {
		in.ensureSplit()
	}
	c := in.cellOf(r)
	if c.isArr {
		in.fatalf("attempt to use array `%s' in a scalar context", r.name)
	}
	if c.ref != nil && c.ref.isArr {
		in.fatalf("attempt to use array `%s' in a scalar context", r.name)
	}
	return c.v
}

func (in *interp) setVar(r *varRef, v value) {
	c := in.cellOf(r)
	if c.isArr || c.ref != nil && c.ref.isArr {
		in.fatalf("attempt to use array `%s' in a scalar context", r.name)
	}
	if !r.local && r.idx < nSpecial {
		switch r.idx {
		case vNF:
			in.setNF(toNumber(v))
			return
		case vCONVFMT:
			in.convfmt = in.toStr(v)
		case vOFMT:
			in.ofmt = in.toStr(v)
		case vENVIRON, vARGV:
			in.fatalf("attempt to use array `%s' in a scalar context", r.name)
		}
	}
	c.v = v
}

func (in *interp) array(r *varRef) map[string]value {
	c := in.cellOf(r)
	for c.ref != nil {
		c = c.ref
	}
	if !c.isArr {
		if c.v.k != kUninit {
			in.fatalf("attempt to use scalar `%s' as an array", r.name)
		}
		c.isArr = true
		c.arr = map[string]value{}
	}
	return c.arr
}

func (in *interp) subKey(v value) string {
	if v.k == kNum && v.n == math.Trunc(v.n) && v.n > -1e15 && v.n < 1e15 {
		return strconv.FormatInt(int64(v.n), 10)
	}
	return in.toStr(v)
}

func (in *interp) subscript(index []expr) string {
	if len(index) == 1 {
		return in.subKey(in.eval(index[0]))
	}
	sep := in.toStr(in.globals[vSUBSEP].v)
	var b strings.Builder
	for i, e := range index {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(in.subKey(in.eval(e)))
	}
	return b.String()
}

func (in *interp) setElem(arr map[string]value, k string, v value) {
	old, ok := arr[k]
	if ok {
		in.mem += int64(len(v.s) - len(old.s))
	} else {
		in.mem += int64(len(k) + len(v.s) + 32)
	}
	if in.mem > in.maxBytes {
		in.limit(fmt.Sprintf("arrays of more than %d bytes", in.mem))
	}
	arr[k] = v
}

// lref is an assignable place: a variable, a field or an array element.
type lref struct {
	v   *varRef
	fi  int
	arr map[string]value
	key string
}

func (in *interp) lref(e expr) lref {
	switch e := e.(type) {
	case *varRef:
		return lref{v: e}
	case *fieldRef:
		return lref{fi: in.fieldIndex(e.index)}
	case *indexExpr:
		return lref{arr: in.array(e.arr), key: in.subscript(e.index)}
	case *groupExpr:
		if len(e.exprs) == 1 {
			return in.lref(e.exprs[0])
		}
	}
	in.fatalf("assignment to a value that is not a variable")
	return lref{}
}

func (in *interp) get(l lref) value {
	switch {
	case l.v != nil:
		return in.getVar(l.v)
	case l.arr != nil:
		v, ok := l.arr[l.key]
		if !ok {
			in.setElem(l.arr, l.key, value{})
		}
		return v
	}
	return in.getField(l.fi)
}

func (in *interp) set(l lref, v value) {
	switch {
	case l.v != nil:
		in.setVar(l.v, v)
	case l.arr != nil:
		in.setElem(l.arr, l.key, v)
	default:
		in.setField(l.fi, v)
	}
}

// --- expressions

func (in *interp) eval(e expr) value {
	switch e := e.(type) {
	case *numLit:
		return num(e.v)
	case *strLit:
		return str(e.s)
	case *regexLit:
		return boolNum(in.regex(e.re).MatchString(in.record))
	case *varRef:
		return in.getVar(e)
	case *fieldRef:
		return in.getField(in.fieldIndex(e.index))
	case *indexExpr:
		arr := in.array(e.arr)
		k := in.subscript(e.index)
		v, ok := arr[k]
		if !ok {
			in.setElem(arr, k, value{})
		}
		return v
	case *assignExpr:
		l := in.lref(e.lhs)
		r := in.eval(e.rhs)
		if e.op != tAssign {
			r = num(in.arith(e.op, toNumber(in.get(l)), toNumber(r)))
		}
		if r.k == kUninit {
			r = value{k: kUninit}
		}
		in.set(l, r)
		return r
	case *condExpr:
		if in.truth(in.eval(e.c)) {
			return in.eval(e.a)
		}
		return in.eval(e.b)
	case *binaryExpr:
		l, r := in.eval(e.l), in.eval(e.r)
		switch e.op {
		case tLT:
			return boolNum(in.compare(l, r) < 0)
		case tLE:
			return boolNum(in.compare(l, r) <= 0)
		case tGT:
			return boolNum(in.compare(l, r) > 0)
		case tGE:
			return boolNum(in.compare(l, r) >= 0)
		case tEQ:
			return boolNum(in.compare(l, r) == 0)
		case tNE:
			return boolNum(in.compare(l, r) != 0)
		}
		return num(in.arith(e.op, toNumber(l), toNumber(r)))
	case *concatExpr:
		l := in.toStr(in.eval(e.l))
		r := in.toStr(in.eval(e.r))
		in.checkLen(len(l)+len(r), "a string")
		return str(l + r)
	case *andExpr:
		return boolNum(in.truth(in.eval(e.l)) && in.truth(in.eval(e.r)))
	case *orExpr:
		return boolNum(in.truth(in.eval(e.l)) || in.truth(in.eval(e.r)))
	case *matchExpr:
		s := in.toStr(in.eval(e.l))
		return boolNum(in.regexOf(e.re).MatchString(s) != e.neg)
	case *unaryExpr:
		v := in.eval(e.e)
		switch e.op {
		case tNot:
			return boolNum(!in.truth(v))
		case tSub:
			return num(-toNumber(v))
		}
		return num(toNumber(v))
	case *incdecExpr:
		l := in.lref(e.lhs)
		old := toNumber(in.get(l))
		n := old + 1
		if !e.inc {
			n = old - 1
		}
		in.set(l, num(n))
		if e.pre {
			return num(n)
		}
		return num(old)
	case *inExpr:
		arr := in.array(e.arr)
		_, ok := arr[in.subscript(e.index)]
		return boolNum(ok)
	case *callExpr:
		return in.call(e)
	case *builtinExpr:
		return in.builtin(e)
	case *getlineExpr:
		return num(float64(in.getline(e)))
	case *groupExpr:
		if len(e.exprs) == 1 {
			return in.eval(e.exprs[0])
		}
		in.fatalf("a parenthesized list is only allowed before in")
	}
	in.fatalf("unknown expression %T", e)
	return value{}
}

func (in *interp) regexOf(e expr) *regexp.Regexp {
	if r, ok := e.(*regexLit); ok {
		return in.regex(r.re)
	}
	return in.regex(in.toStr(in.eval(e)))
}

func (in *interp) arith(op tok, a, b float64) float64 {
	switch op {
	case tAdd, tAddAssign:
		return a + b
	case tSub, tSubAssign:
		return a - b
	case tMul, tMulAssign:
		return a * b
	case tDiv, tDivAssign:
		if b == 0 {
			in.fatalf("division by zero attempted")
		}
		return a / b
	case tMod, tModAssign:
		if b == 0 {
			in.fatalf("division by zero attempted in `%%'")
		}
		return math.Mod(a, b)
	case tPow, tPowAssign:
		return math.Pow(a, b)
	}
	in.fatalf("unknown operator")
	return 0
}

func (in *interp) call(e *callExpr) value {
	f := e.fn
	if in.depth >= in.maxDepth {
		panic(&abort{&LimitError{Limit: "MaxFunctionDepth", Max: int64(in.maxDepth),
			What: fmt.Sprintf("awk function calls nested %d deep", in.depth+1)}})
	}
	locals := make([]cell, len(f.params))
	for i, a := range e.args {
		if vr, ok := a.(*varRef); ok && !(!vr.local && vr.idx < nSpecial && vr.idx != vENVIRON && vr.idx != vARGV) {
			c := in.cellOf(vr)
			t := c
			for t.ref != nil {
				t = t.ref
			}
			if t.isArr || c.v.k == kUninit {
				locals[i].ref = t
				continue
			}
			locals[i].v = c.v
			continue
		}
		locals[i].v = in.eval(a)
	}
	saved := in.frame
	in.frame = locals
	in.depth++
	c := in.execBlock(f.body)
	in.depth--
	in.frame = saved
	switch c {
	case cReturn:
		v := in.retval
		in.retval = value{}
		return v
	case cNext, cNextFile, cExit:
		panic(&signal{c})
	}
	return value{}
}

// --- output

func (in *interp) write(w io.Writer, s string) {
	if _, err := io.WriteString(w, s); err != nil {
		panic(&abort{err})
	}
}

func (in *interp) print(s *printStmt) {
	w := io.Writer(in.out)
	if s.redir != 0 {
		w = in.outputFor(s.redir, in.toStr(in.eval(s.dest)))
	}
	if s.printf {
		args := make([]value, len(s.args)-1)
		for i, a := range s.args[1:] {
			args[i] = in.eval(a)
		}
		out := sprintf(in.toStr(in.eval(s.args[0])), args, in)
		in.checkLen(len(out), "printf output")
		in.write(w, out)
		return
	}
	if len(s.args) == 0 {
		in.write(w, in.record)
	} else {
		ofs := in.toStr(in.globals[vOFS].v)
		for i, a := range s.args {
			if i > 0 {
				in.write(w, ofs)
			}
			in.write(w, in.toOut(in.eval(a)))
		}
	}
	in.write(w, in.toStr(in.globals[vORS].v))
}
