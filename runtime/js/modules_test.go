package js_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
)

func TestTypeScript(t *testing.T) {
	e := newEnv(t)
	r := e.ok(spec{src: `
interface Order { id: number; total: number }
type Sum = (xs: Order[]) => number;
enum Color { Red = "red", Green = "green" }
const sum: Sum = (xs) => xs.reduce((a, o) => a + o.total, 0);
class Box<T> { constructor(private readonly v: T) {} get(): T { return this.v } }
export default function (input: { orders: Order[] }): { total: number; color: Color; boxed: string } {
  return { total: sum(input.orders), color: Color.Green, boxed: new Box<string>("b").get() };
}`, input: `{"orders":[{"id":1,"total":2.5},{"id":2,"total":4}]}`})
	if got := r.value(); got != `{"total":6.5,"color":"green","boxed":"b"}` {
		t.Errorf("value = %s", got)
	}
}

func TestRelativeImports(t *testing.T) {
	e := newEnv(t)
	e.write("/workspace/lib/math.ts", `import { twice } from "./util/twice.js"; export const add = (a: number, b: number) => twice(a) + b;`)
	e.write("/workspace/lib/util/twice.js", `export function twice(x) { return 2 * x }`)
	e.write("/workspace/lib/data.json", `{"k": 7}`)
	e.write("/workspace/lib/lazy.ts", `export const lazy = "loaded";`)
	e.write("/workspace/lib/index.ts", `export const fromIndex = 1;`)
	r := e.ok(spec{src: `
import { add } from "./lib/math.ts";
import data from "./lib/data.json";
import { fromIndex } from "./lib";
export default async function () {
  const m = await import("./lib/lazy.ts");
  return [add(1, 2), data.k, m.lazy, fromIndex];
}`})
	if got := r.value(); got != `[4,7,"loaded",1]` {
		t.Errorf("value = %s", got)
	}
}

func TestImportErrors(t *testing.T) {
	e := newEnv(t)
	e.write("/workspace/a.ts", "export const x = 1;")
	cases := []struct{ src, want string }{
		{`import x from "/workspace/a.ts"; x`, "use a relative import"},
		{`import x from "../etc/passwd"; x`, "outside /workspace"},
		{`import x from "./missing"; x`, `cannot find module "./missing"`},
		{`import x from "lodash"; x`, `cannot find module "lodash"; available modules: node:assert`},
		{`import { f } from "ws:nope"; f`, `unknown host module "ws:nope"`},
		{"const a = 1;\nconst b = ;\n", "main.ts:2:11: Unexpected \";\""},
		{`import { y } from "./a.ts"; y`, `No matching export in "a.ts" for import "y"`},
	}
	for _, c := range cases {
		_, err := e.prepareErr(spec{src: c.src})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.src, err, c.want)
		}
	}
}

func TestSourceLimits(t *testing.T) {
	e := newEnv(t)
	e.write("/workspace/big.ts", "export const s = \""+strings.Repeat("x", 2000)+"\";")
	for i := range 5 {
		e.write(fmt.Sprintf("/workspace/d%d.ts", i), fmt.Sprintf(`import "./d%d.ts"; export const v = %d;`, i+1, i))
	}
	e.write("/workspace/d5.ts", `export const v = 5;`)
	cases := []struct {
		src   string
		l     runtime.Limits
		limit string
	}{
		{`import {s} from "./big.ts"; s`, runtime.Limits{MaxSourceBytes: 1000}, "MaxSourceBytes"},
		{`import "./d0.ts"`, runtime.Limits{MaxModuleDepth: 3}, "MaxModuleDepth"},
		{`import "./d0.ts"`, runtime.Limits{MaxModules: 4}, "MaxModules"},
	}
	for _, c := range cases {
		_, err := e.prepareErr(spec{src: c.src, limits: c.l})
		var le *runtime.LimitError
		if !errors.As(err, &le) || le.Limit != c.limit {
			t.Errorf("%s: err = %v, want limit %s", c.src, err, c.limit)
		}
	}
	_, err := e.prepareErr(spec{src: `export default 1`, input: `"` + strings.Repeat("i", 100) + `"`, limits: runtime.Limits{MaxInputBytes: 50}})
	var le *runtime.LimitError
	if !errors.As(err, &le) || le.Limit != "MaxInputBytes" {
		t.Errorf("input: err = %v", err)
	}
}

func TestTopLevelAwaitAndNoDefault(t *testing.T) {
	e := newEnv(t)
	r := e.ok(spec{src: `
const v = await new Promise((res) => setTimeout(() => res(5), 5));
console.log("tla", v);`})
	if r.stdout != "tla 5\n" || r.exit.Value != nil {
		t.Errorf("stdout %q value %s", r.stdout, r.exit.Value)
	}
	r = e.ok(spec{src: `export default { a: [1, null, "x"] }`})
	if r.value() != `{"a":[1,null,"x"]}` {
		t.Errorf("non-function default: %s", r.value())
	}
}

func TestHostModules(t *testing.T) {
	e := newEnv(t)
	mods := map[string]runtime.Module{"ws:orders": {
		"lookup": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
			return map[string]any{"id": args[0], "total": 10}, nil
		},
		"fail": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
			return nil, errors.New("no such order")
		},
	}}
	r := e.ok(spec{modules: mods, src: `
import { lookup, fail } from "ws:orders";
import orders from "ws:orders";
export default async function () {
  const a = await lookup(7);
  let msg = "";
  try { await fail() } catch (e) { msg = e.message + "/" + e.code }
  return { a, msg, same: orders.lookup === lookup };
}`})
	if got := r.value(); got != `{"a":{"id":7,"total":10},"msg":"no such order/ERR_HOST_MODULE","same":true}` {
		t.Errorf("value = %s", got)
	}
	_, err := e.prepareErr(spec{modules: mods, src: `import { lookupp } from "ws:orders"; lookupp()`})
	if err == nil || !strings.Contains(err.Error(), `No matching export in "ws:orders" for import "lookupp"`) {
		t.Errorf("misspelt import: %v", err)
	}
}

func TestHostCallOrderIsDeterministic(t *testing.T) {
	e := newEnv(t)
	mods := map[string]runtime.Module{"ws:slow": {
		"echo": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
			n := int(args[0].(float64))
			// Later calls finish first.
			select {
			case <-ctx.Done():
			case <-after(msec(10 - n)):
			}
			return n, nil
		},
	}}
	src := `
import { echo } from "ws:slow";
export default async function () {
  const order = [];
  await Promise.all([0,1,2,3,4,5,6,7,8,9].map((i) => echo(i).then((v) => order.push(v))));
  return order;
}`
	p := e.prepare(spec{src: src, modules: mods})
	for range 10 {
		r := e.runProgram(p, spec{modules: mods})
		if r.value() != `[0,1,2,3,4,5,6,7,8,9]` {
			t.Fatalf("order = %s (%s)", r.value(), r.stderr)
		}
	}
}

func TestFetchDenied(t *testing.T) {
	e := newEnv(t)
	r := e.ok(spec{src: `
export default async function () {
  try { await fetch("https://example.com"); return "fetched" } catch (e) { return e.name + ": " + e.message }
}`})
	if got := r.value(); got != `"TypeError: fetch is not available: the workspace has no outbound network policy"` {
		t.Errorf("value = %s", got)
	}
}

func TestFetchAllowed(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(201)
		fmt.Fprintf(w, `{"method":%q,"auth":%q,"body":%q}`, r.Method, r.Header.Get("Authorization"), body)
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	e := newEnv(t)
	r := e.ok(spec{outbound: &runtime.Outbound{AllowHosts: []string{u.Host}}, input: fmt.Sprintf(`{"url":%q}`, srv.URL), src: `
export default async function ({ url }) {
  const res = await fetch(url + "/x", { method: "POST", headers: { Authorization: "Bearer t" }, body: "hello" });
  const denied = await fetch("https://example.com/").then(() => "fetched", (e) => e.message);
  return { status: res.status, ok: res.ok, type: res.headers.get("content-type"), json: await res.json(), denied };
}`})
	want := `{"status":201,"ok":true,"type":"application/json","json":{"method":"POST","auth":"Bearer t","body":"hello"},` +
		`"denied":"fetch: example.com is not in the workspace's allowed hosts"}`
	if r.value() != want {
		t.Errorf("value = %s\nwant    %s", r.value(), want)
	}
}

func TestConfiguredModules(t *testing.T) {
	e := newEnv(t, js.Options{Modules: map[string]string{"lodash-lite": `export const chunk = (a, n) => { const o = []; for (let i = 0; i < a.length; i += n) o.push(a.slice(i, i + n)); return o; };`}})
	r := e.ok(spec{src: `import { chunk } from "lodash-lite"; export default () => chunk([1,2,3,4,5], 2);`})
	if r.value() != `[[1,2],[3,4],[5]]` {
		t.Errorf("value = %s", r.value())
	}
	if !strings.Contains(e.b.Info().Description, "lodash-lite") {
		t.Errorf("description does not name the configured module")
	}
}

func TestCacheInvalidation(t *testing.T) {
	e := newEnv(t)
	e.write("/workspace/v.ts", `export const v = 1;`)
	src := `import { v } from "./v"; export default () => v;`
	if r := e.ok(spec{src: src}); r.value() != "1" {
		t.Fatalf("first: %s", r.value())
	}
	e.write("/workspace/v.ts", `export const v = 2;`)
	if r := e.ok(spec{src: src}); r.value() != "2" {
		t.Fatalf("after change: %s", r.value())
	}
	// A file that shadows an earlier probe (v.ts is found after v.tsx? no:
	// .ts comes first) — an index created where a probe missed.
	e.write("/workspace/w/index.js", `export const v = "index";`)
	src2 := `import { v } from "./w"; export default () => v;`
	if r := e.ok(spec{src: src2}); r.value() != `"index"` {
		t.Fatalf("index: %s", r.value())
	}
	e.write("/workspace/w.ts", `export const v = "file";`)
	if r := e.ok(spec{src: src2}); r.value() != `"file"` {
		t.Fatalf("after a probed path appeared: %s", r.value())
	}
}
