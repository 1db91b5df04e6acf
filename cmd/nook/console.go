package main

import (
	"log/slog"
	"net/http"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/internal/console"
)

// mountConsole serves the web console of ws at "/" of mux, behind token
// (see package console); the more specific routes (/mcp, /healthz, ...)
// stay theirs.
func mountConsole(mux *http.ServeMux, ws *nook.Workspace, token string, log *slog.Logger) error {
	c, err := console.New(console.Options{FS: ws.FS(), Runtime: ws.Runtime(), Token: token, Logger: log})
	if err != nil {
		return err
	}
	mux.Handle("/", c)
	return nil
}
