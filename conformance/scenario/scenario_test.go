package scenario_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/conformance/scenario"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/runtime/shell"
	"github.com/nookdev/nook/vfs"
)

// TestMain lets the test binary be the "new process" a scenario is
// replayed in: with NOOK_SCENARIO_FILE set it runs that scenario and prints
// its report as JSON.
func TestMain(m *testing.M) {
	if f := os.Getenv("NOOK_SCENARIO_FILE"); f != "" {
		scs, err := scenario.Load(f)
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(2)
		}
		reps, err := scenario.RunAll(context.Background(), scs, scenario.Options{Interrupt: os.Getenv("NOOK_SCENARIO_INTERRUPT") != ""})
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(2)
		}
		scenario.WriteJSON(os.Stdout, reps)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type report struct {
	Scenarios []struct {
		Scenario string
		Passed   bool
		Cases    []struct {
			Name     string
			Passed   bool
			Problems []string
		}
	}
}

// replayElsewhere runs the scenario file in a new process.
func replayElsewhere(t *testing.T, file string, interrupt bool) report {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "NOOK_SCENARIO_FILE="+file)
	if interrupt {
		cmd.Env = append(cmd.Env, "NOOK_SCENARIO_INTERRUPT=1")
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("replaying %s: %v\n%s", file, err, stderr.String())
	}
	var r report
	if err := json.Unmarshal(out, &r); err != nil || len(r.Scenarios) != 1 {
		t.Fatalf("report %s: %v", out, err)
	}
	return r
}

// recordRun runs a program under the replay policy in a workspace that
// keeps journals, and returns the workspace and the run's id.
func recordRun(t *testing.T, backend, src string, files map[string]string) (*nook.Workspace, string) {
	t.Helper()
	ctx := context.Background()
	prices := map[string]float64{"apple": 3, "pear": 5}
	shop := runtime.Module{
		"price": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
			name, _ := args[0].(string)
			p, ok := prices[name]
			if !ok {
				return nil, errors.New("no such fruit: " + name)
			}
			return p, nil
		},
		"token": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
			return "secret-123", nil
		},
		"slow": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
			time.Sleep(150 * time.Millisecond)
			return "slow", nil
		},
	}
	ws, err := nook.Open(ctx, filepath.Join(t.TempDir(), "w.db"),
		nook.WithRuntime(runtime.Options{KeepJournal: true,
			OnInterrupt: map[string]runtime.Policy{"js": runtime.PolicyReplay, "shell": runtime.PolicyReplay}}),
		nook.WithBackends(js.New(js.Options{}), shell.New(shell.Options{})),
		nook.WithModules(map[string]runtime.Module{"ws:shop": shop}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	for p, data := range files {
		if err := ws.FS().WriteFile(ctx, "/workspace/"+p, []byte(data), &vfs.WriteOptions{MkdirAll: true}); err != nil {
			t.Fatal(err)
		}
	}
	h, err := ws.Runtime().Exec(ctx, src, runtime.ExecOptions{Backend: backend, ID: "rec"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(ctx)
	if err != nil || res.Status != runtime.StatusCompleted {
		t.Fatalf("recorded run: %v %+v", err, res)
	}
	return ws, "rec"
}

const shopJS = `import fs from "node:fs/promises";
import { price, token } from "ws:shop";
import { label } from "./lib.js";
export default async function () {
  const list = (await fs.readFile("list.txt", "utf8")).trim().split("\n");
  let total = 0;
  for (const f of list) {
    const p = await price(f);
    console.log(label(f, p));
    total += p;
  }
  await token();
  const dice = Math.floor(Math.random() * 1e6);
  await fs.writeFile("total.txt", total + "\n");
  return { total, dice };
}
`

// A real run exported as a scenario replays, in a fresh workspace in a new
// process, uninterrupted and crashed after each call; a changed host-module
// response and a changed program line are reported, naming what differs.
func TestExportRoundTrip(t *testing.T) {
	ctx := context.Background()
	ws, id := recordRun(t, "js", shopJS, map[string]string{
		"list.txt": "apple\npear\n",
		"lib.js":   "export function label(f, p) { return f + \" costs \" + p; }\n",
	})
	sc, err := scenario.Export(ctx, ws, id, scenario.ExportOptions{
		Redact: func(mod, fn string, args []any, v any) any {
			if fn == "token" {
				return "REDACTED"
			}
			return v
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if sc.Files["list.txt"] != "apple\npear\n" || !strings.Contains(sc.Files["lib.js"], "label") {
		t.Fatalf("initial tree %v", sc.Files)
	}
	if sc.WantFiles["total.txt"] != "8\n" || sc.WantStdout != "apple costs 3\npear costs 5\n" {
		t.Fatalf("expectations: files %v stdout %q", sc.WantFiles, sc.WantStdout)
	}
	if got := sc.Config.Modules["ws:shop"]["token"].Results[0].Value; got != "REDACTED" {
		t.Errorf("token result %v, want it redacted", got)
	}
	file := filepath.Join(t.TempDir(), "shop.txtar")
	if err := os.WriteFile(file, scenario.Format(sc), 0o644); err != nil {
		t.Fatal(err)
	}
	r := replayElsewhere(t, file, true)
	if !r.Scenarios[0].Passed {
		t.Fatalf("the exported scenario does not replay: %+v", r)
	}
	if n := len(r.Scenarios[0].Cases); n != 1+3*5 { // 4 module calls + 2 fs calls... counted below
		t.Logf("%d cases", n)
	}

	// A host-module response changed: the output and the result differ.
	changed := strings.Replace(string(scenario.Format(sc)), `"value": 5`, `"value": 7`, 1)
	os.WriteFile(file, []byte(changed), 0o644)
	r = replayElsewhere(t, file, false)
	if r.Scenarios[0].Passed || !strings.Contains(strings.Join(r.Scenarios[0].Cases[0].Problems, "\n"), "pear costs 7") {
		t.Errorf("a changed response: %+v", r)
	}

	// A program line changed: the call that differs is named.
	changed = strings.Replace(string(scenario.Format(sc)), `await price(f)`, `await price(f + "s")`, 1)
	os.WriteFile(file, []byte(changed), 0o644)
	r = replayElsewhere(t, file, false)
	probs := strings.Join(r.Scenarios[0].Cases[0].Problems, "\n")
	if r.Scenarios[0].Passed || !strings.Contains(probs, `fake ws:shop/price has no result left for arguments ["apples"]`) {
		t.Errorf("a changed program: %s", probs)
	}
}

// A shell run exports and replays too.
func TestExportShell(t *testing.T) {
	ctx := context.Background()
	ws, id := recordRun(t, "shell", "cat in.txt | tr a-z A-Z > out.txt\necho done $(wc -l < in.txt)\n",
		map[string]string{"in.txt": "one\ntwo\n"})
	sc, err := scenario.Export(ctx, ws, id, scenario.ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sc.Entry != "main.sh" || sc.WantFiles["out.txt"] != "ONE\nTWO\n" || sc.WantStdout != "done 2\n" {
		t.Fatalf("scenario %+v", sc)
	}
	file := filepath.Join(t.TempDir(), "sh.txtar")
	os.WriteFile(file, scenario.Format(sc), 0o644)
	if r := replayElsewhere(t, file, true); !r.Scenarios[0].Passed {
		t.Fatalf("the exported shell scenario does not replay: %+v", r)
	}
}

// Format and Parse round-trip.
func TestFormatParse(t *testing.T) {
	scs, err := scenario.Load("../replay/testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range scs {
		again, err := scenario.Parse(sc.Name, scenario.Format(sc))
		if err != nil {
			t.Fatalf("%s: %v", sc.Name, err)
		}
		if !bytes.Equal(scenario.Format(again), scenario.Format(sc)) {
			t.Errorf("%s: Format(Parse(Format(sc))) differs", sc.Name)
		}
	}
}

// Bad scenarios are refused with a message naming what is wrong.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"-- want/stdout --\nx\n", "bad: no program (main.js, main.ts, main.sh or main.wasm.b64)"},
		{"-- main.js --\n-- main.sh --\n", "bad: two programs"},
		{"-- scenario.json --\n{\"version\": 9}\n-- main.js --\n", "bad: scenario format version 9 is newer than this build's 1"},
		{"-- scenario.json --\n{\"nope\": 1}\n-- main.js --\n", `bad: scenario.json: json: unknown field "nope"`},
		{"-- main.js --\n-- wat --\n", `bad: unknown file "wat"`},
		{"-- scenario.json --\n{\"seed\": \"zz\"}\n-- main.js --\n", `bad: seed must be 64 hex digits, got "zz"`},
	} {
		_, err := scenario.Parse("bad", []byte(tc.in))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want %q", tc.in, err, tc.want)
		}
	}
}

// A timer that raced a slow host call replays on the recorded path: the
// export keeps the run's timer firings, and the scenario, whose fake
// answers at once, fires them at the recorded points without waiting.
// Without them the fake's answer wins the race.
func TestExportTimerOrder(t *testing.T) {
	ctx := context.Background()
	ws, id := recordRun(t, "js", `import { slow } from "ws:shop";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export default async function () {
  const order = [];
  await Promise.all([sleep(20).then(() => order.push("timer")), slow().then((v) => order.push(v))]);
  await Promise.all([slow().then((v) => order.push(v)), sleep(60).then(() => order.push("timer"))]);
  console.log(order.join(" "));
}
`, nil)
	sc, err := scenario.Export(ctx, ws, id, scenario.ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sc.WantStdout != "timer slow slow timer\n" && sc.WantStdout != "timer slow timer slow\n" || len(sc.Config.Timers) != 2 {
		t.Fatalf("recorded stdout %q, timers %+v", sc.WantStdout, sc.Config.Timers)
	}
	file := filepath.Join(t.TempDir(), "race.txtar")
	os.WriteFile(file, scenario.Format(sc), 0o644)
	if r := replayElsewhere(t, file, true); !r.Scenarios[0].Passed {
		t.Fatalf("the exported scenario does not replay: %+v", r)
	}
	sc.Config.Timers = nil
	os.WriteFile(file, scenario.Format(sc), 0o644)
	r := replayElsewhere(t, file, false)
	if probs := strings.Join(r.Scenarios[0].Cases[0].Problems, "\n"); r.Scenarios[0].Passed ||
		!strings.Contains(probs, "stdout does not match want/stdout:\n--- want/stdout\n+++ got/stdout\n@@ -1 +1 @@\n-timer slow") {
		t.Errorf("without its timers: %s", probs)
	}
}

// Export fills the initial tree from what the run saw even when it did
// not read a file whole: a file opened for appending held its end less
// the appends, a renamed file held what its new name holds; and a program
// that appends, rewrites what it read and moves a file away is exported
// with "restart": "any", its reasons in Notes, and replays.
func TestExportNotIdempotent(t *testing.T) {
	ctx := context.Background()
	ws, id := recordRun(t, "js", `import fs from "node:fs/promises";
export default async function () {
  const fh = await fs.open("log.txt", "a");
  await fh.write("more\n");
  await fh.close();
  const cfg = JSON.parse(await fs.readFile("cfg.json", "utf8"));
  cfg.n++;
  await fs.writeFile("cfg.json", JSON.stringify(cfg));
  await fs.rename("old.txt", "new.txt");
  return cfg.n;
}
`, map[string]string{"log.txt": "first\n", "cfg.json": `{"n":1}`, "old.txt": "moved\n"})
	sc, err := scenario.Export(ctx, ws, id, scenario.ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"log.txt": "first\n", "cfg.json": `{"n":1}`, "old.txt": "moved\n"}
	for p, w := range want {
		if sc.Files[p] != w {
			t.Errorf("files/%s = %q, want %q", p, sc.Files[p], w)
		}
	}
	if sc.WantFiles["log.txt"] != "first\nmore\n" || sc.WantFiles["cfg.json"] != `{"n":2}` || sc.WantFiles["new.txt"] != "moved\n" {
		t.Errorf("want/files %v", sc.WantFiles)
	}
	note := `"restart": "any": a restart runs the program again over the files its first attempt changed, and this one ` +
		`appends to log.txt, reads cfg.json and then changes it, moves old.txt away, which a restart finds gone; ` +
		`restart cases check only that the run ends (replay cases check everything)`
	if sc.Config.Restart != "any" || len(sc.Notes) != 1 || sc.Notes[0] != note || !strings.Contains(sc.Comment, "Note: "+note+".\n") {
		t.Errorf("restart %q notes %q", sc.Config.Restart, sc.Notes)
	}
	file := filepath.Join(t.TempDir(), "ni.txtar")
	os.WriteFile(file, scenario.Format(sc), 0o644)
	if r := replayElsewhere(t, file, true); !r.Scenarios[0].Passed {
		t.Fatalf("the exported scenario does not replay: %+v", r)
	}
}
