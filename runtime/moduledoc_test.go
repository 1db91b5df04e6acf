package runtime_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
)

// ModuleDocs must describe registered modules and functions only.
func TestModuleDocsChecked(t *testing.T) {
	f := func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) { return nil, nil }
	mods := map[string]runtime.Module{"ws:kv": {"get": f}}
	for _, c := range []struct {
		docs map[string]runtime.ModuleDoc
		want string
	}{
		{map[string]runtime.ModuleDoc{"ws:nope": {}}, `runtime: ModuleDocs describes "ws:nope", which is not a registered host module`},
		{map[string]runtime.ModuleDoc{"ws:kv": {Funcs: map[string]runtime.FuncDoc{"put": {}}}}, `runtime: ModuleDocs describes ws:kv/put, which the module does not have`},
	} {
		db := filepath.Join(t.TempDir(), "w.db")
		_, err := nook.Open(context.Background(), db, nook.WithModules(mods), nook.WithModuleDocs(c.docs))
		if err == nil || err.Error() != c.want+": "+db {
			t.Errorf("Open = %v, want %q", err, c.want)
		}
	}
	// An embedder's own ws:modules is kept.
	ws, err := nook.Open(context.Background(), filepath.Join(t.TempDir(), "w.db"),
		nook.WithModules(map[string]runtime.Module{"ws:modules": {"mine": f}}),
		nook.WithModuleDocs(map[string]runtime.ModuleDoc{"ws:modules": {Summary: "mine"}}))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if m := ws.Runtime().Modules(); len(m) != 1 || m[0].Summary != "mine" || m[0].Funcs[0].Name != "mine" {
		t.Errorf("Modules() = %+v", m)
	}
}
