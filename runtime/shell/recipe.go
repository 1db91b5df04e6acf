package shell

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/nookdev/nook/runtime/host"
)

// BuilderName is the name of the shell backend's Builder.
const BuilderName = "shell"

// Builder rebuilds the shell backend in a worker process from its Recipe:
// give it to worker.Main. Every field of Options crosses (they are all
// data), so a worker's shell has its parent's limits (MaxLoopIterations,
// MaxFunctionDepth, MaxArgs), root and timeouts.
var Builder = host.Builder{Name: BuilderName, Build: build}

func build(options json.RawMessage) (host.Backend, error) {
	var o Options
	if len(options) > 0 {
		d := json.NewDecoder(bytes.NewReader(options))
		d.DisallowUnknownFields()
		if err := d.Decode(&o); err != nil {
			return nil, fmt.Errorf("shell: the options of a worker recipe: %w", err)
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

// PreparesAlone reports true: Prepare only parses the script, it reads no
// file.
func (b *Backend) PreparesAlone(req *host.Request) bool { return true }

var (
	_ host.Rebuildable   = (*Backend)(nil)
	_ host.AlonePreparer = (*Backend)(nil)
)
