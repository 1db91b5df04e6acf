package wasm_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/host"
	"github.com/nookdev/nook/runtime/wasm"
)

// TestWorkerRecipe: the WebAssembly backend's recipe carries every option
// but CacheDir (a host directory a worker may not open), and the Builder
// rebuilds from it a backend that describes itself as the original and
// has the same recipe.
func TestWorkerRecipe(t *testing.T) {
	b := wasm.New(wasm.Options{ID: "w2", Root: "/w", Access: runtime.ReadOnly, Mount: "/", DefaultTimeout: time.Second,
		MaxTimeout: time.Minute, CacheDir: t.TempDir(), MaxModuleBytes: 1 << 20, MaxMemoryPages: 100, MaxCompiled: 3,
		Interrupt: wasm.InterruptChecked})
	r, err := b.WorkerRecipe()
	if err != nil {
		t.Fatal(err)
	}
	if r.Builder != "wasm" || r.Builder != wasm.Builder.Name {
		t.Fatalf("builder %q", r.Builder)
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(r.Options, &keys); err != nil {
		t.Fatal(err)
	}
	var dropped []string
	for _, f := range reflect.VisibleFields(reflect.TypeFor[wasm.Options]()) {
		if _, ok := keys[f.Name]; !ok {
			dropped = append(dropped, f.Name)
		}
	}
	if !reflect.DeepEqual(dropped, []string{"CacheDir"}) {
		t.Fatalf("the options that do not cross: %v, want [CacheDir]", dropped)
	}
	if string(keys["Mount"]) != `"/"` || string(keys["MaxMemoryPages"]) != "100" || string(keys["Interrupt"]) != "1" ||
		string(keys["MaxCompiled"]) != "3" {
		t.Fatalf("options %s", r.Options)
	}
	nb, err := wasm.Builder.Build(r.Options)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := nb.(host.Rebuildable).WorkerRecipe()
	if err != nil || nb.Info() != b.Info() || string(r2.Options) != string(r.Options) {
		t.Fatalf("rebuilt: %+v %s %v", nb.Info(), r2.Options, err)
	}
	if nb, err := wasm.Builder.Build(nil); err != nil || nb.Info() != wasm.New(wasm.Options{}).Info() {
		t.Fatalf("built from nothing: %+v %v", nb, err)
	}
	_, err = wasm.Builder.Build(json.RawMessage(`{"Cache":1}`))
	if err == nil || err.Error() != `wasm: the options of a worker recipe: json: unknown field "Cache"` {
		t.Fatalf("an unknown option: %v", err)
	}
	for _, c := range []struct {
		req  runtime.Request
		want bool
	}{
		{runtime.Request{Source: "\x00asm\x01\x00\x00\x00"}, true},
		{runtime.Request{Source: "/workspace/a.wasm"}, false},
		{runtime.Request{Source: "\x00asm\x01\x00\x00\x00", Env: map[string]string{wasm.RootEnv: "/w/r"}}, false},
	} {
		if got := b.PreparesAlone(&c.req); got != c.want {
			t.Errorf("PreparesAlone(%q, %v) = %v", c.req.Source, c.req.Env, got)
		}
	}
}
