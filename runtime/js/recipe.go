package js

import (
	"bytes"
	"encoding/json"
	"fmt"

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
	if len(options) > 0 {
		d := json.NewDecoder(bytes.NewReader(options))
		d.DisallowUnknownFields()
		if err := d.Decode(&o); err != nil {
			return nil, fmt.Errorf("js: the options of a worker recipe: %w", err)
		}
	}
	return New(o), nil
}

// WorkerRecipe returns the recipe that rebuilds b in a worker process: the
// Builder's name and b's options (defaults applied) as JSON.
func (b *Backend) WorkerRecipe() (host.Recipe, error) {
	data, err := json.Marshal(b.opts)
	if err != nil {
		return host.Recipe{}, err
	}
	return host.Recipe{Builder: BuilderName, Options: data}, nil
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
