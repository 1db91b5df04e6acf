package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The exec tool's description names ws:tools and ws:git with their
// functions, and "nook tools types" declares them for TypeScript.
func TestToolsDescribeModules(t *testing.T) {
	w := newWS(t)
	var doc struct {
		Tools []struct{ Name, Description string }
	}
	if err := json.Unmarshal([]byte(w.ok("tools", "schema", "--format", "mcp")), &doc); err != nil {
		t.Fatal(err)
	}
	var desc string
	for _, tl := range doc.Tools {
		if tl.Name == "exec" {
			desc = tl.Description
		}
	}
	for _, want := range []string{
		"\n- ws:git: git over the workspace (go-git, no host binary): each function takes an options object; a failed command throws an Error with code ERR_GIT. Functions: add, branch, checkout, clone, commit, diff, fetch, init, log, push, reset, rm, run, show, status, tag\n",
		"\n- ws:tools: the workspace tools as functions: each takes the tool's input object and returns its structured result; a failed call throws an Error with code ERR_TOOL. Functions: call, delete, edit, exec, find, grep, ls, move, patch, read, write\n",
		"\nIn the shell, the git command runs ws:git (git status, git commit -am MSG, git log --oneline).\n",
		`(await import("ws:modules")).list()`,
	} {
		if !strings.Contains(desc, want) {
			t.Errorf("exec description lacks %q:\n%s", want, desc)
		}
	}

	dts := w.ok("tools", "types")
	for _, want := range []string{
		"declare module \"ws:tools\" {\n",
		"  export function grep(input: GrepInput): Promise<GrepOutput>;\n",
		"    delete(input: DeleteInput): Promise<DeleteOutput>;\n",
		"declare module \"ws:git\" {\n",
		"  export function commit(opts: { message: string;",
		"declare module \"ws:modules\" {\n",
	} {
		if !strings.Contains(dts, want) {
			t.Errorf("tools types lacks %q", want)
		}
	}
	// With TypeScript's compiler at hand, a program that uses the modules
	// type-checks and one that misuses them does not.
	tsc := typescriptCompiler(t)
	if tsc == "" {
		return
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "nook.d.ts"), []byte(dts), 0o644)
	os.WriteFile(filepath.Join(dir, "good.ts"), []byte(`import tools, { grep, read } from "ws:tools";
import { status } from "ws:git";
export default async () => {
  const r = await read({ path: "/workspace/a" });
  await tools.delete({ path: "/workspace/b" });
  return { hash: r.hash, n: (await grep({ query: "x" })).count, clean: (await status()).clean };
};
`), 0o644)
	os.WriteFile(filepath.Join(dir, "bad.ts"), []byte(`import { read } from "ws:tools";
export default async () => read({ pth: "/x" });
`), 0o644)
	args := []string{"--noEmit", "--strict", "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler"}
	if out, err := exec.Command(tsc, append(args, filepath.Join(dir, "good.ts"), filepath.Join(dir, "nook.d.ts"))...).CombinedOutput(); err != nil {
		t.Errorf("tsc good.ts: %v\n%s", err, out)
	}
	out, err := exec.Command(tsc, append(args, filepath.Join(dir, "bad.ts"), filepath.Join(dir, "nook.d.ts"))...).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "'pth' does not exist in type 'ReadInput'") {
		t.Errorf("tsc bad.ts: %v\n%s", err, out)
	}
}

// tsVersion is the TypeScript compiler the declarations are checked with.
const tsVersion = "5.9.3"

// typescriptCompiler returns tsc: from PATH, else installed once with npm
// into a cache under os.TempDir() (not with -short); "" when neither
// works, after saying so.
func typescriptCompiler(t *testing.T) string {
	if tsc, err := exec.LookPath("tsc"); err == nil {
		return tsc
	}
	npm, err := exec.LookPath("npm")
	if err != nil || testing.Short() {
		t.Log("tsc is not installed (and no npm install with -short): the declarations are not compiled")
		return ""
	}
	dir := filepath.Join(os.TempDir(), "nook-tsc-cache", tsVersion)
	tsc := filepath.Join(dir, "node_modules", ".bin", "tsc")
	if _, err := os.Stat(tsc); err == nil {
		return tsc
	}
	os.MkdirAll(filepath.Dir(dir), 0o755)
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "install-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	os.WriteFile(filepath.Join(tmp, "package.json"), []byte(`{"private":true}`+"\n"), 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund", "--loglevel=error", "typescript@"+tsVersion)
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Logf("npm install typescript@%s failed (%v): the declarations are not compiled\n%s", tsVersion, err, out)
		return ""
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(dir); serr != nil {
			t.Fatal(err)
		}
	}
	return tsc
}
