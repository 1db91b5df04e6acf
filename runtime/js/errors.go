package js

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/dop251/goja"
)

// uncaught reports a value thrown and never caught (or a promise rejected
// with no handler) on stderr, the way Node does, and makes it the run's
// fatal error.
func (r *run) uncaught(v goja.Value, inPromise bool) error {
	if f := r.fatalErr(); f != nil {
		return f
	}
	if handled, err := r.uncaughtHook(v, inPromise); handled || err != nil {
		return err
	}
	prefix := "Uncaught "
	if inPromise {
		prefix = "Uncaught (in promise) "
	}
	msg, stack := r.describe(v)
	r.writeErr(prefix + msg + stack + "\n")
	r.reported = true
	// As in Node, the 'exit' listeners still run, with code 1.
	if h := r.procHooks; h != nil && h.exit != nil && !r.inUncaught {
		r.inUncaught = true
		_ = r.enter(func() error {
			_, err := h.exit(goja.Undefined(), r.rt.ToValue(1))
			return err
		})
		r.inUncaught = false
	}
	return r.fail(&uncaughtError{msg: prefix + msg})
}

// describe renders a thrown value: "TypeError: message" for errors, with
// the stack trimmed to frames in the program's own files and mapped to
// their original lines; util.inspect's rendering for anything else.
func (r *run) describe(v goja.Value) (msg, stack string) {
	obj, ok := v.(*goja.Object)
	if ok && r.isError(obj) {
		name := "Error"
		if n := obj.Get("name"); n != nil && !goja.IsUndefined(n) {
			name = n.String()
		}
		m := ""
		if mv := obj.Get("message"); mv != nil && !goja.IsUndefined(mv) {
			m = mv.String()
		}
		msg = name
		if m != "" {
			msg += ": " + m
		}
		if code := obj.Get("code"); code != nil && !goja.IsUndefined(code) {
			msg += " [" + code.String() + "]"
		}
		if s := obj.Get("stack"); s != nil && !goja.IsUndefined(s) {
			stack = r.userFrames(s.String())
		}
		return msg, stack
	}
	return r.inspect(v), ""
}

func (r *run) isError(obj *goja.Object) bool {
	return obj.ClassName() == "Error"
}

var frameRE = regexp.MustCompile(`^\s*at (?:(.*) \()?([a-z]+):(.*?):(\d+):(\d+)(?:\(\d+\))?\)?$`)

// userFrames keeps the frames of a goja stack that are in the program's
// own modules, as "    at fn (path:line:col)" with paths relative to the
// run's cwd.
func (r *run) userFrames(stack string) string {
	var b strings.Builder
	for _, line := range strings.Split(stack, "\n") {
		m := frameRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		ns := m[2]
		if ns != nsEntry && ns != nsVFS && ns != nsConfig {
			continue
		}
		// goja reports source-mapped columns 0-based.
		col, _ := strconv.Atoi(m[5])
		loc := displayPath(m[3], r.req.Cwd) + ":" + m[4] + ":" + strconv.Itoa(col+1)
		if m[1] != "" {
			b.WriteString("\n    at " + m[1] + " (" + loc + ")")
		} else {
			b.WriteString("\n    at " + loc)
		}
	}
	return b.String()
}

// inspect renders any value as console.log would.
func (r *run) inspect(v goja.Value) string {
	if r.fnInspect != nil {
		if s, err := r.fnInspect(goja.Undefined(), v); err == nil {
			return s.String()
		}
	}
	return v.String()
}
