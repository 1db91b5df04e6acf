package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nookdev/nook/tools/internal/applypatch"
	"github.com/nookdev/nook/vfs"
)

func patchTool(s *Set) *Tool {
	return &Tool{
		Name: "patch",
		Description: "Apply a patch in the apply_patch format (*** Begin Patch / Add File / Update File / Delete File / Move to / @@ hunks / *** End Patch) " +
			"to several files at once: all of it applies or none.",
		InputSchema: schema(`{"type":"object","properties":{
			"patch":{"type":"string"},
			"cwd":{"type":"string","description":"Directory relative paths in the patch are taken from (default: the workspace root)"},
			"dryRun":{"type":"boolean","description":"Return the diff that would be applied, changing nothing"}},
			"required":["patch"],"additionalProperties":false}`),
		OutputSchema: schema(`{"type":"object","properties":{
			"files":{"type":"array","items":{"type":"object","properties":{
				"path":{"type":"string"},"action":{"type":"string","enum":["add","update","delete"]},
				"movedTo":{"type":"string"},"hunks":{"type":"integer"},
				"firstChangedLine":{"type":"integer","description":"dry run: the first line of the new file that differs"}},"required":["path","action"]}},
			"diff":{"type":"string","description":"dry run: the unified diff that would be applied"},
			"dryRun":{"type":"boolean","description":"true: nothing was changed"}},
			"required":["files"]}`),
		Annotations: Annotations{Destructive: true},
		run:         s.patch,
	}
}

type patchIn struct {
	Patch  string `json:"patch"`
	Cwd    string `json:"cwd"`
	DryRun bool   `json:"dryRun"`
}

type patchFile struct {
	Path    string `json:"path"`
	Action  string `json:"action"`
	MovedTo string `json:"movedTo,omitempty"`
	Hunks   int    `json:"hunks,omitempty"`
	// FirstChangedLine is set by a dry run.
	FirstChangedLine int `json:"firstChangedLine,omitempty"`
}

type patchOut struct {
	Files  []patchFile `json:"files"`
	Diff   string      `json:"diff,omitempty"`
	DryRun bool        `json:"dryRun,omitempty"`
}

func (s *Set) patch(ctx context.Context, raw json.RawMessage) (*Result, error) {
	var in patchIn
	if r := decode("patch", raw, &in); r != nil {
		return r, nil
	}
	cwd, err := vfs.Clean(s.abs(in.Cwd))
	if err != nil {
		return nil, err
	}
	if n := len(in.Patch); n > s.opts.Edit.MaxPatchBytes {
		return Errorf("patch of %d bytes exceeds the limit MaxPatchBytes (%d). Split it into several patches, or use write for large new files.",
			n, s.opts.Edit.MaxPatchBytes), nil
	}
	p, err := applypatch.Parse(in.Patch)
	if err != nil {
		return Errorf("%v", err), nil
	}
	if n := p.Len(); n > s.opts.Edit.MaxPatchFiles {
		return Errorf("patch with %d file sections exceeds the limit MaxPatchFiles (%d). Split it into several patches.",
			n, s.opts.Edit.MaxPatchFiles), nil
	}
	var reqs []LockRequest
	for _, path := range p.Paths(cwd) {
		c, err := vfs.Clean(path)
		if err != nil {
			return nil, err
		}
		reqs = append(reqs, LockRequest{Path: c})
	}
	unlock, err := s.opts.Locks.Lock(ctx, reqs...)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var out patchOut
	// Plan against the files as they are and apply in one transaction.
	err = s.fs.Batch(ctx, func(b *vfs.Batch) error {
		ops, err := p.Plan(cappedReader{b, s.opts.Edit.MaxBytes}, cwd)
		if err != nil {
			return fail("%v\nNothing was changed.", err)
		}
		if in.DryRun {
			return s.previewPatch(b, ops, &out)
		}
		for _, op := range ops {
			f := patchFile{Path: op.Path, Hunks: op.Hunks}
			switch op.Kind {
			case applypatch.Add:
				f.Action = "add"
				err = b.WriteFile(op.Path, op.Content, &vfs.WriteOptions{MkdirAll: true})
			case applypatch.Delete:
				f.Action = "delete"
				err = b.Remove(op.Path, nil)
			case applypatch.Update:
				f.Action = "update"
				err = b.WriteFile(op.Path, op.Content, nil)
				if err == nil && op.MoveTo != "" {
					f.MovedTo = op.MoveTo
					if err = b.MkdirAll(parentOf(op.MoveTo), 0); err == nil {
						err = b.Rename(op.Path, op.MoveTo)
					}
				}
			}
			if err != nil {
				return err
			}
			out.Files = append(out.Files, f)
		}
		return stamp(ctx, b, out)
	})
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	if out.DryRun {
		fmt.Fprintf(&b, "Dry run, nothing changed: the patch would change %d file(s):\n%s", len(out.Files), out.Diff)
		return Text(b.String(), out), nil
	}
	fmt.Fprintf(&b, "Applied the patch to %d file(s):\n", len(out.Files))
	for _, f := range out.Files {
		switch {
		case f.MovedTo != "":
			fmt.Fprintf(&b, "M %s -> %s\n", shown(f.Path), shown(f.MovedTo))
		case f.Action == "add":
			fmt.Fprintf(&b, "A %s\n", shown(f.Path))
		case f.Action == "delete":
			fmt.Fprintf(&b, "D %s\n", shown(f.Path))
		default:
			fmt.Fprintf(&b, "M %s\n", shown(f.Path))
		}
	}
	return Text(b.String(), out), nil
}

// previewPatch fills out with what the planned ops would do, as a unified
// diff per file (a deleted file is diffed against nothing, an added one
// from nothing), changing nothing and leaving no receipt.
func (s *Set) previewPatch(b *vfs.Batch, ops []applypatch.Op, out *patchOut) error {
	out.DryRun = true
	var diff strings.Builder
	for _, op := range ops {
		f := patchFile{Path: op.Path, Hunks: op.Hunks, MovedTo: op.MoveTo}
		var old []byte
		from, to := "a"+op.Path, "b"+op.Path
		switch op.Kind {
		case applypatch.Add:
			f.Action, from = "add", "/dev/null"
		case applypatch.Delete:
			f.Action, to = "delete", "/dev/null"
		case applypatch.Update:
			f.Action = "update"
			if op.MoveTo != "" {
				to = "b" + op.MoveTo
			}
		}
		if op.Kind != applypatch.Add {
			var err error
			if old, err = b.ReadFile(op.Path); err != nil {
				return err
			}
		}
		d := UnifiedDiff(from, to, old, op.Content, diffContext)
		if d == "" && op.MoveTo != "" {
			d = fmt.Sprintf("rename %s -> %s (content unchanged)\n", op.Path, op.MoveTo)
		}
		diff.WriteString(d)
		if op.Kind != applypatch.Delete {
			f.FirstChangedLine = firstChangedLine(old, op.Content)
		}
		out.Files = append(out.Files, f)
	}
	out.Diff = diff.String()
	return nil
}

// cappedReader reads the files a patch updates, refusing those over the
// edit tool's file-size cap before reading them, as edit does.
type cappedReader struct {
	b   *vfs.Batch
	max int
}

func (r cappedReader) ReadFile(p string) ([]byte, error) {
	if fi, err := r.b.Stat(p); err == nil && !fi.IsDir() && fi.Size() > int64(r.max) {
		return nil, fmt.Errorf("file too large to patch: %d bytes exceeds the %d-byte cap. Use the write tool to rewrite the file from scratch", fi.Size(), r.max)
	}
	return r.b.ReadFile(p)
}

func parentOf(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		return "/"
	}
	return p[:i]
}
