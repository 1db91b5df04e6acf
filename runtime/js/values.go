package js

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/dop251/goja"

	"github.com/nookdev/nook/runtime/host"
)

// Values cross the sandbox boundary as plain data only. JavaScript values
// going out (host-call arguments) become nil, bool, float64 (every number,
// integral or not, as JSON has it), string, []byte (from Uint8Array,
// Buffer, any typed array, DataView or ArrayBuffer, copied), []any and
// map[string]any. Values coming in become the matching JavaScript values;
// []byte becomes a Uint8Array and time.Time a number of milliseconds.

var (
	typeMap         = reflect.TypeOf(map[string]any(nil))
	typeSlice       = reflect.TypeOf([]any(nil))
	typeArrayBuffer = reflect.TypeOf(goja.ArrayBuffer{})
)

// toGo converts a JavaScript value to plain Go data with JSON.stringify's
// leniency (functions and undefined are dropped from objects and become
// null in arrays; toJSON is honoured), except that binary data is kept as
// []byte. Cycles and BigInts fail.
func (r *run) toGo(v goja.Value) (any, error) {
	return r.toGoDepth(v, map[*goja.Object]bool{}, 0)
}

func (r *run) toGoDepth(v goja.Value, seen map[*goja.Object]bool, depth int) (any, error) {
	if max := r.req.Limits.MaxNestingDepth; depth > max {
		return nil, &host.LimitError{Limit: "MaxNestingDepth", Max: int64(max),
			What: fmt.Sprintf("a value nested deeper than %d levels", max)}
	}
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return nil, nil
	}
	obj, ok := v.(*goja.Object)
	if !ok {
		switch x := v.Export().(type) {
		case int64:
			return float64(x), nil
		case float64, bool, string:
			return x, nil
		case nil:
			return nil, nil
		default:
			if _, isBig := x.(interface{ BitLen() int }); isBig {
				return nil, fmt.Errorf("a BigInt cannot be sent out of the sandbox; convert it with String(n) or Number(n)")
			}
			return nil, nil // symbols
		}
	}
	if b, ok := r.bytesOf(obj); ok {
		return bytes.Clone(b), nil
	}
	if _, ok := goja.AssertFunction(obj); ok {
		return nil, nil
	}
	if tj, ok := goja.AssertFunction(obj.Get("toJSON")); ok {
		out, err := tj(obj)
		if err != nil {
			return nil, err
		}
		if o2, isObj := out.(*goja.Object); !isObj || o2 != obj {
			return r.toGoDepth(out, seen, depth+1)
		}
	}
	if seen[obj] {
		return nil, fmt.Errorf("value contains a cycle")
	}
	seen[obj] = true
	defer delete(seen, obj)
	if obj.ExportType() == typeSlice || r.isArray(obj) {
		n := int(obj.Get("length").ToInteger())
		out := make([]any, n)
		for i := range n {
			e, err := r.toGoDepth(obj.Get(strconv.Itoa(i)), seen, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = e
		}
		return out, nil
	}
	keys := obj.Keys()
	out := make(map[string]any, len(keys))
	for _, k := range keys {
		ev := obj.Get(k)
		if ev == nil || goja.IsUndefined(ev) {
			continue
		}
		if _, isFn := goja.AssertFunction(ev); isFn {
			continue
		}
		e, err := r.toGoDepth(ev, seen, depth+1)
		if err != nil {
			return nil, err
		}
		out[k] = e
	}
	return out, nil
}

// bytesOf returns the bytes behind a typed array, DataView or
// ArrayBuffer (not a copy).
func (r *run) bytesOf(obj *goja.Object) ([]byte, bool) {
	t := obj.ExportType()
	if t == typeArrayBuffer {
		ab, _ := obj.Export().(goja.ArrayBuffer)
		return ab.Bytes(), true
	}
	if t == typeMap || t == typeSlice || t == nil {
		return nil, false
	}
	if !r.isView(obj) {
		return nil, false
	}
	ab, ok := obj.Get("buffer").Export().(goja.ArrayBuffer)
	if !ok {
		return nil, false
	}
	off := obj.Get("byteOffset").ToInteger()
	n := obj.Get("byteLength").ToInteger()
	data := ab.Bytes()
	if off < 0 || n < 0 || off+n > int64(len(data)) {
		return nil, false
	}
	return data[off : off+n], true
}

func (r *run) isView(obj *goja.Object) bool {
	f, _ := goja.AssertFunction(r.builtin("ArrayBuffer.isView"))
	if f == nil {
		return false
	}
	res, err := f(goja.Undefined(), obj)
	return err == nil && res.ToBoolean()
}

func (r *run) isArray(obj *goja.Object) bool {
	return obj.ClassName() == "Array"
}

// toJS converts plain Go data (a host call's result) to a JavaScript value.
func (r *run) toJS(x any) goja.Value {
	rt := r.rt
	switch v := x.(type) {
	case nil:
		return goja.Null()
	case goja.Value:
		return v
	case bool, string, float64, int, int64, int32, uint32, float32:
		return rt.ToValue(v)
	case uint64:
		return rt.ToValue(float64(v))
	case json.Number:
		f, _ := v.Float64()
		return rt.ToValue(f)
	case json.RawMessage:
		var y any
		if err := json.Unmarshal(v, &y); err != nil {
			return goja.Null()
		}
		return r.toJS(y)
	case []byte:
		return r.newUint8Array(v)
	case time.Time:
		return rt.ToValue(float64(v.UnixMilli()))
	case []any:
		vals := make([]any, len(v))
		for i, e := range v {
			vals[i] = r.toJS(e)
		}
		return rt.NewArray(vals...)
	case []string:
		vals := make([]any, len(v))
		for i, e := range v {
			vals[i] = e
		}
		return rt.NewArray(vals...)
	case map[string]any:
		// Keys in sorted order: a Go map has none, and a program must see
		// the same object (JSON.stringify, Object.keys) on every run and
		// every replay.
		o := rt.NewObject()
		for _, k := range slices.Sorted(maps.Keys(v)) {
			o.Set(k, r.toJS(v[k]))
		}
		return o
	case map[string]string:
		o := rt.NewObject()
		for _, k := range slices.Sorted(maps.Keys(v)) {
			o.Set(k, v[k])
		}
		return o
	}
	// Anything else goes through JSON, so no Go value with methods ever
	// reaches the code.
	b, err := json.Marshal(x)
	if err != nil {
		return goja.Null()
	}
	var y any
	if json.Unmarshal(b, &y) != nil {
		return goja.Null()
	}
	return r.toJS(y)
}

// newUint8Array copies b into a fresh Uint8Array.
func (r *run) newUint8Array(b []byte) goja.Value {
	ab := r.rt.NewArrayBuffer(bytes.Clone(b))
	o, err := r.rt.New(r.builtin("Uint8Array").(*goja.Object), r.rt.ToValue(ab))
	if err != nil {
		panic(err)
	}
	return o
}

// encodeResult is JSON.stringify for a program's result, stricter: only
// null, booleans, finite numbers, strings, arrays and plain objects (and
// objects with toJSON, such as Date) are accepted, with a message naming
// the first value that is not, and where it is. The encoding is bounded by
// max bytes. An undefined result has no encoding (nil).
func (r *run) encodeResult(v goja.Value, max int64) (json.RawMessage, error) {
	if v == nil || goja.IsUndefined(v) {
		return nil, nil
	}
	e := &resultEncoder{r: r, max: max, seen: map[*goja.Object]bool{}}
	if err := e.encode(v, "result", 0); err != nil {
		return nil, err
	}
	return json.RawMessage(e.buf.Bytes()), nil
}

type resultEncoder struct {
	r    *run
	buf  bytes.Buffer
	max  int64
	seen map[*goja.Object]bool
}

// notJSON is the error for a result that is not JSON-compatible.
type notJSON struct{ where, what, hint string }

func (e *notJSON) Error() string {
	s := fmt.Sprintf("the result is not JSON-compatible: %s is %s", e.where, e.what)
	if e.hint != "" {
		s += " (" + e.hint + ")"
	}
	return s
}

func (e *resultEncoder) check() error {
	if int64(e.buf.Len()) > e.max {
		return &host.LimitError{Limit: "MaxResultBytes", Max: e.max,
			What: fmt.Sprintf("result of more than %d bytes of JSON", e.max)}
	}
	return nil
}

func (e *resultEncoder) encode(v goja.Value, where string, depth int) error {
	if max := e.r.req.Limits.MaxNestingDepth; depth > max {
		return &host.LimitError{Limit: "MaxNestingDepth", Max: int64(max),
			What: fmt.Sprintf("the result nested deeper than %d levels", max)}
	}
	if v == nil || goja.IsNull(v) {
		e.buf.WriteString("null")
		return e.check()
	}
	obj, ok := v.(*goja.Object)
	if !ok {
		switch x := v.Export().(type) {
		case bool:
			e.buf.WriteString(strconv.FormatBool(x))
		case int64:
			e.buf.WriteString(strconv.FormatInt(x, 10))
		case float64:
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return &notJSON{where, v.String(), "only finite numbers are JSON"}
			}
			b, _ := json.Marshal(x)
			e.buf.Write(b)
		case string:
			writeJSONString(&e.buf, x)
		default:
			if goja.IsUndefined(v) {
				return &notJSON{where, "undefined", "use null"}
			}
			if _, isBig := x.(interface{ BitLen() int }); isBig {
				return &notJSON{where, "a BigInt", "convert it with String(n) or Number(n)"}
			}
			return &notJSON{where, "a symbol", ""}
		}
		return e.check()
	}
	if _, isFn := goja.AssertFunction(obj); isFn {
		return &notJSON{where, "a function", ""}
	}
	if tj, ok := goja.AssertFunction(obj.Get("toJSON")); ok {
		out, err := tj(obj)
		if err != nil {
			return err
		}
		if o2, isObj := out.(*goja.Object); !isObj || o2 != obj {
			return e.encode(out, where, depth+1)
		}
	}
	if e.seen[obj] {
		return &notJSON{where, "a reference back to an enclosing object (a cycle)", ""}
	}
	e.seen[obj] = true
	defer delete(e.seen, obj)
	if e.r.isArray(obj) {
		n := int(obj.Get("length").ToInteger())
		e.buf.WriteByte('[')
		for i := range n {
			if i > 0 {
				e.buf.WriteByte(',')
			}
			ev := obj.Get(strconv.Itoa(i))
			if ev == nil || goja.IsUndefined(ev) {
				e.buf.WriteString("null")
				continue
			}
			if err := e.encode(ev, fmt.Sprintf("%s[%d]", where, i), depth+1); err != nil {
				return err
			}
		}
		e.buf.WriteByte(']')
		return e.check()
	}
	if what := e.r.nonPlain(obj); what != "" {
		hint := ""
		if _, ok := e.r.bytesOf(obj); ok {
			hint = "convert bytes to an array or a base64 string"
		} else if what == "a Map" {
			hint = "convert it with Object.fromEntries(map)"
		} else if what == "a Set" {
			hint = "convert it with [...set]"
		}
		return &notJSON{where, what, hint}
	}
	e.buf.WriteByte('{')
	first := true
	for _, k := range obj.Keys() {
		ev := obj.Get(k)
		if ev == nil || goja.IsUndefined(ev) {
			continue
		}
		if !first {
			e.buf.WriteByte(',')
		}
		first = false
		writeJSONString(&e.buf, k)
		e.buf.WriteByte(':')
		if err := e.encode(ev, where+propPath(k), depth+1); err != nil {
			return err
		}
	}
	e.buf.WriteByte('}')
	return e.check()
}

// nonPlain names what obj is when it is not a plain object (its prototype
// is neither Object.prototype nor null), or returns "".
func (r *run) nonPlain(obj *goja.Object) string {
	proto := obj.Prototype()
	if proto == nil || proto == r.objectProto {
		return ""
	}
	name := ""
	if c, ok := proto.Get("constructor").(*goja.Object); ok {
		if n := c.Get("name"); n != nil {
			name = n.String()
		}
	}
	switch name {
	case "":
		return "an object with a custom prototype"
	case "Map", "Set", "Error", "Array", "Object":
		return "a " + name
	}
	return "an instance of " + name
}

func propPath(k string) string {
	if identRE.MatchString(k) {
		return "." + k
	}
	b, _ := json.Marshal(k)
	return "[" + string(b) + "]"
}

var identRE = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// writeJSONString writes s as a JSON string (invalid UTF-8, such as a
// lone surrogate, becomes U+FFFD).
func writeJSONString(buf *bytes.Buffer, s string) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	buf.Truncate(buf.Len() - 1) // Encode's newline
}
