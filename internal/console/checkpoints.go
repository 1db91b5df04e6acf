package console

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/nookdev/nook/vfs"
)

type checkpointsPage struct {
	base
	Checkpoints []vfs.Checkpoint
	// The comparison asked for: A and B name checkpoints ("" the live
	// tree), under Path; Compared once it was made.
	A, B, Path string
	Compared   bool
	Diff       []diffRow
	DiffNote   string
}

// diffRow is one entry of a comparison, its patch split into lines.
type diffRow struct {
	vfs.DiffEntry
	What  string // what differs: "content, mode"
	Lines []patchLine
}

type patchLine struct {
	Class string // "add", "del", "hunk" or ""
	Text  string
}

// checkpointsPage lists the workspace's checkpoints and compares two of
// them, or one with the live tree, with a patch of each changed text file.
func (c *Console) checkpointsPage(w http.ResponseWriter, r *http.Request, ss *session) {
	ctx := r.Context()
	q := r.URL.Query()
	cks, err := c.opts.FS.Checkpoints(ctx)
	if err != nil {
		c.vfsFail(w, r, ss, err)
		return
	}
	p := &checkpointsPage{base: c.with(ss, "checkpoints", "Checkpoints"), Checkpoints: cks,
		A: q.Get("a"), B: q.Get("b"), Path: q.Get("path")}
	if q.Has("a") {
		if p.A == "" && p.B == "" {
			c.fail(w, r, ss, http.StatusBadRequest, "Pick a checkpoint to compare: both sides are the live tree.")
			return
		}
		entries, err := c.opts.FS.Diff(ctx, p.A, p.B, &vfs.DiffOptions{Path: p.Path, Text: true})
		if err != nil {
			c.vfsFail(w, r, ss, err)
			return
		}
		p.Compared = true
		if len(entries) > MaxDiffEntries {
			p.DiffNote = "Only the first " + strconv.Itoa(MaxDiffEntries) + " of " + strconv.Itoa(len(entries)) + " differences are shown (limit MaxDiffEntries)."
			entries = entries[:MaxDiffEntries]
		}
		shown := 0
		for _, e := range entries {
			row := diffRow{DiffEntry: e}
			var what []string
			for _, d := range []struct {
				on   bool
				name string
			}{{e.Content, "content"}, {e.Mode, "mode"}, {e.Times, "times"}} {
				if d.on {
					what = append(what, d.name)
				}
			}
			row.What = strings.Join(what, ", ")
			if e.Patch != "" && shown+len(e.Patch) <= MaxPageOutput {
				shown += len(e.Patch)
				for _, l := range strings.SplitAfter(strings.TrimSuffix(e.Patch, "\n"), "\n") {
					pl := patchLine{Text: strings.TrimSuffix(l, "\n")}
					switch {
					case strings.HasPrefix(l, "@@"):
						pl.Class = "hunk"
					case strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++"):
						pl.Class = "add"
					case strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "---"):
						pl.Class = "del"
					}
					row.Lines = append(row.Lines, pl)
				}
			} else if e.Patch != "" {
				p.DiffNote = "Patches past the first " + humanBytes(MaxPageOutput) + " are not shown (limit MaxPageOutput)."
			}
			p.Diff = append(p.Diff, row)
		}
	}
	c.render(w, r, http.StatusOK, "checkpoints", p)
}
