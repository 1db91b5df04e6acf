package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nookdev/nook/conformance/scenario"
)

// exportTiers are the isolation tiers the export tests run in: both, or
// with NOOK_TEST_ISOLATION set, the one it names.
func exportTiers() []string {
	switch os.Getenv("NOOK_TEST_ISOLATION") {
	case "process":
		return []string{tierProcess}
	case "in-process":
		return []string{tierInProcess}
	}
	return []string{tierProcess, tierInProcess}
}

// exportProgram reads the clock (before and after a timer), random numbers,
// a file and a host module, and appends to a file.
const exportProgram = `import fs from "node:fs";
import tools from "ws:tools";
export default async function () {
  const t = Date.now();
  const r = Math.random();
  const id = crypto.randomUUID();
  const data = fs.readFileSync("data.csv", "utf8");
  const listing = await tools.ls({ path: "/workspace" });
  await new Promise((res) => setTimeout(res, 300));
  const t2 = Date.now();
  fs.appendFileSync("log.txt", "t=" + t + " r=" + r + "\n");
  const names = listing.entries.map((e) => e.name).join(",");
  console.log("t " + t + " t2-t>=300 " + (t2 - t >= 300) + " r " + r + " id " + id);
  console.log("data " + data.trim().split("\n").length + " lines; ls " + names);
  return { t, t2, r, id, names, performance: Math.round(performance.now()) };
}
`

// exportScript does as much in the shell: date, $RANDOM, a file, sleep, an
// append and a listing.
const exportScript = `date +%s%N
n=$(cut -d, -f2 data.csv | sort -n | tail -1)
echo "max=$n random=$RANDOM"
sleep 0.3
date -u +%H:%M:%S.%N
echo "line $n" >> log.txt
ls
`

// A real run's scenario replays: nook runs export --scenario of a run that
// reads the clock, random numbers, a file and a host module, then nook
// conformance run and run --interrupt on it, unedited, in each tier. The
// program appends to a file, so export says "restart": "any" (and why, on
// stderr); without it the restart cases fail, and the failure names the
// setting and shows the difference as a unified diff.
func TestRunsExportReplays(t *testing.T) {
	for _, tier := range exportTiers() {
		for _, c := range []struct{ name, backend, entry, src string }{
			{"js", "js", "main.js", exportProgram},
			{"shell", "shell", "main.sh", exportScript},
		} {
			t.Run(tier+"/"+c.name, func(t *testing.T) {
				w := newWS(t)
				w.put("/workspace/data.csv", "apple,3\npear,5\n")
				w.put("/workspace/log.txt", "first\n")
				w.put("/workspace/"+c.entry, c.src)
				iso := []string{"--isolation", tier}
				out := w.ok(append(iso, "exec", "--backend", c.backend, "--on-interrupt", "replay", "--id", "r1",
					"ws:/workspace/"+c.entry)...)
				file := filepath.Join(t.TempDir(), "r1.txtar")
				r := w.run(append(iso, "runs", "export", "--scenario", file, "r1")...)
				if r.code != 0 {
					t.Fatalf("runs export: exit %d: %s", r.code, r.stderr)
				}
				note := `nook: runs: note: "restart": "any": a restart runs the program again over the files its first attempt changed, ` +
					`and this one appends to log.txt; restart cases check only that the run ends (replay cases check everything)` + "\n"
				if !strings.HasSuffix(r.stderr, note) || !strings.HasPrefix(r.stderr, "nook: runs: wrote "+file+" (") {
					t.Errorf("runs export stderr:\n%s", r.stderr)
				}
				text, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				sc, err := scenario.Parse("r1", text)
				if err != nil {
					t.Fatal(err)
				}
				// What the run observed is in the scenario.
				if len(sc.Config.ClockReads) < 2 || sc.Config.Clock == "" || sc.Config.Restart != "any" ||
					sc.Files["data.csv"] != "apple,3\npear,5\n" || sc.Files["log.txt"] != "first\n" ||
					!strings.HasPrefix(sc.WantFiles["log.txt"], "first\n") || sc.WantStdout != out && c.backend == "shell" {
					t.Errorf("scenario:\n%s", text)
				}
				if c.backend == "js" {
					if ls := sc.Config.Modules["ws:tools"]["ls"].Results; len(ls) != 1 {
						t.Errorf("ws:tools ls fakes: %+v", ls)
					}
					// The output shows the run's real time (a reading it
					// made), not a default clock.
					m := regexp.MustCompile(`^t (\d{13}) t2-t>=300 true r 0\.\d+ id [0-9a-f-]{36}\ndata 2 lines; ls data.csv,log.txt,main.js\n$`).
						FindStringSubmatch(sc.WantStdout)
					clock, _ := time.Parse(time.RFC3339Nano, sc.Config.Clock)
					read := false
					for _, d := range sc.Config.ClockReads {
						read = read || m != nil && m[1] == strconv.FormatInt(clock.Add(time.Duration(d)).UnixMilli(), 10)
					}
					if !read {
						t.Errorf("stdout of the run (clock %s, reads %v):\n%s", sc.Config.Clock, sc.Config.ClockReads, sc.WantStdout)
					}
				}
				pass := "\n1 passed, 0 failed\n"
				if got := w.ok(append(iso, "conformance", "run", file)...); !strings.HasSuffix(got, pass) {
					t.Errorf("conformance run:\n%s", got)
				}
				start := time.Now()
				got := w.ok(append(iso, "conformance", "run", "--interrupt", file)...)
				if !strings.HasSuffix(got, pass) || !regexp.MustCompile(`\nr1 +\d+ +\d+ +pass\n`).MatchString(got) {
					t.Errorf("conformance run --interrupt:\n%s", got)
				}
				t.Logf("%s: conformance run --interrupt in %s", t.Name(), time.Since(start).Round(time.Millisecond))

				// Without "restart": "any", the restart cases fail, naming it.
				strict := filepath.Join(t.TempDir(), "strict.txtar")
				os.WriteFile(strict, []byte(strings.Replace(string(text), `,
  "restart": "any"`, "", 1)), 0o644)
				f := w.run(append(iso, "conformance", "run", "--interrupt", "--short", strict)...)
				if f.code != 1 || !strings.Contains(f.stdout, "\n--- strict / restart-after-") ||
					!strings.Contains(f.stdout, `say "restart": "any" in scenario.json (restart cases then check only that the run ends)`) ||
					!strings.Contains(f.stdout, "files/log.txt does not match want/files/log.txt:\n    --- want/files/log.txt\n    +++ got/files/log.txt\n    @@ ") ||
					strings.Contains(f.stdout, "--- strict / replay-") || !strings.HasSuffix(f.stdout, "\n0 passed, 1 failed\n") {
					t.Errorf("conformance run --interrupt of the strict scenario: exit %d\n%s", f.code, f.stdout)
				}
			})
		}
	}
}
