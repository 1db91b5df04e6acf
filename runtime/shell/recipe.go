package shell

import (
	"encoding/json"

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

// PreparesAlone reports true: Prepare only parses the script, it reads no
// file.
func (b *Backend) PreparesAlone(req *host.Request) bool { return true }

var (
	_ host.Rebuildable   = (*Backend)(nil)
	_ host.AlonePreparer = (*Backend)(nil)
)
