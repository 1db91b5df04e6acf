package wasm

import (
	"context"
	"slices"
	"testing"
	"time"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"

	rthost "github.com/nookdev/nook/runtime/host"
)

// oneFileHost serves stat and pread of one file, /workspace/f, and records
// the ops it was called with.
type oneFileHost struct {
	data []byte
	ops  []string
}

func (h *oneFileHost) Call(_ context.Context, c *rthost.Call) (any, error) {
	h.ops = append(h.ops, c.Op)
	switch c.Op {
	case "stat":
		return map[string]any{"ino": 7.0, "mode": float64(0o100644), "nlink": 1.0, "size": float64(len(h.data))}, nil
	case "pread":
		a := c.Args.(map[string]any)
		off, n := int(a["offset"].(float64)), int(a["length"].(float64))
		if off >= len(h.data) {
			return []byte{}, nil
		}
		return append([]byte(nil), h.data[off:min(len(h.data), off+n)]...), nil
	}
	return nil, &rthost.CallError{Code: "ENOSYS", Message: c.Op}
}

func (h *oneFileHost) Write(rthost.Stream, []byte) error { return nil }
func (h *oneFileHost) Now() time.Time                    { return time.Unix(0, 0) }
func (h *oneFileHost) Random(p []byte)                   {}

func newKnownFS(h *oneFileHost) *vfsFS {
	st := &runState{ctx: context.Background(), opts: &Options{Root: "/workspace"},
		req: &rthost.Request{Limits: rthost.Limits{MaxCallBytes: 1 << 20, MaxMemoryBytes: 1 << 20}}}
	st.host = epochHost{Host: h, st: st}
	return newFS(st)
}

// readAll reads f as os.ReadFile does: its size, then reads to the end.
func readAll(t *testing.T, f experimentalsys.File) string {
	t.Helper()
	st, errno := f.Stat()
	if errno != 0 {
		t.Fatal(errno)
	}
	buf := make([]byte, st.Size+512)
	n := 0
	for {
		k, errno := f.Read(buf[n:])
		if errno != 0 {
			t.Fatal(errno)
		}
		if k == 0 {
			return string(buf[:n])
		}
		n += k
	}
}

// An open's stats answer the fstat that follows it, and a short read the
// read at the end, while the guest contacts nothing else: os.ReadFile
// costs two host calls, not four.
func TestReadFileCallsAnsweredByTheOpen(t *testing.T) {
	h := &oneFileHost{data: []byte("hello")}
	fsys := newKnownFS(h)
	f, errno := fsys.OpenFile("f", experimentalsys.O_RDONLY, 0)
	if errno != 0 {
		t.Fatal(errno)
	}
	if got := readAll(t, f); got != "hello" {
		t.Fatalf("read %q", got)
	}
	if want := []string{"stat", "pread"}; !slices.Equal(h.ops, want) {
		t.Fatalf("host ops %v, want %v", h.ops, want)
	}
}

// Any contact with the world outside the guest (here a clock read, as in
// a sleep or a printed line) ends what a file knew: the file changed
// meanwhile is seen as it is now.
func TestKnownStatsEndAtAnyContact(t *testing.T) {
	h := &oneFileHost{data: []byte("hello")}
	fsys := newKnownFS(h)
	f, errno := fsys.OpenFile("f", experimentalsys.O_RDONLY, 0)
	if errno != 0 {
		t.Fatal(errno)
	}
	buf := make([]byte, 64)
	if n, _ := f.Read(buf); n != 5 {
		t.Fatalf("read %d bytes", n)
	}
	h.data = []byte("hello, world") // another writer, between two calls
	for _, contact := range []func(){
		func() { fsys.st.walltime() },
		func() { fsys.st.nanosleep(1) },
		func() { (&output{st: fsys.st, stream: rthost.Stdout}).Write([]byte("x")) },
	} {
		h.data = append(h.data, '!')
		contact()
		st, errno := f.Stat()
		if errno != 0 || st.Size != int64(len(h.data)) {
			t.Fatalf("stat after a contact: size %d errno %v, want %d", st.Size, errno, len(h.data))
		}
		contact()
		n, errno := f.Read(buf)
		if errno != 0 || string(buf[:n]) != string(h.data[5:]) {
			t.Fatalf("read after a contact: %q errno %v, want %q", buf[:n], errno, h.data[5:])
		}
		f.(*file).pos = 5
	}
	want := []string{"stat", "pread", "stat", "pread", "stat", "pread", "stat", "pread"}
	if !slices.Equal(h.ops, want) {
		t.Fatalf("host ops %v, want %v", h.ops, want)
	}
}
