package worker

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"reflect"
)

// The values of calls (arguments and results) cross in a codec of their
// own rather than as gob interfaces, which spell out the type of every
// value and drop empty lists and maps: one tag byte per value, then its
// payload. It keeps the dynamic types an in-process host would hand a
// backend (an int stays an int, []byte stays []byte, an empty list stays
// an empty list); a value of any other type crosses as its nearest plain
// form (a named integer type as int64, a slice as []any, a map with string
// keys as map[string]any, a struct as its JSON round trip, as the journal
// would keep it). A nil []byte, []any or map[string]any stays a typed nil.

const (
	vNil byte = iota
	vFalse
	vTrue
	vInt     // varint
	vInt64   // varint
	vInt32   // varint
	vUint64  // uvarint
	vUint32  // uvarint
	vFloat64 // 8 bytes
	vFloat32 // 4 bytes
	vString  // uvarint length, bytes
	vBytes   // uvarint length, bytes
	vList    // uvarint count, values
	vMap     // uvarint count, (string, value) pairs
	vNilBytes
	vNilList
	vNilMap
)

// maxValueDepth bounds the nesting of a decoded value.
const maxValueDepth = 10_000

var errBadValue = errors.New("a malformed value on the wire")

// appendValue appends the encoding of v to b.
func appendValue(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, vNil)
	case bool:
		if x {
			return append(b, vTrue)
		}
		return append(b, vFalse)
	case int:
		return binary.AppendVarint(append(b, vInt), int64(x))
	case int64:
		return binary.AppendVarint(append(b, vInt64), x)
	case int32:
		return binary.AppendVarint(append(b, vInt32), int64(x))
	case uint64:
		return binary.AppendUvarint(append(b, vUint64), x)
	case uint32:
		return binary.AppendUvarint(append(b, vUint32), uint64(x))
	case float64:
		return binary.LittleEndian.AppendUint64(append(b, vFloat64), math.Float64bits(x))
	case float32:
		return binary.LittleEndian.AppendUint32(append(b, vFloat32), math.Float32bits(x))
	case string:
		return append(binary.AppendUvarint(append(b, vString), uint64(len(x))), x...)
	case []byte:
		if x == nil {
			return append(b, vNilBytes)
		}
		return append(binary.AppendUvarint(append(b, vBytes), uint64(len(x))), x...)
	case json.RawMessage:
		return appendValue(b, []byte(x))
	case []any:
		if x == nil {
			return append(b, vNilList)
		}
		b = binary.AppendUvarint(append(b, vList), uint64(len(x)))
		for _, e := range x {
			b = appendValue(b, e)
		}
		return b
	case map[string]any:
		if x == nil {
			return append(b, vNilMap)
		}
		b = binary.AppendUvarint(append(b, vMap), uint64(len(x)))
		for k, e := range x {
			b = append(binary.AppendUvarint(b, uint64(len(k))), k...)
			b = appendValue(b, e)
		}
		return b
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return append(b, vNil)
		}
		if rv.Kind() == reflect.Slice && rv.Type().Elem().Kind() == reflect.Uint8 {
			return appendValue(b, rv.Bytes())
		}
		b = binary.AppendUvarint(append(b, vList), uint64(rv.Len()))
		for i := range rv.Len() {
			b = appendValue(b, rv.Index(i).Interface())
		}
		return b
	case reflect.Map:
		if rv.Type().Key().Kind() == reflect.String {
			if rv.IsNil() {
				return append(b, vNil)
			}
			b = binary.AppendUvarint(append(b, vMap), uint64(rv.Len()))
			it := rv.MapRange()
			for it.Next() {
				k := it.Key().String()
				b = append(binary.AppendUvarint(b, uint64(len(k))), k...)
				b = appendValue(b, it.Value().Interface())
			}
			return b
		}
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return append(b, vNil)
		}
		if rv.Kind() == reflect.Interface || rv.Elem().Kind() != reflect.Struct {
			return appendValue(b, rv.Elem().Interface())
		}
	case reflect.Bool:
		return appendValue(b, rv.Bool())
	case reflect.String:
		return appendValue(b, rv.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return appendValue(b, rv.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return appendValue(b, rv.Uint())
	case reflect.Float32, reflect.Float64:
		return appendValue(b, rv.Float())
	}
	j, err := json.Marshal(v)
	if err != nil {
		return append(b, vNil)
	}
	var out any
	json.Unmarshal(j, &out)
	return appendValue(b, out)
}

// encodeValue is the encoding of v.
func encodeValue(v any) []byte { return appendValue(nil, v) }

// decodeValue decodes one value, which must fill b.
func decodeValue(b []byte) (any, error) {
	d := valueDecoder{b: b}
	v, err := d.value(0)
	if err == nil && len(d.b) != 0 {
		err = errBadValue
	}
	return v, err
}

type valueDecoder struct{ b []byte }

func (d *valueDecoder) uvarint() (uint64, error) {
	n, k := binary.Uvarint(d.b)
	if k <= 0 {
		return 0, errBadValue
	}
	d.b = d.b[k:]
	return n, nil
}

func (d *valueDecoder) varint() (int64, error) {
	n, k := binary.Varint(d.b)
	if k <= 0 {
		return 0, errBadValue
	}
	d.b = d.b[k:]
	return n, nil
}

func (d *valueDecoder) bytes() ([]byte, error) {
	n, err := d.uvarint()
	if err != nil || n > uint64(len(d.b)) {
		return nil, errBadValue
	}
	p := d.b[:n:n]
	d.b = d.b[n:]
	return p, nil
}

func (d *valueDecoder) value(depth int) (any, error) {
	if len(d.b) == 0 || depth > maxValueDepth {
		return nil, errBadValue
	}
	tag := d.b[0]
	d.b = d.b[1:]
	switch tag {
	case vNil:
		return nil, nil
	case vNilBytes:
		return []byte(nil), nil
	case vNilList:
		return []any(nil), nil
	case vNilMap:
		return map[string]any(nil), nil
	case vFalse:
		return false, nil
	case vTrue:
		return true, nil
	case vInt:
		n, err := d.varint()
		return int(n), err
	case vInt64:
		return d.varint()
	case vInt32:
		n, err := d.varint()
		return int32(n), err
	case vUint64:
		return d.uvarint()
	case vUint32:
		n, err := d.uvarint()
		return uint32(n), err
	case vFloat64:
		if len(d.b) < 8 {
			return nil, errBadValue
		}
		f := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
		d.b = d.b[8:]
		return f, nil
	case vFloat32:
		if len(d.b) < 4 {
			return nil, errBadValue
		}
		f := math.Float32frombits(binary.LittleEndian.Uint32(d.b))
		d.b = d.b[4:]
		return f, nil
	case vString:
		p, err := d.bytes()
		return string(p), err
	case vBytes:
		p, err := d.bytes()
		if err != nil {
			return nil, err
		}
		return append([]byte{}, p...), nil
	case vList:
		n, err := d.uvarint()
		if err != nil || n > uint64(len(d.b)) {
			return nil, errBadValue
		}
		out := make([]any, n)
		for i := range out {
			if out[i], err = d.value(depth + 1); err != nil {
				return nil, err
			}
		}
		return out, nil
	case vMap:
		n, err := d.uvarint()
		if err != nil || n > uint64(len(d.b)) {
			return nil, errBadValue
		}
		out := make(map[string]any, n)
		for range n {
			k, err := d.bytes()
			if err != nil {
				return nil, err
			}
			if out[string(k)], err = d.value(depth + 1); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return nil, errBadValue
}
