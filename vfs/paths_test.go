package vfs

import (
	"errors"
	"path"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClean(t *testing.T) {
	max := "/" + strings.Repeat("a", MaxPathLength-1) // exactly 4096 bytes
	long := "/" + strings.Repeat("a", MaxPathLength)  // 4097 bytes
	segs := "/" + strings.Repeat("a/", 2049)          // cleans to 4098 bytes
	tests := []struct {
		in   string
		want string
		code Errno
		msg  string
	}{
		{in: "", code: EINVAL, msg: "Invalid path (empty): "},
		{in: "a", code: EINVAL, msg: "Invalid path (must be absolute): a"},
		{in: "a/b", code: EINVAL, msg: "Invalid path (must be absolute): a/b"},
		{in: ".", code: EINVAL, msg: "Invalid path (must be absolute): ."},
		{in: `\a`, code: EINVAL, msg: `Invalid path (must be absolute): \a`},
		{in: " /a", code: EINVAL, msg: "Invalid path (must be absolute):  /a"},
		{in: "/a/../..", code: EINVAL, msg: "Invalid path (escapes root): /a/../.."},
		{in: "/..", code: EINVAL, msg: "Invalid path (escapes root): /.."},
		{in: "/../a", code: EINVAL, msg: "Invalid path (escapes root): /../a"},
		{in: "/a/../../b", code: EINVAL, msg: "Invalid path (escapes root): /a/../../b"},
		{in: "/a\x00b", code: EINVAL, msg: "Invalid path (contains NUL byte): /a\x00b"},
		{in: "/\x00", code: EINVAL, msg: "Invalid path (contains NUL byte): /\x00"},
		{in: "/", want: "/"},
		{in: "//", want: "/"},
		{in: "///", want: "/"},
		{in: "/.", want: "/"},
		{in: "/./", want: "/"},
		{in: "/a/..", want: "/"},
		{in: "/a/../", want: "/"},
		{in: "/a", want: "/a"},
		{in: "//a//b/", want: "/a/b"},
		{in: "/./a/.", want: "/a"},
		{in: "/a/b/..", want: "/a"},
		{in: "/a/./b/../c/", want: "/a/c"},
		{in: "/a/b/../../c", want: "/c"},
		{in: "/...", want: "/..."},
		{in: "/..a/.b/a..", want: "/..a/.b/a.."},
		{in: "/ a /b ", want: "/ a /b "},
		{in: `/a\b`, want: `/a\b`},
		{in: `/a\..\b`, want: `/a\..\b`},
		{in: `/a/..\`, want: `/a/..\`},
		{in: `/a\`, want: `/a\`},
		{in: "/é/日本/😀", want: "/é/日本/😀"},
		{in: "/A/a", want: "/A/a"},
		{in: max, want: max},
		{in: max + "/", want: max},
		{in: "/./" + max[1:], want: max},
		{in: "/x/.." + max, want: max},
		{in: long, code: ENAMETOOLONG, msg: "path too long (over 4096 bytes): " + long},
		{in: long + "/", code: ENAMETOOLONG, msg: "path too long (over 4096 bytes): " + long + "/"},
		{in: segs, code: ENAMETOOLONG, msg: "path too long (over 4096 bytes): " + segs},
	}
	for _, tc := range tests {
		name := tc.in
		if len(name) > 40 {
			name = name[:40]
		}
		t.Run(name, func(t *testing.T) {
			got, err := Clean(tc.in)
			if tc.code != "" {
				expectErr(t, err, tc.code, tc.msg)
				if got != "" {
					t.Errorf("Clean(%q) returned %q with an error", tc.in, got)
				}
				var pe *PathError
				if !errors.As(err, &pe) {
					t.Fatalf("error %T is not a *PathError", err)
				}
				if pe.Path != tc.in {
					t.Errorf("PathError.Path = %q, want the input %q", pe.Path, tc.in)
				}
				return
			}
			if err != nil {
				t.Fatalf("Clean(%q): %v", tc.in, err)
			}
			if got != tc.want {
				t.Errorf("Clean(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestCleanUsedByOperations checks that every entry point rejects bad paths
// with Clean's error, naming the operation.
func TestCleanUsedByOperations(t *testing.T) {
	f := openTest(t)
	_, err := f.Stat(bg, "rel")
	expectErr(t, err, EINVAL, "Invalid path (must be absolute): rel")
	var pe *PathError
	if errors.As(err, &pe) && pe.Op != "stat" {
		t.Errorf("Op = %q, want stat", pe.Op)
	}
	expectErr(t, f.WriteFile(bg, "/../x", nil, nil), EINVAL, "Invalid path (escapes root): /../x")
	expectErr(t, f.Mkdir(bg, "", 0), EINVAL, "Invalid path (empty): ")
	_, err = f.ReadFile(bg, "/a\x00")
	expectErr(t, err, EINVAL, "Invalid path (contains NUL byte): /a\x00")
	expectErr(t, f.Rename(bg, "/a", "b"), EINVAL, "Invalid path (must be absolute): b")
	expectErr(t, f.Remove(bg, "/"+strings.Repeat("x", 5000), nil), ENAMETOOLONG, "")
	// Equivalent spellings name the same node.
	put(t, f, "/d/f.txt", "x")
	for _, p := range []string{"/d/f.txt", "//d//f.txt", "/d/./f.txt", "/d/e/../f.txt", "/./d/f.txt/"} {
		expectContent(t, f, p, "x")
	}
	// Backslashes are ordinary characters.
	put(t, f, `/d\f.txt`, "back")
	expectContent(t, f, `/d\f.txt`, "back")
	expectContent(t, f, "/d/f.txt", "x")
}

func TestBase(t *testing.T) {
	for in, want := range map[string]string{"/": "", "/a": "a", "/a/b": "b", `/a\b`: `a\b`} {
		if got := Base(in); got != want {
			t.Errorf("Base(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{
		"", "/", "a", "/a/../..", "/a\x00b", "//a//b/", "/./a/.", "/a/b/..", `/a\b`, `/a\..\b`,
		"/..", "/...", "/a/./b/../c/", "/.a/..b/...", "///", "/é/../日本",
		strings.Repeat("/a", 2049), "/" + strings.Repeat("b", 4096), "/x/.." + strings.Repeat("/c", 2048),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := Clean(in)
		if err != nil {
			switch c := Code(err); c {
			case EINVAL:
				if !strings.HasPrefix(err.Error(), "Invalid path (") {
					t.Fatalf("Clean(%q): EINVAL message %q", in, err)
				}
			case ENAMETOOLONG:
			default:
				t.Fatalf("Clean(%q): unexpected code %s (%v)", in, c, err)
			}
			if out != "" {
				t.Fatalf("Clean(%q) = %q with error %v", in, out, err)
			}
			return
		}
		switch {
		case !strings.HasPrefix(out, "/"):
			t.Fatalf("Clean(%q) = %q: not absolute", in, out)
		case strings.Contains(out, "//"):
			t.Fatalf("Clean(%q) = %q: contains //", in, out)
		case strings.Contains(out+"/", "/./"):
			t.Fatalf("Clean(%q) = %q: contains a . segment", in, out)
		case strings.Contains(out+"/", "/../"):
			t.Fatalf("Clean(%q) = %q: contains a .. segment", in, out)
		case out != "/" && strings.HasSuffix(out, "/"):
			t.Fatalf("Clean(%q) = %q: trailing slash", in, out)
		case len(out) > MaxPathLength:
			t.Fatalf("Clean(%q) = %d bytes, over MaxPathLength", in, len(out))
		case strings.IndexByte(out, 0) >= 0:
			t.Fatalf("Clean(%q) = %q: contains NUL", in, out)
		}
		again, err := Clean(out)
		if err != nil || again != out {
			t.Fatalf("Clean(Clean(%q)) = %q, %v; want %q", in, again, err, out)
		}
		// Where Clean succeeds, no ".." reached above the root, so it must
		// agree with the lexical path.Clean.
		if want := path.Clean(in); out != want {
			t.Fatalf("Clean(%q) = %q, path.Clean = %q", in, out, want)
		}
		// Valid UTF-8 stays valid; bytes are never rewritten.
		if utf8.ValidString(in) && !utf8.ValidString(out) {
			t.Fatalf("Clean(%q) = %q: invalid UTF-8 introduced", in, out)
		}
	})
}
