package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/nookdev/nook/vfs"
)

func deleteTool(s *Set) *Tool {
	return &Tool{
		Name:        "delete",
		Description: "Delete a file, symlink or empty directory; with recursive, a directory and everything in it. A missing path is not an error.",
		InputSchema: schema(`{"type":"object","properties":{
			"path":{"type":"string"},
			"recursive":{"type":"boolean"}},
			"required":["path"],"additionalProperties":false}`),
		OutputSchema: schema(`{"type":"object","properties":{
			"path":{"type":"string"},"deleted":{"type":"boolean"},"type":{"type":"string"}},
			"required":["path","deleted"]}`),
		Annotations: Annotations{Destructive: true, Idempotent: true},
		run:         s.delete,
	}
}

type deleteIn struct {
	Path      string `json:"path"`
	Recursive bool   `json:"recursive"`
}

type deleteOut struct {
	Path    string `json:"path"`
	Deleted bool   `json:"deleted"`
	Type    string `json:"type,omitempty"`
}

func (s *Set) delete(ctx context.Context, raw json.RawMessage) (*Result, error) {
	var in deleteIn
	if r := decode("delete", raw, &in); r != nil {
		return r, nil
	}
	p, err := vfs.Clean(s.abs(in.Path))
	if err != nil {
		return nil, err
	}
	unlock, err := s.opts.Locks.Lock(ctx, LockRequest{Path: p, Subtree: in.Recursive})
	if err != nil {
		return nil, err
	}
	defer unlock()
	out := deleteOut{Path: p}
	err = s.fs.Batch(ctx, func(b *vfs.Batch) error {
		fi, err := b.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return stamp(ctx, b, out)
		}
		if err != nil {
			return err
		}
		out.Deleted, out.Type = true, fi.Kind.String()
		if err := b.Remove(p, &vfs.RemoveOptions{Recursive: in.Recursive, Force: true}); err != nil {
			return err
		}
		return stamp(ctx, b, out)
	})
	if err != nil {
		if vfs.Code(err) == vfs.ENOTEMPTY {
			return Errorf("%v. Pass recursive: true to delete the directory and everything in it.", err), nil
		}
		return nil, err
	}
	if !out.Deleted {
		return Text(fmt.Sprintf("%s does not exist; nothing to delete", shown(p)), out), nil
	}
	return Text(fmt.Sprintf("Deleted %s %s", out.Type, shown(p)), out), nil
}
