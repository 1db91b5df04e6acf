package worker

import (
	"reflect"
	"testing"
)

// TestValueRoundTrip: call values cross with their dynamic types, empty
// lists and maps included; other types cross in their plain form.
func TestValueRoundTrip(t *testing.T) {
	type mode uint16
	in := map[string]any{
		"nil": nil, "t": true, "f": false, "i": 7, "i64": int64(-1 << 40), "i32": int32(-5), "u64": uint64(1 << 63),
		"u32": uint32(9), "f64": 1.5, "f32": float32(0.25), "s": "héllo", "b": []byte{0, 1}, "eb": []byte{},
		"el": []any{}, "em": map[string]any{}, "l": []any{1, "x", []any{nil}},
		"nb": []byte(nil), "nl": []any(nil), "nm": map[string]any(nil),
		"strs": []string{"a", "b"}, "mode": mode(3), "ms": map[string]string{"k": "v"},
	}
	got, err := decodeValue(encodeValue(in))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{}
	for k, v := range in {
		want[k] = v
	}
	want["strs"], want["mode"], want["ms"] = []any{"a", "b"}, uint64(3), map[string]any{"k": "v"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v\nwant %#v", got, want)
	}
	for _, bad := range [][]byte{nil, {vList, 5}, {vString, 9, 'a'}, {vMap, 1, 1}, {99}, {vNil, vNil}} {
		if _, err := decodeValue(bad); err != errBadValue {
			t.Errorf("%v: %v", bad, err)
		}
	}
}
