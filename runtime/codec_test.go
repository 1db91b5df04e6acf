package runtime

import (
	"reflect"
	"testing"
)

func TestCodecRoundTrip(t *testing.T) {
	for _, v := range []any{
		nil, true, 1.5, "s",
		[]byte("bin\x00ary"),
		map[string]any{"data": []byte{1, 2}, "n": 3.0, "list": []any{[]byte("x"), "y"}},
		map[string]any{"$b": "not bytes"},
		map[string]any{"$esc": map[string]any{"$b": "x"}},
	} {
		b, err := encodeValue(v)
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodeValue(b)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, v) {
			t.Errorf("%#v → %s → %#v", v, b, got)
		}
	}
	a, _ := encodeValue(map[string]any{"b": 1.0, "a": 2.0})
	b, _ := encodeValue(map[string]any{"a": 2.0, "b": 1.0})
	if string(a) != string(b) {
		t.Errorf("equal maps encode differently: %s %s", a, b)
	}
}
