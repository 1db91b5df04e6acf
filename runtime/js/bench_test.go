package js_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/nookdev/nook/runtime"
)

// BenchmarkWarmExec is a trivial module end to end with the transform
// cached: Prepare (a cache hit) and Run.
func BenchmarkWarmExec(b *testing.B) {
	t := &testing.T{}
	e := newEnv(t)
	s := spec{src: `export default (input) => ({ n: input.n + 1 })`, input: `{"n":1}`}
	host := runtime.NewHost(runtime.HostConfig{FS: e.ws.FS(), Root: "/workspace", RunID: "b",
		Output: func(runtime.Stream, []byte) error { return nil }})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		p, err := e.b.Prepare(ctx, e.ws.FS(), e.request(s))
		if err != nil {
			b.Fatal(err)
		}
		if ex := p.Run(ctx, host); ex.Code != 0 || string(ex.Value) != `{"n":2}` {
			b.Fatalf("%+v", ex)
		}
	}
}

// BenchmarkWarmExecConsole adds console.log of an object and a timer.
func BenchmarkWarmExecConsole(b *testing.B) {
	t := &testing.T{}
	e := newEnv(t)
	s := spec{src: `export default async (input) => { console.log("n", input); await new Promise((r) => setTimeout(r, 0)); return 1 }`, input: `{"n":1}`}
	host := runtime.NewHost(runtime.HostConfig{FS: e.ws.FS(), Root: "/workspace", RunID: "b",
		Output: func(runtime.Stream, []byte) error { return nil }})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		p, err := e.b.Prepare(ctx, e.ws.FS(), e.request(s))
		if err != nil {
			b.Fatal(err)
		}
		if ex := p.Run(ctx, host); ex.Code != 0 {
			b.Fatalf("%+v", ex)
		}
	}
}

// BenchmarkColdPrepareTS transforms and compiles a TypeScript module that
// was never seen (a different source each time).
func BenchmarkColdPrepareTS(b *testing.B) {
	t := &testing.T{}
	e := newEnv(t)
	ctx := context.Background()
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		i++
		s := spec{src: fmt.Sprintf(`
interface Order { id: number; total: number }
type Totals = Record<string, number>;
const tag = %d;
export default async function (input: { orders: Order[] }): Promise<Totals> {
  const out: Totals = {};
  for (const o of input.orders) out[String(o.id)] = (out[String(o.id)] ?? 0) + o.total;
  return out;
}`, i)}
		if _, err := e.b.Prepare(ctx, e.ws.FS(), e.request(s)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJSONRoundTrip stringifies and parses a 2,000-element array of
// small objects in one run: the cost of the guarded JSON.stringify (its
// internal replacer) and JSON.parse (the nesting scan).
func BenchmarkJSONRoundTrip(b *testing.B) {
	t := &testing.T{}
	e := newEnv(t)
	s := spec{src: `export default () => {
  const a = [];
  for (let i = 0; i < 2000; i++) a.push({ id: i, name: "item" + i, tags: ["a", "b"], ok: i % 2 === 0 });
  let n = 0;
  for (let k = 0; k < 5; k++) n += JSON.parse(JSON.stringify(a)).length;
  return n;
}`}
	host := runtime.NewHost(runtime.HostConfig{FS: e.ws.FS(), Root: "/workspace", RunID: "b",
		Output: func(runtime.Stream, []byte) error { return nil }})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		p, err := e.b.Prepare(ctx, e.ws.FS(), e.request(s))
		if err != nil {
			b.Fatal(err)
		}
		if ex := p.Run(ctx, host); ex.Code != 0 || string(ex.Value) != `10000` {
			b.Fatalf("%+v", ex)
		}
	}
}

// BenchmarkWarmExecBuffer reads a file as a Buffer (node:buffer's npm
// implementation is evaluated on first use).
func BenchmarkWarmExecBuffer(b *testing.B) {
	t := &testing.T{}
	e := newEnv(t)
	e.write("/workspace/a.txt", "hello")
	s := spec{src: `import fs from "node:fs"; export default () => fs.readFileSync("a.txt").toString("hex")`}
	host := runtime.NewHost(runtime.HostConfig{FS: e.ws.FS(), Root: "/workspace", RunID: "b",
		Output: func(runtime.Stream, []byte) error { return nil }})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		p, err := e.b.Prepare(ctx, e.ws.FS(), e.request(s))
		if err != nil {
			b.Fatal(err)
		}
		if ex := p.Run(ctx, host); ex.Code != 0 {
			b.Fatalf("%+v", ex)
		}
	}
}

// BenchmarkWarmExecStream pipes a file through a Transform (node:stream's
// readable-stream is evaluated on first use).
func BenchmarkWarmExecStream(b *testing.B) {
	t := &testing.T{}
	e := newEnv(t)
	e.write("/workspace/a.txt", "hello")
	s := spec{src: `import fs from "node:fs"; import { Transform } from "node:stream"; import { pipeline } from "node:stream/promises";
export default async () => { const parts = []; await pipeline(fs.createReadStream("a.txt"),
  new Transform({ transform(c, e, cb) { parts.push(String(c)); cb() } })); return parts.join("") }`}
	host := runtime.NewHost(runtime.HostConfig{FS: e.ws.FS(), Root: "/workspace", RunID: "b",
		Output: func(runtime.Stream, []byte) error { return nil }})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		p, err := e.b.Prepare(ctx, e.ws.FS(), e.request(s))
		if err != nil {
			b.Fatal(err)
		}
		if ex := p.Run(ctx, host); ex.Code != 0 {
			b.Fatalf("%+v", ex)
		}
	}
}
