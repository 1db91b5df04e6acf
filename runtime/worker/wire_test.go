package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/nookdev/nook/runtime"
)

// gen makes random values of the kinds that cross the wire, with the
// cases a lossy codec gets wrong drawn often: nil next to empty, the
// extremes of every integer type, strings and keys that are not UTF-8.
type gen struct{ r *rand.Rand }

func (g gen) n(k int) int { return g.r.IntN(k) }

// str is a string of random bytes, UTF-8 or not.
func (g gen) str() string {
	switch g.n(4) {
	case 0:
		return ""
	case 1:
		return "héllo/wörld"
	}
	b := make([]byte, g.n(12))
	for i := range b {
		b[i] = byte(g.r.UintN(256))
	}
	return string(b)
}

func (g gen) bytes() []byte {
	switch g.n(3) {
	case 0:
		return nil
	case 1:
		return []byte{}
	}
	return []byte(g.str() + "x")
}

func (g gen) strs() []string {
	switch g.n(3) {
	case 0:
		return nil
	case 1:
		return []string{}
	}
	s := make([]string, 1+g.n(4))
	for i := range s {
		s[i] = g.str()
	}
	return s
}

func (g gen) strMap() map[string]string {
	switch g.n(3) {
	case 0:
		return nil
	case 1:
		return map[string]string{}
	}
	m := map[string]string{}
	for range 1 + g.n(4) {
		m[g.str()] = g.str()
	}
	return m
}

func (g gen) i64() int64 {
	switch g.n(5) {
	case 0:
		return math.MaxInt64
	case 1:
		return math.MinInt64
	case 2:
		return 0
	}
	return g.r.Int64() - g.r.Int64()
}

// value is a random call value: what a host returns and a backend passes.
func (g gen) value(depth int) any {
	k := g.n(20)
	if depth > 3 && k >= 16 {
		k = g.n(16)
	}
	switch k {
	case 0:
		return nil
	case 1:
		return g.n(2) == 0
	case 2:
		return int(g.i64())
	case 3:
		return g.i64()
	case 4:
		return int32(g.i64())
	case 5:
		return uint64(math.MaxUint64) - g.r.Uint64N(3)
	case 6:
		return uint32(g.r.Uint64())
	case 7:
		return []float64{0, math.Copysign(0, -1), math.Inf(1), math.MaxFloat64, 1e-320, 0.1}[g.n(6)]
	case 8:
		return float32(g.r.Float64())
	case 9, 10:
		return g.str()
	case 11:
		return g.bytes()
	case 12:
		return []byte(nil)
	case 13:
		return []any(nil)
	case 14:
		return map[string]any(nil)
	case 15:
		return []any{map[string]any{}}
	case 16, 17:
		l := make([]any, g.n(4))
		for i := range l {
			l[i] = g.value(depth + 1)
		}
		return l
	}
	n := g.n(4)
	m := make(map[string]any, n)
	for range n {
		m[g.str()] = g.value(depth + 1)
	}
	return m
}

func (g gen) request() runtime.Request {
	r := runtime.Request{ID: g.str(), Source: g.str(), Cwd: g.str(), Env: g.strMap(), Entry: g.str(),
		Args: g.strs(), Stdin: g.bytes(), Fetch: g.n(2) == 0}
	if b := g.bytes(); b != nil {
		r.Input = json.RawMessage(b)
	}
	switch g.n(3) {
	case 1:
		r.Modules = map[string][]string{}
	case 2:
		r.Modules = map[string][]string{g.str(): g.strs(), g.str(): g.strs()}
	}
	l := reflect.ValueOf(&r.Limits).Elem()
	for i := range l.NumField() {
		l.Field(i).SetInt(g.i64())
	}
	return r
}

func (g gen) changes() *runtime.Changes {
	if g.n(4) == 0 {
		return nil
	}
	return &runtime.Changes{Created: g.strs(), Updated: g.strs(), Deleted: g.strs(), DirsCreated: g.strs(),
		DirsDeleted: g.strs()}
}

func (g gen) wireErr() *wireError {
	switch g.n(5) {
	case 0, 1:
		return nil
	case 2:
		return &wireError{Type: "call", Call: runtime.CallError{Code: g.str(), Message: g.str(), Syscall: g.str(),
			Path: g.str(), Dest: g.str()}, Msg: g.str()}
	case 3:
		return &wireError{Type: "limit", Lim: runtime.LimitError{Limit: g.str(), Max: g.i64(), What: g.str()}}
	}
	return &wireError{Msg: g.str()}
}

func (g gen) frame() *frame {
	f := &frame{T: uint8(g.n(256)), ID: g.r.Uint64(), Seq: g.i64(), Kind: g.str(), Op: g.str(), Err: g.wireErr(),
		Data: g.bytes(), N: g.i64(), M: g.r.Uint64(), OK: g.n(2) == 0}
	if g.n(2) == 0 {
		f.Val = encodeValue(g.value(0))
	}
	switch g.n(4) {
	case 0:
		f.Hello = &hello{Pid: int(g.i64()), Builders: g.strs(), Seccomp: g.n(2) == 0, Landlock: g.n(8), Err: g.str()}
	case 1:
		f.Start = &start{Backend: g.str(), Recipe: g.r.Uint64(), Request: g.request(), Snapshot: g.bytes(),
			Timers: g.n(2) == 0, OwnClock: g.n(2) == 0}
		if g.n(2) == 0 {
			f.Start.Build = &build{Builder: g.str(), Options: g.bytes(), Type: g.str(),
				Info: runtime.BackendInfo{ID: g.str(), Description: g.str(), Callable: g.n(2) == 0,
					Root: g.str(), Access: runtime.Access(g.n(3)), DefaultTimeout: time.Duration(g.i64()),
					MaxTimeout: time.Duration(g.i64()), MaxSourceBytes: g.i64()}}
		}
	case 2:
		f.Exit = &exit{Code: int(g.i64()), Value: g.bytes(), Err: g.wireErr(), Changes: g.changes(),
			Refused: g.str(), Clean: g.n(2) == 0}
	}
	return f
}

// TestWireRoundTripProperty sends random frames (requests, changes,
// backend infos, errors, call values) through the codec and through a
// conn over a pipe: each arrives reflect.DeepEqual to what was sent.
func TestWireRoundTripProperty(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	g := gen{rand.New(rand.NewPCG(seed, 33))}
	n := 5000
	if testing.Short() {
		n = 1000
	}
	for i := range n {
		f := g.frame()
		b, err := encodeExact(f)
		if err != nil {
			t.Fatal(err)
		}
		var got frame
		if err := decodeExact(b, &got); err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		if !reflect.DeepEqual(&got, f) {
			t.Fatalf("%d: sent %#v\ngot %#v", i, f, &got)
		}
		// The call value in it too.
		if f.Val != nil {
			v, err := decodeValue(f.Val)
			if err != nil {
				t.Fatal(err)
			}
			if v2, err := decodeValue(encodeValue(v)); err != nil || !reflect.DeepEqual(v2, v) {
				t.Fatalf("%d: value %#v came back %#v (%v)", i, v, v2, err)
			}
		}
	}
	// Through a conn, back to back.
	pr, pw := io.Pipe()
	c := newConn(pr, pw, maxFrame)
	sent := make([]*frame, 200)
	for i := range sent {
		sent[i] = g.frame()
	}
	go func() {
		for _, f := range sent {
			if err := c.send(f); err != nil {
				pw.CloseWithError(err)
				return
			}
		}
		pw.Close()
	}()
	for i, want := range sent {
		got, err := c.recv()
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("frame %d: sent %#v\ngot %#v", i, want, got)
		}
	}
	if _, err := c.recv(); err != io.EOF {
		t.Fatalf("after the last frame: %v", err)
	}
}

// TestValueRoundTripProperty: random call values cross with their types.
func TestValueRoundTripProperty(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	g := gen{rand.New(rand.NewPCG(seed, 34))}
	for i := range 5000 {
		v := g.value(0)
		got, err := decodeValue(encodeValue(v))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, v) {
			t.Fatalf("%d: sent %#v\ngot %#v", i, v, got)
		}
	}
}

// TestWireKeepsEmpty is the case that broke the tools' schemas: a shell
// run's Changes with empty lists arrive empty, not nil, and a nil list
// stays nil.
func TestWireKeepsEmpty(t *testing.T) {
	f := &frame{T: tExit, Exit: &exit{Changes: &runtime.Changes{Created: []string{}, Updated: []string{"/w/a"},
		Deleted: nil, DirsCreated: []string{}, DirsDeleted: []string{}}}}
	b, err := encodeExact(f)
	if err != nil {
		t.Fatal(err)
	}
	var got frame
	if err := decodeExact(b, &got); err != nil {
		t.Fatal(err)
	}
	j, _ := json.Marshal(got.Exit.Changes)
	want := `{"created":[],"updated":["/w/a"],"deleted":null,"dirsCreated":[],"dirsDeleted":[]}`
	if string(j) != want {
		t.Fatalf("got %s, want %s", j, want)
	}
}

// TestWireErrors: errors keep their type and their whole message.
func TestWireErrors(t *testing.T) {
	ce := &runtime.CallError{Code: "ENOENT", Message: "ENOENT: no such file", Syscall: "open", Path: "/w/\xff"}
	le := &runtime.LimitError{Limit: "MaxOutputBytes", Max: 10, What: "output of 11 bytes"}
	for _, err := range []error{ce, le, fmt.Errorf("reading: %w", ce), fmt.Errorf("in x: %w", le),
		context.Canceled, fmt.Errorf("stopped: %w", context.DeadlineExceeded), errors.New("plain \xfe")} {
		b, e := encodeExact(&frame{Err: toWire(err)})
		if e != nil {
			t.Fatal(e)
		}
		var f frame
		if e := decodeExact(b, &f); e != nil {
			t.Fatal(e)
		}
		got := f.Err.err()
		if got.Error() != err.Error() {
			t.Errorf("%q arrived as %q", err, got)
		}
		var gce, wce *runtime.CallError
		if errors.As(err, &wce) && (!errors.As(got, &gce) || *gce != *wce) {
			t.Errorf("%q: the CallError is lost: %#v", err, got)
		}
		var gle, wle *runtime.LimitError
		if errors.As(err, &wle) && (!errors.As(got, &gle) || *gle != *wle) {
			t.Errorf("%q: the LimitError is lost: %#v", err, got)
		}
		for _, s := range []error{context.Canceled, context.DeadlineExceeded} {
			if errors.Is(err, s) != errors.Is(got, s) {
				t.Errorf("%q: errors.Is(%v) differs", err, s)
			}
		}
	}
}

// TestWireRefusesMalformed: truncated frames, lengths past the input and
// bad presence bytes are errors, never panics or big allocations.
func TestWireRefusesMalformed(t *testing.T) {
	b, err := encodeExact(&frame{T: tStart, Start: &start{Request: runtime.Request{Args: []string{"a", "b"},
		Env: map[string]string{"k": "v"}}}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range len(b) {
		var f frame
		if err := decodeExact(b[:i], &f); err == nil {
			t.Fatalf("a frame cut at %d of %d decoded", i, len(b))
		}
	}
	var f frame
	if err := decodeExact(append(b, 0), &f); err != errBadFrame {
		t.Fatalf("a trailing byte: %v", err)
	}
	// T, ID, Seq, Kind "", Op "", Val: present, a count of 2^62.
	huge := []byte{1, 0, 0, 0, 0, 1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40}
	if err := decodeExact(huge, &f); err != errBadFrame {
		t.Fatalf("a huge count: %v", err)
	}
	if _, err := encodeExact(&struct{ C chan int }{}); err == nil {
		t.Fatal("a channel crossed")
	}
}

// FuzzFrameDecode: whatever bytes arrive, the decoder returns a frame or
// an error, and a frame it returns encodes back to one equal to it.
func FuzzFrameDecode(f *testing.F) {
	g := gen{rand.New(rand.NewPCG(1, 2))}
	for range 40 {
		b, err := encodeExact(g.frame())
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{})
	f.Add([]byte{1, 0, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		var fr frame
		if decodeExact(b, &fr) != nil {
			return
		}
		b2, err := encodeExact(&fr)
		if err != nil {
			t.Fatal(err)
		}
		var fr2 frame
		if err := decodeExact(b2, &fr2); err != nil {
			t.Fatalf("a decoded frame does not decode again: %v", err)
		}
		if !reflect.DeepEqual(&fr, &fr2) && !hasNaN(&fr) {
			t.Fatalf("%#v\nbecame %#v", &fr, &fr2)
		}
	})
}

// FuzzValueDecode: the same for call values.
func FuzzValueDecode(f *testing.F) {
	g := gen{rand.New(rand.NewPCG(3, 4))}
	for range 40 {
		f.Add(encodeValue(g.value(0)))
	}
	f.Add([]byte{vList, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := decodeValue(b)
		if err != nil {
			return
		}
		v2, err := decodeValue(encodeValue(v))
		if err != nil {
			t.Fatalf("a decoded value does not decode again: %v", err)
		}
		if !reflect.DeepEqual(v, v2) && !hasNaN(v) {
			t.Fatalf("%#v\nbecame %#v", v, v2)
		}
	})
}

// hasNaN reports a NaN inside x, which reflect.DeepEqual never finds
// equal to itself.
func hasNaN(x any) bool {
	s := fmt.Sprintf("%v", x)
	for i := 0; i+3 <= len(s); i++ {
		if s[i:i+3] == "NaN" {
			return true
		}
	}
	return false
}

// TestConnRefusesLargeFrame: a receiver refuses a frame past its bound
// from its length alone, and a frame cut short is an error.
func TestConnRefusesLargeFrame(t *testing.T) {
	pr, pw := io.Pipe()
	send := newConn(pr, pw, 1<<20)
	recv := newConn(pr, io.Discard, 100)
	go func() {
		send.send(&frame{T: tWrite, Data: make([]byte, 200)})
		pw.Close()
	}()
	if _, err := recv.recv(); err != errFrameTooLarge {
		t.Fatalf("a 200-byte frame with a bound of 100: %v", err)
	}
	io.Copy(io.Discard, pr)

	pr, pw = io.Pipe()
	recv = newConn(pr, io.Discard, 100)
	go func() {
		pw.Write([]byte{50, 1, 2, 3})
		pw.Close()
	}()
	if _, err := recv.recv(); err != io.ErrUnexpectedEOF {
		t.Fatalf("a frame cut short: %v", err)
	}
}
