package coreutils

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"
)

// file: what a file holds, from its first bytes (magic numbers for the
// formats agents meet, then text analysis, then net/http's sniffer). The
// read tool's sniffing lives in package tools, above the runtime, so it is
// not imported here.

func init() {
	register("file", "file [-bLhi] [--mime-type] [--mime-encoding] FILE...", fileCmd)
}

// sniffHead is how much of a file file reads.
const sniffHead = 64 << 10

func fileCmd(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "bLhiNz", long: map[string]bool{"brief": false, "mime": false, "mime-type": false,
		"mime-encoding": false, "dereference": false, "no-dereference": false},
		alias: map[string]string{"brief": "b", "mime": "i", "dereference": "L", "no-dereference": "h"}}, args)
	if !ok {
		return 1
	}
	if len(files) == 0 {
		fmt.Fprintln(e.Stderr, "Usage: file [-bchikLlNnprsSvzZ0] [--apple] [--extension] [--mime-encoding]\n            [--mime-type] [-e <testname>] [-F <separator>]  [-f <namefile>]\n            [-m <magicfiles>] [-P <parameter=value>] [--exclude-quiet]\n            <file> ...")
		return 1
	}
	width := 0
	for _, f := range files {
		width = max(width, len(f)+1)
	}
	for _, f := range files {
		if e.Ctx.Err() != nil {
			return 1
		}
		desc, mime, enc := e.describe(f, o.has("L"))
		switch {
		case o.has("mime-type"):
			desc = mime
		case o.has("mime-encoding"):
			desc = enc
		case o.has("i"):
			desc = mime
			if enc != "" {
				desc += "; charset=" + enc
			}
		}
		if o.has("b") {
			fmt.Fprintln(e.Stdout, desc)
		} else {
			fmt.Fprintf(e.Stdout, "%-*s %s\n", width, f+":", desc)
		}
	}
	return 0
}

// describe returns file's description, MIME type and charset of f.
func (e *Env) describe(f string, follow bool) (desc, mime, enc string) {
	ap := e.Abs(f)
	fi, err := e.FS.Lstat(e.Ctx, ap)
	if err == nil && fi.Kind == "symlink" && follow {
		fi, err = e.FS.Stat(e.Ctx, ap)
	}
	if err != nil {
		return fmt.Sprintf("cannot open `%s' (%s)", f, textOf(err)), "cannot open", ""
	}
	switch fi.Kind {
	case "dir":
		return "directory", "inode/directory", "binary"
	case "symlink":
		t, _ := e.FS.Readlink(e.Ctx, ap)
		return "symbolic link to " + t, "inode/symlink", "binary"
	}
	if fi.FSize == 0 {
		return "empty", "inode/x-empty", "binary"
	}
	head, err := e.FS.Pread(e.Ctx, ap, 0, sniffHead)
	if err != nil {
		return fmt.Sprintf("cannot open `%s' (%s)", f, textOf(err)), "cannot open", ""
	}
	return sniff(head, int64(len(head)) >= fi.FSize)
}

func sniff(b []byte, whole bool) (desc, mime, enc string) {
	has := func(p string) bool { return bytes.HasPrefix(b, []byte(p)) }
	switch {
	case has("\x89PNG\r\n\x1a\n"):
		d := "PNG image data"
		if len(b) >= 26 && string(b[12:16]) == "IHDR" {
			w, h := binary.BigEndian.Uint32(b[16:20]), binary.BigEndian.Uint32(b[20:24])
			d += fmt.Sprintf(", %d x %d", w, h)
		}
		return d, "image/png", "binary"
	case has("\xff\xd8\xff"):
		return "JPEG image data", "image/jpeg", "binary"
	case has("GIF87a"), has("GIF89a"):
		return "GIF image data, version " + string(b[3:6]), "image/gif", "binary"
	case has("RIFF") && len(b) >= 12 && string(b[8:12]) == "WEBP":
		return "RIFF (little-endian) data, Web/P image", "image/webp", "binary"
	case has("%PDF-"):
		v := strings.TrimSpace(string(b[5:min(len(b), 8)]))
		return "PDF document, version " + v, "application/pdf", "binary"
	case has("\x1f\x8b"):
		d := "gzip compressed data"
		if len(b) > 3 && b[3]&8 != 0 {
			if i := bytes.IndexByte(b[10:], 0); i >= 0 {
				d += fmt.Sprintf(", was \"%s\"", b[10:10+i])
			}
		}
		return d, "application/gzip", "binary"
	case has("BZh"):
		return "bzip2 compressed data", "application/x-bzip2", "binary"
	case has("\xfd7zXZ\x00"):
		return "XZ compressed data", "application/x-xz", "binary"
	case has("(\xb5/\xfd"):
		return "Zstandard compressed data", "application/zstd", "binary"
	case has("PK\x03\x04"), has("PK\x05\x06"):
		return "Zip archive data", "application/zip", "binary"
	case len(b) >= 262 && string(b[257:262]) == "ustar":
		if string(b[257:265]) == "ustar  \x00" {
			return "POSIX tar archive (GNU)", "application/x-tar", "binary"
		}
		return "POSIX tar archive", "application/x-tar", "binary"
	case has("\x7fELF"):
		return "ELF executable", "application/x-executable", "binary"
	case has("\x00asm"):
		return "WebAssembly (wasm) binary module", "application/wasm", "binary"
	case has("SQLite format 3\x00"):
		return "SQLite 3.x database", "application/vnd.sqlite3", "binary"
	}
	if !looksText(b, whole) {
		m := http.DetectContentType(b)
		if m == "application/octet-stream" {
			return "data", m, "binary"
		}
		return m, strings.SplitN(m, ";", 2)[0], "binary"
	}
	charset, kind := "us-ascii", "ASCII text"
	for _, c := range b {
		if c >= 0x80 {
			charset, kind = "utf-8", "Unicode text, UTF-8 text"
			break
		}
	}
	mime = "text/plain"
	desc = kind
	s := string(b)
	if strings.HasPrefix(s, "#!") {
		line, _, _ := strings.Cut(s[2:], "\n")
		fields := strings.Fields(line)
		interp := ""
		if len(fields) > 0 {
			interp = fields[0][strings.LastIndex(fields[0], "/")+1:]
			if interp == "env" && len(fields) > 1 {
				interp = fields[1]
			}
		}
		script := map[string][2]string{
			"sh": {"POSIX shell script", "text/x-shellscript"}, "bash": {"Bourne-Again shell script", "text/x-shellscript"},
			"python": {"Python script", "text/x-script.python"}, "python3": {"Python script", "text/x-script.python"},
			"node": {"Node.js script", "application/javascript"}, "perl": {"Perl script", "text/x-perl"},
			"ruby": {"Ruby script", "text/x-ruby"}, "zsh": {"Paul Falstad's zsh script", "text/x-shellscript"},
		}
		if sc, ok := script[interp]; ok {
			if interp == "node" {
				return sc[0] + " executable, " + kind, sc[1], charset
			}
			return sc[0] + ", " + kind + " executable", sc[1], charset
		}
		return "a " + line + " script, " + kind + " executable", "text/plain", charset
	}
	trim := strings.TrimSpace(s)
	switch {
	case whole && (strings.HasPrefix(trim, "{") || strings.HasPrefix(trim, "[")) && json.Valid([]byte(trim)):
		return "JSON text data", "application/json", charset
	case strings.HasPrefix(trim, "<?xml"):
		return "XML 1.0 document, " + kind, "text/xml", charset
	case strings.HasPrefix(strings.ToLower(trim), "<!doctype html"), strings.HasPrefix(strings.ToLower(trim), "<html"):
		return "HTML document, " + kind, "text/html", charset
	}
	if whole && isCSV(s) {
		desc, mime = "CSV text", "text/csv"
	}
	switch {
	case strings.Contains(s, "\r\n"):
		desc += ", with CRLF line terminators"
	case !strings.Contains(s, "\n"):
		desc += ", with no line terminators"
	}
	return desc, mime, charset
}

// looksText reports whether b is text: valid UTF-8 without NULs or most
// control characters (a cut character at the end of a partial read is
// allowed).
func looksText(b []byte, whole bool) bool {
	if !whole {
		for i := 0; i < 3 && len(b) > 0 && !utf8.Valid(b); i++ {
			b = b[:len(b)-1]
		}
	}
	if !utf8.Valid(b) {
		return false
	}
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\b' && c != 0x1b {
			return false
		}
	}
	return true
}

// isCSV: at least two lines, each with the same number (at least one) of
// commas outside quotes.
func isCSV(s string) bool {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if len(lines) < 2 {
		return false
	}
	want := -1
	for _, l := range lines {
		n, q := 0, false
		for _, c := range l {
			switch {
			case c == '"':
				q = !q
			case c == ',' && !q:
				n++
			}
		}
		if n == 0 || want >= 0 && n != want {
			return false
		}
		want = n
	}
	return true
}
