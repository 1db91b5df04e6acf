package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
)

// An embedder's module, described, is listed in the exec description with
// its functions, and code lists its signatures from ws:modules.
func TestExecDescriptionListsModules(t *testing.T) {
	orders := runtime.Module{
		"lookup": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) { return "shipped", nil },
		"cancel": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) { return true, nil },
	}
	doc := runtime.ModuleDoc{Summary: "the shop's orders", Funcs: map[string]runtime.FuncDoc{
		"lookup": {Signature: "(id: string): Promise<{ status: string }>", Doc: "an order's status"},
	}}
	s, ws := newExecSet(t, Options{},
		nook.WithModules(map[string]runtime.Module{"ws:orders": orders}),
		nook.WithModuleDocs(map[string]runtime.ModuleDoc{"ws:orders": doc}))
	d := s.Tool("exec").Description
	want := `Host modules code can import (import { f } from "ws:name"; each function returns a promise):
- ws:orders: the shop's orders. Functions: cancel, lookup
List every module with its functions' TypeScript signatures at run time: (await import("ws:modules")).list().`
	if !strings.HasSuffix(d, "\n"+want) {
		t.Errorf("description ends:\n%s\nwant:\n%s", d[strings.LastIndex(d, "Long output"):], want)
	}
	mods := ws.Runtime().Modules()
	got, _ := json.Marshal(mods)
	wantMods := `[{"name":"ws:modules","summary":"lists the host modules code can import, with their functions' signatures","functions":[{"name":"list","signature":"(name?: string): Promise\u003c{ name: string; summary?: string; functions: { name: string; signature: string; doc?: string }[] }[]\u003e","doc":"every host module (or the one named) with its functions' TypeScript signatures and purposes"}]},` +
		`{"name":"ws:orders","summary":"the shop's orders","functions":[{"name":"cancel","signature":"(...args: any[]): Promise\u003cany\u003e"},{"name":"lookup","signature":"(id: string): Promise\u003c{ status: string }\u003e","doc":"an order's status"}]}]`
	if string(got) != wantMods {
		t.Errorf("Modules() = %s\nwant %s", got, wantMods)
	}
}

// Without docs the modules are still listed, by their functions' names,
// and there is no ws:modules.
func TestExecDescriptionUndocumentedModules(t *testing.T) {
	f := func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) { return nil, nil }
	s, ws := newExecSet(t, Options{}, nook.WithModules(map[string]runtime.Module{"ws:kv": {"get": f, "put": f}}))
	d := s.Tool("exec").Description
	want := "\nHost modules code can import (import { f } from \"ws:name\"; each function returns a promise):\n- ws:kv: get, put"
	if !strings.HasSuffix(d, want) {
		t.Errorf("description = %q", d)
	}
	if n := len(ws.Runtime().Modules()); n != 1 {
		t.Errorf("%d modules, want 1 (no ws:modules without docs)", n)
	}
}

// A long list is summarised within ExecOptions.MaxModulesBytes.
func TestExecDescriptionModulesBudget(t *testing.T) {
	f := func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) { return nil, nil }
	mods := map[string]runtime.Module{}
	docs := map[string]runtime.ModuleDoc{}
	for i := range 40 {
		m := runtime.Module{}
		for j := range 30 {
			m[fmt.Sprintf("function%02d", j)] = f
		}
		name := fmt.Sprintf("ws:mod%02d", i)
		mods[name] = m
		docs[name] = runtime.ModuleDoc{Summary: strings.Repeat("word ", 10)}
	}
	s, _ := newExecSet(t, Options{Exec: ExecOptions{MaxModulesBytes: 1500}},
		nook.WithModules(mods), nook.WithModuleDocs(docs))
	d := s.Tool("exec").Description
	part := d[strings.Index(d, "Host modules"):]
	if len(part) > 1500 {
		t.Errorf("modules part is %d bytes, over the budget 1500:\n%s", len(part), part)
	}
	for _, w := range []string{
		"- ws:mod00: word word word word word word word word word word. Functions: function00, function01, function02, … (30 functions in all)\n",
		"- and 31 more: ws:mod09, ws:mod10, ws:mod11, ",
		`(await import("ws:modules")).list()`,
	} {
		if !strings.Contains(part, w) {
			t.Errorf("modules part lacks %q:\n%s", w, part)
		}
	}
	if !strings.Contains(part, "- and ") {
		t.Errorf("modules past the budget are not named in one line:\n%s", part)
	}
}

// ws:tools describes itself from the tools' schemas, and a JavaScript run
// lists it from ws:modules.
func TestModuleDocFromCode(t *testing.T) {
	opts := Options{}
	mod, bind := LateModule(opts)
	ws, err := nook.OpenMemory(bg, nook.WithBackends(js.New(js.Options{})),
		nook.WithModules(map[string]runtime.Module{ModuleName: mod}),
		nook.WithModuleDocs(map[string]runtime.ModuleDoc{ModuleName: LateModuleDoc(opts)}))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	bind(New(ws.FS(), Options{Runtime: ws.Runtime()}))
	h, err := ws.Runtime().Exec(bg, `import { list } from "ws:modules";
export default async () => {
  const [m] = await list("ws:tools");
  return m.functions.filter(f => f.name === "read" || f.name === "delete").map(f => f.name + f.signature + " // " + f.doc);
};`, runtime.ExecOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(bg)
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("%v %s %s", err, res.Stderr, res.Error)
	}
	want := `["delete(input: DeleteInput): Promise<DeleteOutput> // Delete a file, symlink or empty directory; with recursive, a directory and everything in it","read(input: ReadInput): Promise<ReadOutput> // Read a file"]`
	if string(res.Value) != want {
		t.Errorf("value = %s\nwant    %s", res.Value, want)
	}
	d := LateModuleDoc(opts)
	for _, w := range []string{"interface ReadInput {\n", "  path: string;\n", "interface ExecInput {\n", "interface EditInput {\n  /** Return the diff that would be applied, changing nothing */\n  dryRun?: boolean;\n  edits: {\n    newText: string;\n"} {
		if !strings.Contains(d.Types, w) {
			t.Errorf("Types lacks %q", w)
		}
	}
}
