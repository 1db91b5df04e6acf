package coreutils

import "github.com/nookdev/nook/runtime/shell/internal/hostfs"

func codeOf(err error) string { return hostfs.Code(err) }
func textOf(err error) string { return hostfs.Text(err) }
