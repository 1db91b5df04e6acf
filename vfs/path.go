package vfs

import "strings"

// MaxPathLength is the longest canonical path, in bytes, the filesystem accepts.
const MaxPathLength = 4096

// Clean canonicalises an absolute workspace path: empty and "." segments are
// dropped, ".." pops one segment, and the result has no trailing slash except
// for "/". It is the only function that turns caller input into a path.
//
// Errors (EINVAL unless noted), worded as "Invalid path (<reason>): <path>":
// empty, must be absolute, contains NUL byte, escapes root (a ".." above "/").
// A canonical path over MaxPathLength bytes is ENAMETOOLONG.
func Clean(p string) (string, error) {
	if p == "" {
		return "", invalidPath(p, "empty")
	}
	if p[0] != '/' {
		return "", invalidPath(p, "must be absolute")
	}
	if strings.IndexByte(p, 0) >= 0 {
		return "", invalidPath(p, "contains NUL byte")
	}
	if isClean(p) {
		if len(p) > MaxPathLength {
			return "", perr("path", p, ENAMETOOLONG, "path too long (over 4096 bytes)")
		}
		return p, nil
	}
	segs := make([]string, 0, strings.Count(p, "/"))
	for _, s := range strings.Split(p, "/") {
		switch s {
		case "", ".":
		case "..":
			if len(segs) == 0 {
				return "", invalidPath(p, "escapes root")
			}
			segs = segs[:len(segs)-1]
		default:
			segs = append(segs, s)
		}
	}
	out := "/" + strings.Join(segs, "/")
	if len(out) > MaxPathLength {
		return "", perr("path", p, ENAMETOOLONG, "path too long (over 4096 bytes)")
	}
	return out, nil
}

// isClean reports whether p (absolute, NUL-free) is already canonical.
func isClean(p string) bool {
	if p == "/" {
		return true
	}
	if p[len(p)-1] == '/' {
		return false
	}
	start := 1
	for i := 1; i <= len(p); i++ {
		if i == len(p) || p[i] == '/' {
			seg := p[start:i]
			if seg == "" || seg == "." || seg == ".." {
				return false
			}
			start = i + 1
		}
	}
	return true
}

func invalidPath(p, reason string) error {
	if p == "" {
		return perr("path", "", EINVAL, "Invalid path ("+reason+"): ")
	}
	return perr("path", p, EINVAL, "Invalid path ("+reason+")")
}

// split returns the parent directory and last segment of a canonical path.
// For "/" it returns ("/", "").
func split(p string) (dir, name string) {
	if p == "/" {
		return "/", ""
	}
	i := strings.LastIndexByte(p, '/')
	if i == 0 {
		return "/", p[1:]
	}
	return p[:i], p[i+1:]
}

// join appends a name to a canonical directory path.
func join(dir, name string) string {
	if dir == "/" {
		return "/" + name
	}
	return dir + "/" + name
}

// within reports whether p is dir or below it (both canonical).
func within(p, dir string) bool {
	if dir == "/" {
		return true
	}
	return p == dir || (len(p) > len(dir) && p[len(dir)] == '/' && p[:len(dir)] == dir)
}

// rel returns p relative to dir ("" when equal); p must be within dir.
func rel(p, dir string) string {
	if p == dir {
		return ""
	}
	if dir == "/" {
		return p[1:]
	}
	return p[len(dir)+1:]
}

// Base returns the last segment of a canonical path ("" for "/").
func Base(p string) string { _, n := split(p); return n }
