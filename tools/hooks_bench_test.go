package tools

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/nookdev/nook/vfs"
)

// BenchmarkHooks measures a read through two hooks (a Before that looks at
// the input, an After that returns nil) against the same read without
// hooks, in the same run.
func BenchmarkHooks(b *testing.B) {
	hooks := []Hook{
		RequireApproval(ApprovalPolicy{Tools: []string{"delete"}, Paths: []string{"/secret/**"}}),
		{After: func(ctx context.Context, c *Call, r *Result) *Result { return nil }},
	}
	for _, c := range []struct {
		name  string
		hooks []Hook
	}{{"none", nil}, {"two", hooks}} {
		b.Run(c.name, func(b *testing.B) {
			s, f := newSet(b, Options{Hooks: c.hooks})
			f.WriteFile(bg, "/a.txt", []byte("hello\n"), &vfs.WriteOptions{})
			in := json.RawMessage(`{"path":"/a.txt"}`)
			for b.Loop() {
				if r, err := s.Call(bg, "read", in); err != nil || r.IsError {
					b.Fatal(err, r)
				}
			}
		})
	}
}
