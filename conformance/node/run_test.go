package node

import (
	"bytes"
	"context"
	"sync"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// runProgram runs a prepared program over fsys with a live host, and
// returns its output and how it ended.
func runProgram(ctx context.Context, fsys *vfs.FS, prg runtime.Program, runID string) (stdout, stderr string, ex runtime.Exit) {
	var mu sync.Mutex
	var out, errb bytes.Buffer
	host := runtime.NewHost(runtime.HostConfig{FS: fsys, Root: "/workspace", RunID: runID,
		Output: func(s runtime.Stream, p []byte) error {
			mu.Lock()
			defer mu.Unlock()
			if s == runtime.Stderr {
				errb.Write(p)
			} else {
				out.Write(p)
			}
			return nil
		}})
	ex = prg.Run(ctx, host)
	mu.Lock()
	defer mu.Unlock()
	return out.String(), errb.String(), ex
}
