package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/nookdev/nook/tools/internal/applypatch"
	"github.com/nookdev/nook/vfs"
)

// ApprovalPolicy says which calls need approval; [RequireApproval] makes
// it a hook.
//
// A path policy (Paths) covers what the file tools change: write, edit,
// patch, move and delete, whichever way they are reached (Set.Call, MCP,
// ws:tools from code, the SDK adapters, "nook tool"). It matches the path
// the workspace resolves, never the string the caller wrote: the path is
// taken relative to the set's Root, cleaned (".", "..", repeated slashes)
// and its symlinks expanded, so "/workspace/./secrets/key",
// "workspace/secrets/key" (from the root "/"), "/workspace/x/../secrets/key"
// and "/workspace/s/key" with s a link to secrets all match
// "/workspace/secrets/**". A call that changes a whole subtree is
// protected when anything a glob can match lies inside it: a move from or
// to /workspace, or a delete of /workspace, when /workspace/secrets/** is
// protected (so a protected tree cannot be moved away, changed and moved
// back). A patch is parsed and each path it adds, updates, deletes or
// moves to is checked the same way.
//
// It does not cover code: a program exec runs writes through the runtime
// (its own file calls, ws:git), not through these tools, so only
// Tools: []string{"exec"} puts code under approval; code's calls of
// ws:tools do meet the policy. Nor does it follow hard
// links (which only code and the embedder can make), and it checks the
// workspace as it is when the call is made: code running at the same time
// could change a symlink between the check and the write.
type ApprovalPolicy struct {
	// Tools lists tools every call of which needs approval ("exec",
	// "delete").
	Tools []string
	// Paths are globs over canonical workspace paths, in doublestar syntax
	// ("/workspace/secrets/**", "**/.env"); a glob not starting with "/"
	// is relative to the set's Root. A call of write, edit, patch, move or
	// delete that changes a matching path, or a subtree holding one, needs
	// approval. An invalid glob makes every such call need approval. A dry
	// run of edit or patch (Call.DryRun) changes nothing and does not ask;
	// a tool listed in Tools asks for every call, dry runs too.
	Paths []string
}

// RequireApproval returns a hook that makes the calls p names wait for
// approval. Put it after hooks that rewrite inputs (Verdict.Input): it
// judges the input as it reaches it.
func RequireApproval(p ApprovalPolicy) Hook {
	return Hook{Before: func(ctx context.Context, c *Call) Verdict {
		if slices.Contains(p.Tools, c.Tool) {
			return Verdict{Approve: c.Tool + " needs approval"}
		}
		if len(p.Paths) == 0 || c.set == nil || c.DryRun() {
			return Verdict{} // a dry run changes no path (see RATIONALE.md)
		}
		for _, t := range c.set.changedPaths(ctx, c.Tool, c.Input) {
			if t.err != nil {
				return Verdict{Approve: fmt.Sprintf("%s of %s needs approval (the path cannot be resolved: %v)", c.Tool, t.raw, t.err)}
			}
			for _, g := range p.Paths {
				if g != "" && g[0] != '/' {
					g = c.set.abs(g)
				}
				// Globs are written as paths: "/workspace//secrets/**/"
				// means what "/workspace/secrets/**" does.
				g = path.Clean(g)
				if !doublestar.ValidatePattern(g) {
					return Verdict{Approve: fmt.Sprintf("%s needs approval (the approval policy's glob %q is invalid)", c.Tool, g)}
				}
				for _, cand := range t.paths {
					switch covers(g, cand, t.subtree) {
					case matches:
						return Verdict{Approve: fmt.Sprintf("%s of %s needs approval (it matches %s)", c.Tool, cand, g)}
					case holds:
						return Verdict{Approve: fmt.Sprintf("%s of %s needs approval (it contains paths matching %s)", c.Tool, cand, g)}
					}
				}
			}
		}
		return Verdict{}
	}}
}

// Resolve returns the canonical path the workspace resolves the
// model-given path p to for this call's set: relative to the set's Root,
// cleaned, every symlink on the way expanded, and the last component too
// when follow is set. Missing components are joined as they are (nothing
// below a missing directory can redirect them). Hooks use it to judge
// paths as the tools will act on them, not as they were spelt.
func (c *Call) Resolve(ctx context.Context, p string, follow bool) (string, error) {
	if c.set == nil {
		return "", fmt.Errorf("resolve %s: the call has no tool set", p)
	}
	clean, err := vfs.Clean(c.set.abs(p))
	if err != nil {
		return "", err
	}
	return c.set.fs.ResolveBeneath(ctx, "/", clean, follow)
}

// target is one path a call changes, as the caller wrote it (raw) and as
// the workspace resolves it (paths: with and without the last symlink
// expanded, as the tool may act on either); subtree marks a call that
// changes everything below it.
type target struct {
	raw     string
	paths   []string
	subtree bool
	err     error
}

// changedPaths lists the paths a call of tool with input in would change,
// decoded exactly as the tool decodes its input (an input the tool would
// reject changes nothing and lists none).
func (s *Set) changedPaths(ctx context.Context, tool string, in json.RawMessage) []target {
	var out []target
	// add resolves raw; follow adds the path with the last symlink
	// expanded to the path without.
	add := func(raw string, follow, subtree bool) {
		clean, err := vfs.Clean(s.abs(raw))
		if err != nil {
			return // the tool refuses the same path with the same error
		}
		t := target{raw: raw, subtree: subtree, paths: []string{clean}}
		for _, f := range []bool{false, true} {
			if f && !follow {
				continue
			}
			p, err := s.fs.ResolveBeneath(ctx, "/", clean, f)
			if err != nil {
				t.err = err
				break
			}
			if !slices.Contains(t.paths, p) {
				t.paths = append(t.paths, p)
			}
		}
		out = append(out, t)
	}
	switch tool {
	case "write":
		var w writeIn
		if decode(tool, in, &w) == nil {
			add(w.Path, true, false)
		}
	case "edit":
		var e editIn
		if decode(tool, in, &e) == nil {
			add(e.Path, true, false)
		}
	case "delete":
		// A delete removes a link, not its target, and with recursive
		// everything below.
		var d deleteIn
		if decode(tool, in, &d) == nil {
			add(d.Path, false, true)
		}
	case "move":
		// The source moves with its subtree (a link moves as a link);
		// the destination is replaced, and receives a subtree.
		var m moveIn
		if decode(tool, in, &m) == nil {
			add(m.From, false, true)
			add(m.To, true, true)
		}
	case "patch":
		var pi patchIn
		if decode(tool, in, &pi) != nil || len(pi.Patch) > s.opts.Edit.MaxPatchBytes {
			return nil
		}
		cwd, err := vfs.Clean(s.abs(pi.Cwd))
		if err != nil {
			return nil
		}
		p, err := applypatch.Parse(pi.Patch)
		if err != nil {
			return nil // the tool fails to parse it too, and changes nothing
		}
		for _, path := range p.Paths(cwd) {
			add(path, true, false)
		}
	}
	return out
}

// How a glob bears on a path (covers).
const (
	misses  = iota // neither the path nor anything below it matches
	matches        // the path matches
	holds          // a path below it may match
)

// covers says whether glob g (absolute) matches path p or, with subtree,
// may match a path below p: a call that changes the subtree at p changes
// whatever g protects there.
func covers(g, p string, subtree bool) int {
	if ok, _ := doublestar.Match(g, p); ok {
		return matches
	}
	if subtree {
		for _, alt := range expandBraces(g) {
			if mayMatchBelow(alt, p) {
				return holds
			}
		}
	}
	return misses
}

// mayMatchBelow reports whether a path strictly below p can match the
// brace-free glob g: g's segments match p's one by one and g goes on
// after p ends, or meets a "**" first.
func mayMatchBelow(g, p string) bool {
	gs := strings.Split(strings.Trim(g, "/"), "/")
	ps := []string{}
	if p != "/" {
		ps = strings.Split(strings.Trim(p, "/"), "/")
	}
	for i, seg := range gs {
		if seg == "**" {
			return true
		}
		if i >= len(ps) {
			return seg != "" // p ended: a descendant supplies the rest
		}
		if ok, _ := doublestar.Match(seg, ps[i]); !ok {
			return false
		}
	}
	return false
}

// expandBraces expands doublestar's {a,b} alternatives (which may hold
// slashes) into brace-free globs, so that they can be matched segment by
// segment. Unbalanced braces are left as they are.
func expandBraces(g string) []string {
	start, depth := -1, 0
	var commas []int
	for i := 0; i < len(g); i++ {
		switch g[i] {
		case '\\':
			i++
		case '{':
			if depth == 0 {
				start = i
				commas = commas[:0]
			}
			depth++
		case ',':
			if depth == 1 {
				commas = append(commas, i)
			}
		case '}':
			if depth == 0 {
				continue
			}
			if depth--; depth == 0 {
				var out []string
				prev := start + 1
				for _, c := range append(commas, i) {
					for _, rest := range expandBraces(g[prev:c] + g[i+1:]) {
						out = append(out, g[:start]+rest)
					}
					prev = c + 1
				}
				return out
			}
		}
	}
	return []string{g}
}
