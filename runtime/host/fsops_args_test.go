package host

import (
	"math"
	"reflect"
	"testing"
	"time"
)

// The typed codec reads each op's arguments in field order: the first bad
// one is the error, with the op, the name and the type wanted; absent
// optional arguments take their defaults.
func TestArgsDecode(t *testing.T) {
	errOf := func(op string, m map[string]any) string {
		t.Helper()
		_, err := fsOpTable[op](&FSOps{}, t.Context(), fsArgs{op: op, m: m})
		if err == nil {
			return ""
		}
		return err.Error()
	}
	for _, c := range []struct {
		op   string
		m    map[string]any
		want string
	}{
		{"writeFile", map[string]any{}, `EINVAL: invalid argument, fs op "writeFile" needs path as a string`},
		{"writeFile", map[string]any{"path": "/a", "data": 1}, `EINVAL: invalid argument, fs op "writeFile" needs data as bytes`},
		{"writeFile", map[string]any{"path": "/a", "data": "x", "flag": 2}, `EINVAL: invalid argument, fs op "writeFile" needs flag as a string`},
		{"writeFile", map[string]any{"path": "/a", "data": "x", "mode": 1.5}, `EINVAL: invalid argument, fs op "writeFile" needs mode as an integer`},
		{"pread", map[string]any{"path": "/a", "offset": float64(1 << 54)}, `EINVAL: invalid argument, fs op "pread" needs offset as an integer`},
		{"pread", map[string]any{"path": "/a", "offset": 0}, `EINVAL: invalid argument, fs op "pread" needs length as an integer`},
		{"copyFile", map[string]any{"flags": "x", "from": 1}, `EINVAL: invalid argument, fs op "copyFile" needs flags as an integer`},
		{"copyFile", map[string]any{"flags": nil, "from": 1}, `EINVAL: invalid argument, fs op "copyFile" needs from as a string`},
		{"symlink", map[string]any{"path": "/a"}, `EINVAL: invalid argument, fs op "symlink" needs target as a string`},
		{"cp", map[string]any{"force": "yes"}, `EINVAL: invalid argument, fs op "cp" needs force as a boolean`},
		{"utimes", map[string]any{"path": "/a", "atimeNs": "12x"}, `EINVAL: invalid argument, fs op "utimes" needs atimeNs as decimal nanoseconds`},
		{"utimes", map[string]any{"path": "/a", "atimeMs": math.Inf(1)}, `EINVAL: invalid argument, fs op "utimes" needs atimeMs as a finite number`},
		{"utimes", map[string]any{"path": "/a", "atimeMs": 1.0}, `EINVAL: invalid argument, fs op "utimes" needs mtimeMs as a number`},
		{"changes", map[string]any{"since": true}, `EINVAL: invalid argument, fs op "changes" needs since as an integer`},
	} {
		if got := errOf(c.op, c.m); got != c.want {
			t.Errorf("%s %v:\n got %q\nwant %q", c.op, c.m, got, c.want)
		}
	}

	// Defaults, and values read as their types.
	var open openArgs
	if err := planArgs(reflect.TypeFor[openArgs]()).decode(fsArgs{op: "open", m: map[string]any{"path": "/a", "flags": nil}}, reflect.ValueOf(&open).Elem()); err != nil {
		t.Fatal(err)
	}
	if open != (openArgs{Path: "/a", Flags: 0, Mode: 0o666}) {
		t.Errorf("open defaults: %+v", open)
	}
	var cp cpArgs
	if err := planArgs(reflect.TypeFor[cpArgs]()).decode(fsArgs{op: "cp", m: map[string]any{"from": "/a", "to": "/b", "recursive": true}}, reflect.ValueOf(&cp).Elem()); err != nil {
		t.Fatal(err)
	}
	if cp != (cpArgs{Recursive: true, Force: true, From: "/a", To: "/b"}) {
		t.Errorf("cp: %+v", cp)
	}
	var ut utimesArgs
	if err := planArgs(reflect.TypeFor[utimesArgs]()).decode(fsArgs{op: "utimes", m: map[string]any{"path": "/a", "atimeNs": "1500000001", "mtimeMs": 2500.5}}, reflect.ValueOf(&ut).Elem()); err != nil {
		t.Fatal(err)
	}
	if !time.Time(ut.Atime).Equal(time.Unix(1, 500000001)) || !time.Time(ut.Mtime).Equal(time.Unix(2, 500500000)) {
		t.Errorf("utimes: %v %v", time.Time(ut.Atime), time.Time(ut.Mtime))
	}
	var wf writeFileArgs
	if err := planArgs(reflect.TypeFor[writeFileArgs]()).decode(fsArgs{op: "writeFile", m: map[string]any{"path": "/a", "data": []byte("hi")}}, reflect.ValueOf(&wf).Elem()); err != nil {
		t.Fatal(err)
	}
	if wf.Flag != "w" || string(wf.Data) != "hi" || wf.Mode != 0 {
		t.Errorf("writeFile: %+v", wf)
	}
}

// A declaration the codec cannot read is a bug, found when the table is
// built.
func TestArgsPlanRefuses(t *testing.T) {
	for name, typ := range map[string]reflect.Type{
		"no tag": reflect.TypeFor[struct{ Path string }](),
		"default required": reflect.TypeFor[struct {
			N int64 `arg:"n" def:"1"`
		}](),
		"bad type": reflect.TypeFor[struct {
			N int `arg:"n"`
		}](),
		"bad default": reflect.TypeFor[struct {
			N int64 `arg:"n,opt" def:"x"`
		}](),
		"required bool": reflect.TypeFor[struct {
			B bool `arg:"b"`
		}](),
		"optional bytes": reflect.TypeFor[struct {
			D []byte `arg:"d,opt"`
		}](),
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: planArgs did not refuse", name)
				}
			}()
			planArgs(typ)
		}()
	}
}

// The codec's cost per call, beside the hand-written decode it replaced
// (the same accessors, called one by one).
func BenchmarkArgsDecode(b *testing.B) {
	m := map[string]any{"path": "/workspace/a.txt", "data": []byte("hello"), "flag": "w", "mode": float64(0o644)}
	a := fsArgs{op: "writeFile", m: m}
	b.Run("codec", func(b *testing.B) {
		plan := planArgs(reflect.TypeFor[writeFileArgs]())
		for b.Loop() {
			var w writeFileArgs
			if err := plan.decode(a, reflect.ValueOf(&w).Elem()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("by-hand", func(b *testing.B) {
		for b.Loop() {
			var w writeFileArgs
			var err error
			if w.Path, err = a.str("path"); err != nil {
				b.Fatal(err)
			}
			if w.Data, err = a.bytes("data"); err != nil {
				b.Fatal(err)
			}
			if w.Flag, err = a.optStr("flag", "w"); err != nil {
				b.Fatal(err)
			}
			if w.Mode, err = a.optNum("mode", 0); err != nil {
				b.Fatal(err)
			}
		}
	})
}
