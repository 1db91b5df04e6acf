package wasm_test

import (
	"strings"
	"testing"

	"github.com/nookdev/nook/runtime"
)

func TestHello(t *testing.T) {
	ws := openWS(t)
	res := run(t, ws, runtime.ExecOptions{}, "hello")
	ok(t, res)
	if string(res.Stdout) != "hello, world\n" {
		t.Fatalf("stdout %q", res.Stdout)
	}
}

func TestFS(t *testing.T) {
	ws := openWS(t)
	res := run(t, ws, runtime.ExecOptions{}, "fs", "/workspace/t")
	ok(t, res)
	if !strings.Contains(string(res.Stdout), "ok removeall") {
		t.Fatalf("stdout %s", res.Stdout)
	}
}
