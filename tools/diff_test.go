package tools

import "testing"

func TestFirstChangedLine(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"a\n", "a\n", 0},
		{"a\nb\nc\n", "a\nB\nc\n", 2},
		{"a\nb\n", "a\nb\nc\n", 3},
		{"a\nb\nc\n", "a\nb\n", 2}, // removed at the end: b's last line
		{"a\n", "", 1},
		{"", "a\n", 1},
		{"a", "a\n", 1},
		{"a\nb", "a\nb\n", 2},
		{"a\nbc\n", "a\nb\n", 2},
		{"x\ny\n", "z\nx\ny\n", 1},
	}
	for _, tc := range tests {
		if got := firstChangedLine([]byte(tc.a), []byte(tc.b)); got != tc.want {
			t.Errorf("firstChangedLine(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
