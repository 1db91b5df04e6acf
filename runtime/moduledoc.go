package runtime

import (
	"context"
	"fmt"
	"sort"
)

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
