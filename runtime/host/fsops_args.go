package host

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// fsArgs are the arguments of one fs op, as the shim (or a journal replaying
// a recorded request) passed them.
type fsArgs struct {
	op string
	m  map[string]any
}

// str returns a required string argument.
func (a fsArgs) str(name string) (string, error) {
	s, ok := a.m[name].(string)
	if !ok {
		return "", argErr(a.op, name, "as a string")
	}
	return s, nil
}

// optStr returns an optional string argument.
func (a fsArgs) optStr(name, def string) (string, error) {
	v, ok := a.m[name]
	if !ok || v == nil {
		return def, nil
	}
	s, ok := v.(string)
	if !ok {
		return "", argErr(a.op, name, "as a string")
	}
	return s, nil
}

// num returns a required integer argument.
func (a fsArgs) num(name string) (int64, error) {
	n, ok := toInt(a.m[name])
	if !ok {
		return 0, argErr(a.op, name, "as an integer")
	}
	return n, nil
}

// optNum returns an optional integer argument.
func (a fsArgs) optNum(name string, def int64) (int64, error) {
	v, ok := a.m[name]
	if !ok || v == nil {
		return def, nil
	}
	n, ok := toInt(v)
	if !ok {
		return 0, argErr(a.op, name, "as an integer")
	}
	return n, nil
}

// float returns a required finite number argument.
func (a fsArgs) float(name string) (float64, error) {
	var f float64
	switch v := a.m[name].(type) {
	case float64:
		f = v
	case float32:
		f = float64(v)
	case int:
		f = float64(v)
	case int64:
		f = float64(v)
	case json.Number:
		var err error
		if f, err = v.Float64(); err != nil {
			return 0, argErr(a.op, name, "as a number")
		}
	default:
		return 0, argErr(a.op, name, "as a number")
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, argErr(a.op, name, "as a finite number")
	}
	return f, nil
}

// flag returns an optional boolean argument (absent means def).
func (a fsArgs) flag(name string, def bool) (bool, error) {
	v, ok := a.m[name]
	if !ok || v == nil {
		return def, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, argErr(a.op, name, "as a boolean")
	}
	return b, nil
}

// bytes returns a required data argument: []byte, or a string taken as its
// UTF-8 bytes.
func (a fsArgs) bytes(name string) ([]byte, error) {
	switch v := a.m[name].(type) {
	case []byte:
		return v, nil
	case string:
		return []byte(v), nil
	}
	return nil, argErr(a.op, name, "as bytes")
}

// toInt converts a JSON-ish number to an integer, refusing fractions and
// values out of the exactly representable range.
func toInt(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int64:
		return n, true
	case int32:
		return int64(n), true
	case uint32:
		return int64(n), true
	case float64:
		if n != math.Trunc(n) || math.Abs(n) > 1<<53 {
			return 0, false
		}
		return int64(n), true
	case json.Number:
		i, err := n.Int64()
		return i, err == nil
	}
	return 0, false
}

// Each op declares its arguments as a struct, one field per argument in the
// order they are checked, tagged with the argument's name:
//
//	type writeFileArgs struct {
//		Path string `arg:"path"`
//		Data []byte `arg:"data"`
//		Flag string `arg:"flag,opt" def:"w"`
//	}
//
// bind decodes a call's arguments into that struct once, before the op
// runs, and reports the first bad one as the hand-written checks did
// (argErr: EINVAL naming the op, the argument and the type wanted). A
// field's Go type says how it is read: string, []byte (bytes, or a string
// as its UTF-8), int64 (an exact integer), bool, or fileTime (a time given
// as nanoseconds or milliseconds). "opt" makes an argument optional: absent
// or null, it takes def (parsed as the field's type; integers in Go
// syntax, 0o666), or the zero value.

// pathArgs are the arguments of the ops that take only a path.
type pathArgs struct {
	Path string `arg:"path"`
}

// opFunc is an op as the table holds it: decoding its own arguments.
type opFunc func(o *FSOps, ctx context.Context, a fsArgs) (any, error)

// bind makes an op of f, whose arguments are the struct A.
func bind[A any](f func(o *FSOps, ctx context.Context, a *A) (any, error)) opFunc {
	plan := planArgs(reflect.TypeFor[A]())
	return func(o *FSOps, ctx context.Context, raw fsArgs) (any, error) {
		var a A
		if err := plan.decode(raw, reflect.ValueOf(&a).Elem()); err != nil {
			return nil, err
		}
		return f(o, ctx, &a)
	}
}

// argKind is how one argument is read.
type argKind uint8

const (
	argString argKind = iota
	argBytes
	argInt
	argBool
	argTime
)

// argField is one argument of a plan.
type argField struct {
	index    int
	name     string
	kind     argKind
	optional bool
	str      string // the default of an optional string
	num      int64  // of an optional integer
	flag     bool   // of an optional boolean
}

// argPlan reads one op's argument struct.
type argPlan []argField

var fileTimeType = reflect.TypeFor[fileTime]()

// planArgs builds the plan of an argument struct. It runs when the op
// table is built, and panics on a struct it cannot read: that is a bug in
// the op's declaration, not bad input.
func planArgs(t reflect.Type) argPlan {
	var plan argPlan
	for i := range t.NumField() {
		sf := t.Field(i)
		tag, ok := sf.Tag.Lookup("arg")
		if !ok {
			panic(fmt.Sprintf("host: %s.%s has no arg tag", t, sf.Name))
		}
		name, opts, _ := strings.Cut(tag, ",")
		f := argField{index: i, name: name, optional: opts == "opt"}
		def, hasDef := sf.Tag.Lookup("def")
		if hasDef && !f.optional {
			panic(fmt.Sprintf("host: %s.%s has a default but is required", t, sf.Name))
		}
		var err error
		switch {
		case sf.Type == fileTimeType:
			f.kind = argTime
		case sf.Type.Kind() == reflect.String:
			f.kind, f.str = argString, def
		case sf.Type.Kind() == reflect.Slice && sf.Type.Elem().Kind() == reflect.Uint8:
			f.kind = argBytes
		case sf.Type.Kind() == reflect.Int64:
			f.kind = argInt
			if hasDef {
				f.num, err = strconv.ParseInt(def, 0, 64)
			}
		case sf.Type.Kind() == reflect.Bool:
			f.kind = argBool
			if hasDef {
				f.flag, err = strconv.ParseBool(def)
			}
		default:
			panic(fmt.Sprintf("host: %s.%s has type %s, which no argument has", t, sf.Name, sf.Type))
		}
		if err != nil {
			panic(fmt.Sprintf("host: %s.%s: default %q: %v", t, sf.Name, def, err))
		}
		if (f.kind == argBytes || f.kind == argTime) && f.optional {
			panic(fmt.Sprintf("host: %s.%s: a %s argument cannot be optional", t, sf.Name, sf.Type))
		}
		if f.kind == argBool && !f.optional {
			panic(fmt.Sprintf("host: %s.%s: a boolean argument is optional (absent is its default)", t, sf.Name))
		}
		plan = append(plan, f)
	}
	return plan
}

// decode fills v (an argument struct) from a, in field order.
func (p argPlan) decode(a fsArgs, v reflect.Value) error {
	for _, f := range p {
		fv := v.Field(f.index)
		switch f.kind {
		case argString:
			var s string
			var err error
			if f.optional {
				s, err = a.optStr(f.name, f.str)
			} else {
				s, err = a.str(f.name)
			}
			if err != nil {
				return err
			}
			fv.SetString(s)
		case argBytes:
			b, err := a.bytes(f.name)
			if err != nil {
				return err
			}
			fv.SetBytes(b)
		case argInt:
			var n int64
			var err error
			if f.optional {
				n, err = a.optNum(f.name, f.num)
			} else {
				n, err = a.num(f.name)
			}
			if err != nil {
				return err
			}
			fv.SetInt(n)
		case argBool:
			b, err := a.flag(f.name, f.flag)
			if err != nil {
				return err
			}
			fv.SetBool(b)
		case argTime:
			t, err := a.msOrNsTime(f.name)
			if err != nil {
				return err
			}
			fv.Set(reflect.ValueOf(fileTime(t)))
		}
	}
	return nil
}

// fileTime is a time argument: NAME+"Ns", exact nanoseconds (see
// optNsTime), or else NAME+"Ms", float milliseconds (required).
type fileTime time.Time
