package git

import "testing"

// push --force-with-lease in its three forms: the lease holds (the push
// is forced), the remote moved past it (stale info), an explicit
// expected value, and an empty one (the ref must not exist).
func TestPushForceWithLease(t *testing.T) {
	p := newRemotePair(t, 3)
	p.both("", "clone", "-q", p.srv.url("proj.git"))
	p.both("proj", "reset", "-q", "--hard", "HEAD~1")
	p.write("proj/L", "l\n")
	p.both("proj", "add", "L")
	p.both("proj", "commit", "-q", "-m", "rewritten")
	p.both("proj", "push")
	p.both("proj", "push", "--force-with-lease")
	p.sameServers()
	p.both("proj", "push", "--force-with-lease") // up to date
	// The remote moves on without this clone knowing: the lease is stale.
	p.upstream("main", "U", "u\n", "upstream")
	p.both("proj", "commit", "-q", "--amend", "-m", "rewritten again")
	p.both("proj", "push", "--force-with-lease")
	p.both("proj", "push", "--force-with-lease=main")
	p.both("proj", "push", "--force-with-lease=refs/heads/main", "origin", "main")
	p.both("proj", "push", "--force-with-lease=other", "origin", "main")
	p.both("proj", "push", "--force-with-lease=main:HEAD~1", "origin", "main")
	p.both("proj", "push", "--force-with-lease=main:nope", "origin", "main")
	p.both("proj", "push", "--force-with-lease=main:", "origin", "main")
	p.both("proj", "push", "--force-with-lease", "--no-force-with-lease", "origin", "main")
	p.both("proj", "push", "--force-with-lease=new:", "origin", "main:new")
	p.both("proj", "push", "--force-with-lease", "origin", "main:new2")
	p.both("proj", "push", "--force-with-lease", "origin", ":new")
	p.both("proj", "fetch", "-q")
	p.both("proj", "push", "--force-with-lease=main:origin/main", "origin", "main")
	p.both("proj", "push", "--force-with-lease", "-f", "origin", "main:new2")
	p.sameServers()
}

// push --all, --mirror and --porcelain, and their refusals.
func TestPushAllMirrorPorcelain(t *testing.T) {
	p := newRemotePair(t, 2)
	p.both("", "clone", "-q", p.srv.url("proj.git"))
	p.both("proj", "branch", "b1")
	p.both("proj", "branch", "b2", "HEAD~1")
	p.both("proj", "tag", "t1")
	p.both("proj", "push", "--all")
	p.both("proj", "push", "--all")
	p.both("proj", "branch", "-r")
	p.sameServers()
	p.both("proj", "push", "--all", "origin", "main")
	p.both("proj", "push", "--all", "--tags")
	p.both("proj", "push", "--all", "--mirror")
	p.both("proj", "push", "--mirror", "--tags")
	p.both("proj", "push", "--mirror", "origin", "main")
	p.both("proj", "push", "--delete", "--all", "origin", "b1")
	// --porcelain: the report on stdout, full names, up-to-date refs too.
	p.write("proj/P", "p\n")
	p.both("proj", "add", "P")
	p.both("proj", "commit", "-q", "-m", "porcelain")
	p.both("proj", "branch", "-f", "b2")
	p.both("proj", "push", "--porcelain", "origin", "main", "b1", "b2:b3", "t1")
	p.both("proj", "push", "--porcelain", "origin", "main")
	p.both("proj", "push", "--porcelain", "origin", ":b3")
	p.both("proj", "branch", "-f", "b1", "HEAD~2")
	p.both("proj", "push", "--porcelain", "origin", "b1")
	p.both("proj", "push", "--porcelain", "-n", "origin", "b2")
	p.both("proj", "push", "--porcelain", "--all")
	p.sameServers()
	// --mirror: every ref under refs/, forced, and the remote's others deleted.
	p.serverGit("branch", "server-only", "main~1")
	p.serverGit("tag", "server-tag", "main~1")
	p.both("proj", "branch", "-D", "b1")
	p.both("proj", "push", "--mirror")
	p.both("proj", "push", "--mirror")
	p.both("proj", "ls-remote", "origin")
	p.sameServers()
	p.both("proj", "push", "--porcelain", "--mirror")
}
