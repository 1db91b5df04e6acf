package git

import "testing"

// fetch --dry-run reports what a fetch would do and changes no ref and
// no FETCH_HEAD; --prune-tags (-P, fetch.pruneTags,
// remote.<name>.pruneTags) fetches every tag and, with --prune, deletes
// the local tags the remote no longer has.
func TestFetchDryRunPruneTags(t *testing.T) {
	p := newRemotePair(t, 3)
	p.serverGit("branch", "gone", "main~1")
	p.serverGit("tag", "v1", "main~2")
	p.both("", "clone", "-q", p.srv.url("proj.git"))
	p.upstream("main", "N", "n\n", "four")
	p.serverGit("branch", "-D", "gone")
	p.serverGit("branch", "fresh", "main")
	p.serverGit("tag", "v2", "main")
	p.serverGit("branch", "-f", "side", "main~3")
	p.both("proj", "fetch", "--dry-run")
	p.both("proj", "branch", "-r")
	p.both("proj", "tag")
	p.both("proj", "fetch", "--dry-run", "--prune")
	p.both("proj", "fetch", "--dry-run", "-q")
	p.both("proj", "branch", "-r")
	p.both("proj", "status", "-sb")
	if _, err := p.g.fs.Lstat(bg, "/workspace/proj/.git/FETCH_HEAD"); err == nil {
		t.Errorf("a dry run wrote FETCH_HEAD")
	}
	p.both("proj", "fetch")
	p.both("proj", "fetch", "--dry-run")
	// A tag of a commit the fetch brings below the branch's tip is
	// followed only after the fetch; one of the tip before.
	p.upstream("main", "M1", "m1\n", "five")
	p.serverGit("tag", "-a", "-m", "five", "a-five", "main")
	p.upstream("main", "M2", "m2\n", "six")
	p.serverGit("tag", "z-six", "main")
	p.both("proj", "fetch", "--dry-run")
	p.both("proj", "fetch")
	p.both("proj", "tag")
	// Tags: one deleted on the server, one made locally.
	p.serverGit("tag", "-d", "v1")
	p.serverGit("tag", "v3", "main~1")
	p.both("proj", "tag", "local")
	p.both("proj", "fetch", "--prune-tags")
	p.both("proj", "tag")
	p.both("proj", "fetch", "--dry-run", "--prune", "--prune-tags")
	p.both("proj", "tag")
	p.both("proj", "fetch", "-p", "-P")
	p.both("proj", "tag")
	p.serverGit("tag", "-d", "v2")
	p.both("proj", "config", "fetch.pruneTags", "true")
	p.both("proj", "fetch")
	p.both("proj", "tag")
	p.both("proj", "fetch", "--prune")
	p.both("proj", "tag")
	p.serverGit("tag", "-d", "v3")
	p.both("proj", "config", "remote.origin.pruneTags", "false")
	p.both("proj", "fetch", "--prune")
	p.both("proj", "tag")
	p.both("proj", "fetch", "--prune", "--prune-tags")
	p.both("proj", "tag")
	p.both("proj", "fetch", "--no-prune-tags", "-p")
}
