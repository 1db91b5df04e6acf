package coreutils

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"time"
)

func init() {
	register("gzip", "gzip [-cdkfqv] [-1..-9] [FILE]...", gzipCmd)
	register("gunzip", "gunzip [-ckfqv] [FILE]...", gzipCmd)
	register("zcat", "zcat [FILE]...", gzipCmd)
}

type gzipOpts struct {
	stdout, decompress, keep, force, verbose, test bool
	level                                          int
}

func gzipCmd(e *Env, args []string) int {
	o := gzipOpts{level: gzip.DefaultCompression}
	switch e.name {
	case "gunzip":
		o.decompress = true
	case "zcat":
		o.decompress, o.stdout = true, true
	}
	var files []string
	onlyFiles := false
	for _, a := range args[1:] {
		switch {
		case onlyFiles || a == "-" || !strings.HasPrefix(a, "-"):
			files = append(files, a)
		case a == "--":
			onlyFiles = true
		case a == "--stdout" || a == "--to-stdout":
			o.stdout = true
		case a == "--decompress" || a == "--uncompress":
			o.decompress = true
		case a == "--keep":
			o.keep = true
		case a == "--force":
			o.force = true
		case a == "--verbose":
			o.verbose = true
		case a == "--quiet" || a == "--no-name" || a == "--name":
		case a == "--test":
			o.test, o.decompress = true, true
		case a == "--best":
			o.level = 9
		case a == "--fast":
			o.level = 1
		case strings.HasPrefix(a, "--"):
			e.Errf("unrecognized option '%s'", a)
			fmt.Fprintf(e.Stderr, "Try `%s --help' for more information.\n", e.name)
			return 1
		default:
			for _, c := range a[1:] {
				switch {
				case c == 'c':
					o.stdout = true
				case c == 'd':
					o.decompress = true
				case c == 'k':
					o.keep = true
				case c == 'f':
					o.force = true
				case c == 'v':
					o.verbose = true
				case c == 't':
					o.test, o.decompress = true, true
				case c == 'q' || c == 'n' || c == 'N':
				case c >= '1' && c <= '9':
					o.level = int(c - '0')
				default:
					e.Errf("invalid option -- '%c'", c)
					fmt.Fprintf(e.Stderr, "Try `%s --help' for more information.\n", e.name)
					return 1
				}
			}
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	status := 0
	for _, f := range files {
		if e.Ctx.Err() != nil {
			return 1
		}
		st := e.gzipOne(&o, f)
		if st == 1 || status == 0 {
			status = max(status, st)
		}
	}
	return status
}

// gzipSuffix returns the name a compressed file decompresses to.
func gzipSuffix(name string) (string, bool) {
	switch {
	case strings.HasSuffix(name, ".gz") && len(name) > 3:
		return name[:len(name)-3], true
	case strings.HasSuffix(name, ".tgz") && len(name) > 4:
		return name[:len(name)-4] + ".tar", true
	case strings.HasSuffix(name, ".z") && len(name) > 2:
		return name[:len(name)-2], true
	}
	return "", false
}

func (e *Env) gzipOne(o *gzipOpts, f string) int {
	var data []byte
	var err error
	var mode uint32 = 0o644
	if f != "-" {
		fi, serr := e.FS.Stat(e.Ctx, e.Abs(f))
		if serr != nil {
			e.FileErr(f, serr)
			return 1
		}
		if fi.IsDir() {
			e.Errf("%s is a directory -- ignored", f)
			return 2
		}
		mode = fi.FMode
		if !o.decompress && !o.stdout {
			if _, ok := gzipSuffix(f); ok && strings.HasSuffix(f, ".gz") {
				e.Errf("%s already has .gz suffix -- unchanged", f)
				return 2
			}
		}
		data, err = e.ReadAll(f)
		if err != nil {
			e.FileErr(f, err)
			return 1
		}
		if o.decompress && !o.stdout && !o.test {
			if _, ok := gzipSuffix(f); !ok {
				e.Errf("%s: unknown suffix -- ignored", f)
				return 2
			}
		}
		var out []byte
		if o.decompress {
			out, err = e.gunzipBytes(data)
			if err != nil {
				e.Errf("%s: %v", f, err)
				return 1
			}
			if o.test {
				return 0
			}
		} else {
			out, err = gzipBytes(data, path.Base(f), fi.ModTime().Unix(), o.level)
			if err != nil {
				e.Errf("%s: %v", f, err)
				return 1
			}
		}
		if o.stdout {
			if _, err := e.Stdout.Write(out); err != nil {
				return 1
			}
			return 0
		}
		target := f + ".gz"
		if o.decompress {
			target, _ = gzipSuffix(f)
		}
		if !o.force {
			if _, err := e.FS.Lstat(e.Ctx, e.Abs(target)); err == nil {
				e.Errf("%s already exists; not overwritten", target)
				return 2
			}
		}
		if err := e.FS.WriteFile(e.Ctx, e.Abs(target), out, "w"); err != nil {
			e.FileErr(target, err)
			return 1
		}
		if mode&0o777 != 0o644 {
			e.FS.Chmod(e.Ctx, e.Abs(target), mode&0o7777)
		}
		e.FS.Utimes(e.Ctx, e.Abs(target), fi.ModTime())
		if o.verbose {
			ratio := 0.0
			if len(data) > 0 {
				ratio = 100 * (1 - float64(len(out))/float64(len(data)))
				if o.decompress {
					ratio = 100 * (1 - float64(len(data))/float64(len(out)))
				}
			}
			fmt.Fprintf(e.Stderr, "%s:\t%5.1f%% -- replaced with %s\n", f, ratio, target)
		}
		if !o.keep {
			if err := e.FS.Remove(e.Ctx, e.Abs(f), false, false); err != nil {
				e.FileErr(f, err)
				return 1
			}
		}
		return 0
	}
	data, err = e.readStdin()
	if err != nil {
		e.Errf("stdin: %v", err)
		return 1
	}
	var out []byte
	if o.decompress {
		out, err = e.gunzipBytes(data)
	} else {
		out, err = gzipBytes(data, "", 0, o.level)
	}
	if err != nil {
		e.Errf("stdin: %v", err)
		return 1
	}
	if o.test {
		return 0
	}
	if _, err := e.Stdout.Write(out); err != nil {
		return 1
	}
	return 0
}

func gzipBytes(data []byte, name string, mtime int64, level int) ([]byte, error) {
	var b bytes.Buffer
	w, err := gzip.NewWriterLevel(&b, level)
	if err != nil {
		return nil, err
	}
	w.Name = name
	if mtime > 0 {
		w.Header.ModTime = time.Unix(mtime, 0)
	}
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// gunzipBytes decompresses data (every member), bounded by MaxBytes.
func (e *Env) gunzipBytes(data []byte) ([]byte, error) {
	r, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("not in gzip format")
	}
	lim := e.MaxBytes
	if lim <= 0 {
		lim = 64 << 20
	}
	out, err := io.ReadAll(io.LimitReader(r, lim+1))
	if err != nil {
		if err == gzip.ErrChecksum {
			return nil, fmt.Errorf("invalid compressed data--crc error")
		}
		return nil, fmt.Errorf("unexpected end of file")
	}
	if int64(len(out)) > lim {
		return nil, fmt.Errorf("decompressed data larger than the limit MaxAllocBytes (%s bytes)", strconv.FormatInt(lim, 10))
	}
	return out, nil
}
