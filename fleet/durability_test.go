package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"
)

// testSnapshotEvery makes the test fleet snapshot (and purge its logs)
// every few commits, so that takeovers restore snapshot + log tail.
const testSnapshotEvery = 8

// bigFile is larger than MaxLogRecord: its commit ships in several parts.
var bigFile = strings.Repeat("0123456789abcdef fleet durability line\n", 40_000) // 1.5 MiB

// writeWorkload writes files to ws through the given nodes in turn (some
// twice: the last write wins, and one large file) and returns what each
// acknowledged write left.
func writeWorkload(t *testing.T, via []*Node, ws, prefix string, count int) map[string]string {
	t.Helper()
	want := map[string]string{}
	for i := range count {
		p := fmt.Sprintf("/%s/f%d.txt", prefix, i%(count-count/4))
		c := fmt.Sprintf("%s %d written through %s\n", prefix, i, via[i%len(via)].Name())
		call(t, via[i%len(via)], ws, "write", map[string]string{"path": p, "content": c})
		want[p] = c
	}
	p := "/" + prefix + "/big.txt"
	call(t, via[0], ws, "write", map[string]string{"path": p, "content": bigFile})
	want[p] = bigFile
	return want
}

// checkWorkload reads every file on ws's owner, byte for byte, and the
// owner's database passes SQLite's integrity check.
func checkWorkload(t *testing.T, nodes []*Node, ws string, want map[string]string) {
	t.Helper()
	own, others, _ := owner(t, nodes, ws)
	o := own.servedHere(ws)
	if o == nil {
		t.Fatalf("owner %s does not serve %s", own.Name(), ws)
	}
	for p, c := range want {
		got, err := o.ws.FS().ReadFile(context.Background(), p)
		if err != nil || string(got) != c {
			t.Errorf("%s on the new owner %s: %d bytes %v, want %d bytes", p, own.Name(), len(got), err, len(c))
		}
	}
	for p, c := range want {
		if len(c) < 100 && len(others) > 0 { // and one through another node
			res := call(t, others[0], ws, "read", map[string]string{"path": p})
			if got := res.Content[0].Text; got != "1\t"+strings.TrimSuffix(c, "\n") {
				t.Errorf("read %s through %s: %q", p, others[0].Name(), got)
			}
			break
		}
	}
	checkIntegrity(t, wsFile(own, ws))
}

func checkIntegrity(t *testing.T, path string) {
	t.Helper()
	c, err := sqlite3.Open("file:" + path + "?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	st, _, err := c.Prepare("PRAGMA integrity_check")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var out []string
	for st.Step() {
		out = append(out, st.ColumnText(0))
	}
	if err := st.Err(); err != nil || len(out) != 1 || out[0] != "ok" {
		t.Errorf("integrity_check of %s: %v %v", path, out, err)
	}
}

// pauseUntilTaken pauses ws's owner (no renewals, no self-fencing: only
// the broker can stop it), waits for its lease to expire and makes another
// node take ws over.
func pauseUntilTaken(t *testing.T, nodes []*Node, ws string) (stale, next *Node, l Lease) {
	t.Helper()
	stale, others, l := owner(t, nodes, ws)
	stale.pauseRenew.Store(true)
	stale.noSelfFence.Store(true)
	t.Cleanup(func() { stale.pauseRenew.Store(false); stale.noSelfFence.Store(false) })
	paused := time.Now()
	for {
		_, ok, err := nodes[0].Owner(context.Background(), ws)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		if time.Since(paused) > 3*testTTL {
			t.Fatalf("lease of %s still there %v after the owner paused", ws, time.Since(paused))
		}
		time.Sleep(50 * time.Millisecond)
	}
	next = others[0]
	if err := next.acquire(context.Background(), ws); err != nil {
		t.Fatal(err)
	}
	return stale, next, l
}

// A commit the deposed owner makes outside any tool call (a run writing
// in the background) is refused by the broker when shipped: the write
// fails with ErrLeaseLost, and the new owner, restored from the log, has
// every acknowledged write and not the refused one.
func testStaleCommitRefused(t *testing.T, nodes []*Node) {
	ws := "zeta"
	want := writeWorkload(t, nodes, ws, "z", 2*testSnapshotEvery+3)
	// The takeover must restore a log tail after the snapshot: make sure
	// some commit follows the last snapshot.
	own, _, _ := owner(t, nodes, ws)
	for i := 0; ; i++ {
		o := own.servedHere(ws)
		o.mu.Lock()
		tail := o.shipped
		o.mu.Unlock()
		if tail > 0 {
			break
		}
		p, c := fmt.Sprintf("/z/tail%d.txt", i), "after the snapshot\n"
		call(t, own, ws, "write", map[string]string{"path": p, "content": c})
		want[p] = c
	}
	stale, next, l := pauseUntilTaken(t, nodes, ws)
	o := stale.servedHere(ws)
	if o == nil {
		t.Fatalf("stale owner %s stopped serving %s on its own", stale.Name(), ws)
	}
	err := o.ws.FS().WriteFile(context.Background(), "/bg.txt", []byte("from the deposed owner\n"), nil)
	wantErr := fmt.Sprintf("fleet: ship zeta: lease lost: node %s no longer owns workspace zeta (epoch %d): the broker refused the commit (another node took the workspace over); it is not acknowledged",
		stale.Name(), l.Epoch)
	if err == nil || !strings.Contains(err.Error(), wantErr) || !errors.Is(err, ErrLeaseLost) || !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("background write on the deposed owner: %v, want it to contain %q", err, wantErr)
	}
	waitClosed(t, stale, ws)
	if stale.Owns(ws) {
		t.Errorf("deposed owner %s still serves %s", stale.Name(), ws)
	}
	b, _ := json.Marshal(map[string]string{"path": "/bg.txt"})
	res, err := next.Call(context.Background(), ws, "read", b)
	if err != nil || !res.IsError || res.Content[0].Text != "File not found: /bg.txt" {
		t.Errorf("the refused write reached the new owner: %+v %v", res, err)
	}
	checkWorkload(t, nodes, ws, want)
	no := next.servedHere(ws)
	if no.restored.SnapshotSeq == 0 || no.restored.Commits == 0 {
		t.Errorf("takeover restored %+v, want a snapshot and a log tail", no.restored)
	}
	t.Logf("takeover of %s restored %+v", ws, no.restored)
}
