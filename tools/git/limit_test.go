package git

import (
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// limitGit is nook's git on a fresh workspace, allowed to reach loopback,
// with one response bounded by max bytes.
func limitGit(t *testing.T, max int64) (*Git, *vfs.FS) {
	ws := newWS(t)
	return New(ws.FS(), Options{Identity: testID, Now: func() time.Time { return fixedClock }, AllowNetwork: true,
		Outbound: &runtime.Outbound{AllowHosts: []string{"127.0.0.1"}}, MaxResponseBytes: max}), ws.FS()
}

// noEntry fails t unless the workspace has nothing at path.
func noEntry(t *testing.T, f *vfs.FS, path string) {
	t.Helper()
	if _, err := f.Lstat(bg, path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s is left behind (%v)", path, err)
	}
}

// A pack larger than MaxResponseBytes fails clone, fetch and pull with an
// error naming the limit; the clone leaves no repository and the fetch
// moves no ref.
func TestMaxResponseBytesPack(t *testing.T) {
	const max = 1 << 20
	root := t.TempDir()
	bare := makeBare(t, root, "proj.git", 2)
	srv := newGitServer(t, root)
	u := srv.url("proj.git")
	g, f := limitGit(t, max)
	limitMsg := fmt.Sprintf("fatal: unable to access '%s/': the response from 127.0.0.1:%s exceeds the limit MaxResponseBytes (%d bytes)\n", u, srv.port(), max)

	// Small enough: the clone works under the limit.
	if out := g.Run(bg, []string{"clone", "-q", u, "small"}, "/workspace"); out.ExitCode != 0 {
		t.Fatalf("clone under the limit: exit %d %s", out.ExitCode, out.Stderr)
	}
	// 1.5 MiB of random bytes (no compression helps) pushed by the real git
	// (to the directory: net/http/cgi takes no chunked request bodies).
	work := t.TempDir()
	mustGit(t, work, "clone", "-q", bare, "w")
	big := make([]byte, 3<<19)
	rand.Read(big)
	os.WriteFile(filepath.Join(work, "w", "BIG"), big, 0o644)
	mustGit(t, filepath.Join(work, "w"), "add", "BIG")
	mustGit(t, filepath.Join(work, "w"), "commit", "-q", "-m", "big")
	mustGit(t, filepath.Join(work, "w"), "push", "-q", "origin", "main")
	fsck(t, bare)

	out := g.Run(bg, []string{"clone", u, "big"}, "/workspace")
	if want := "Cloning into 'big'...\n" + limitMsg; out.ExitCode != 128 || out.Stdout != "" || out.Stderr != want {
		t.Errorf("clone over the limit: exit %d\n%q\nwant\n%q", out.ExitCode, out.Stderr, want)
	}
	noEntry(t, f, "/workspace/big")
	noEntry(t, f, "/workspace/.nook-clone-big")

	before := nookGit(t, g, "-C", "small", "show-ref")
	for _, cmd := range [][]string{{"fetch"}, {"pull"}} {
		out := g.Run(bg, cmd, "/workspace/small")
		if out.ExitCode != 128 || out.Stdout != "" || out.Stderr != limitMsg {
			t.Errorf("%s over the limit: exit %d\n%q\nwant\n%q", cmd[0], out.ExitCode, out.Stderr, limitMsg)
		}
	}
	if after := nookGit(t, g, "-C", "small", "show-ref"); after != before {
		t.Errorf("a failed fetch moved refs:\n%s\nwas\n%s", after, before)
	}
	if l := nookGit(t, g, "-C", "small", "log", "--format=%s"); l != "commit 2\ncommit 1\n" {
		t.Errorf("log after a failed pull: %q", l)
	}

	// The functions fail with EFBIG, errors.Is(syscall.EFBIG) in Go.
	m := Module(f, g.opts)
	_, err := m["clone"](bg, &runtime.CallContext{RunID: "r", CallID: "r/1"}, []any{map[string]any{"url": u, "into": "viajs"}})
	var ce *runtime.CallError
	if !errors.As(err, &ce) || ce.Code != "EFBIG" || !strings.Contains(ce.Message, "exceeds the limit MaxResponseBytes (1048576 bytes)") {
		t.Errorf("clone function: %#v", err)
	}
	noEntry(t, f, "/workspace/viajs")
	_, err = g.Call(bg, nil, "clone", map[string]any{"url": u, "into": "viago"})
	var le *ResponseLimitError
	if !errors.Is(err, syscall.EFBIG) || !errors.As(err, &le) || le.Max != max {
		t.Errorf("clone in Go: %v", err)
	}
	_, err = g.Call(bg, nil, "fetch", map[string]any{"dir": "/workspace/small"})
	if !errors.Is(err, syscall.EFBIG) || !errors.As(err, &le) {
		t.Errorf("fetch in Go: %v", err)
	}

	// Raised, the limit lets the same clone through.
	g2 := New(f, Options{Identity: testID, AllowNetwork: true, Outbound: g.opts.Outbound, MaxResponseBytes: 4 << 20})
	if out := g2.Run(bg, []string{"clone", "-q", u, "big"}, "/workspace"); out.ExitCode != 0 {
		t.Fatalf("clone with a larger limit: exit %d %s", out.ExitCode, out.Stderr)
	}
	if b, err := f.ReadFile(bg, "/workspace/big/BIG"); err != nil || len(b) != len(big) {
		t.Errorf("BIG: %d bytes, %v", len(b), err)
	}
}

// A server that never stops sending (an endless ref advertisement, with
// no length and with a length past the limit) is cut off at the limit:
// the host reads about the limit, not what the server offers.
func TestMaxResponseBytesEndless(t *testing.T) {
	const max = 1 << 20
	var sent atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-git-upload-pack-advertisement")
		if strings.HasPrefix(r.URL.Path, "/declared") {
			w.Header().Set("Content-Length", fmt.Sprint(int64(1)<<40))
		}
		line := func(i int) string {
			s := fmt.Sprintf("%040x refs/heads/b%08d\n", i, i)
			return fmt.Sprintf("%04x%s", len(s)+4, s)
		}
		first := fmt.Sprintf("%040x HEAD\x00multi_ack side-band-64k ofs-delta\n", 1)
		head := "001e# service=git-upload-pack\n0000" + fmt.Sprintf("%04x%s", len(first)+4, first)
		if _, err := w.Write([]byte(head)); err != nil {
			return
		}
		for i := 2; ; i++ {
			n, err := w.Write([]byte(line(i)))
			sent.Add(int64(n))
			if err != nil || sent.Load() > 1<<30 {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	g, f := limitGit(t, max)
	port := strings.TrimPrefix(srv.URL, "http://127.0.0.1:")
	var ms0, ms1 goruntime.MemStats
	goruntime.ReadMemStats(&ms0)
	for _, name := range []string{"endless", "declared"} {
		sent.Store(0)
		u := srv.URL + "/" + name + ".git"
		out := g.Run(bg, []string{"clone", u}, "/workspace")
		want := fmt.Sprintf("Cloning into '%s'...\nfatal: unable to access '%s/': the response from 127.0.0.1:%s exceeds the limit MaxResponseBytes (%d bytes)\n", name, u, port, max)
		if out.ExitCode != 128 || out.Stderr != want {
			t.Errorf("clone of %s: exit %d\n%q\nwant\n%q", name, out.ExitCode, out.Stderr, want)
		}
		noEntry(t, f, "/workspace/"+name)
		noEntry(t, f, "/workspace/.nook-clone-"+name)
		out = g.Run(bg, []string{"ls-remote", u}, "/workspace")
		if want := strings.TrimPrefix(want, "Cloning into '"+name+"'...\n"); out.ExitCode != 128 || out.Stderr != want {
			t.Errorf("ls-remote of %s: exit %d\n%q\nwant\n%q", name, out.ExitCode, out.Stderr, want)
		}
		// What the server got out before the client hung up: the limit
		// and what the sockets buffer, not the gigabyte it offers.
		time.Sleep(50 * time.Millisecond)
		if n := sent.Load(); n > 32<<20 {
			t.Errorf("%s: the server sent %d bytes to a client bounded at %d", name, n, max)
		} else {
			t.Logf("%s: the server got %d bytes out before the client hung up", name, n)
		}
	}
	goruntime.ReadMemStats(&ms1)
	if grown := ms1.TotalAlloc - ms0.TotalAlloc; grown > 96<<20 {
		t.Errorf("four bounded transfers allocated %d MiB", grown>>20)
	} else {
		t.Logf("four bounded transfers allocated %d MiB in all", grown>>20)
	}
}
