package main

import (
	"strings"
	"syscall"
	"testing"
)

// A replay-policy run killed with its process is resumed by "nook runs
// recover": its first line is not printed again, its write happens once,
// and the journal and replay commands work on it.
func TestRecoverReplayAndVerify(t *testing.T) {
	w := newWS(t)
	cmd, out := w.startExec("--on-interrupt", "replay", "--id", "rr", "-e", `
import fs from "node:fs/promises";
await fs.appendFile("log.txt", "x");
console.log("before", Math.random() < 1);
await new Promise((r) => setTimeout(r, 800));
await fs.appendFile("log.txt", "y");
console.log("after");
export default async () => (await fs.readFile("log.txt", "utf8"));`)
	equal(t, "first line", readLine(t, out), "before true\n")
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	equal(t, "recover", w.ok("runs", "recover"), "rr\tcompleted\texit 0\n")
	equal(t, "log", w.ok("cat", "/workspace/log.txt"), "xy")
	if s := w.ok("runs", "show", "rr"); !strings.Contains(s, "before true\nafter\n") || strings.Count(s, "before") != 1 {
		t.Errorf("runs show:\n%s", s)
	}
	j := w.ok("runs", "journal", "rr")
	if !strings.HasPrefix(j, "1\tfs appendFile ") && !strings.HasPrefix(j, "1\tfs writeFile ") {
		t.Errorf("runs journal:\n%s", j)
	}
	equal(t, "verify", w.ok("replay", "--verify", "rr"), "rr: ok, the run replays exactly\n")
	equal(t, "nothing left", w.ok("runs", "recover"), "no interrupted runs to resume\n")
	equal(t, "approvals", w.ok("approvals", "ls"), "no calls are waiting\n")
	w.fail(1, "nook: call rr/1 is not waiting for an answer (ENOTWAITING)\n", "approvals", "respond", "rr", "rr/1", "true")
	w.fail(1, "nook: the interrupt policy must be \"fail\", \"restart\" or \"replay\" (EINVAL)\n",
		"exec", "--on-interrupt", "sometimes", "-e", "1")
}
