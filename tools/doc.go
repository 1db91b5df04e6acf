// Package tools holds the model-facing tools over a workspace: read, ls,
// find, grep, write, edit, delete, move and patch, and exec, which runs code
// on the workspace's runtime.
//
// Every tool has one canonical contract (Tool): a name, a short
// description, hand-written JSON schemas for its input and output, and
// Call, which takes the model's JSON arguments and returns a Result. A
// model's mistake (a missing file, an edit that does not match, a bad
// argument) is a Result with IsError set and a message the model can act
// on; Call returns a Go error only when the context ends. Adapters (MCP,
// OpenAI, Anthropic) translate this contract and hold no logic of their own.
//
// There is one call path: Set.Call, (*Tool).Call (which is Set.Call of its
// tool), ws:tools from code, MCP over stdio and HTTP, the adapters and the
// command line all run a call through the set's hooks (Options.Hooks), so
// a block, an approval or a redaction holds whichever way a tool is
// reached.
//
// Mutating tools take per-path locks shared by every Set over the same
// workspace in this process, and do their read-modify-write inside one
// workspace transaction, so they stay correct against other processes too.
//
// Module (and LateModule) make a set's tools a host module, "ws:tools",
// that sandboxed code calls with the tools' JSON inputs; package
// tools/git is the "ws:git" module.
package tools
