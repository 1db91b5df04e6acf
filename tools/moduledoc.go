package tools

import (
	"strings"

	"github.com/nookdev/nook/runtime"
)

// ModuleSummary is the one-line description of the ws:tools module.
const ModuleSummary = "the workspace tools as functions: each takes the tool's input object and returns its structured result; a failed call throws an Error with code ERR_TOOL"

// ModuleDoc describes set's ws:tools module (see [Module]) for
// runtime.Options.ModuleDocs or nook.WithModuleDocs: each function's
// TypeScript signature is generated from its tool's input and output
// schemas (interfaces named ReadInput, ReadOutput, ...), and its purpose is
// the first sentence of the tool's description.
func ModuleDoc(set *Set) runtime.ModuleDoc {
	d := runtime.ModuleDoc{Summary: ModuleSummary, Funcs: map[string]runtime.FuncDoc{}}
	var types strings.Builder
	for _, t := range set.tools {
		base := typeBase(t.Name)
		out := "any"
		if len(t.OutputSchema) > 0 {
			out = base + "Output"
		}
		d.Funcs[t.Name] = runtime.FuncDoc{
			Signature: "(input: " + base + "Input): Promise<" + out + ">",
			Doc:       firstSentence(t.Description),
		}
		types.WriteString("interface " + base + "Input " + asInterface(tsType(t.InputSchema, "")) + "\n")
		if out != "any" {
			types.WriteString("interface " + base + "Output " + asInterface(tsType(t.OutputSchema, "")) + "\n")
		}
	}
	d.Funcs["call"] = runtime.FuncDoc{
		Signature: "(input: { tool: string; input?: any; approve?: string }): Promise<ToolResult>",
		Doc:       "call a tool by name and get its whole result (text content, structured value, isError) instead of an exception; approve makes the call wait for a person's approval",
	}
	types.WriteString(`interface ToolResult {
  content: { type: "text" | "image" | "document" | "resource_link"; text?: string; mimeType?: string; data?: string; uri?: string; name?: string }[];
  structured?: any;
  isError?: boolean;
}
`)
	d.Types = types.String()
	return d
}

// LateModuleDoc describes the module [LateModule] returns for opts. Its
// exec function (unless opts.ReadOnly) is described as a set over
// opts.Runtime has it, or with every backend's input when opts.Runtime is
// nil.
func LateModuleDoc(opts Options) runtime.ModuleDoc {
	d := ModuleDoc(New(nil, opts))
	if opts.ReadOnly || opts.Runtime != nil {
		return d
	}
	d.Funcs["exec"] = runtime.FuncDoc{
		Signature: "(input: ExecInput): Promise<ExecOutput>",
		Doc:       "run code in a sandbox over the workspace files and get its exit status and output",
	}
	d.Types += `interface ExecInput {
  command: string;
  backend?: string;
  input?: any;
  cwd?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}
interface ExecOutput {
  id: string;
  backend: string;
  status: "completed" | "failed" | "cancelled" | "timed_out";
  exitCode: number;
  stdout: string;
  stderr: string;
  value?: any;
  stdoutPath?: string;
  stderrPath?: string;
  stdoutBytes: number;
  stderrBytes: number;
  durationMs: number;
  error?: string;
}
`
	return d
}

// typeBase is a tool's name as a type-name prefix: "read" → "Read".
func typeBase(name string) string {
	var b strings.Builder
	up := true
	for _, r := range name {
		if !tsIdent(string(r)) {
			up = true
			continue
		}
		if up && r >= 'a' && r <= 'z' {
			r -= 'a' - 'A'
		}
		up = false
		b.WriteRune(r)
	}
	return b.String()
}

// asInterface makes a rendered type usable as an interface body.
func asInterface(t string) string {
	if strings.HasPrefix(t, "{") {
		return t
	}
	return "{ [key: string]: any }"
}

// firstSentence is the first sentence (or line) of a description, at most
// 160 bytes.
func firstSentence(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSuffix(s, ".")
	if len(s) > 160 {
		cut := strings.LastIndexByte(s[:160], ' ')
		if cut < 80 {
			cut = 157
		}
		s = s[:cut] + "…"
	}
	return s
}
