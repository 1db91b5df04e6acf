package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/runtime/shell"
	"github.com/nookdev/nook/vfs"
)

// linkServer serves a LinkPublisher over f on loopback, with a clock the
// test moves.
func linkServer(t *testing.T, f *vfs.FS) (*LinkPublisher, *atomic.Int64) {
	t.Helper()
	var now atomic.Int64
	now.Store(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli())
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	lp, err := NewLinkPublisher(f, LinkOptions{BaseURL: srv.URL, MaxBytes: 1000, Now: func() time.Time { return time.UnixMilli(now.Load()) }})
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle(LinkPrefix, lp)
	return lp, &now
}

func get(t *testing.T, url string, hdr ...string) (int, string, http.Header) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

func TestPublishLinks(t *testing.T) {
	_, f := newSet(t, Options{})
	lp, now := linkServer(t, f)
	s := New(f, Options{Publisher: lp})
	mustWrite(t, f, "/out/report.csv", "a,b\n1,2\n")
	r := ok(t, s, "publish", `{"path":"/out/report.csv","expiresAfterMs":60000}`)
	m := structured(t, r)
	url, _ := m["url"].(string)
	if m["ok"] != true || m["path"] != "/out/report.csv" || m["expiresAt"] == nil || !strings.HasSuffix(url, "/report.csv") {
		t.Fatalf("publish = %v", m)
	}
	code, body, h := get(t, url)
	if code != 200 || body != "a,b\n1,2\n" || h.Get("Content-Type") != "text/csv; charset=utf-8" || h.Get("Content-Security-Policy") != "sandbox" {
		t.Errorf("GET = %d %q %v", code, body, h)
	}
	if code, body, _ := get(t, url, "Range", "bytes=4-6"); code != 206 || body != "1,2" {
		t.Errorf("range GET = %d %q", code, body)
	}
	// An altered signature, an altered payload (another path): 403.
	i := strings.LastIndex(url, "/")
	tok := url[strings.Index(url, LinkPrefix)+len(LinkPrefix) : i]
	payload, sig, _ := strings.Cut(tok, ".")
	forged := strings.Replace(url, sig, strings.ToUpper(sig[:4])+sig[4:], 1)
	if sig[:4] == strings.ToUpper(sig[:4]) {
		forged = strings.Replace(url, sig, "AAAA"+sig[4:], 1)
	}
	for _, u := range []string{forged, strings.Replace(url, payload, payload[:len(payload)-2]+"xx", 1)} {
		if code, body, _ := get(t, u); code != 403 || body != "invalid link signature\n" {
			t.Errorf("forged %s = %d %q", u, code, body)
		}
	}
	// After the expiry: 410, no content.
	now.Add(60_000)
	if code, body, _ := get(t, url); code != 410 || body != "this link has expired\n" {
		t.Errorf("expired GET = %d %q", code, body)
	}
	// A link to a file changed since refuses.
	now.Add(-60_000)
	mustWrite(t, f, "/out/report.csv", "changed\n")
	if code, body, _ := get(t, url); code != 410 || body != "the published file has changed since it was published\n" {
		t.Errorf("changed GET = %d %q", code, body)
	}
	// Bounds: expiry, size, a directory or a missing file.
	fails(t, s, "publish", `{"path":"/out/report.csv","expiresAfterMs":86400001}`,
		"expiresAfterMs must be between 1 and 86400000 (the limit Publish.MaxExpiry, 24h0m0s), got 86400001")
	mustWrite(t, f, "/big", strings.Repeat("x", 1001))
	fails(t, s, "publish", `{"path":"/big"}`, "publish /big: /big has 1001 bytes, more than the 1000 the link publisher shares (LinkOptions.MaxBytes)")
	fails(t, s, "publish", `{"path":"/out"}`, "File not found: /out")
	fails(t, s, "publish", `{"path":"/nope"}`, "File not found: /nope")
	// The default expiry is an hour.
	m = structured(t, ok(t, s, "publish", `{"path":"out/report.csv"}`))
	if got := int64(m["expiresAt"].(float64)) - time.Now().UnixMilli(); got < 3590_000 || got > 3600_000 {
		t.Errorf("default expiry %d ms from now", got)
	}
}

// Without a publisher, and in a read-only set, there is no publish tool.
func TestPublishAbsent(t *testing.T) {
	_, f := newSet(t, Options{})
	lp, _ := linkServer(t, f)
	names := func(s *Set) []string {
		var n []string
		for _, t := range s.Tools() {
			n = append(n, t.Name)
		}
		return n
	}
	if n := names(New(f, Options{})); slices.Contains(n, "publish") {
		t.Errorf("no publisher: %v", n)
	}
	if n := names(New(f, Options{Publisher: lp, ReadOnly: true})); slices.Contains(n, "publish") {
		t.Errorf("read-only: %v", n)
	}
	if n := names(New(f, Options{Publisher: lp})); n[len(n)-1] != "publish" {
		t.Errorf("with a publisher: %v", n)
	}
}

// countingPublisher counts its shares.
type countingPublisher struct{ n atomic.Int32 }

func (c *countingPublisher) Share(_ context.Context, p string, d time.Duration) (string, error) {
	c.n.Add(1)
	return "https://example.com" + p + "?n=" + itoa(int(c.n.Load())), nil
}

// From code, publish leaves a receipt: a call run again (a replay after a
// crash between the share and the journal's record) returns the link it
// got the first time and does not publish twice.
func TestPublishFromCodeOnce(t *testing.T) {
	pub := &countingPublisher{}
	opts := Options{Publisher: pub}
	mod, bind := LateModule(opts)
	ws, err := nook.Open(bg, filepath.Join(t.TempDir(), "ws.db"), nook.WithBackends(js.New(js.Options{})),
		nook.WithModules(map[string]runtime.Module{ModuleName: mod}))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	opts.Runtime = ws.Runtime()
	set := New(ws.FS(), opts)
	bind(set)
	mustWrite(t, ws.FS(), "/a.txt", "a")
	h, err := ws.Runtime().Exec(bg, `import { publish } from "ws:tools";
export default async () => (await publish({ path: "/a.txt" })).url;`, runtime.ExecOptions{ID: "r1"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(bg)
	if err != nil || string(res.Value) != `"https://example.com/a.txt?n=1"` {
		t.Fatalf("%v %s %s", err, res.Value, res.Error)
	}
	// The call again, as a replay runs it: the receipt answers.
	cc := &runtime.CallContext{RunID: "r1", CallID: "r1/1"}
	v, err := set.callFromCode(bg, cc, "publish", []any{map[string]any{"path": "/a.txt"}})
	if err != nil || v.(map[string]any)["url"] != "https://example.com/a.txt?n=1" || pub.n.Load() != 1 {
		t.Errorf("repeat = %v %v, %d shares", v, err, pub.n.Load())
	}
}

// A link serves only the published bytes: a transfer reads the file block
// by block, each block in a snapshot whose content hash is the published
// one, so a change during the transfer cuts it short, and content changed
// back to what was published is served again.
func TestPublishLinkReadsOneVersion(t *testing.T) {
	_, f := newSet(t, Options{})
	orig := strings.Repeat("0123456789abcdef", (2*publishedBlock+publishedBlock/2)/16)
	mustWrite(t, f, "/big.txt", orig)
	ctx := context.Background()
	hash, err := f.ContentHash(ctx, "/big.txt")
	if err != nil {
		t.Fatal(err)
	}
	r := &publishedReader{ctx: ctx, fs: f, path: "/big.txt", hash: hash}
	buf := make([]byte, publishedBlock)
	if n, err := r.ReadAt(buf, 0); n != len(buf) || err != nil || string(buf) != orig[:publishedBlock] {
		t.Fatalf("first block: %d, %v", n, err)
	}
	mustWrite(t, f, "/big.txt", strings.ToUpper(orig))
	if n, err := r.ReadAt(buf, publishedBlock); n != 0 || !errors.Is(err, errLinkChanged) {
		t.Fatalf("block after a change: %d, %v; want 0, errLinkChanged", n, err)
	}
	mustWrite(t, f, "/big.txt", orig)
	// A read across blocks, to the end.
	tail := make([]byte, publishedBlock+publishedBlock/2+10)
	n, err := r.ReadAt(tail, publishedBlock)
	if n != len(orig)-publishedBlock || err != io.EOF || string(tail[:n]) != orig[publishedBlock:] {
		t.Fatalf("tail: %d, %v", n, err)
	}

	// Over HTTP: the published content, whole and by range.
	lp, err := NewLinkPublisher(f, LinkOptions{BaseURL: "http://x"})
	if err != nil {
		t.Fatal(err)
	}
	url, err := lp.Share(ctx, "/big.txt", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(lp)
	t.Cleanup(srv.Close)
	url = srv.URL + strings.TrimPrefix(url, "http://x")
	if code, body, _ := get(t, url); code != 200 || body != orig {
		t.Errorf("GET = %d, %d bytes equal: %v", code, len(body), body == orig)
	}
	lo := publishedBlock - 3
	if code, body, _ := get(t, url, "Range", fmt.Sprintf("bytes=%d-%d", lo, lo+5)); code != 206 || body != orig[lo:lo+6] {
		t.Errorf("range across blocks = %d %q", code, body)
	}
}

// The shell's publish command (Computer's "assets publish"): the link on
// stdout, the tool's refusal on stderr with status 1, usage errors with 2;
// without a publisher there is no such command.
func TestPublishFromShell(t *testing.T) {
	pub := &countingPublisher{}
	opts := Options{Publisher: pub}
	mod, bind := LateModule(opts)
	ws, err := nook.Open(bg, filepath.Join(t.TempDir(), "ws.db"), nook.WithBackends(shell.New(shell.Options{})),
		nook.WithModules(map[string]runtime.Module{ModuleName: mod}))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	opts.Runtime = ws.Runtime()
	bind(New(ws.FS(), opts))
	mustWrite(t, ws.FS(), "/workspace/out/a.txt", "a")
	script := `cd /workspace
publish out/a.txt
publish --expires 5000 /workspace/out/a.txt
publish out/none.txt; echo "status $?"
publish; echo "status $?"
publish --expires soon out/a.txt; echo "status $?"
command -v publish`
	h, err := ws.Runtime().Exec(bg, script, runtime.ExecOptions{Backend: "shell"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(bg)
	if err != nil {
		t.Fatal(err)
	}
	wantOut := "https://example.com/workspace/out/a.txt?n=1\nhttps://example.com/workspace/out/a.txt?n=2\nstatus 1\nstatus 2\nstatus 2\n/usr/bin/publish\n"
	wantErr := "publish: File not found: /workspace/out/none.txt\npublish: one FILE, got 0\nusage: publish [--expires MS] FILE\n" +
		"publish: --expires \"soon\": not a positive number of milliseconds\n"
	if res.ExitCode != 0 || string(res.Stdout) != wantOut || string(res.Stderr) != wantErr {
		t.Errorf("exit %d\nstdout %q\nwant   %q\nstderr %q\nwant   %q", res.ExitCode, res.Stdout, wantOut, res.Stderr, wantErr)
	}

	// No publisher: no command.
	ws2, err := nook.OpenMemory(bg, nook.WithBackends(shell.New(shell.Options{})))
	if err != nil {
		t.Fatal(err)
	}
	defer ws2.Close()
	h, err = ws2.Runtime().Exec(bg, "publish /a.txt", runtime.ExecOptions{Backend: "shell"})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := h.Result(bg); err != nil || res.ExitCode != 127 || string(res.Stderr) != "publish: command not found\n" {
		t.Errorf("without a publisher: %v %d %q", err, res.ExitCode, res.Stderr)
	}
}
