package js

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"

	"github.com/dop251/goja"

	"github.com/nookdev/nook/runtime/host"
)

// zlibFuncs adds node:zlib's codec to the internal bridge: compress and
// decompress run in Go (compress/gzip, compress/zlib, compress/flate),
// inside the sandbox (they are not host calls). An output larger than
// MaxAllocBytes stops the run with a LimitError, so a decompression bomb
// cannot exhaust memory; maxOutputLength, when the code gives it, is
// Node's catchable ERR_BUFFER_TOO_LARGE.
func (r *run) zlibFuncs(set func(string, any)) {
	set("zlibCompress", func(format string, data goja.Value, level int) goja.Value {
		in := r.dataBytes(data)
		if level < -1 || level > 9 {
			level = -1
		}
		var buf bytes.Buffer
		var w io.WriteCloser
		var err error
		switch format {
		case "gzip":
			w, err = gzip.NewWriterLevel(&buf, level)
		case "deflate":
			w, err = zlib.NewWriterLevel(&buf, level)
		case "raw":
			w, err = flate.NewWriter(&buf, level)
		default:
			panic(r.newError("Error", "zlib: unknown format "+format))
		}
		if err == nil {
			_, err = w.Write(in)
		}
		if err == nil {
			err = w.Close()
		}
		if err != nil {
			panic(r.zlibError(err))
		}
		return r.newBuffer(buf.Bytes())
	})
	set("zlibDecompress", func(format string, data goja.Value, maxOut float64) goja.Value {
		in := bytes.NewReader(r.dataBytes(data))
		if format == "unzip" {
			format = "deflate"
			if in.Len() >= 2 {
				var head [2]byte
				in.ReadAt(head[:], 0)
				if head[0] == 0x1f && head[1] == 0x8b {
					format = "gzip"
				}
			}
		}
		var rd io.Reader
		var err error
		if format == "gzip" {
			var head [2]byte
			n, _ := in.ReadAt(head[:], 0)
			switch {
			case n == 0 || n == 1 && head[0] == 0x1f:
				panic(r.zlibError(io.ErrUnexpectedEOF))
			case n < 2 || head[0] != 0x1f || head[1] != 0x8b:
				panic(r.zlibError(gzip.ErrHeader))
			}
		}
		switch format {
		case "gzip":
			rd = &gzipMembers{in: in}
		case "deflate":
			rd, err = zlib.NewReader(in)
		case "raw":
			rd = flate.NewReader(in)
		default:
			panic(r.newError("Error", "zlib: unknown format "+format))
		}
		if err != nil {
			panic(r.zlibError(err))
		}
		max := r.req.Limits.MaxAllocBytes
		limit := max
		if maxOut > 0 && int64(maxOut) < limit {
			limit = int64(maxOut)
		}
		out, err := io.ReadAll(io.LimitReader(rd, limit+1))
		if err != nil {
			panic(r.zlibError(err))
		}
		if int64(len(out)) > limit {
			if limit < max {
				e := r.newError("RangeError", fmt.Sprintf("Cannot create a Buffer larger than %d bytes", limit))
				e.Set("code", "ERR_BUFFER_TOO_LARGE")
				panic(e)
			}
			le := &host.LimitError{Limit: "MaxAllocBytes", Max: max, What: "decompressed data of more than " + fmt.Sprint(max) + " bytes"}
			r.fail(le)
			panic(r.newError("RangeError", le.Error()))
		}
		return r.newBuffer(out)
	})
}

// gzipMembers reads the members of a gzip file one after another as
// zlib does for Node: after a member, input that starts with a zero byte is
// padding and ends the data; any other input must be another member (so
// trailing garbage is "incorrect header check").
type gzipMembers struct {
	in  *bytes.Reader
	cur *gzip.Reader
}

func (g *gzipMembers) Read(p []byte) (int, error) {
	for {
		if g.cur == nil {
			if g.in.Len() == 0 {
				return 0, io.EOF
			}
			if b, _ := g.in.ReadByte(); b == 0 {
				return 0, io.EOF
			}
			g.in.UnreadByte()
			// The magic number first, as zlib checks it before the
			// rest of the header is there.
			var head [2]byte
			n, _ := g.in.ReadAt(head[:], g.in.Size()-int64(g.in.Len()))
			if head[0] != 0x1f || n == 2 && head[1] != 0x8b {
				return 0, gzip.ErrHeader
			}
			z, err := gzip.NewReader(g.in)
			if err != nil {
				return 0, err
			}
			z.Multistream(false)
			g.cur = z
		}
		n, err := g.cur.Read(p)
		if err == io.EOF {
			g.cur = nil
			if n > 0 {
				return n, nil
			}
			continue
		}
		return n, err
	}
}

// zlibError words a codec error as Node's zlib does (code Z_DATA_ERROR,
// errno -3, or Z_BUF_ERROR for truncated input).
func (r *run) zlibError(err error) *goja.Object {
	code, errno, msg := "Z_DATA_ERROR", -3, err.Error()
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		code, errno, msg = "Z_BUF_ERROR", -5, "unexpected end of file"
	case errors.Is(err, gzip.ErrHeader), errors.Is(err, zlib.ErrHeader):
		msg = "incorrect header check"
	case errors.Is(err, gzip.ErrChecksum), errors.Is(err, zlib.ErrChecksum):
		msg = "incorrect data check"
	}
	e := r.newError("Error", msg)
	e.Set("code", code)
	e.Set("errno", errno)
	return e
}
