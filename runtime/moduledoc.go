package runtime

import (
	"context"
	"fmt"
	"sort"
)

// ModuleDoc describes a host module to the models that write code against
// it and to type checkers: a one-line summary and, per function, a
// TypeScript signature and a one-line purpose. Give it next to the module
// in Options.ModuleDocs (nook.WithModuleDocs); the exec tool's description
// lists every described module with its functions, Runtime.Modules
// returns them, and js.Declarations writes them as a .d.ts.
type ModuleDoc struct {
	// Summary is one line: what the module is for.
	Summary string
	// Funcs documents the module's functions by name. A function the
	// module does not have is an error in New; a function left out is
	// listed with the signature (...args: any[]): Promise<any>.
	Funcs map[string]FuncDoc
	// Types holds TypeScript declarations (interfaces, type aliases) that
	// the signatures refer to; they are emitted inside the module's
	// declaration.
	Types string
}

// FuncDoc documents one host-module function.
type FuncDoc struct {
	// Signature is the function's TypeScript signature after its name,
	// as in a declaration: "(opts: { paths: string[] }): Promise<{ added: string[] }>".
	// Every host function returns a promise to the code that calls it.
	Signature string
	// Doc is one line: what the function does.
	Doc string
}

// ModuleInfo describes one registered host module (see Runtime.Modules).
type ModuleInfo struct {
	Name    string     `json:"name"`
	Summary string     `json:"summary,omitempty"`
	Types   string     `json:"types,omitempty"`
	Funcs   []FuncInfo `json:"functions"`
}

// FuncInfo describes one function of a host module.
type FuncInfo struct {
	Name      string `json:"name"`
	Signature string `json:"signature"`
	Doc       string `json:"doc,omitempty"`
}

// UndocumentedSignature is the signature listed for a function its module's
// ModuleDoc leaves out.
const UndocumentedSignature = "(...args: any[]): Promise<any>"

// ModulesModuleName is the module through which code lists the host modules
// at run time: the runtime registers it whenever Options.ModuleDocs is set
// (and the embedder has no module of that name), with one function,
// list(name?: string), that returns what Runtime.Modules does (one module's
// entry when name is given).
const ModulesModuleName = "ws:modules"

// modulesDoc is the description of ws:modules.
var modulesDoc = ModuleDoc{
	Summary: "lists the host modules code can import, with their functions' signatures",
	Funcs: map[string]FuncDoc{"list": {
		Signature: "(name?: string): Promise<{ name: string; summary?: string; functions: { name: string; signature: string; doc?: string }[] }[]>",
		Doc:       "every host module (or the one named) with its functions' TypeScript signatures and purposes",
	}},
}

// describeModules checks Options.ModuleDocs against the modules and, when
// there are docs, registers ws:modules. New calls it after checking the
// modules' names.
func (r *Runtime) describeModules() error {
	docs := r.opts.ModuleDocs
	if docs == nil {
		return nil
	}
	for name, d := range docs {
		m, ok := r.opts.Modules[name]
		if !ok {
			return fmt.Errorf("runtime: ModuleDocs describes %q, which is not a registered host module", name)
		}
		for fn := range d.Funcs {
			if m[fn] == nil {
				return fmt.Errorf("runtime: ModuleDocs describes %s/%s, which the module does not have", name, fn)
			}
		}
	}
	if _, taken := r.opts.Modules[ModulesModuleName]; taken {
		return nil
	}
	mods := make(map[string]Module, len(r.opts.Modules)+1)
	for k, v := range r.opts.Modules {
		mods[k] = v
	}
	mods[ModulesModuleName] = Module{"list": r.listModules}
	r.opts.Modules = mods
	d := make(map[string]ModuleDoc, len(docs)+1)
	for k, v := range docs {
		d[k] = v
	}
	d[ModulesModuleName] = modulesDoc
	r.opts.ModuleDocs = d
	return nil
}

// listModules serves ws:modules/list.
func (r *Runtime) listModules(_ context.Context, _ *CallContext, args []any) (any, error) {
	var name string
	if len(args) > 0 && args[0] != nil {
		s, ok := args[0].(string)
		if !ok {
			return nil, &CallError{Code: "EINVAL", Message: "list takes a module name, e.g. list(\"ws:tools\"), or nothing"}
		}
		name = s
	}
	out := []any{}
	for _, m := range r.Modules() {
		if name != "" && m.Name != name {
			continue
		}
		fns := make([]any, len(m.Funcs))
		for i, f := range m.Funcs {
			e := map[string]any{"name": f.Name, "signature": f.Signature}
			if f.Doc != "" {
				e["doc"] = f.Doc
			}
			fns[i] = e
		}
		e := map[string]any{"name": m.Name, "functions": fns}
		if m.Summary != "" {
			e["summary"] = m.Summary
		}
		out = append(out, e)
	}
	if name != "" && len(out) == 0 {
		return nil, &CallError{Code: "ERR_HOST_MODULE", Message: fmt.Sprintf("there is no host module %q", name)}
	}
	return out, nil
}

// Modules describes the host modules code can import, sorted by name, each
// with its functions sorted by name and documented from Options.ModuleDocs.
func (r *Runtime) Modules() []ModuleInfo {
	names := make([]string, 0, len(r.opts.Modules))
	for n := range r.opts.Modules {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]ModuleInfo, 0, len(names))
	for _, n := range names {
		d := r.opts.ModuleDocs[n]
		mi := ModuleInfo{Name: n, Summary: d.Summary, Types: d.Types}
		fns := make([]string, 0, len(r.opts.Modules[n]))
		for fn := range r.opts.Modules[n] {
			fns = append(fns, fn)
		}
		sort.Strings(fns)
		for _, fn := range fns {
			fd := d.Funcs[fn]
			if fd.Signature == "" {
				fd.Signature = UndocumentedSignature
			}
			mi.Funcs = append(mi.Funcs, FuncInfo{Name: fn, Signature: fd.Signature, Doc: fd.Doc})
		}
		out = append(out, mi)
	}
	return out
}
