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
			"cwd":{"type":"string","description":"Directory relative paths in the patch are taken from (default: the workspace root)"}},
			"required":["patch"],"additionalProperties":false}`),
		OutputSchema: schema(`{"type":"object","properties":{
			"files":{"type":"array","items":{"type":"object","properties":{
				"path":{"type":"string"},"action":{"type":"string","enum":["add","update","delete"]},
				"movedTo":{"type":"string"},"hunks":{"type":"integer"}},"required":["path","action"]}}},
			"required":["files"]}`),
		Annotations: Annotations{Destructive: true},
		run:         s.patch,
	}
}

type patchIn struct {
	Patch string `json:"patch"`
	Cwd   string `json:"cwd"`
}

type patchFile struct {
	Path    string `json:"path"`
	Action  string `json:"action"`
	MovedTo string `json:"movedTo,omitempty"`
	Hunks   int    `json:"hunks,omitempty"`
}

type patchOut struct {
	Files []patchFile `json:"files"`
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
