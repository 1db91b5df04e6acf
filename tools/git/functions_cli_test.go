package git

import (
	"encoding/json"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// TestFunctionsAgreeWithGit checks that the JSON functions status, add,
// rm and commit give what the command line gives, and what /usr/bin/git says
// of the same repository.
func TestFunctionsAgreeWithGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	ws := newWS(t)
	f := ws.FS()
	g := New(f, Options{Identity: testID})
	write := func(p, s string) {
		if err := f.WriteFile(bg, "/workspace/"+p, []byte(s), nil); err != nil {
			t.Fatal(err)
		}
	}
	f.MkdirAll(bg, "/workspace/dir/sub", 0o755)
	nookGit(t, g, "init", "-q")
	write("a.txt", "a\n")
	write("b.txt", "b\n")
	write("dir/c.txt", "c\n")
	nookGit(t, g, "add", ".")
	nookGit(t, g, "commit", "-q", "-m", "one")
	write("a.txt", "a2\n")
	write("dir/sub/new.txt", "n\n")
	write("staged.txt", "s\n")
	nookGit(t, g, "add", "staged.txt")
	write("staged.txt", "s2\n")
	f.Remove(bg, "/workspace/b.txt", nil)
	nookGit(t, g, "mv", "dir/c.txt", "dir/moved.txt")

	compare := func(step string) {
		t.Helper()
		res, err := g.Call(bg, nil, "status", map[string]any{})
		if err != nil {
			t.Fatalf("%s: status: %v", step, err)
		}
		b, _ := json.Marshal(res)
		var st statusOut
		json.Unmarshal(b, &st)
		var got []string
		for _, fs := range st.Files {
			got = append(got, fs.Staging+fs.Worktree+" "+fs.Path)
		}
		dst := t.TempDir()
		export(t, f, "/workspace", dst)
		out := hostGit(t, dst, "@1767225600 +0000", "status", "--porcelain", "-uall")
		want := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if out == "" {
			want = nil
		}
		// status() lists the files by path; a rename by its new path.
		for i, w := range want {
			if _, to, ok := strings.Cut(w, " -> "); ok {
				want[i] = w[:3] + to
			}
		}
		sort.Slice(want, func(i, j int) bool { return want[i][3:] < want[j][3:] })
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: status() gives\n%s\ngit status --porcelain gives\n%s", step, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if st.Clean != (len(want) == 0) || st.Branch != "main" {
			t.Errorf("%s: clean %v branch %q", step, st.Clean, st.Branch)
		}
	}
	compare("changes")
	if _, err := g.Call(bg, nil, "add", map[string]any{"paths": []any{"a.txt", "dir"}}); err != nil {
		t.Fatal(err)
	}
	compare("after add")
	if _, err := g.Call(bg, nil, "rm", map[string]any{"paths": []any{"a.txt"}, "cached": true}); err != nil {
		t.Fatal(err)
	}
	compare("after rm --cached")
	if _, err := g.Call(bg, nil, "add", map[string]any{"all": true}); err != nil {
		t.Fatal(err)
	}
	compare("after add all")
	res, err := g.Call(bg, nil, "commit", map[string]any{"message": "two\n\n\nbody  ", "author": map[string]any{"name": "Bo", "email": "bo@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	compare("after commit")
	hash := res.(map[string]any)["hash"].(string)
	dst := t.TempDir()
	export(t, f, "/workspace", dst)
	if got := hostGit(t, dst, "@1767225600 +0000", "log", "-1", "--format=%H|%an <%ae>|%cn <%ce>|%B"); got != hash+"|Bo <bo@example.com>|"+testID.Name+" <"+testID.Email+">|two\n\n\nbody  \n\n" {
		t.Errorf("commit() made %q", got)
	}
	hostGit(t, dst, "@1767225600 +0000", "fsck", "--strict")
	if got := nookGit(t, g, "reflog", "-1"); got != hash[:7]+" HEAD@{0}: commit: two\n" {
		t.Errorf("reflog after commit(): %q", got)
	}
	if _, err := g.Call(bg, nil, "commit", map[string]any{"message": "again"}); err == nil || err.Error() != "nothing to commit, working tree clean (pass allowEmpty: true to commit anyway)" {
		t.Errorf("empty commit: %v", err)
	}
	call := func(fn string, a map[string]any) map[string]any {
		t.Helper()
		res, err := g.Call(bg, nil, fn, a)
		if err != nil {
			t.Fatalf("%s(%v): %v", fn, a, err)
		}
		return res.(map[string]any)
	}
	if got := call("checkout", map[string]any{"ref": "side", "create": true}); got["branch"] != "side" || got["head"] != hash {
		t.Errorf("checkout -b: %v", got)
	}
	if got := call("checkout", map[string]any{"ref": hash}); got["detached"] != true || got["head"] != hash {
		t.Errorf("checkout of a commit: %v", got)
	}
	call("checkout", map[string]any{"ref": "main"})
	if got := call("reset", map[string]any{"rev": "HEAD~1", "hard": true}); got["mode"] != "hard" {
		t.Errorf("reset: %v", got)
	}
	compare("after reset --hard")
	want := "HEAD@{0}: reset: moving to " + mustRev(t, g, "HEAD") + "\nHEAD@{1}: checkout: moving from " + hash + " to main\n" +
		"HEAD@{2}: checkout: moving from side to " + hash + "\nHEAD@{3}: checkout: moving from main to side\n"
	var lines []string
	for _, l := range strings.SplitAfter(nookGit(t, g, "reflog", "-4"), "\n") {
		if len(l) > 8 {
			lines = append(lines, l[8:])
		}
	}
	if got := strings.Join(lines, ""); got != want {
		t.Errorf("reflog of checkout() and reset():\n%s\nwant\n%s", got, want)
	}
	write("a.txt", "local\n")
	if _, err := g.Call(bg, nil, "checkout", map[string]any{"ref": "side"}); err == nil || !strings.Contains(err.Error(), "Your local changes to the following files would be overwritten by checkout") {
		t.Errorf("checkout over local changes: %v", err)
	}
	_, err = g.Call(bg, nil, "rm", map[string]any{"paths": []any{"nothing.txt"}})
	if err == nil || err.Error() != "pathspec 'nothing.txt' did not match any files" {
		t.Errorf("rm of an unknown path: %v", err)
	}
	_, err = g.Call(bg, nil, "add", map[string]any{"paths": []any{"missing.txt"}})
	if err == nil || err.Error() != "pathspec 'missing.txt' did not match any files" {
		t.Errorf("add of an unknown path: %v", err)
	}
}
