package runtime_test

import (
	"strings"
	"testing"

	"github.com/nookdev/nook/runtime"
)

func TestJSONNesting(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{`[[1],{"a":2}]`, -1},
		{`[[[1]]]`, 2},
		{`{"a":{"b":{}}}`, 10},
		{`["[[[[", "\"[[[["]`, -1}, // brackets in strings, escaped quotes
		{`[]]]]][[[`, 8},           // closers never go below zero
		{strings.Repeat("[", 3e6), 2},
	} {
		if got := runtime.JSONNestingOffset(tc.in, 2); got != tc.want {
			t.Errorf("%.20s: got %d, want %d", tc.in, got, tc.want)
		}
	}
	err := runtime.CheckJSONNesting("the input", []byte(`[[[1]]]`), 2)
	if err == nil || err.Error() != "the input nested deeper than 2 levels (at byte 2) exceeds the limit MaxNestingDepth (2)" {
		t.Errorf("err = %v", err)
	}
	if err := runtime.CheckJSONNesting("the input", `[[1]]`, 2); err != nil {
		t.Errorf("err = %v", err)
	}
}
