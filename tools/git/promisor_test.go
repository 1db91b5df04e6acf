package git

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/nookdev/nook/runtime"
)

// newPartialPair is a remotePair whose server gives filtered packs and
// any object asked for (what a partial clone needs of it), with a
// history of five commits each changing README and adding a file.
func newPartialPair(t *testing.T) *remotePair {
	p := newRemotePair(t, 5)
	p.serverGit("config", "uploadpack.allowFilter", "true")
	p.serverGit("config", "uploadpack.allowAnySHA1InWant", "true")
	return p
}

// clone --filter=blob:none: the clone has the commits and trees and the
// blobs of its checkout only, records its promisor as git does, and
// fetches a left-out blob when a command reads one; the exported
// repository is one git takes (fsck), commits and pushes from it land.
func TestPartialClone(t *testing.T) {
	p := newPartialPair(t)
	u := p.srv.url("proj.git")
	p.both("", "clone", "--filter=blob:none", u, "pc")
	for _, key := range []string{"core.repositoryformatversion", "remote.origin.promisor", "remote.origin.partialclonefilter", "extensions.objectformat"} {
		p.both("pc", "config", key)
	}
	p.both("pc", "status")
	p.both("pc", "log", "--oneline")
	// The blobs of older commits are not there until read.
	old := strings.TrimSpace(nookGit(t, p.g, "-C", "pc", "rev-parse", "HEAD~3:README"))
	st, _ := (&call{ctx: bg, g: p.g}).storage("/workspace/pc")
	if st.HasEncodedObject(plumbing.NewHash(old)) == nil {
		t.Fatalf("the partial clone has the left-out blob %s", old)
	}
	n := p.srv.requests()
	p.both("pc", "show", "HEAD~3:README")
	if got := p.srv.requests() - n; got == 0 {
		t.Errorf("show of a left-out blob made no request")
	}
	p.both("pc", "diff", "--stat", "HEAD~4", "HEAD~2")
	p.both("pc", "log", "-p", "-2", "--format=%s")
	p.both("pc", "checkout", "-q", "HEAD~4")
	p.sameFile("pc/README")
	p.both("pc", "checkout", "-q", "main")
	p.write("pc/NEW", "new\n")
	p.both("pc", "add", "NEW")
	p.both("pc", "commit", "-q", "-m", "six")
	p.both("pc", "push")
	p.sameServers()
	// A change pushed by the real git: fetch keeps the filter.
	p.upstream("main", "OTHER", "other\n", "seven")
	p.both("pc", "fetch")
	other := strings.TrimSpace(nookGit(t, p.g, "-C", "pc", "rev-parse", "origin/main:OTHER"))
	st, _ = (&call{ctx: bg, g: p.g}).storage("/workspace/pc")
	if st.HasEncodedObject(plumbing.NewHash(other)) == nil {
		t.Errorf("the fetch brought the blob %s its filter leaves out", other)
	}
	p.both("pc", "pull")
	p.sameFile("pc/OTHER")
	p.both("pc", "log", "--oneline", "-3")
	dst := filepath.Join(t.TempDir(), "pc")
	export(t, p.g.fs, "/workspace/pc", dst)
	if out, errs, code := realGit(t, dst, "fsck", "--strict", "--no-dangling"); code != 0 || errs != "" {
		t.Errorf("git fsck --strict of nook's partial clone: exit %d\n%s%s", code, out, errs)
	}
	p.both("", "clone", "--depth", "1", "--filter=blob:none", u, "shallow")
	p.both("shallow", "log", "--format=%H %s")
	p.sameFile("shallow/.git/shallow")
	p.both("shallow", "status", "-sb")
	p.both("", "clone", "-q", "--filter=blob:limit=1k", u, "lim")
	p.both("lim", "config", "remote.origin.partialclonefilter")
	// Filters that leave out more than blobs are refused with the reason.
	out := p.g.Run(bg, []string{"clone", "--filter=tree:0", u, "t0"}, "/workspace")
	want := "Cloning into 't0'...\n"
	if out.ExitCode != 128 || !strings.HasPrefix(out.Stderr, "fatal: --filter=tree:0: nook's git makes partial clones that leave out blobs only") || strings.Contains(out.Stderr, want) {
		t.Errorf("clone --filter=tree:0: exit %d\n%s", out.ExitCode, out.Stderr)
	}
}

// A server that does not take filters gets a full clone, with git's
// warning.
func TestPartialCloneUnfiltered(t *testing.T) {
	p := newRemotePair(t, 2)
	p.both("", "clone", "--filter=blob:none", p.srv.url("proj.git"), "pc")
	p.both("pc", "config", "remote.origin.partialclonefilter")
}

// The lazy fetches are bounded by MaxLazyFetches and go through the
// outbound policy: past the limit, or with the network off, a command
// that needs a left-out blob fails naming the limit or the policy.
func TestPartialCloneLimits(t *testing.T) {
	p := newPartialPair(t)
	p.srv.use(p.nookRoot)
	nookGit(t, p.g, "clone", "-q", "--filter=blob:none", p.srv.url("proj.git"), "/workspace/pc")
	small := New(p.g.fs, Options{Identity: testID, Now: func() time.Time { return fixedClock }, MaxLazyFetches: 2,
		AllowNetwork: true, Outbound: &runtime.Outbound{AllowHosts: []string{"127.0.0.1"}}})
	out := small.Run(bg, []string{"log", "-p", "--format=%s"}, "/workspace/pc")
	want := "fatal: the command needs more than MaxLazyFetches (2) fetches of objects the partial clone left out\n"
	if out.ExitCode != 128 || !strings.HasSuffix(out.Stderr, want) {
		t.Errorf("log -p past MaxLazyFetches: exit %d\n%s%s\nwant\n%s", out.ExitCode, out.Stdout, out.Stderr, want)
	}
	if err := small.Run(bg, []string{"show", "HEAD~4:README"}, "/workspace/pc"); err.ExitCode != 0 {
		t.Errorf("one lazy fetch under the limit failed: %s", err.Stderr)
	}
	if !errors.Is(&LazyFetchLimitError{Max: 1}, syscall.EFBIG) {
		t.Errorf("LazyFetchLimitError is not EFBIG")
	}
	// The clone function takes the filter too; a filter it does not
	// make is refused with the command line's reason.
	res, err := p.g.Call(bg, nil, "clone", map[string]any{"url": p.srv.url("proj.git"), "into": "fn", "filter": "blob:none"})
	if err != nil {
		t.Fatalf("clone({filter}): %v", err)
	}
	if got := nookGit(t, p.g, "-C", "fn", "config", "remote.origin.partialclonefilter"); got != "blob:none\n" || res.(map[string]any)["branch"] != "main" {
		t.Errorf("clone({filter}): %v, partialclonefilter %q", res, got)
	}
	if _, err := p.g.Call(bg, nil, "clone", map[string]any{"url": p.srv.url("proj.git"), "into": "fn2", "filter": "tree:0"}); err == nil ||
		!strings.HasPrefix(err.Error(), "--filter=tree:0: nook's git makes partial clones that leave out blobs only") {
		t.Errorf("clone({filter: tree:0}): %v", err)
	}
	off := New(p.g.fs, Options{Identity: testID, Now: func() time.Time { return fixedClock }})
	out = off.Run(bg, []string{"show", "HEAD~3:README"}, "/workspace/pc")
	if out.ExitCode != 128 || !strings.Contains(out.Stderr, "network is off") {
		t.Errorf("show of a left-out blob without network: exit %d\n%s", out.ExitCode, out.Stderr)
	}
	// Reading what the clone has needs no network.
	if out := off.Run(bg, []string{"log", "--format=%s", "-1"}, "/workspace/pc"); out.ExitCode != 0 || out.Stdout != "commit 5\n" {
		t.Errorf("log without network: exit %d\n%s%s", out.ExitCode, out.Stdout, out.Stderr)
	}
}
