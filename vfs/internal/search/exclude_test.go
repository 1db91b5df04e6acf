package search

import (
	"errors"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
)

func TestExcluder(t *testing.T) {
	e, err := NewExcluder([]string{"node_modules", ".git", "*.min.js", "docs/api", "vendor/**", "/build", "out/", ""})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path  string
		isDir bool
		want  bool
	}{
		{"", true, false},
		{"node_modules", true, true},
		{"a/b/node_modules", true, true},
		{"a/node_modules/x/y.js", false, true}, // below an excluded directory
		{"node_modules.txt", false, false},
		{".git", true, true},
		{"sub/.git/config", false, true},
		{".github", true, false},
		{"app.min.js", false, true},
		{"static/js/app.min.js", false, true},
		{"app.js", false, false},
		{"docs/api", true, true},
		{"docs/api/index.md", false, true},
		{"docs/apis", true, false},
		{"x/docs/api", true, false}, // a pattern with a slash is anchored
		{"vendor", true, true},      // foo/** prunes foo itself
		{"vendor/a/b.go", false, true},
		{"x/vendor", true, false},
		{"build", true, true},
		{"build/x.o", false, true},
		{"src/build", true, false},
		{"out", true, true},
		{"src/out", true, true},
		{"src/out/x.o", false, true},
		{"out", false, false}, // directories only
		{"src/out", false, false},
		{"src/main.go", false, false},
	}
	for _, tt := range tests {
		if got := e.Excluded(tt.path, tt.isDir); got != tt.want {
			t.Errorf("Excluded(%q, %v) = %v, want %v", tt.path, tt.isDir, got, tt.want)
		}
	}
}

func TestExcluderNil(t *testing.T) {
	var e *Excluder
	if e.Excluded("a", true) {
		t.Error("nil Excluder excluded a path")
	}
}

func TestNewExcluderInvalid(t *testing.T) {
	for _, p := range []string{"[", "a/{b", "/", "//"} {
		if _, err := NewExcluder([]string{"ok", p}); !errors.Is(err, doublestar.ErrBadPattern) {
			t.Errorf("NewExcluder(%q) error = %v, want ErrBadPattern", p, err)
		}
	}
}
