package tools

import (
	"strings"
	"testing"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// When the runtime could not save a stream in full (the workspace is
// full), exec says so and never points the model at a "full output" file.
func TestExecSpillFailureIsNotCalledFull(t *testing.T) {
	s, ws := newExecSet(t, Options{Exec: ExecOptions{MaxOutputBytes: 64}},
		nook.WithLimits(vfs.Limits{MaxTotalBytes: 1 << 20}))
	r := call(t, s, "exec", execArgs(t, "flood 3000000"))
	m := structured(t, r)
	id := m["id"].(string)
	path := runtime.DefaultOutputDir + "/" + id + "/stdout"
	fi, err := ws.FS().Stat(bg, path)
	if err != nil {
		t.Fatal(err)
	}
	oe, _ := m["outputError"].(string)
	if !strings.HasPrefix(oe, "the full stdout could not be saved: "+path+" holds only its first ") {
		t.Fatalf("outputError = %q", oe)
	}
	txt := text(r)
	if strings.Contains(txt, "full output:") || !strings.Contains(txt, "; "+oe+" ...]") {
		t.Errorf("text claims a full file or omits the error:\n%s", txt)
	}
	if fi.Size() >= 3_000_000 {
		t.Errorf("spill file holds %d bytes", fi.Size())
	}
}
