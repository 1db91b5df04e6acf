package host

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Recipe says how to build a backend again in another process (a worker of
// the process isolation tier): the name of the Builder that builds it and
// the backend's options as data. A worker links no backend package of its
// own choosing: it is given Builders, and rebuilds each backend of its
// parent from the parent's recipe, so the options the parent gave a
// backend hold in the worker too.
type Recipe struct {
	// Builder names the Builder that rebuilds the backend ("shell").
	Builder string
	// Options are the backend's options, in the form the Builder reads
	// (JSON, for the backends nook ships). Options that cannot cross a
	// process (functions, interfaces, host caches) are left out; the
	// backend documents which.
	Options json.RawMessage
}

// Rebuildable is a Backend that a worker process can rebuild from a
// Recipe, and so run its programs in the process tier. A backend that is
// not Rebuildable runs its programs in the runtime's own process whatever
// the isolation.
type Rebuildable interface {
	Backend
	// WorkerRecipe returns the backend's recipe. It must return the same
	// recipe every time, and the backend a Builder builds from it must
	// have the same Go type and describe itself (Info) exactly as this
	// one; an isolator that finds otherwise runs the program in process.
	// An error means the backend cannot be rebuilt now: its programs run
	// in process.
	WorkerRecipe() (Recipe, error)
}

// Builder builds a backend from the options of a Recipe: the registry of
// a worker process holds one per kind of backend it can rebuild (see
// package github.com/nookdev/nook/runtime/worker, Main).
type Builder struct {
	// Name is what a Recipe's Builder field names.
	Name string
	// Build returns a backend configured by options (a Recipe's Options).
	Build func(options json.RawMessage) (Backend, error)
}

// AlonePreparer is a Rebuildable backend that says which requests it can
// prepare without the workspace. A worker has no workspace: it prepares a
// program with a nil *vfs.FS, so a request whose Prepare reads workspace
// files (a module named by its path) must run in process. A Rebuildable
// backend that does not implement AlonePreparer prepares every request
// alone (its Prepare must not need the workspace). A program that ships as
// its snapshot (a Snapshotter of a Restorer) is not prepared again and is
// not asked about.
type AlonePreparer interface {
	// PreparesAlone reports whether Prepare(ctx, nil, req) builds the
	// same program as Prepare with the workspace.
	PreparesAlone(req *Request) bool
}

// JSONRecipe returns the Recipe that names builder and carries options as
// JSON: the form the backends nook ships use.
func JSONRecipe(builder string, options any) (Recipe, error) {
	data, err := json.Marshal(options)
	if err != nil {
		return Recipe{}, fmt.Errorf("%s: the options of a worker recipe: %w", builder, err)
	}
	return Recipe{Builder: builder, Options: data}, nil
}

// DecodeOptions reads a JSONRecipe's options into o, strictly: a field o
// does not have is an error that names it (a parent newer than its worker
// must not lose an option silently). Empty options leave o as it is.
func DecodeOptions(builder string, options json.RawMessage, o any) error {
	if len(options) == 0 {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(options))
	d.DisallowUnknownFields()
	if err := d.Decode(o); err != nil {
		return fmt.Errorf("%s: the options of a worker recipe: %w", builder, err)
	}
	return nil
}
