package js

import (
	"encoding/json"

	"github.com/nookdev/nook/runtime/host"
)

// BuilderName is the name of the JavaScript backend's Builder.
const BuilderName = "js"

// Builder rebuilds the JavaScript backend in a worker process from its
// Recipe: give it to worker.Main. Every field of Options crosses (they
// are all data: the id, description, root, access, timeouts and the
// extra Modules' sources); the program cache is the worker's own.
var Builder = host.Builder{Name: BuilderName, Build: build}

func build(options json.RawMessage) (host.Backend, error) {
	var o Options
	if err := host.DecodeOptions(BuilderName, options, &o); err != nil {
		return nil, err
	}
	return New(o), nil
}

// WorkerRecipe returns the recipe that rebuilds b in a worker process: the
// Builder's name and b's options (defaults applied) as JSON.
func (b *Backend) WorkerRecipe() (host.Recipe, error) {
	return host.JSONRecipe(BuilderName, b.opts)
}

// PreparesAlone reports false: Prepare reads the modules a program
// imports from the workspace. (A JavaScript program ships to a worker as
// its snapshot, the bundle, which needs no workspace.)
func (b *Backend) PreparesAlone(req *host.Request) bool { return false }

var (
	_ host.Rebuildable   = (*Backend)(nil)
	_ host.AlonePreparer = (*Backend)(nil)
	_ host.Restorer      = (*Backend)(nil)
)
