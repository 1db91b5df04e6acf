package worker

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
)

// The frames themselves (their structured parts: a run's Request, the
// Changes it made, what backends say of themselves, errors) cross in an
// exact codec, driven by their Go types, which both ends share: a value
// decodes to what was encoded, reflect.DeepEqual. Unlike gob, it keeps a
// nil slice, map or pointer apart from an empty one, and a zero struct
// apart from a missing one. Each kind has one form:
//
//	bool                  one byte, 0 or 1
//	intN                  varint
//	uintN, uintptr        uvarint
//	float32, float64      their IEEE bits, little-endian (4 or 8 bytes)
//	string                uvarint length, bytes (any bytes: UTF-8 or not)
//	slice, map, pointer   0 (nil), or 1 then: count and elements / count
//	                      and (key, value) pairs / the element
//	array                 its elements
//	struct                its exported fields, in order
//	interface{}           a call value (value.go)
//
// Any other kind (a channel, a function, an interface with methods) has
// no form: encoding it is an error, so that a field of such a type cannot
// be added to a frame without the tests saying so.

var errBadFrame = errors.New("a malformed frame on the wire")

// appendExact appends the encoding of v (of its static type) to b.
func appendExact(b []byte, v reflect.Value) ([]byte, error) {
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			return append(b, 1), nil
		}
		return append(b, 0), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return binary.AppendVarint(b, v.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return binary.AppendUvarint(b, v.Uint()), nil
	case reflect.Float32:
		return binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(v.Float()))), nil
	case reflect.Float64:
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(v.Float())), nil
	case reflect.String:
		s := v.String()
		return append(binary.AppendUvarint(b, uint64(len(s))), s...), nil
	case reflect.Slice:
		if v.IsNil() {
			return append(b, 0), nil
		}
		b = binary.AppendUvarint(append(b, 1), uint64(v.Len()))
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return append(b, v.Bytes()...), nil
		}
		return appendElems(b, v)
	case reflect.Array:
		return appendElems(b, v)
	case reflect.Map:
		if v.IsNil() {
			return append(b, 0), nil
		}
		b = binary.AppendUvarint(append(b, 1), uint64(v.Len()))
		it := v.MapRange()
		var err error
		for it.Next() {
			if b, err = appendExact(b, it.Key()); err != nil {
				return b, err
			}
			if b, err = appendExact(b, it.Value()); err != nil {
				return b, err
			}
		}
		return b, nil
	case reflect.Pointer:
		if v.IsNil() {
			return append(b, 0), nil
		}
		return appendExact(append(b, 1), v.Elem())
	case reflect.Struct:
		t := v.Type()
		var err error
		for i := range t.NumField() {
			if !t.Field(i).IsExported() {
				continue
			}
			if b, err = appendExact(b, v.Field(i)); err != nil {
				return b, err
			}
		}
		return b, nil
	case reflect.Interface:
		if v.NumMethod() == 0 {
			return appendValue(b, v.Interface()), nil
		}
	}
	return b, fmt.Errorf("worker: a %s cannot cross the wire", v.Type())
}

func appendElems(b []byte, v reflect.Value) ([]byte, error) {
	var err error
	for i := range v.Len() {
		if b, err = appendExact(b, v.Index(i)); err != nil {
			return b, err
		}
	}
	return b, nil
}

// encodeExact is the encoding of *p.
func encodeExact[T any](p *T) ([]byte, error) {
	return appendExact(nil, reflect.ValueOf(p).Elem())
}

// decodeExact decodes b, which it must fill, into *p.
func decodeExact[T any](b []byte, p *T) error {
	d := exactDecoder{valueDecoder{b}}
	if err := d.decode(reflect.ValueOf(p).Elem()); err != nil {
		return err
	}
	if len(d.b) != 0 {
		return errBadFrame
	}
	return nil
}

type exactDecoder struct{ valueDecoder }

// count reads a length of elements whose encodings take at least min bytes
// each: one that the rest of the input cannot hold is malformed, so a
// hostile length allocates nothing.
func (d *exactDecoder) count(min int) (int, error) {
	n, err := d.uvarint()
	if err != nil {
		return 0, errBadFrame
	}
	if min == 0 {
		min = 1
	}
	if n > uint64(len(d.b)/min) {
		return 0, errBadFrame
	}
	return int(n), nil
}

// present reads the nil-or-not byte of a slice, map or pointer.
func (d *exactDecoder) present() (bool, error) {
	if len(d.b) == 0 || d.b[0] > 1 {
		return false, errBadFrame
	}
	ok := d.b[0] == 1
	d.b = d.b[1:]
	return ok, nil
}

func (d *exactDecoder) decode(v reflect.Value) error {
	switch v.Kind() {
	case reflect.Bool:
		if len(d.b) == 0 || d.b[0] > 1 {
			return errBadFrame
		}
		v.SetBool(d.b[0] == 1)
		d.b = d.b[1:]
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := d.varint()
		if err != nil || v.OverflowInt(n) {
			return errBadFrame
		}
		v.SetInt(n)
		return nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		n, err := d.uvarint()
		if err != nil || v.OverflowUint(n) {
			return errBadFrame
		}
		v.SetUint(n)
		return nil
	case reflect.Float32:
		if len(d.b) < 4 {
			return errBadFrame
		}
		v.SetFloat(float64(math.Float32frombits(binary.LittleEndian.Uint32(d.b))))
		d.b = d.b[4:]
		return nil
	case reflect.Float64:
		if len(d.b) < 8 {
			return errBadFrame
		}
		v.SetFloat(math.Float64frombits(binary.LittleEndian.Uint64(d.b)))
		d.b = d.b[8:]
		return nil
	case reflect.String:
		p, err := d.bytes()
		if err != nil {
			return errBadFrame
		}
		v.SetString(string(p))
		return nil
	case reflect.Slice:
		ok, err := d.present()
		if err != nil || !ok {
			return err
		}
		et := v.Type().Elem()
		n, err := d.count(minExact(et))
		if err != nil {
			return err
		}
		s := reflect.MakeSlice(v.Type(), n, n)
		if et.Kind() == reflect.Uint8 {
			reflect.Copy(s, reflect.ValueOf(d.b[:n]))
			d.b = d.b[n:]
		} else {
			for i := range n {
				if err := d.decode(s.Index(i)); err != nil {
					return err
				}
			}
		}
		v.Set(s)
		return nil
	case reflect.Array:
		for i := range v.Len() {
			if err := d.decode(v.Index(i)); err != nil {
				return err
			}
		}
		return nil
	case reflect.Map:
		ok, err := d.present()
		if err != nil || !ok {
			return err
		}
		t := v.Type()
		n, err := d.count(minExact(t.Key()) + minExact(t.Elem()))
		if err != nil {
			return err
		}
		m := reflect.MakeMapWithSize(t, n)
		for range n {
			k, e := reflect.New(t.Key()).Elem(), reflect.New(t.Elem()).Elem()
			if err := d.decode(k); err != nil {
				return err
			}
			if err := d.decode(e); err != nil {
				return err
			}
			m.SetMapIndex(k, e)
		}
		if m.Len() != n {
			// A key twice: not what an encoder writes.
			return errBadFrame
		}
		v.Set(m)
		return nil
	case reflect.Pointer:
		ok, err := d.present()
		if err != nil || !ok {
			return err
		}
		p := reflect.New(v.Type().Elem())
		if err := d.decode(p.Elem()); err != nil {
			return err
		}
		v.Set(p)
		return nil
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			if !t.Field(i).IsExported() {
				continue
			}
			if err := d.decode(v.Field(i)); err != nil {
				return err
			}
		}
		return nil
	case reflect.Interface:
		if v.NumMethod() == 0 {
			x, err := d.value(0)
			if err != nil {
				return errBadFrame
			}
			if x != nil {
				v.Set(reflect.ValueOf(x))
			}
			return nil
		}
	}
	return fmt.Errorf("worker: a %s cannot cross the wire", v.Type())
}

// minExact is the fewest bytes a value of type t encodes to.
func minExact(t reflect.Type) int {
	switch t.Kind() {
	case reflect.Float32:
		return 4
	case reflect.Float64:
		return 8
	case reflect.Array:
		return t.Len() * minExact(t.Elem())
	case reflect.Struct:
		n := 0
		for i := range t.NumField() {
			if t.Field(i).IsExported() {
				n += minExact(t.Field(i).Type)
			}
		}
		return n
	}
	return 1
}
