package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/nookdev/nook/vfs"
)

func moveTool(s *Set) *Tool {
	return &Tool{
		Name:        "move",
		Description: "Rename or move a file or directory atomically. An existing file at the destination is replaced; a directory only if empty.",
		InputSchema: schema(`{"type":"object","properties":{
			"from":{"type":"string"},
			"to":{"type":"string"}},
			"required":["from","to"],"additionalProperties":false}`),
		OutputSchema: schema(`{"type":"object","properties":{
			"from":{"type":"string"},"to":{"type":"string"}},
			"required":["from","to"]}`),
		Annotations: Annotations{Destructive: true},
		run:         s.move,
	}
}

type moveIn struct {
	From string `json:"from"`
	To   string `json:"to"`
}

func (s *Set) move(ctx context.Context, raw json.RawMessage) (*Result, error) {
	var in moveIn
	if r := decode("move", raw, &in); r != nil {
		return r, nil
	}
	from, err := vfs.Clean(s.abs(in.From))
	if err != nil {
		return nil, err
	}
	to, err := vfs.Clean(s.abs(in.To))
	if err != nil {
		return nil, err
	}
	// Both ends as subtrees: a directory moves with everything in it.
	unlock, err := s.opts.Locks.Lock(ctx, LockRequest{Path: from, Subtree: true}, LockRequest{Path: to, Subtree: true})
	if err != nil {
		return nil, err
	}
	defer unlock()
	err = s.fs.Batch(ctx, func(b *vfs.Batch) error {
		if err := b.Rename(from, to); err != nil {
			return err
		}
		return stamp(ctx, b, moveIn{From: from, To: to})
	})
	if err != nil {
		return nil, err
	}
	return Text(fmt.Sprintf("Moved %s to %s", shown(from), shown(to)), moveIn{From: from, To: to}), nil
}
