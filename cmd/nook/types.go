package main

import (
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
)

// runToolTypes prints "nook tools types": a TypeScript declaration file
// for the host modules code run by this command line can import (ws:tools,
// ws:git, ws:modules), so that a TypeScript program type-checks with tsc
// before it runs.
func runToolTypes(a *app, mods []runtime.ModuleInfo) error {
	_, err := a.stdout.Write([]byte(js.Declarations(mods)))
	return err
}
