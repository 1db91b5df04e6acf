package js_test

import (
	"context"
	"testing"

	"github.com/nookdev/nook/runtime"
)

// BenchmarkChildProcess measures a child process against what it is made
// of: "js-run" and "sh-run" are trivial runs of the JavaScript and shell
// backends through the runtime (the baselines), "execSync-true" and
// "spawn-true" one execSync("true") or spawn("true") to its close inside
// a run that makes b.N of them (a nested shell run each).
func BenchmarkChildProcess(b *testing.B) {
	ws := shellWS(b)
	ctx := context.Background()
	run := func(b *testing.B, src, backend string, input any) {
		h, err := ws.Runtime().Exec(ctx, src, runtime.ExecOptions{Backend: backend, Input: input})
		if err != nil {
			b.Fatal(err)
		}
		res, err := h.Result(ctx)
		if err != nil || res.Status != runtime.StatusCompleted {
			b.Fatalf("%v %s %s", err, res.Status, res.Stderr)
		}
	}
	b.Run("js-run", func(b *testing.B) {
		for b.Loop() {
			run(b, `export default () => 1`, "js", nil)
		}
	})
	b.Run("sh-run", func(b *testing.B) {
		for b.Loop() {
			run(b, `true`, "shell", nil)
		}
	})
	b.Run("execSync-true", func(b *testing.B) {
		run(b, `import { execSync } from "node:child_process";
export default ({ n }) => { for (let i = 0; i < n; i++) execSync("true"); }`, "js", map[string]int{"n": b.N})
	})
	b.Run("spawn-true", func(b *testing.B) {
		run(b, `import { spawn } from "node:child_process";
export default async ({ n }) => { for (let i = 0; i < n; i++) await new Promise((r) => spawn("true").on("close", r)); }`, "js", map[string]int{"n": b.N})
	})
}
