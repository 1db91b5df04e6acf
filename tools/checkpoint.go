package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// CheckpointOptions configure the checkpoint tool, which a set has only
// when Enabled (and it is not read-only): it lets the model record the
// workspace and rewind its own work.
type CheckpointOptions struct {
	Enabled bool
	// EachCall brackets every call of a tool that may change files (not
	// exec, not a dry run) with checkpoints (Runtime.Bracket, so the set
	// needs Options.Runtime), and its result names the call's id, which
	// the checkpoint tool's undo action (or Runtime.Undo) reverts.
	EachCall bool
	// MaxList is the most checkpoints (the newest) and differences a call
	// lists (default DefaultCheckpointMaxList).
	MaxList int
}

// DefaultCheckpointMaxList is CheckpointOptions.MaxList unless set.
const DefaultCheckpointMaxList = 100

func checkpointTool(s *Set) *Tool {
	if !s.opts.Checkpoint.Enabled {
		return nil
	}
	return &Tool{
		Name: "checkpoint",
		Description: "Record the workspace files under a name, list the checkpoints, list what changed since one (diff), put the files back as one recorded them (restore; path limits it to a subtree), or undo what one run or tool call changed (name: its id). " +
			"Take one before risky changes.",
		InputSchema: schema(fmt.Sprintf(`{"type":"object","properties":{
			"action":{"type":"string","enum":["create","list","diff","restore","undo"],"description":"What to do"},
			"name":{"type":"string","minLength":1,"maxLength":%d,"description":"The checkpoint (create, diff, restore), or the run or call to undo"},
			"path":{"type":"string","minLength":1,"description":"Only the tree at this path (diff, restore)"}},
			"required":["action"],"additionalProperties":false}`, vfs.MaxCheckpointName)),
		OutputSchema: schema(`{"type":"object","properties":{
			"ok":{"type":"boolean"},
			"checkpoints":{"type":"array","items":{"type":"object","properties":{
				"name":{"type":"string"},"rev":{"type":"integer"},"time":{"type":"string"},
				"entries":{"type":"integer"},"bytes":{"type":"integer"}},
				"required":["name","rev","time","entries","bytes"]}},
			"changes":{"type":"array","items":{"type":"object","properties":{
				"op":{"type":"string","enum":["added","modified","deleted","renamed"]},
				"path":{"type":"string"},"oldPath":{"type":"string"}},
				"required":["op","path"]}},
			"truncated":{"type":"boolean"},
			"removed":{"type":"integer"},"created":{"type":"integer"},"updated":{"type":"integer"}},
			"required":["ok"]}`),
		Annotations: Annotations{Destructive: true},
		run:         s.checkpoint,
	}
}

type checkpointIn struct {
	Action string `json:"action"`
	Name   string `json:"name"`
	Path   string `json:"path"`
}

type checkpointItem struct {
	Name    string `json:"name"`
	Rev     int64  `json:"rev"`
	Time    string `json:"time"`
	Entries int64  `json:"entries"`
	Bytes   int64  `json:"bytes"`
}

type checkpointChange struct {
	Op      string `json:"op"`
	Path    string `json:"path"`
	OldPath string `json:"oldPath,omitempty"`
}

type checkpointOut struct {
	OK          bool               `json:"ok"`
	Checkpoints []checkpointItem   `json:"checkpoints,omitempty"`
	Changes     []checkpointChange `json:"changes,omitempty"`
	Truncated   bool               `json:"truncated,omitempty"`
	Removed     *int64             `json:"removed,omitempty"`
	Created     *int64             `json:"created,omitempty"`
	Updated     *int64             `json:"updated,omitempty"`
}

func itemOf(c *vfs.Checkpoint) checkpointItem {
	return checkpointItem{Name: c.Name, Rev: c.Rev, Time: c.Time.UTC().Format(time.RFC3339), Entries: c.Entries, Bytes: c.Bytes}
}

func (s *Set) checkpoint(ctx context.Context, raw json.RawMessage) (*Result, error) {
	var in checkpointIn
	if r := decode("checkpoint", raw, &in); r != nil {
		return r, nil
	}
	needName := in.Action == "create" || in.Action == "diff" || in.Action == "restore" || in.Action == "undo"
	switch {
	case !needName && in.Action != "list":
		return Errorf(`action must be "create", "list", "diff", "restore" or "undo", got %q`, in.Action), nil
	case needName && in.Name == "":
		return Errorf("checkpoint %s needs a name", in.Action), nil
	case in.Path != "" && in.Action != "diff" && in.Action != "restore":
		return Errorf("path applies to diff and restore, not %s", in.Action), nil
	}
	path := ""
	if in.Path != "" {
		p, err := vfs.Clean(s.abs(in.Path))
		if err != nil {
			return nil, err
		}
		path = p
	}
	max := s.opts.Checkpoint.MaxList
	switch in.Action {
	case "create":
		ck, err := s.fs.Checkpoint(ctx, in.Name)
		if err != nil {
			return nil, err
		}
		return Text(fmt.Sprintf("Checkpoint %s records %d entries (%d bytes of files). Restore it with action restore.", shown(ck.Name), ck.Entries, ck.Bytes),
			checkpointOut{OK: true, Checkpoints: []checkpointItem{itemOf(ck)}}), nil
	case "list":
		cks, err := s.fs.Checkpoints(ctx)
		if err != nil {
			return nil, err
		}
		out := checkpointOut{OK: true, Checkpoints: []checkpointItem{}}
		if len(cks) > max {
			cks, out.Truncated = cks[len(cks)-max:], true
		}
		var b strings.Builder
		if len(cks) == 0 {
			b.WriteString("No checkpoints.")
		}
		if out.Truncated {
			fmt.Fprintf(&b, "The newest %d checkpoints (limit Checkpoint.MaxList):\n", max)
		}
		for i := range cks {
			out.Checkpoints = append(out.Checkpoints, itemOf(&cks[i]))
			fmt.Fprintf(&b, "%s\t%s\t%d entries\n", shown(cks[i].Name), cks[i].Time.UTC().Format(time.RFC3339), cks[i].Entries)
		}
		return Text(strings.TrimSuffix(b.String(), "\n"), out), nil
	case "diff":
		ds, err := s.fs.Diff(ctx, in.Name, "", &vfs.DiffOptions{Path: path})
		if err != nil {
			return nil, err
		}
		out := checkpointOut{OK: true, Changes: []checkpointChange{}}
		if len(ds) > max {
			ds, out.Truncated = ds[:max], true
		}
		var b strings.Builder
		if len(ds) == 0 {
			fmt.Fprintf(&b, "Nothing changed since checkpoint %s.", shown(in.Name))
		}
		for _, d := range ds {
			out.Changes = append(out.Changes, checkpointChange{Op: string(d.Op), Path: d.Path, OldPath: d.OldPath})
			if d.Op == vfs.DiffRenamed {
				fmt.Fprintf(&b, "%s %s -> %s\n", d.Op, shown(d.OldPath), shown(d.Path))
			} else {
				fmt.Fprintf(&b, "%s %s\n", d.Op, shown(d.Path))
			}
		}
		if out.Truncated {
			fmt.Fprintf(&b, "(the first %d differences, limit Checkpoint.MaxList; pass path to see one subtree)", max)
		}
		return Text(strings.TrimSuffix(b.String(), "\n"), out), nil
	}
	if in.Action == "undo" {
		if s.opts.Runtime == nil {
			return Errorf("undo needs the workspace's runtime (Options.Runtime)"), nil
		}
		u, err := s.opts.Runtime.Undo(ctx, in.Name, runtime.UndoOptions{})
		if err != nil {
			return nil, err
		}
		return Text(fmt.Sprintf(`Undid %s: %d paths put back (%d removed, %d created, %d updated). Undo the undo with {"action":"undo","name":%q}.`,
			shown(in.Name), len(u.Paths), u.Removed, u.Created, u.Updated, u.ID),
			checkpointOut{OK: true, Removed: &u.Removed, Created: &u.Created, Updated: &u.Updated}), nil
	}
	var st *vfs.RestoreStats
	var err error
	if s.opts.Runtime != nil {
		st, err = s.opts.Runtime.Restore(ctx, in.Name, runtime.RestoreOptions{Path: path})
	} else {
		st, err = s.fs.Restore(ctx, in.Name, path)
	}
	if err != nil {
		return nil, err
	}
	out := checkpointOut{OK: true, Removed: &st.Removed, Created: &st.Created, Updated: &st.Updated}
	if st.Rev == 0 {
		return Text(fmt.Sprintf("Nothing to restore: the files equal checkpoint %s.", shown(in.Name)), out), nil
	}
	return Text(fmt.Sprintf("Restored checkpoint %s: %d removed, %d created, %d updated.", shown(in.Name), st.Removed, st.Created, st.Updated), out), nil
}
