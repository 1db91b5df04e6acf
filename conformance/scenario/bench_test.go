package scenario_test

import (
	"context"
	"testing"
	"time"

	"github.com/nookdev/nook/conformance/scenario"
	"github.com/nookdev/nook/runtime"
)

const hundredCalls = `Make 100 host-module calls and write a file.
-- scenario.json --
{"modules": {"ws:svc": {"get": {"echo": true}}}}
-- main.js --
import { get } from "ws:svc";
import fs from "node:fs/promises";
export default async function () {
  let n = 0;
  for (let i = 0; i < 99; i++) n += (await get(i)).args[0];
  await fs.writeFile("n.txt", n + "\n");
  return n;
}
-- want/result.json --
4851
-- want/files/n.txt --
4851
`

// BenchmarkScenario100Calls runs a 100-call scenario live (its fakes
// answering: opening a workspace, the run, its record) and replayed after
// a crash past its last call (opening the database the crash left, every
// call answered from the journal, the run's end), in the same run:
// live_ms and replay_ms per case, and their ratio.
func BenchmarkScenario100Calls(b *testing.B) {
	sc, err := scenario.Parse("hundred", []byte(hundredCalls))
	if err != nil {
		b.Fatal(err)
	}
	var live, replay time.Duration
	for b.Loop() {
		rep, err := scenario.Run(context.Background(), sc, scenario.Options{Interrupt: true, Short: true,
			Policies: []runtime.Policy{runtime.PolicyReplay}, Dir: b.TempDir()})
		if err != nil || !rep.Passed() {
			b.Fatalf("%v %+v", err, rep)
		}
		for _, c := range rep.Cases {
			switch c.Name {
			case "uninterrupted":
				live += c.Duration
			case "replay-after-100-of-100":
				replay += c.Resume
			}
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(live.Milliseconds())/n, "live_ms")
	b.ReportMetric(float64(replay.Milliseconds())/n, "replay_ms")
	b.ReportMetric(float64(replay)/float64(live), "replay/live")
	b.ReportMetric(n*float64(time.Second)/float64(replay), "replays/s")
}
