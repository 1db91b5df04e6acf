package main

import "github.com/nookdev/nook/tools"

// shown renders a workspace name or path for a terminal (see
// tools.DisplayName); --json output keeps the raw names.
func shown(s string) string { return tools.DisplayName(s) }
