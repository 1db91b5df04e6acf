package replay_test

import (
	"testing"
	"time"

	"github.com/nookdev/nook/conformance/scenario"
)

// Guest time is virtual under the runner: twenty one-second sleeps (JS
// timers, the shell's sleep) run at CPU speed, well under the twenty
// seconds they would wait, and give the same output as ever.
func TestVirtualTimeSleeps(t *testing.T) {
	scs, err := scenario.Load("testdata/sleeps_*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(scs) != 2 {
		t.Fatalf("%d scenarios", len(scs))
	}
	for _, sc := range scs {
		start := time.Now()
		rep, err := scenario.Run(t.Context(), sc, scenario.Options{Dir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		took := time.Since(start)
		for _, c := range rep.Cases {
			for _, p := range c.Problems {
				t.Errorf("%s / %s: %s", sc.Name, c.Name, p)
			}
		}
		t.Logf("%s: 20 x 1 s of sleeps in %s", sc.Name, took.Round(time.Millisecond))
		if took > 10*time.Second {
			t.Errorf("%s took %s: its sleeps waited", sc.Name, took)
		}
	}
}
