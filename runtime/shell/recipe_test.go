package shell_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/host"
	"github.com/nookdev/nook/runtime/shell"
)

// TestWorkerRecipe: the shell's recipe carries every option (none is
// dropped), and the Builder rebuilds from it a backend that describes
// itself as the original and has the same recipe.
func TestWorkerRecipe(t *testing.T) {
	b := shell.New(shell.Options{Root: "/w", ReadOnly: true, DefaultTimeout: 2 * time.Second, MaxTimeout: time.Minute,
		MaxLoopIterations: 500, MaxFunctionDepth: 7, MaxArgs: 9})
	r, err := b.WorkerRecipe()
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"Root":"/w","ReadOnly":true,"DefaultTimeout":2000000000,"MaxTimeout":60000000000,` +
		`"MaxLoopIterations":500,"MaxFunctionDepth":7,"MaxArgs":9}`
	if r.Builder != "shell" || r.Builder != shell.Builder.Name || string(r.Options) != want {
		t.Fatalf("recipe %q %s, want shell %s", r.Builder, r.Options, want)
	}
	var keys map[string]any
	json.Unmarshal(r.Options, &keys)
	for _, f := range reflect.VisibleFields(reflect.TypeFor[shell.Options]()) {
		if _, ok := keys[f.Name]; !ok {
			t.Errorf("option %s does not cross to a worker", f.Name)
		}
	}
	nb, err := shell.Builder.Build(r.Options)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := nb.(host.Rebuildable).WorkerRecipe()
	if err != nil || nb.Info() != b.Info() || string(r2.Options) != want {
		t.Fatalf("rebuilt: %+v %s %v", nb.Info(), r2.Options, err)
	}
	// No options: the defaults.
	if nb, err := shell.Builder.Build(nil); err != nil || nb.Info() != shell.New(shell.Options{}).Info() {
		t.Fatalf("built from nothing: %+v %v", nb, err)
	}
	_, err = shell.Builder.Build(json.RawMessage(`{"MaxLoops":1}`))
	if err == nil || err.Error() != `shell: the options of a worker recipe: json: unknown field "MaxLoops"` {
		t.Fatalf("an unknown option: %v", err)
	}
	if !b.PreparesAlone(&runtime.Request{Source: "cat f"}) {
		t.Fatal("the shell prepares without the workspace")
	}
}
