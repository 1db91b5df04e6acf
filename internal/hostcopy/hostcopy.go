// Package hostcopy copies host directory trees for the conformance suites
// that run the same tree on a host directory and in a workspace.
package hostcopy

import (
	"os"
	"path/filepath"
)

// Tree copies the host directory src to dst: directories, regular files
// with their permission bits, and symlinks as symlinks.
func Tree(src, dst string) error {
	return filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		switch {
		case fi.IsDir():
			return os.MkdirAll(to, 0o755)
		case fi.Mode()&os.ModeSymlink != 0:
			l, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(l, to)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, fi.Mode().Perm())
	})
}
