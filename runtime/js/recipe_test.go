package js_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/host"
	"github.com/nookdev/nook/runtime/js"
)

// TestWorkerRecipe: the JavaScript backend's recipe carries every option
// (none is dropped: the extra modules cross as their sources), and the
// Builder rebuilds from it a backend that describes itself as the
// original and has the same recipe.
func TestWorkerRecipe(t *testing.T) {
	b := js.New(js.Options{ID: "js2", Root: "/w", Access: runtime.ReadOnly, DefaultTimeout: time.Second,
		MaxTimeout: time.Minute, Modules: map[string]string{"lodash-lite": "export const x = 1;"}})
	r, err := b.WorkerRecipe()
	if err != nil {
		t.Fatal(err)
	}
	if r.Builder != "js" || r.Builder != js.Builder.Name {
		t.Fatalf("builder %q", r.Builder)
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(r.Options, &keys); err != nil {
		t.Fatal(err)
	}
	for _, f := range reflect.VisibleFields(reflect.TypeFor[js.Options]()) {
		if _, ok := keys[f.Name]; !ok {
			t.Errorf("option %s does not cross to a worker", f.Name)
		}
	}
	if string(keys["Modules"]) != `{"lodash-lite":"export const x = 1;"}` || string(keys["ID"]) != `"js2"` ||
		string(keys["Access"]) != "1" || string(keys["DefaultTimeout"]) != "1000000000" {
		t.Fatalf("options %s", r.Options)
	}
	nb, err := js.Builder.Build(r.Options)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := nb.(host.Rebuildable).WorkerRecipe()
	if err != nil || nb.Info() != b.Info() || string(r2.Options) != string(r.Options) {
		t.Fatalf("rebuilt: %+v %s %v", nb.Info(), r2.Options, err)
	}
	if nb, err := js.Builder.Build(nil); err != nil || nb.Info() != js.New(js.Options{}).Info() {
		t.Fatalf("built from nothing: %+v %v", nb, err)
	}
	_, err = js.Builder.Build(json.RawMessage(`{"Cache":1}`))
	if err == nil || err.Error() != `js: the options of a worker recipe: json: unknown field "Cache"` {
		t.Fatalf("an unknown option: %v", err)
	}
	if b.PreparesAlone(&runtime.Request{Source: "export default () => 1"}) {
		t.Fatal("JavaScript prepares with the workspace (imports)")
	}
}
