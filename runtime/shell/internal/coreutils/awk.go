package coreutils

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/nookdev/nook/runtime/host"
	"github.com/nookdev/nook/runtime/shell/internal/awk"
)

func init() {
	register("awk", "awk [-F FS] [-v VAR=VALUE]... [-f PROGFILE | 'PROGRAM'] [FILE | VAR=VALUE]...", awkCmd)
	table["gawk"] = table["awk"]
}

// fileError is a host error shown with its strerror text.
type fileError struct{ err error }

func (f fileError) Error() string { return textOf(f.err) }
func (f fileError) Unwrap() error { return f.err }

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

func awkCmd(e *Env, args []string) int {
	var fs string
	hasFS := false
	var assigns, progFiles []string
	a := args[1:]
	usage := func(msg string) int {
		e.Errf("%s", msg)
		fmt.Fprintf(e.Stderr, "Usage: %s\n", table["awk"].Help)
		return 2
	}
	// value returns the value of option a[i] (attached or the next word).
	i := 0
	value := func(opt string) (string, bool) {
		if len(a[i]) > len(opt) {
			return a[i][len(opt):], true
		}
		if i+1 >= len(a) {
			return "", false
		}
		i++
		return a[i], true
	}
	for ; i < len(a); i++ {
		s := a[i]
		switch {
		case s == "--":
			i++
			goto operands
		case strings.HasPrefix(s, "--field-separator="):
			fs, hasFS = s[len("--field-separator="):], true
		case strings.HasPrefix(s, "--assign="):
			assigns = append(assigns, s[len("--assign="):])
		case strings.HasPrefix(s, "--file="):
			progFiles = append(progFiles, s[len("--file="):])
		case strings.HasPrefix(s, "-F"):
			v, ok := value("-F")
			if !ok {
				return usage("option requires an argument -- 'F'")
			}
			fs, hasFS = v, true
		case strings.HasPrefix(s, "-v"):
			v, ok := value("-v")
			if !ok || !strings.Contains(v, "=") {
				return usage("-v needs VAR=VALUE")
			}
			assigns = append(assigns, v)
		case strings.HasPrefix(s, "-f"):
			v, ok := value("-f")
			if !ok {
				return usage("option requires an argument -- 'f'")
			}
			progFiles = append(progFiles, v)
		case s == "--posix" || s == "--traditional" || s == "-P" || s == "--re-interval":
		case s == "--version" || s == "-V":
			fmt.Fprintln(e.Stdout, "awk (nook) 1.0, the POSIX awk language with common gawk extensions")
			return 0
		case len(s) > 1 && s[0] == '-':
			return usage(fmt.Sprintf("unknown option %s", s))
		default:
			goto operands
		}
	}
operands:
	rest := a[i:]
	var src string
	if len(progFiles) > 0 {
		var b strings.Builder
		for _, f := range progFiles {
			data, err := e.ReadAll(f)
			if err != nil {
				e.Errf("fatal: can't open source file `%s' for reading: %s", f, textOf(err))
				return 2
			}
			b.Write(data)
			b.WriteByte('\n')
		}
		src = b.String()
	} else {
		if len(rest) == 0 {
			return usage("no program given")
		}
		src, rest = rest[0], rest[1:]
	}
	prog, err := awk.Parse(src)
	if err != nil {
		e.Errf("%v", err)
		return 1
	}
	if hasFS {
		if fs == "t" {
			fs = "\t"
		}
		assigns = append([]string{"FS=" + fs}, assigns...)
	}
	utf8 := e.utf8Locale()
	cfg := &awk.Config{
		Ctx: e.Ctx, Stdin: e.Stdin, Stdout: e.Stdout, Stderr: e.Stderr,
		Open: func(name string) (io.ReadCloser, error) {
			if name == "/dev/null" {
				return io.NopCloser(strings.NewReader("")), nil
			}
			r, err := e.FS.Open(e.Ctx, e.Abs(name))
			if err != nil {
				return nil, fileError{err}
			}
			return r, nil
		},
		Create: func(name string, appendTo bool) (io.WriteCloser, error) {
			if name == "/dev/null" {
				return nopWriteCloser{io.Discard}, nil
			}
			w, err := e.FS.Create(e.Ctx, e.Abs(name), appendTo, false)
			if err != nil {
				return nil, fileError{err}
			}
			return w, nil
		},
		Environ: e.Environ, Random: e.Random, Now: e.Now, Tick: e.Tick,
		MaxBytes: e.MaxBytes, MaxDepth: e.MaxDepth, UTF8: utf8,
	}
	if e.Exec != nil {
		cfg.Exec = func(cmd string, stdin io.Reader, stdout io.Writer) int {
			return e.Exec([]string{"sh", "-c", cmd}, stdin, stdout, e.Stderr)
		}
	}
	code, err := awk.Run(prog, cfg, rest, assigns)
	if err != nil {
		var le *awk.LimitError
		var rle *host.LimitError
		switch {
		case errors.As(err, &le):
			rle = &host.LimitError{Limit: le.Limit, Max: le.Max, What: "awk: " + le.What}
		case errors.As(err, &rle):
		}
		if rle != nil {
			if e.Stop != nil {
				e.Stop(rle)
			}
			e.Errf("%v", rle)
			return 2
		}
		if e.Ctx.Err() != nil {
			return 2
		}
		e.Errf("fatal: %v", err)
		return code
	}
	return code
}

// utf8Locale reports whether the locale (LC_ALL, LC_CTYPE, LANG) is UTF-8.
func (e *Env) utf8Locale() bool {
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := e.Getenv(k); v != "" {
			l := strings.ToLower(v)
			return strings.Contains(l, "utf-8") || strings.Contains(l, "utf8")
		}
	}
	return false
}
