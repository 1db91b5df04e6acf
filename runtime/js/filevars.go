package js

import (
	"regexp"
	"strconv"
	"strings"
)

// withFileVars gives a workspace module that mentions __filename or
// __dirname (CommonJS's per-module names, which models use in ES modules
// too) a declaration of them: the file's absolute path and directory. The
// declaration goes after the directive prologue ('use strict' stays in
// force) on the same line, so line numbers do not move. A module that
// declares the name itself (const __dirname = path.dirname(...)) keeps its
// own.
func withFileVars(src, file string) string {
	var decl []string
	for _, n := range [...]string{"__filename", "__dirname"} {
		if !strings.Contains(src, n) || declares(src, n) {
			continue
		}
		v := file
		if n == "__dirname" {
			v = dirOf(file)
		}
		decl = append(decl, n+" = "+strconv.Quote(v))
	}
	if len(decl) == 0 {
		return src
	}
	at := prologueEnd(src)
	return src[:at] + "var " + strings.Join(decl, ", ") + ";" + src[at:]
}

func dirOf(file string) string {
	i := strings.LastIndexByte(file, '/')
	if i <= 0 {
		return "/"
	}
	return file[:i]
}

var declRE = map[string]*regexp.Regexp{"__filename": declPattern("__filename"), "__dirname": declPattern("__dirname")}

// declPattern matches the ways a module declares name itself: a plain
// declaration, a destructuring one, or an import.
func declPattern(name string) *regexp.Regexp {
	return regexp.MustCompile(`\b(?:var|let|const|function|class)\s+` + name + `\b` +
		`|\b(?:var|let|const)\s*[{\[][^;=]*\b` + name + `\b[^;=]*[}\]]\s*=` +
		`|\bimport\s*(?:\{[^}]*\b` + name + `\b[^}]*\}|` + name + `\b)`)
}

// declares reports whether src seems to declare name itself.
func declares(src, name string) bool { return declRE[name].MatchString(src) }

// prologueEnd returns the offset just after src's hashbang, leading
// comments and directives ('use strict';), where a declaration can go
// without changing what the directives mean.
func prologueEnd(src string) int {
	i := 0
	if strings.HasPrefix(src, "#!") {
		if j := strings.IndexByte(src, '\n'); j >= 0 {
			i = j + 1
		} else {
			return len(src)
		}
	}
	end := i
	for {
		j := skipSpaceAndComments(src, i)
		if j >= len(src) || (src[j] != '\'' && src[j] != '"') {
			return end
		}
		q := src[j]
		k := j + 1
		for k < len(src) && src[k] != q && src[k] != '\n' {
			if src[k] == '\\' {
				k++
			}
			k++
		}
		if k >= len(src) || src[k] != q {
			return end
		}
		k++
		// A directive is a string literal statement: what follows is ';',
		// a line end, or the end of the file.
		m := k
		for m < len(src) && (src[m] == ' ' || src[m] == '\t') {
			m++
		}
		switch {
		case m < len(src) && src[m] == ';':
			end, i = m+1, m+1
		case m >= len(src) || src[m] == '\n' || src[m] == '\r':
			end, i = m, m
		default:
			return end
		}
	}
}

// hasUseStrict reports whether src's directive prologue has 'use strict'.
func hasUseStrict(src string) bool {
	i := 0
	if strings.HasPrefix(src, "#!") {
		if j := strings.IndexByte(src, '\n'); j >= 0 {
			i = j + 1
		}
	}
	for {
		i = skipSpaceAndComments(src, i)
		if i >= len(src) || (src[i] != '\'' && src[i] != '"') {
			return false
		}
		q := src[i]
		j := strings.IndexByte(src[i+1:], q)
		if j < 0 {
			return false
		}
		lit := src[i+1 : i+1+j]
		if lit == "use strict" {
			return true
		}
		i += j + 2
		for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == ';') {
			i++
		}
	}
}

func skipSpaceAndComments(src string, i int) int {
	for i < len(src) {
		switch {
		case src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r':
			i++
		case strings.HasPrefix(src[i:], "//"):
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				return len(src)
			}
			i += j + 1
		case strings.HasPrefix(src[i:], "/*"):
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				return len(src)
			}
			i += j + 4
		default:
			return i
		}
	}
	return i
}
