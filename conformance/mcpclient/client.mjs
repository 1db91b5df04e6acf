// The MCP script of cmd/nook/mcp_ts_test.go: the official TypeScript SDK's
// client connects to nook (stdio: it starts "nook --db DB [--isolation I]
// mcp"; http: it dials a "nook serve" URL with a bearer token), lists the
// tools (the client then validates every result of a tool that has an
// outputSchema against it, and throws on a mismatch), runs the calls
// below in order and prints one JSON document: for each call its name, its
// arguments and the result, or what the client threw.
//
//   node client.mjs stdio NOOK DB ISOLATION
//   node client.mjs http URL TOKEN
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, a, b, c] = process.argv.slice(2);
let transport;
if (mode === "stdio") {
  transport = new StdioClientTransport({
    command: a,
    args: ["--db", b, "--isolation", c, "mcp"],
    env: { ...process.env, NOOK_DB: "" },
    stderr: "inherit",
  });
} else if (mode === "http") {
  transport = new StreamableHTTPClientTransport(new URL(a), {
    requestInit: { headers: { Authorization: "Bearer " + b } },
  });
} else {
  console.error("usage: client.mjs stdio NOOK DB ISOLATION | http URL TOKEN");
  process.exit(2);
}

// A WebAssembly module (WASI preview1) that writes "hi from wasm\n": every
// byte is below 0x80, so it crosses JSON as a string of the same bytes.
const wasm = Buffer.from("0061736d01000000010c0260047f7f7f7f017f60000002230116776173695f736e617073686f745f70726576696577310866645f77726974650000030201010503010001071302066d656d6f72790200065f737461727400010a0f010d00410141004101412010001a0b0b20020041000b08100000000d0000000041100b0d68692066726f6d207761736d0a", "hex").toString("latin1");

const W = "/workspace";
const mainGo = 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("hello")\n}\n';
const calls = [
  ["write", { path: W + "/src/main.go", content: mainGo }],
  ["write", { path: W + "/src/util.go", content: "package main\n\nfunc add(a, b int) int { return a + b }\n" }],
  ["write", { path: W + "/notes.md", content: "# Notes\nTODO: one\ntodo: two\n" }],
  ["write", { path: W + "/data/empty.txt", content: "" }],
  ["write", { path: W + "/notes.md", content: "# Notes\nTODO: one\ntodo: two\nthree\n" }],
  ["read", { path: W + "/notes.md" }],
  ["read", { path: W + "/src/main.go", offset: 3, limit: 2 }],
  ["read", { path: W + "/no/such/file" }],
  ["read", { path: W + "/src" }],
  ["read", { path: W + "/notes.md", tail: 2 }],
  ["read", { paths: [W + "/notes.md", W + "/no/such/file", W + "/src/main.go"], limit: 2 }],
  ["ls", { path: W }],
  ["ls", { path: W + "/src", limit: 1 }],
  ["ls", { path: W + "/missing" }],
  ["ls", { path: W, depth: 2, sort: "size", limit: 4 }],
  ["find", { pattern: "**/*.go" }],
  ["find", { pattern: "**", type: "dir", path: W }],
  ["find", { pattern: "*.rs" }],
  ["grep", { query: "func" }],
  ["grep", { query: "^todo", regex: true, ignoreCase: true, output: "files" }],
  ["grep", { query: "todo", ignoreCase: true, output: "count", path: W + "/notes.md" }],
  ["grep", { query: "(", regex: true }],
  ["edit", { path: W + "/src/main.go", edits: [{ oldText: '"hello"', newText: '"hello, nook"' }], dryRun: true }],
  ["edit", { path: W + "/src/main.go", edits: [{ oldText: '"hello"', newText: '"hello, nook"' }] }],
  ["edit", { path: W + "/notes.md", edits: [{ oldText: "o", newText: "0", replaceAll: true }] }],
  ["edit", { path: W + "/notes.md", edits: [{ oldText: "absent text", newText: "x" }] }],
  ["edit", { path: W + "/src/util.go", edits: [{ oldText: "add", newText: "sum" }], expectedHash: "sha256:0000" }],
  ["patch", { patch: "*** Begin Patch\n*** Add File: lib/a.txt\n+alpha\n+beta\n*** End Patch\n", cwd: W }],
  ["patch", { patch: "*** Begin Patch\n*** Update File: lib/a.txt\n@@\n alpha\n-beta\n+gamma\n*** End Patch\n", cwd: W, dryRun: true }],
  ["patch", { patch: "*** Begin Patch\n*** Update File: lib/a.txt\n@@\n alpha\n-beta\n+gamma\n*** End Patch\n", cwd: W }],
  ["patch", { patch: "*** Begin Patch\n*** Update File: lib/none.txt\n@@\n-x\n+y\n*** End Patch\n", cwd: W }],
  ["move", { from: W + "/lib/a.txt", to: W + "/lib/b.txt" }],
  ["move", { from: W + "/lib/missing.txt", to: W + "/lib/c.txt" }],
  ["delete", { path: W + "/data/empty.txt" }],
  ["delete", { path: W + "/lib", recursive: true }],
  ["delete", { path: W + "/src" }],
  ["exec", { command: "echo hello; printf 'a\\nb\\n' | wc -l" }],
  ["exec", { command: "ls" }],
  ["exec", { command: "mkdir -p out/sub && echo x > out/sub/x.txt && echo y >> notes.md && rm src/util.go && rmdir data" }],
  ["exec", { command: "echo err >&2; exit 3" }],
  ["exec", { command: 'echo "$GREETING from $(pwd)"', env: { GREETING: "hi" }, cwd: "out" }],
  ["exec", { command: "cat /workspace/no-such-file" }],
  ["exec", { command: "sleep 5", timeoutMs: 100 }],
  ["exec", { backend: "js", command: "export default (x) => ({ sum: x.a + x.b, list: [], none: null })", input: { a: 2, b: 40 } }],
  ["exec", { backend: "js", command: 'import fs from "node:fs"; console.log(fs.readFileSync("notes.md", "utf8").length); throw new Error("boom")' }],
  ["exec", { backend: "wasm", command: wasm }],
  ["exec", { backend: "cobol", command: "x" }],
  ["write", { path: W + "/x.txt" }],
];

const client = new Client({ name: "nook-mcpclient", version: "1.0.0" });
await client.connect(transport);
const tools = (await client.listTools()).tools;
const results = [];
for (const [name, args] of calls) {
  const tool = tools.find((t) => t.name === name);
  try {
    const result = await client.callTool({ name, arguments: args });
    results.push({ name, args, hasOutputSchema: !!tool?.outputSchema, result });
  } catch (e) {
    results.push({ name, args, hasOutputSchema: !!tool?.outputSchema, thrown: String(e) });
  }
}
await client.close();
process.stdout.write(JSON.stringify({ server: client.getServerVersion(), tools: tools.map((t) => t.name), results }));
