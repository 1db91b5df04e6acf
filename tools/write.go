package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/nookdev/nook/vfs"
)

func writeTool(s *Set) *Tool {
	return &Tool{
		Name:        "write",
		Description: "Create or overwrite a file with the given content. Parent directories are created; an existing file keeps its mode.",
		InputSchema: schema(`{"type":"object","properties":{
			"path":{"type":"string","description":"Absolute path, e.g. /src/main.go"},
			"content":{"type":"string"}},
			"required":["path","content"],"additionalProperties":false}`),
		OutputSchema: schema(`{"type":"object","properties":{
			"path":{"type":"string"},"bytes":{"type":"integer"},"created":{"type":"boolean"}},
			"required":["path","bytes","created"]}`),
		Annotations: Annotations{Destructive: true, Idempotent: true},
		run:         s.write,
	}
}

type writeIn struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

type writeOut struct {
	Path    string `json:"path"`
	Bytes   int    `json:"bytes"`
	Created bool   `json:"created"`
}

func (s *Set) write(ctx context.Context, raw json.RawMessage) (*Result, error) {
	var in writeIn
	if r := decode("write", raw, &in); r != nil {
		return r, nil
	}
	if n, max := len(in.Content), s.opts.Write.MaxBytes; n > max {
		return Errorf("Content too large: %d bytes exceeds the %d-byte write cap. Use the edit tool for incremental changes to existing files, or split the write into smaller pieces.", n, max), nil
	}
	p, err := vfs.Clean(s.abs(in.Path))
	if err != nil {
		return nil, err
	}
	unlock, err := s.opts.Locks.Lock(ctx, LockRequest{Path: p})
	if err != nil {
		return nil, err
	}
	defer unlock()
	out := writeOut{Path: p, Bytes: len(in.Content)}
	err = s.fs.Batch(ctx, func(b *vfs.Batch) error {
		_, err := b.Stat(p)
		out.Created = errors.Is(err, fs.ErrNotExist)
		if err := b.WriteFile(p, []byte(in.Content), &vfs.WriteOptions{MkdirAll: true}); err != nil {
			return err
		}
		return stamp(ctx, b, out)
	})
	if err != nil {
		return nil, err
	}
	verb := "Overwrote"
	if out.Created {
		verb = "Created"
	}
	return Text(fmt.Sprintf("%s %s (%d bytes)", verb, shown(p), out.Bytes), out), nil
}
