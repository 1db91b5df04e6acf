package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// tcpProxy forwards connections to target. Cut closes every connection
// and refuses new ones until Heal.
type tcpProxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	cut    bool
	conns  map[net.Conn]struct{}
	wg     sync.WaitGroup
}

func newTCPProxy(t *testing.T, target string) *tcpProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &tcpProxy{ln: ln, target: target, conns: map[net.Conn]struct{}{}}
	p.wg.Add(1)
	go p.serve()
	t.Cleanup(p.close)
	return p
}

func (p *tcpProxy) addr() string { return p.ln.Addr().String() }

func (p *tcpProxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.cut {
			p.mu.Unlock()
			c.Close()
			continue
		}
		up, err := net.Dial("tcp", p.target)
		if err != nil {
			p.mu.Unlock()
			c.Close()
			continue
		}
		p.conns[c], p.conns[up] = struct{}{}, struct{}{}
		p.wg.Add(2)
		p.mu.Unlock()
		pipe := func(dst, src net.Conn) {
			defer p.wg.Done()
			io.Copy(dst, src)
			dst.Close()
			src.Close()
			p.mu.Lock()
			delete(p.conns, dst)
			delete(p.conns, src)
			p.mu.Unlock()
		}
		go pipe(up, c)
		go pipe(c, up)
	}
}

func (p *tcpProxy) setCut(cut bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = cut
	if cut {
		for c := range p.conns {
			c.Close()
		}
	}
}

func (p *tcpProxy) close() {
	p.ln.Close()
	p.setCut(true)
	p.wg.Wait()
}

// appendOp is one client operation of the partition test: an edit that
// inserts its own line before END in /log.txt (not idempotent: run twice,
// the line appears twice).
type appendOp struct {
	line       string
	via        string
	start, end time.Time
	err        error
}

func appendLine(n *Node, ws, line string, timeout time.Duration) appendOp {
	op := appendOp{line: line, via: n.Name(), start: time.Now()}
	args, _ := json.Marshal(map[string]any{"path": "/log.txt", "edits": []map[string]string{{"oldText": "END\n", "newText": line + "\nEND\n"}}})
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	res, err := n.Call(ctx, ws, "edit", args)
	cancel()
	if err == nil && res.IsError {
		err = errors.New(res.Content[0].Text)
	}
	op.end, op.err = time.Now(), err
	return op
}

// A node cut off from NATS (a proxy between its client connection and
// the cluster is cut, then healed) stops acknowledging writes before its
// lease expires; another node takes the workspace over; no acknowledged
// write is lost, none is applied twice, and a refused one not at all.
func TestPartition(t *testing.T) {
	if testing.Short() {
		t.Skip("a fleet, a cut of 3 lease TTLs")
	}
	nodes := startFleet(t)
	proxy := newTCPProxy(t, strings.TrimPrefix(nodes[0].ClientURL(), "nats://"))
	cutOff, err := Start(context.Background(), Options{Name: "p", DataDir: t.TempDir(), NATSURL: "nats://" + proxy.addr(),
		LeaseTTL: testTTL, CallTimeout: 20 * time.Second, StartTimeout: 40 * time.Second, SnapshotEvery: testSnapshotEvery,
		onlyURL: true})
	if err != nil {
		t.Fatal(err)
	}
	defer cutOff.Close()
	ws := wsOn("part", "p", []string{"n1", "n2", "n3", "p"})
	b, _ := json.Marshal(map[string]string{"path": "/log.txt", "content": "START\nEND\n"})
	if _, err := cutOff.Call(context.Background(), ws, "write", b); err != nil || !cutOff.Owns(ws) {
		t.Fatalf("placing %s on p: %v (owned: %v)", ws, err, cutOff.Owns(ws))
	}
	_, _, l0 := owner(t, append(nodes, cutOff), ws)

	var mu sync.Mutex
	var ops []appendOp
	record := func(op appendOp) {
		mu.Lock()
		ops = append(ops, op)
		mu.Unlock()
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	writer := func(n *Node, prefix string, timeout time.Duration) {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			record(appendLine(n, ws, fmt.Sprintf("%s%d", prefix, i), timeout))
			time.Sleep(10 * time.Millisecond)
		}
	}
	// The lease's end as the cluster sees it.
	var gone time.Time // written by the goroutine below until wg.Wait
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
			l, ok, err := nodes[2].Owner(context.Background(), ws)
			if err == nil && (!ok || l.Node != "p") {
				gone = time.Now()
				return
			}
		}
	}()
	wg.Add(1)
	go writer(cutOff, "p", 1500*time.Millisecond) // a client on the cut-off node itself
	time.Sleep(time.Second)
	proxy.setCut(true)
	cut := time.Now()
	wg.Add(1)
	go writer(nodes[1], "n", 1500*time.Millisecond) // a client elsewhere
	time.Sleep(3 * testTTL)
	proxy.setCut(false)
	healed := time.Now()
	time.Sleep(testTTL)
	close(stop)
	wg.Wait()

	if gone.IsZero() {
		t.Fatalf("p still held the lease of %s after the cut", ws)
	}
	// p may own the workspace again, placed there after the heal (it ranks
	// first): then under a newer epoch, as any other owner.
	own, _, l := owner(t, append(nodes, cutOff), ws)
	if l.Epoch < l0.Epoch+1 {
		t.Errorf("after the partition %s is owned by %s with epoch %d; p had it with epoch %d", ws, own.Name(), l.Epoch, l0.Epoch)
	}
	got, err := own.servedHere(ws).ws.FS().ReadFile(context.Background(), "/log.txt")
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	lines := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
	if lines[0] != "START" || lines[len(lines)-1] != "END" {
		t.Fatalf("log.txt %q", got)
	}
	for _, line := range lines[1 : len(lines)-1] {
		count[line]++
	}
	acked, refused, unknown, lastOnP := 0, 0, 0, time.Time{}
	for _, op := range ops {
		switch {
		case op.err == nil:
			acked++
			if count[op.line] != 1 {
				t.Errorf("acknowledged %s (via %s, %v after the cut) appears %d times", op.line, op.via, op.end.Sub(cut), count[op.line])
			}
			if op.via == "p" && op.end.After(cut) && op.end.Before(healed) && op.end.After(lastOnP) {
				lastOnP = op.end
			}
		case errors.Is(op.err, ErrLeaseLost) || errors.Is(op.err, errNotOwner):
			refused++
			if count[op.line] != 0 {
				t.Errorf("refused %s (%v) appears %d times", op.line, op.err, count[op.line])
			}
		default:
			unknown++
			if count[op.line] > 1 {
				t.Errorf("failed %s (%v) appears %d times", op.line, op.err, count[op.line])
			}
		}
	}
	for line, c := range count {
		if c > 1 {
			t.Errorf("%s appears %d times", line, c)
		}
	}
	if !lastOnP.IsZero() && !lastOnP.Before(gone) {
		t.Errorf("p acknowledged a write %v after its lease was gone", lastOnP.Sub(gone))
	}
	lastP := "none"
	if !lastOnP.IsZero() {
		lastP = lastOnP.Sub(cut).Round(time.Millisecond).String() + " after the cut"
	}
	t.Logf("lease gone %v after the cut, healed %v after it; owner at the end %s (epoch %d); %d ops: %d acknowledged, %d refused, %d failed otherwise; last write acknowledged by p during the cut: %s",
		gone.Sub(cut).Round(time.Millisecond), healed.Sub(cut).Round(time.Millisecond),
		own.Name(), l.Epoch, len(ops), acked, refused, unknown, lastP)
	if acked == 0 {
		t.Error("no operation was acknowledged")
	}
}
