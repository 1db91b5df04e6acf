package host

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
