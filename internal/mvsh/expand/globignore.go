// nook: GLOBIGNORE and failglob (see internal/mvsh/PATCHES.md).

package expand

import (
	"path"
	"strings"

	"github.com/nookdev/nook/internal/mvsh/internal"
	"github.com/nookdev/nook/internal/mvsh/pattern"
)

// NoMatchError is returned by pathname expansion when the "failglob"
// option is set and a pattern matches no file.
type NoMatchError struct {
	Pattern string
}

func (e NoMatchError) Error() string { return "no match: " + e.Pattern }

// globIgnore returns the matchers of the colon-separated patterns of
// GLOBIGNORE, or nil when it is unset or empty.
func (cfg *Config) globIgnore() []func(string) bool {
	list := cfg.envGet("GLOBIGNORE")
	if list == "" {
		return nil
	}
	mode := pattern.Filenames | pattern.EntireString | pattern.NoGlobStar | pattern.GlobLeadingDot
	if cfg.ExtGlob {
		mode |= pattern.ExtendedOperators
	}
	matchers := []func(string) bool{func(string) bool { return false }}
	for _, pat := range strings.Split(list, ":") {
		if pat == "" {
			continue
		}
		m, err := internal.ExtendedPatternMatcher(pat, mode)
		if err != nil {
			continue // like bash, a bad pattern ignores nothing
		}
		matchers = append(matchers, m)
	}
	return matchers
}

// globIgnoring is [Config.glob] under GLOBIGNORE: with a non-empty list,
// dotglob is in effect, "." and ".." are never results, and a result that
// matches one of the patterns is left out.
func (cfg *Config) globIgnoring(base, pat string, ignore []func(string) bool) ([]string, error) {
	if ignore == nil {
		return cfg.glob(base, pat)
	}
	dotGlob, skip := cfg.DotGlob, cfg.NoGlobSkipDots
	cfg.DotGlob, cfg.NoGlobSkipDots = true, false
	matches, err := cfg.glob(base, pat)
	cfg.DotGlob, cfg.NoGlobSkipDots = dotGlob, skip
	if err != nil {
		return nil, err
	}
	kept := matches[:0]
next:
	for _, m := range matches {
		if b := path.Base(m); b == "." || b == ".." {
			continue
		}
		for _, ig := range ignore {
			if ig(m) {
				continue next
			}
		}
		kept = append(kept, m)
	}
	return kept, nil
}

// hasMeta is [pattern.HasMeta], and with extglob also true for an
// unescaped `@(`, `!(` or `+(`, which pattern.HasMeta does not see (nook).
func (cfg *Config) hasMeta(pat string) bool {
	if pattern.HasMeta(pat, 0) {
		return true
	}
	if !cfg.ExtGlob {
		return false
	}
	for i := 0; i+1 < len(pat); i++ {
		switch pat[i] {
		case '\\':
			i++
		case '@', '!', '+':
			if pat[i+1] == '(' {
				return true
			}
		}
	}
	return false
}
