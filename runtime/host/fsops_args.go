package host

import (
	"encoding/json"
	"math"
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
