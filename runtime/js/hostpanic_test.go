package js_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nookdev/nook/runtime"
)

// panickyHost is a host whose filesystem panics on stat, as a storage
// failure could.
type panickyHost struct{ runtime.Host }

func (h panickyHost) Call(ctx context.Context, c *runtime.Call) (any, error) {
	if c.Kind == runtime.KindFS && c.Op == "stat" {
		panic("storage exploded")
	}
	return h.Host.Call(ctx, c)
}

// A panic in the host during an asynchronous call (on a goroutine of the
// run's own) ends the run as an internal error instead of taking the
// process down; the sync form did so already.
func TestHostPanicInAsyncCall(t *testing.T) {
	e := newEnv(t)
	for _, src := range []string{
		`import fs from 'node:fs'; fs.stat('x', () => {});`,
		`import fs from 'node:fs'; await fs.promises.stat('x');`,
		`import fs from 'node:fs'; fs.statSync('x');`,
	} {
		p := e.prepare(spec{src: src})
		host := panickyHost{runtime.NewHost(runtime.HostConfig{FS: e.ws.FS(), Root: "/workspace", RunID: "t1",
			Output: func(runtime.Stream, []byte) error { return nil }})}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		ex := p.Run(ctx, host)
		cancel()
		if ex.Err == nil || !strings.Contains(ex.Err.Error(), "js: internal error: storage exploded") {
			t.Errorf("%s: exit %d, err %v; want js: internal error: storage exploded", src, ex.Code, ex.Err)
		}
	}
}
