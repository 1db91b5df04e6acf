package wasm

import (
	"encoding/json"
	"strings"

	"github.com/nookdev/nook/runtime/host"
)

// BuilderName is the name of the WebAssembly backend's Builder.
const BuilderName = "wasm"

// Builder rebuilds the WebAssembly backend in a worker process from its
// Recipe: give it to worker.Main. Every field of Options crosses but
// CacheDir: a worker's sandbox opens no host file, so it keeps compiled
// modules in memory only.
var Builder = host.Builder{Name: BuilderName, Build: build}

// recipeOptions are the Options a recipe carries.
type recipeOptions struct {
	Options
	// CacheDir shadows Options.CacheDir, and is always empty: a host
	// directory is of no use to a worker, which may not open it.
	CacheDir string `json:",omitempty"`
}

func build(options json.RawMessage) (host.Backend, error) {
	var o recipeOptions
	if err := host.DecodeOptions(BuilderName, options, &o); err != nil {
		return nil, err
	}
	return New(o.Options), nil
}

// WorkerRecipe returns the recipe that rebuilds b in a worker process: the
// Builder's name and b's options (defaults applied, CacheDir left out) as
// JSON.
func (b *Backend) WorkerRecipe() (host.Recipe, error) {
	o := b.opts
	o.CacheDir = ""
	return host.JSONRecipe(BuilderName, recipeOptions{Options: o})
}

// PreparesAlone reports whether req's module is in the request itself: a
// module named by a workspace path, or a run with its own root (RootEnv),
// is read from the workspace by Prepare.
func (b *Backend) PreparesAlone(req *host.Request) bool {
	if _, ok := req.Env[RootEnv]; ok {
		return false
	}
	return strings.HasPrefix(req.Source, wasmMagic)
}

var (
	_ host.Rebuildable   = (*Backend)(nil)
	_ host.AlonePreparer = (*Backend)(nil)
)
