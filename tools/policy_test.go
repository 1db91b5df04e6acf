package tools

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/tools/internal/approvaltest"
)

// policyWS is a workspace set up for the approval cases, its set (with
// DeferApprovals, so a call that needs approval answers at once)
// registered as ws:tools.
func policyWS(t *testing.T) (*nook.Workspace, *Set) {
	t.Helper()
	opts := Options{Hooks: []Hook{RequireApproval(ApprovalPolicy{Paths: []string{approvaltest.Protected}})}, DeferApprovals: true}
	mod, bind := LateModule(opts)
	ws, err := nook.Open(bg, filepath.Join(t.TempDir(), "ws.db"), nook.WithBackends(js.New(js.Options{})),
		nook.WithModules(map[string]runtime.Module{ModuleName: mod}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	opts.Runtime = ws.Runtime()
	set := New(ws.FS(), opts)
	bind(set)
	if err := approvaltest.Setup(bg, ws.FS()); err != nil {
		t.Fatal(err)
	}
	return ws, set
}

// refuse answers a deferred call no and waits for its call run to end.
func refuse(t *testing.T, rt *runtime.Runtime, v map[string]any) {
	t.Helper()
	run, _ := v["runId"].(string)
	callID, _ := v["callId"].(string)
	if err := rt.Respond(bg, run, callID, Approval{Approved: false, Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	h, err := rt.GetExec(bg, run, runtime.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Result(bg); err != nil {
		t.Fatal(err)
	}
}

// Every spelling of a protected path asks for approval through Set.Call,
// and a refusal changes nothing; calls beside the tree do not ask.
func TestApprovalBypassesSetCall(t *testing.T) {
	ws, set := policyWS(t)
	for _, c := range approvaltest.Bypasses {
		r := call(t, set, c.Tool, c.Input)
		v := structured(t, r)
		if r.IsError || v["pending"] != true || v["reason"] != c.Reason {
			t.Errorf("%s: %s %s:\n got %q (%v)\nwant pending, reason %q", c.Name, c.Tool, c.Input, text(r), v["reason"], c.Reason)
			continue
		}
		refuse(t, ws.Runtime(), v)
	}
	if err := approvaltest.Unchanged(bg, ws.FS()); err != nil {
		t.Error(err)
	}
	for _, c := range approvaltest.Allowed {
		r := ok(t, set, c.Tool, c.Input)
		if v := structured(t, r); v["pending"] != nil {
			t.Errorf("%s: %s %s asked for approval: %q", c.Name, c.Tool, c.Input, text(r))
		}
	}
}

// Code's calls through ws:tools meet the same policy: in a run under the
// fail policy each call that needs approval fails, saying why.
func TestApprovalBypassesFromCode(t *testing.T) {
	ws, _ := policyWS(t)
	cases, _ := json.Marshal(append(append([]approvaltest.Case{}, approvaltest.Bypasses...), approvaltest.Allowed...))
	src := `import tools from "ws:tools";
export default async (cases) => {
  const out = [];
  for (const c of cases) {
    try { await tools[c.Tool](JSON.parse(c.Input)); out.push("ok"); } catch (e) { out.push(e.code + ": " + e.message); }
  }
  return out;
};`
	h, err := ws.Runtime().Exec(bg, src, runtime.ExecOptions{Input: json.RawMessage(cases)})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(bg)
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("%v %s %s", err, res.Stderr, res.Error)
	}
	var got []string
	if err := json.Unmarshal(res.Value, &got); err != nil {
		t.Fatal(err)
	}
	for i, c := range approvaltest.Bypasses {
		want := "ERR_TOOL: " + c.Tool + ": " + c.Reason + ", and code can wait for approval only in a run under the replay policy (ExecOptions.OnInterrupt)"
		if i >= len(got) || got[i] != want {
			t.Errorf("%s: %s %s from code:\n got %q\nwant %q", c.Name, c.Tool, c.Input, at(got, i), want)
		}
	}
	for i, c := range approvaltest.Allowed {
		if g := at(got, len(approvaltest.Bypasses)+i); g != "ok" {
			t.Errorf("%s: %s %s from code: %q", c.Name, c.Tool, c.Input, g)
		}
	}
	if err := approvaltest.Unchanged(bg, ws.FS()); err != nil {
		t.Error(err)
	}
}

func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return "(none)"
}

// A hook judges paths as the workspace resolves them.
func TestCallResolve(t *testing.T) {
	ws, set := policyWS(t)
	_ = ws
	c := set.newCall(nil, set.Tool("write"), nil)
	for _, tc := range []struct {
		in     string
		follow bool
		want   string
	}{
		{"workspace/./s/key", true, "/workspace/secrets/key"},
		{"/workspace/keylink", false, "/workspace/keylink"},
		{"/workspace/keylink", true, "/workspace/secrets/key"},
		{"/workspace/s/missing/dir/f", true, "/workspace/secrets/missing/dir/f"},
	} {
		got, err := c.Resolve(bg, tc.in, tc.follow)
		if err != nil || got != tc.want {
			t.Errorf("Resolve(%q, %v) = %q, %v; want %q", tc.in, tc.follow, got, err, tc.want)
		}
	}
	if _, err := c.Resolve(bg, "/../x", true); err == nil || !strings.Contains(err.Error(), "escapes root") {
		t.Errorf("Resolve(/../x): %v", err)
	}
}

// covers: a glob's bearing on a path and on the subtree below it.
func TestCovers(t *testing.T) {
	for _, c := range []struct {
		g, p    string
		subtree bool
		want    int
	}{
		{"/workspace/secrets/**", "/workspace/secrets", false, matches},
		{"/workspace/secrets/**", "/workspace", false, misses},
		{"/workspace/secrets/**", "/workspace", true, holds},
		{"/workspace/secrets/**", "/", true, holds},
		{"/workspace/secrets/**", "/workspace/secrets2", true, misses},
		{"/workspace/*/key", "/workspace/a", true, holds},
		{"/workspace/*/key", "/workspace/a/b", true, misses},
		{"**/.env", "/any/dir", true, holds},
		{"/workspace/{a,b/c}/**", "/workspace/b", true, holds},
		{"/workspace/{a,b/c}/**", "/workspace/d", true, misses},
		{"/workspace/{a,b/c}/**", "/workspace/b/c/x", false, matches},
	} {
		if got := covers(c.g, c.p, c.subtree); got != c.want {
			t.Errorf("covers(%q, %q, %v) = %d, want %d", c.g, c.p, c.subtree, got, c.want)
		}
	}
}

// Globs are paths too: cleaned, and relative ones taken from the set's
// Root; an invalid glob makes every call it would judge ask.
func TestApprovalGlobs(t *testing.T) {
	s, _ := newSet(t, Options{Root: "/workspace"})
	for _, c := range []struct {
		glob, tool, in, want string
	}{
		{"/workspace//secrets/**/", "write", `{"path":"secrets/key","content":"x"}`, "write of /workspace/secrets/key needs approval (it matches /workspace/secrets/**)"},
		{"secrets/**", "write", `{"path":"/workspace/secrets/key","content":"x"}`, "write of /workspace/secrets/key needs approval (it matches /workspace/secrets/**)"},
		{"secrets/**", "write", `{"path":"/secrets/key","content":"x"}`, ""},
		{"/workspace/[", "write", `{"path":"a","content":"x"}`, `write needs approval (the approval policy's glob "/workspace/[" is invalid)`},
		{"/workspace/secrets/**", "write", `{"path":"/workspace/secrets/key","content":"x","extra":1}`, ""}, // the tool refuses it
	} {
		h := RequireApproval(ApprovalPolicy{Paths: []string{c.glob}})
		v := h.Before(bg, s.newCall(nil, s.tool(c.tool), json.RawMessage(c.in)))
		if v.Approve != c.want {
			t.Errorf("glob %q, %s %s: approve %q, want %q", c.glob, c.tool, c.in, v.Approve, c.want)
		}
	}
}
