package linediff

import (
	"strings"
	"testing"
)

// TestPlacement checks where a change that could sit at several places
// goes, in each style, on cases printed by GNU diff 3.8 and git 2.x.
func TestPlacement(t *testing.T) {
	tests := []struct {
		a, b  string
		style Style
		want  string // the changes as -a/+b lines, "." for unchanged
	}{
		// both: the run slides to the bottom
		{"a\nb\na\n", "a\n", GNU, ". -b -a"},
		{"a\nb\na\n", "a\n", Git, ". -b -a"},
		{"x\nA\ny\nx\nB\ny\n", "x\nB\ny\n", GNU, ". -A -y -x . ."},
		{"k\nk\nk\n", "k\nk\nk\nk\nk\n", GNU, ". . . +k +k"},
		// the run goes back up next to the other file's change
		{"a\nk\nB\nk\n", "K\nk\nB\nk\nk\n", GNU, "-a +K . . +k ."},
		// GNU sets the common suffix aside; git slides into it
		{"a\nk\nB\nk\n", "k\nk\nB\nk\nk\n", GNU, "-a +k . . +k ."},
		{"a\nk\nB\nk\n", "k\nk\nB\nk\nk\n", Git, "-a +k . . . +k"},
	}
	for _, tc := range tests {
		a, b := Lines([]byte(tc.a)), Lines([]byte(tc.b))
		del, ins := EditsFunc(a, b, tc.style, nil)
		var got []string
		i, j := 0, 0
		for i < len(a) || j < len(b) {
			switch {
			case i < len(a) && del[i]:
				got = append(got, "-"+strings.TrimSuffix(a[i], "\n"))
				i++
			case j < len(b) && ins[j]:
				got = append(got, "+"+strings.TrimSuffix(b[j], "\n"))
				j++
			default:
				got = append(got, ".")
				i, j = i+1, j+1
			}
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("%q → %q (style %d): got %s, want %s", tc.a, tc.b, tc.style, g, tc.want)
		}
	}
}
