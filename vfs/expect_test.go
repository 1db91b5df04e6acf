package vfs

// Shared helpers for the behaviour tests.

import (
	"context"
	"errors"
	"io/fs"
	"math/rand/v2"
	"sync"
	"testing"
	"time"
)

var bg = context.Background()

// sentinels maps codes to the io/fs sentinel errors.Is must accept.
var sentinels = map[Errno]error{
	ENOENT:    fs.ErrNotExist,
	EEXIST:    fs.ErrExist,
	ENOTEMPTY: fs.ErrExist,
	EPERM:     fs.ErrPermission,
	EROFS:     fs.ErrPermission,
	EINVAL:    fs.ErrInvalid,
	EBADF:     fs.ErrInvalid,
}

// expectErr checks err's code, its exact message (unless msg is "") and
// that errors.Is accepts the host errno and the io/fs sentinel of the code.
func expectErr(t testing.TB, err error, code Errno, msg string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got nil error, want %s %q", code, msg)
	}
	if got := Code(err); got != code {
		t.Errorf("Code(err) = %s, want %s (err: %v)", got, code, err)
	}
	if msg != "" && err.Error() != msg {
		t.Errorf("err.Error() = %q, want %q", err.Error(), msg)
	}
	if !errors.Is(err, code.Syscall()) {
		t.Errorf("errors.Is(err, syscall %d) = false for %v", code.Syscall(), err)
	}
	if s, ok := sentinels[code]; ok && !errors.Is(err, s) {
		t.Errorf("errors.Is(err, %v) = false for %v", s, err)
	}
	if code != ENOENT && errors.Is(err, fs.ErrNotExist) {
		t.Errorf("errors.Is(err, fs.ErrNotExist) = true for %s error %v", code, err)
	}
}

// expectCode checks only err's code (and the errno/sentinel mapping).
func expectCode(t testing.TB, err error, code Errno) {
	t.Helper()
	expectErr(t, err, code, "")
}

func noErr(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// put writes a file, creating its parents.
func put(t testing.TB, f *FS, p, content string) {
	t.Helper()
	if err := f.WriteFile(bg, p, []byte(content), &WriteOptions{MkdirAll: true}); err != nil {
		t.Fatalf("WriteFile(%s): %v", p, err)
	}
}

func putBytes(t testing.TB, f *FS, p string, content []byte) {
	t.Helper()
	if err := f.WriteFile(bg, p, content, &WriteOptions{MkdirAll: true}); err != nil {
		t.Fatalf("WriteFile(%s): %v", p, err)
	}
}

func get(t testing.TB, f *FS, p string) string {
	t.Helper()
	b, err := f.ReadFile(bg, p)
	if err != nil {
		t.Fatalf("ReadFile(%s): %v", p, err)
	}
	return string(b)
}

func expectContent(t testing.TB, f *FS, p, want string) {
	t.Helper()
	if got := get(t, f, p); got != want {
		t.Errorf("ReadFile(%s) = %q, want %q", p, clip(got), clip(want))
	}
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

func usageOf(t testing.TB, f *FS) Usage {
	t.Helper()
	u, err := f.Usage(bg)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func revOf(t testing.TB, f *FS) int64 {
	t.Helper()
	r, err := f.Rev(bg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func statOf(t testing.TB, f *FS, p string) *FileInfo {
	t.Helper()
	fi, err := f.Stat(bg, p)
	if err != nil {
		t.Fatalf("Stat(%s): %v", p, err)
	}
	return fi
}

func lstatOf(t testing.TB, f *FS, p string) *FileInfo {
	t.Helper()
	fi, err := f.Lstat(bg, p)
	if err != nil {
		t.Fatalf("Lstat(%s): %v", p, err)
	}
	return fi
}

func expectMissing(t testing.TB, f *FS, p string) {
	t.Helper()
	_, err := f.Lstat(bg, p)
	if Code(err) != ENOENT {
		t.Errorf("Lstat(%s) err = %v, want ENOENT", p, err)
	}
}

// paths returns the Path of each entry.
func paths(es []Entry) []string {
	out := make([]string, 0, len(es))
	for _, e := range es {
		out = append(out, e.Path)
	}
	return out
}

// seededBytes returns n pseudo-random bytes from seed.
func seededBytes(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	b := make([]byte, n)
	for i := 0; i < n; i += 8 {
		v := r.Uint64()
		for j := 0; j < 8 && i+j < n; j++ {
			b[i+j] = byte(v >> (8 * j))
		}
	}
	return b
}

// fakeClock is an injectable clock for Options.Now.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *fakeClock {
	return &fakeClock{now: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	return c.now
}

func withClock(c *fakeClock) func(*Options) { return func(o *Options) { o.Now = c.Now } }

func withLimits(l Limits) func(*Options) { return func(o *Options) { o.Limits = l } }

func withGCWindow(d time.Duration) func(*Options) { return func(o *Options) { o.GCWindow = d } }
