package worker_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/worker"
)

// killModule writes files, calls a host module (whose executions the test
// counts), races a timer against a slow call, reads the clock and
// randomness and prints all along, for ~150 ms.
const killModule = `
import fs from "node:fs/promises";
import { record, slow } from "ws:ledger";
const pause = (ms) => new Promise((res) => setTimeout(res, ms));
export default async function () {
  const r0 = Math.random(), t0 = Date.now();
  console.log("start r0=" + r0 + " t0=" + t0);
  await fs.mkdir("out", { recursive: true });
  const ids = [];
  for (let i = 0; i < 4; i++) {
    await fs.appendFile("out/log.txt", "step " + i + "\n");
    const r = await record("step-" + i);
    ids.push(r.id);
    console.log("step " + i + " " + r.id);
    await pause(15);
  }
  const order = [];
  await Promise.all([pause(10).then(() => order.push("timer")), slow(10).then(() => order.push("call"))]);
  console.log("race order=" + order.join("+"));
  const [a, b] = await Promise.all([record("all-a"), record("all-b")]);
  ids.push(a.id, b.id);
  const uuid = crypto.randomUUID();
  await fs.writeFile("out/rand.txt", r0 + " " + uuid);
  for (let i = 0; i < 5; i++) console.log("line " + i);
  console.log("end uuid=" + uuid);
  return { ids, log: await fs.readFile("out/log.txt", "utf8"), r0, uuid, order };
}`

var varying = regexp.MustCompile(`\b(r0|t0|uuid|order)=(\S+)`)

// ledger counts the executions of its functions by call id.
type ledger struct {
	mu    sync.Mutex
	execs map[string]int
}

func (l *ledger) module() map[string]runtime.Module {
	hit := func(c *runtime.CallContext) {
		l.mu.Lock()
		l.execs[c.CallID]++
		l.mu.Unlock()
	}
	return map[string]runtime.Module{"ws:ledger": {
		"record": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
			hit(c)
			return map[string]any{"id": c.CallID, "arg": args[0]}, nil
		},
		"slow": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
			hit(c)
			ms, _ := args[0].(float64)
			time.Sleep(time.Duration(ms) * time.Millisecond)
			return map[string]any{"id": c.CallID}, nil
		},
	}}
}

// outcome is what a run of killModule left, without what differs between
// runs.
type outcome struct {
	status runtime.Status
	stdout string
	value  string
	files  string
}

func normal(ws *nook.Workspace, res *runtime.Result) outcome {
	var v map[string]any
	json.Unmarshal(res.Value, &v)
	delete(v, "r0")
	delete(v, "uuid")
	delete(v, "order")
	vb, _ := json.Marshal(v)
	var files []string
	ctx := context.Background()
	for _, name := range []string{"out/log.txt"} {
		b, _ := ws.FS().ReadFile(ctx, "/workspace/"+name)
		files = append(files, name+"="+string(b))
	}
	return outcome{res.Status, varying.ReplaceAllString(string(res.Stdout), "$1=*"), string(vb), strings.Join(files, ";")}
}

// TestWorkerKilledAtRandom SIGKILLs the worker of a replay-policy run at
// a random moment, 50 times: each run resumes in a new worker and finishes
// exactly once, with the output, result and files of an uninterrupted run,
// the random values it printed before the kill in its result, and every
// host-module call executed exactly once (the parent, which outlives the
// worker, journals a call in flight at the kill).
func TestWorkerKilledAtRandom(t *testing.T) {
	pool, err := worker.New(worker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	dir := t.TempDir()
	open := func(name string, l *ledger) *nook.Workspace {
		ws, err := nook.Open(context.Background(), filepath.Join(dir, name), nook.WithBackends(backends()...),
			nook.WithModules(l.module()), nook.WithIsolation(pool))
		if err != nil {
			t.Fatal(err)
		}
		return ws
	}
	exec := func(ws *nook.Workspace) (*runtime.Handle, error) {
		return ws.Runtime().Exec(context.Background(), killModule, runtime.ExecOptions{ID: "k", OnInterrupt: runtime.PolicyReplay})
	}

	// The uninterrupted run (the second: warm), and how long it takes
	// once its worker has it.
	var ref outcome
	var live time.Duration
	for i := range 2 {
		l := &ledger{execs: map[string]int{}}
		ws := open(fmt.Sprintf("ref%d.db", i), l)
		h, err := exec(ws)
		if err != nil {
			t.Fatal(err)
		}
		for len(pool.Busy()) == 0 {
			time.Sleep(100 * time.Microsecond)
		}
		start := time.Now()
		res, err := h.Result(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		live = time.Since(start)
		ref = normal(ws, res)
		ws.Close()
	}
	t.Logf("an uninterrupted run takes %s", live)
	if ref.status != runtime.StatusCompleted {
		t.Fatalf("the uninterrupted run: %+v", ref)
	}

	killed := 0
	for i := range 50 {
		l := &ledger{execs: map[string]int{}}
		ws := open(fmt.Sprintf("w%d.db", i), l)
		h, err := exec(ws)
		if err != nil {
			t.Fatal(err)
		}
		// Once its worker runs it, at a random moment of its live time.
		var busy []int
		for len(busy) == 0 {
			busy = pool.Busy()
			time.Sleep(100 * time.Microsecond)
		}
		time.Sleep(time.Duration(rng.Int64N(int64(live))))
		if b := pool.Busy(); len(b) == 1 && b[0] == busy[0] {
			if syscall.Kill(busy[0], syscall.SIGKILL) == nil {
				killed++
			}
		}
		res, err := h.Result(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		got := normal(ws, res)
		if got != ref {
			t.Fatalf("iteration %d: the run ended\n%+v\nnot as the uninterrupted run\n%+v\nstderr %s", i, got, ref, res.Stderr)
		}
		// Numbers as JavaScript wrote them (console.log and JSON agree).
		var v map[string]any
		dec := json.NewDecoder(strings.NewReader(string(res.Value)))
		dec.UseNumber()
		dec.Decode(&v)
		if !strings.Contains(string(res.Stdout), fmt.Sprintf("r0=%v ", v["r0"])) ||
			!strings.Contains(string(res.Stdout), fmt.Sprintf("uuid=%v\n", v["uuid"])) {
			t.Fatalf("iteration %d: printed values differ from the result %s:\n%s", i, res.Value, res.Stdout)
		}
		if b, _ := ws.FS().ReadFile(context.Background(), "/workspace/out/rand.txt"); string(b) != fmt.Sprintf("%v %v", v["r0"], v["uuid"]) {
			t.Fatalf("iteration %d: rand.txt %q, result %s", i, b, res.Value)
		}
		var ids []string
		for id, n := range l.execs {
			ids = append(ids, id)
			if n != 1 {
				t.Fatalf("iteration %d: call %s executed %d times", i, id, n)
			}
		}
		sort.Strings(ids)
		if len(ids) != 7 {
			t.Fatalf("iteration %d: calls executed %v", i, ids)
		}
		ws.Close()
	}
	t.Logf("killed %d of 50 workers mid-run (the others had finished)", killed)
	if killed < 25 { // on a loaded machine (or under -race) some runs end before their kill
		t.Fatalf("only %d kills hit a running worker", killed)
	}
}

// TestWorkerKilledFailPolicy: under the fail policy, the run whose worker
// is killed fails with the crash, and the next run completes.
func TestWorkerKilledFailPolicy(t *testing.T) {
	e := newEnv(t, runtime.Options{}, worker.Options{})
	ctx := context.Background()
	h, err := e.ws.Runtime().Exec(ctx, `await new Promise((r) => setTimeout(r, 60000));`, runtime.ExecOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for {
		if b := e.pool.Busy(); len(b) == 1 {
			syscall.Kill(b[0], syscall.SIGKILL)
			break
		}
		time.Sleep(time.Millisecond)
	}
	res, err := h.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	const want = "the sandbox process crashed: signal: killed"
	if res.Status != runtime.StatusFailed || res.Error != want || string(res.Stderr) != want+"\n" {
		t.Fatalf("%s %q stderr=%q", res.Status, res.Error, res.Stderr)
	}
	e.healthy()
}
