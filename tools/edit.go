package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/nookdev/nook/internal/linediff"
	"github.com/nookdev/nook/tools/internal/editmatch"
	"github.com/nookdev/nook/vfs"
)

// diffContext is how many lines of context edit's unified diff shows.
const diffContext = 4

func editTool(s *Set) *Tool {
	return &Tool{
		Name: "edit",
		Description: "Replace text in one file. Each oldText must match one place in the original file (replaceAll: every place); " +
			"all edits apply together or not at all. Returns a diff.",
		InputSchema: schema(`{"type":"object","properties":{
			"path":{"type":"string"},
			"edits":{"type":"array","minItems":1,"items":{"type":"object","properties":{
				"oldText":{"type":"string"},"newText":{"type":"string"},"replaceAll":{"type":"boolean"}},
				"required":["oldText","newText"],"additionalProperties":false}},
			"expectedHash":{"type":"string","description":"hash from read: fail if the file changed since"},
			"dryRun":{"type":"boolean","description":"Return the diff that would be applied, changing nothing"}},
			"required":["path","edits"],"additionalProperties":false}`),
		OutputSchema: schema(`{"type":"object","properties":{
			"path":{"type":"string"},"editsApplied":{"type":"integer"},
			"matches":{"type":"array","items":{"type":"object","properties":{
				"edit":{"type":"integer"},"match":{"type":"string"},"line":{"type":"integer"},"replacements":{"type":"integer"}}}},
			"diff":{"type":"string"},"firstChangedLine":{"type":"integer"},"hash":{"type":"string","description":"content hash after the edit (for a dry run: what it would be)"},
			"dryRun":{"type":"boolean","description":"true: nothing was changed"}},
			"required":["path","editsApplied","diff","firstChangedLine","hash"]}`),
		Annotations: Annotations{Destructive: true},
		run:         s.edit,
	}
}

type editIn struct {
	Path         string     `json:"path"`
	Edits        []editItem `json:"edits"`
	ExpectedHash string     `json:"expectedHash"`
	DryRun       bool       `json:"dryRun"`
}

type editItem struct {
	OldText    string `json:"oldText"`
	NewText    string `json:"newText"`
	ReplaceAll bool   `json:"replaceAll"`
}

type editMatchOut struct {
	Edit         int    `json:"edit"`
	Match        string `json:"match"`
	Line         int    `json:"line"`
	Replacements int    `json:"replacements"`
}

type editOut struct {
	Path             string         `json:"path"`
	EditsApplied     int            `json:"editsApplied"`
	Matches          []editMatchOut `json:"matches"`
	Diff             string         `json:"diff"`
	FirstChangedLine int            `json:"firstChangedLine"`
	Hash             string         `json:"hash"`
	DryRun           bool           `json:"dryRun,omitempty"`
}

func (s *Set) edit(ctx context.Context, raw json.RawMessage) (*Result, error) {
	var in editIn
	if r := decode("edit", raw, &in); r != nil {
		return r, nil
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
	var out editOut
	// Read, match and write in one transaction: nothing can change the file
	// in between, in this process or another.
	err = s.fs.Batch(ctx, func(b *vfs.Batch) error {
		fi, err := b.Stat(p)
		if errors.Is(err, fs.ErrNotExist) || (err == nil && fi.IsDir()) {
			return fail("File not found: %s", p)
		}
		if err != nil {
			return err
		}
		if fi.Size() > int64(s.opts.Edit.MaxBytes) {
			return fail("File too large to edit: %d bytes exceeds the %d-byte cap. Use the write tool to rewrite the file from scratch.", fi.Size(), s.opts.Edit.MaxBytes)
		}
		old, err := b.ReadFile(p)
		if err != nil {
			return err
		}
		if in.ExpectedHash != "" {
			if h := vfs.HashContent(old); !strings.EqualFold(h, in.ExpectedHash) {
				return fail("%s changed since it was read (expected hash %s, now %s). Read it again and redo the edit.", p, in.ExpectedHash, h)
			}
		}
		edits := make([]editmatch.Edit, len(in.Edits))
		for i, e := range in.Edits {
			edits[i] = editmatch.Edit{OldText: e.OldText, NewText: e.NewText, ReplaceAll: e.ReplaceAll}
		}
		res, err := editmatch.Apply(p, old, edits)
		if err != nil {
			var me *editmatch.Error
			if errors.As(err, &me) {
				return fail("%s", me.Message)
			}
			return err
		}
		out = editOut{
			Path:             p,
			EditsApplied:     len(in.Edits),
			Diff:             linediff.Unified("a"+p, "b"+p, old, res.Content, diffContext),
			FirstChangedLine: firstChangedLine(old, res.Content),
			Hash:             vfs.HashContent(res.Content),
			DryRun:           in.DryRun,
		}
		for _, m := range res.Matches {
			out.Matches = append(out.Matches, editMatchOut{Edit: m.Index, Match: m.Rule,
				Line: 1 + strings.Count(string(old[:m.Start]), "\n"), Replacements: m.Count})
		}
		if in.DryRun {
			return nil // no write and no receipt: a dry run changes nothing
		}
		if err := b.WriteFile(p, res.Content, nil); err != nil {
			return err
		}
		return stamp(ctx, b, out)
	})
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	verb := "Edited"
	if in.DryRun {
		verb = "Dry run, nothing changed: would edit"
	}
	fmt.Fprintf(&b, "%s %s:", verb, shown(p))
	for i, m := range out.Matches {
		if i > 0 {
			b.WriteString(",")
		}
		how := "exactly"
		if m.Match != "exact" {
			how = "by fuzzy match (" + m.Match + ")"
		}
		fmt.Fprintf(&b, " edit %d at line %d matched %s", m.Edit+1, m.Line, how)
		if m.Replacements > 1 {
			fmt.Fprintf(&b, " (%d replacements)", m.Replacements)
		}
	}
	fmt.Fprintf(&b, ".\n%s", out.Diff)
	return Text(b.String(), out), nil
}
