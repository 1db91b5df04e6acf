package awk

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// recordReader reads records from one input.
type recordReader struct {
	r      *bufio.Reader
	closer io.Closer
	data   []byte // the rest of the input, for RS="" and regex RS
	slurp  bool
	off    int
	max    int64
}

func newRecordReader(r io.Reader, c io.Closer, max int64) *recordReader {
	return &recordReader{r: bufio.NewReaderSize(r, 64<<10), closer: c, max: max}
}

func (rr *recordReader) close() {
	if rr.closer != nil {
		rr.closer.Close()
		rr.closer = nil
	}
}

var errTooLong = errors.New("record too long")

// read returns the next record, separated by rs.
func (rr *recordReader) read(in *interp, rs string) (string, bool, error) {
	if len(rs) == 1 && !rr.slurp {
		return rr.readByte(rs[0])
	}
	if !rr.slurp {
		b, err := io.ReadAll(io.LimitReader(rr.r, rr.max+1))
		if err != nil {
			return "", false, err
		}
		if int64(len(b)) > rr.max {
			return "", false, errTooLong
		}
		rr.data, rr.slurp = b, true
	}
	d := rr.data
	if rs == "" {
		// paragraph mode: records are separated by blank lines
		for rr.off < len(d) && d[rr.off] == '\n' {
			rr.off++
		}
		if rr.off >= len(d) {
			return "", false, nil
		}
		i := bytes.Index(d[rr.off:], []byte("\n\n"))
		if i < 0 {
			rec := strings.TrimRight(string(d[rr.off:]), "\n")
			rr.off = len(d)
			return rec, true, nil
		}
		rec := string(d[rr.off : rr.off+i])
		rr.off += i
		return rec, true, nil
	}
	if rr.off >= len(d) {
		return "", false, nil
	}
	var re *regexp.Regexp
	if len(rs) == 1 {
		re = regexp.MustCompile(regexp.QuoteMeta(rs))
	} else {
		re = in.regex(rs)
	}
	for start := rr.off; ; {
		loc := re.FindIndex(d[start:])
		if loc == nil {
			rec := string(d[rr.off:])
			rr.off = len(d)
			return rec, true, nil
		}
		if loc[1] == loc[0] {
			// an empty match separates nothing
			start += loc[1] + 1
			if start > len(d) {
				rec := string(d[rr.off:])
				rr.off = len(d)
				return rec, true, nil
			}
			continue
		}
		rec := string(d[rr.off : start+loc[0]])
		rr.off = start + loc[1]
		return rec, true, nil
	}
}

func (rr *recordReader) readByte(sep byte) (string, bool, error) {
	chunk, err := rr.r.ReadSlice(sep)
	if err == nil {
		return string(chunk[:len(chunk)-1]), true, nil
	}
	buf := append([]byte(nil), chunk...)
	for err == bufio.ErrBufferFull {
		if int64(len(buf)) > rr.max {
			return "", false, errTooLong
		}
		chunk, err = rr.r.ReadSlice(sep)
		buf = append(buf, chunk...)
	}
	switch {
	case err == nil:
		return string(buf[:len(buf)-1]), true, nil
	case err == io.EOF:
		if len(buf) == 0 {
			return "", false, nil
		}
		return string(buf), true, nil
	}
	return "", false, err
}

// --- the main input

// nextMain reads the next record of the main input into $0.
func (in *interp) nextMain() bool {
	rec, ok := in.readMain()
	if !ok {
		return false
	}
	in.setRecord(rec)
	return true
}

func (in *interp) incr(i int) {
	in.globals[i].v = num(toNumber(in.globals[i].v) + 1)
}

// readMain reads the next record of the main input, counting NR and FNR.
func (in *interp) readMain() (string, bool) {
	for {
		if in.cur == nil && !in.openNext() {
			return "", false
		}
		rs := in.toStr(in.globals[vRS].v)
		rec, ok, err := in.cur.read(in, rs)
		if err == errTooLong {
			in.limit("an input record")
		}
		if err != nil {
			in.fatalf("error reading input file `%s': %s", in.toStr(in.globals[vFILENAME].v), errText(err))
		}
		if ok {
			in.incr(vNR)
			in.incr(vFNR)
			if in.ticks++; in.ticks&1023 == 0 {
				if err := in.ctx.Err(); err != nil {
					panic(&abort{err})
				}
			}
			return rec, true
		}
		in.cur.close()
		in.cur = nil
	}
}

func errText(err error) string { return err.Error() }

// openNext opens the next file operand (performing the assignments
// before it), or standard input when there is none.
func (in *interp) openNext() bool {
	if in.mainDone {
		return false
	}
	argv := in.globals[vARGV].arr
	for {
		in.argIndex++
		argc := int(toNumber(in.globals[vARGC].v))
		if in.argIndex >= argc {
			break
		}
		v, ok := argv[strconv.Itoa(in.argIndex)]
		if !ok {
			continue
		}
		arg := in.toStr(v)
		if arg == "" {
			continue
		}
		if eq := strings.IndexByte(arg, '='); eq > 0 && validName(arg[:eq]) {
			in.assignName(arg[:eq], arg[eq+1:])
			continue
		}
		in.usedFile = true
		in.globals[vFILENAME].v = str(arg)
		in.globals[vFNR].v = num(0)
		if arg == "-" || arg == "/dev/stdin" {
			in.cur = newRecordReader(in.stdin(), nil, in.maxBytes)
			return true
		}
		if in.cfg.Open == nil {
			in.fatalf("cannot open file `%s' for reading: files are not available", arg)
		}
		f, err := in.cfg.Open(arg)
		if err != nil {
			in.fatalf("cannot open file `%s' for reading: %s", arg, errText(err))
		}
		in.cur = newRecordReader(f, f, in.maxBytes)
		return true
	}
	in.mainDone = true
	if !in.usedFile {
		in.usedFile = true
		in.globals[vFNR].v = num(0)
		in.cur = newRecordReader(in.stdin(), nil, in.maxBytes)
		return true
	}
	return false
}

func (in *interp) stdin() io.Reader {
	if in.cfg.Stdin == nil || in.stdinUsed {
		return strings.NewReader("")
	}
	in.stdinUsed = true
	return in.cfg.Stdin
}

func validName(s string) bool {
	if s == "" || !isAlpha(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isAlpha(s[i]) && !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// --- getline

func (in *interp) getline(e *getlineExpr) int {
	switch e.kind {
	case getlinePlain:
		rec, ok := in.readMain()
		if !ok {
			return 0
		}
		if e.lhs == nil {
			in.setRecord(rec)
		} else {
			in.set(in.lref(e.lhs), strnum(rec))
		}
		return 1
	case getlineFile, getlineCmd:
		name := in.toStr(in.eval(e.src))
		rr, ok := in.inputs[name]
		if !ok {
			if e.kind == getlineCmd {
				if in.cfg.Exec == nil {
					in.fatalf("running commands is not supported: %q | getline", name)
				}
				in.flush()
				var buf limitedBuffer
				buf.max = in.maxBytes
				in.cfg.Exec(name, strings.NewReader(""), &buf)
				if buf.over {
					in.limit("the output of command " + strconv.Quote(name))
				}
				rr = newRecordReader(bytes.NewReader(buf.b.Bytes()), nil, in.maxBytes)
			} else {
				if name == "-" || name == "/dev/stdin" {
					rr = newRecordReader(in.stdin(), nil, in.maxBytes)
				} else {
					if in.cfg.Open == nil {
						return -1
					}
					f, err := in.cfg.Open(name)
					if err != nil {
						return -1
					}
					rr = newRecordReader(f, f, in.maxBytes)
				}
			}
			in.inputs[name] = rr
		}
		rec, ok, err := rr.read(in, in.toStr(in.globals[vRS].v))
		if err == errTooLong {
			in.limit("an input record")
		}
		if err != nil {
			return -1
		}
		if !ok {
			return 0
		}
		if e.kind == getlineCmd {
			in.incr(vNR)
		}
		if e.lhs == nil {
			in.setRecord(rec)
			if e.kind == getlineCmd {
				in.incr(vFNR)
			}
		} else {
			in.set(in.lref(e.lhs), strnum(rec))
		}
		return 1
	}
	return -1
}

type limitedBuffer struct {
	b    bytes.Buffer
	max  int64
	over bool
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if int64(l.b.Len()+len(p)) > l.max {
		l.over = true
		return 0, errTooLong
	}
	return l.b.Write(p)
}

// --- output streams

type output struct {
	w      *bufio.Writer
	closer io.Closer
	cmd    bool
	buf    *limitedBuffer
}

func (in *interp) flush() {
	if err := in.out.Flush(); err != nil {
		panic(&abort{err})
	}
}

func (in *interp) outputFor(redir tok, name string) io.Writer {
	switch name {
	case "/dev/stdout", "-":
		return in.out
	case "/dev/stderr":
		return in.cfg.Stderr
	}
	if o, ok := in.outputs[name]; ok {
		if o.cmd {
			return o.buf
		}
		return o.w
	}
	o := &output{}
	switch redir {
	case tPipe:
		if in.cfg.Exec == nil {
			in.fatalf("running commands is not supported: print | %q", name)
		}
		in.flush()
		o.cmd = true
		o.buf = &limitedBuffer{max: in.maxBytes}
	default:
		if in.cfg.Create == nil {
			in.fatalf("cannot redirect to `%s': files are not available", name)
		}
		f, err := in.cfg.Create(name, redir == tAppend)
		if err != nil {
			in.fatalf("cannot redirect to `%s': %s", name, errText(err))
		}
		o.w = bufio.NewWriterSize(f, 32<<10)
		o.closer = f
	}
	in.outputs[name] = o
	in.outOrder = append(in.outOrder, name)
	if o.cmd {
		return o.buf
	}
	return o.w
}

// closeStream closes an output or input by name and returns close()'s
// result.
func (in *interp) closeStream(name string) int {
	if o, ok := in.outputs[name]; ok {
		delete(in.outputs, name)
		for i, n := range in.outOrder {
			if n == name {
				in.outOrder = append(in.outOrder[:i], in.outOrder[i+1:]...)
				break
			}
		}
		return in.closeOutput(name, o)
	}
	if rr, ok := in.inputs[name]; ok {
		rr.close()
		delete(in.inputs, name)
		return 0
	}
	return -1
}

func (in *interp) closeOutput(name string, o *output) int {
	if o.cmd {
		if o.buf.over {
			in.limit("the input of command " + strconv.Quote(name))
		}
		in.flush()
		return in.cfg.Exec(name, bytes.NewReader(o.buf.b.Bytes()), in.cfg.Stdout)
	}
	err := o.w.Flush()
	if cerr := o.closer.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return -1
	}
	return 0
}

// closeAll ends the program's output: commands fed by print | run, files
// are flushed, then standard output.
func (in *interp) closeAll() {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(*abort); !ok {
				if _, ok := r.(*RuntimeError); !ok {
					panic(r)
				}
			}
		}
	}()
	for _, name := range in.outOrder {
		o := in.outputs[name]
		in.closeOutput(name, o)
	}
	in.outOrder = nil
	clear(in.outputs)
	for _, rr := range in.inputs {
		rr.close()
	}
	if in.cur != nil {
		in.cur.close()
	}
	in.out.Flush()
}

// --- the record and its fields

func (in *interp) setRecord(s string) {
	in.record = s
	in.split = false
	in.recordFS = in.toStr(in.globals[vFS].v)
	in.para = in.toStr(in.globals[vRS].v) == ""
}

func (in *interp) ensureSplit() {
	if in.split {
		return
	}
	in.split = true
	parts := in.splitWith(in.record, in.recordFS, in.para, nil)
	in.fields = in.fields[:0]
	for _, p := range parts {
		in.fields = append(in.fields, strnum(p))
	}
	in.nf = len(parts)
	in.globals[vNF].v = num(float64(in.nf))
}

// splitWith splits s into fields with fs: " " splits on runs of blanks
// and newlines, "" into characters, another single character at each of
// its occurrences, anything else is a regular expression. re, when not
// nil, is used instead of fs.
func (in *interp) splitWith(s, fs string, para bool, re *regexp.Regexp) []string {
	if s == "" {
		return nil
	}
	if re == nil {
		switch {
		case fs == " ":
			return blankFields(s)
		case fs == "":
			var out []string
			for len(s) > 0 {
				n := 1
				if in.cfg.UTF8 {
					_, n = utf8.DecodeRuneInString(s)
				}
				out = append(out, s[:n])
				s = s[n:]
			}
			return out
		case len(fs) == 1 && fs != "\\":
			if para && fs != "\n" {
				re = in.regex(regexp.QuoteMeta(fs) + "|\n")
				break
			}
			return strings.Split(s, fs)
		case fs == "\t" || fs == "\\":
			return strings.Split(s, fs)
		default:
			if para {
				fs = "(" + fs + ")|\n"
			}
			re = in.regex(fs)
		}
	}
	var out []string
	start := 0
	for _, loc := range re.FindAllStringIndex(s, -1) {
		if loc[0] == loc[1] {
			continue
		}
		out = append(out, s[start:loc[0]])
		start = loc[1]
	}
	return append(out, s[start:])
}

// maxFields bounds the index of a field an assignment may create.
const maxFields = 10_000_000

func (in *interp) fieldIndex(e expr) int {
	n := toNumber(in.eval(e))
	if n < 0 {
		in.fatalf("attempt to access field %d", int64(n))
	}
	if n > maxFields {
		in.limit(fmt.Sprintf("field $%.0f", n))
	}
	return int(n)
}

func (in *interp) getField(i int) value {
	if i == 0 {
		return strnum(in.record)
	}
	in.ensureSplit()
	if i > in.nf {
		return strnum("")
	}
	return in.fields[i-1]
}

func (in *interp) setField(i int, v value) {
	if i == 0 {
		in.setRecord(in.toStr(v))
		return
	}
	in.ensureSplit()
	for in.nf < i {
		in.fields = append(in.fields, value{})
		in.nf++
	}
	in.fields[i-1] = v
	in.rebuild()
}

func (in *interp) setNF(n float64) {
	in.ensureSplit()
	if n < 0 || n > maxFields {
		in.fatalf("NF set to a bad value %v", n)
	}
	k := int(n)
	for in.nf < k {
		in.fields = append(in.fields, value{})
		in.nf++
	}
	in.fields = in.fields[:k]
	in.nf = k
	in.rebuild()
}

// rebuild joins the fields into $0 with OFS.
func (in *interp) rebuild() {
	ofs := in.toStr(in.globals[vOFS].v)
	var b strings.Builder
	for i, f := range in.fields[:in.nf] {
		if i > 0 {
			b.WriteString(ofs)
		}
		b.WriteString(in.toStr(f))
		if int64(b.Len()) > in.maxBytes {
			in.limit("a record")
		}
	}
	in.record = b.String()
	in.globals[vNF].v = num(float64(in.nf))
}

// blankFields splits s on runs of blanks, tabs and newlines (FS=" ").
func blankFields(s string) []string {
	n := 0
	for i := 0; i < len(s); {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
			i++
		}
		if i < len(s) {
			n++
		}
		for i < len(s) && s[i] != ' ' && s[i] != '\t' && s[i] != '\n' {
			i++
		}
	}
	out := make([]string, 0, n)
	for i := 0; i < len(s); {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
			i++
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' && s[j] != '\n' {
			j++
		}
		if j > i {
			out = append(out, s[i:j])
		}
		i = j
	}
	return out
}
