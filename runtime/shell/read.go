package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/nookdev/nook/internal/mvsh/interp"
	"github.com/nookdev/nook/internal/mvsh/syntax"

	"github.com/nookdev/nook/runtime/host"
)

// read and mapfile/readarray: the interpreter's builtins collect a line
// (or every line) without a bound, so ours read the input here, bounded by
// MaxAllocBytes, and hand the values to the interpreter as an eval of
// quoted assignments (only the interpreter can assign its variables).
// They also add read -d, -n, -N and -t, which the builtin lacks.

// readOpts are the options of read.
type readOpts struct {
	raw        bool
	array      string
	delim      byte
	nchars     int // -n (stop at the delimiter) or -N (exactly)
	exact      bool
	timeout    time.Duration
	names      []string
	hasTimeout bool
}

// readUsage is bash's usage line for read (without the options the
// sandbox lacks).
const readUsage = "read: usage: read [-ers] [-a array] [-d delim] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [name ...]"

// parseReadOpts parses read's options. A bad value or name is status 1,
// an unknown option or a missing value status 2, as in bash 5.2.
func parseReadOpts(args []string) (readOpts, string, int) {
	o := readOpts{delim: '\n', nchars: -1}
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			switch c {
			case 'r':
				o.raw = true
			case 's', 'e':
			case 'a', 'd', 'n', 'N', 'p', 't', 'u', 'i':
				val := a[j+1:]
				if val == "" {
					if i+1 >= len(args) {
						return o, fmt.Sprintf("read: -%c: option requires an argument\n"+readUsage, c), 2
					}
					i++
					val = args[i]
				}
				switch c {
				case 'a':
					o.array = val
				case 'd':
					o.delim = 0
					if val != "" {
						o.delim = val[0]
					}
				case 'n', 'N':
					n, err := strconv.Atoi(val)
					if err != nil || n < 0 {
						return o, "read: " + val + ": invalid number", 1
					}
					o.nchars, o.exact = n, c == 'N'
				case 't':
					f, err := strconv.ParseFloat(val, 64)
					if err != nil || f < 0 {
						return o, "read: " + val + ": invalid timeout specification", 1
					}
					o.timeout, o.hasTimeout = time.Duration(f*float64(time.Second)), true
				case 'u':
					if val != "0" {
						return o, "read: " + val + ": only file descriptor 0 is available in the sandbox", 1
					}
				}
				j = len(a)
			default:
				return o, fmt.Sprintf("read: -%c: invalid option\n"+readUsage, c), 2
			}
		}
	}
	o.names = args[i:]
	if o.array != "" {
		o.names = []string{o.array}
	}
	for _, n := range o.names {
		if !syntax.ValidName(n) {
			return o, "read: `" + n + "': not a valid identifier", 1
		}
	}
	return o, "", 0
}

// errReadTimeout is read -t running out of time.
var errReadTimeout = errors.New("read timeout")

// byteReader reads a command's stdin one byte at a time (the stdin is
// shared with the commands that follow, so nothing past the line may be
// consumed).
type byteReader struct {
	p  *runProgram
	in io.Reader
}

// withStdin runs fn over in; a read blocked on a pipe returns when the run
// ends, or after timeout (when positive).
func (p *runProgram) withStdin(in io.Reader, timeout time.Duration, fn func(r *byteReader) error) error {
	f, _ := in.(*os.File)
	if f != nil {
		if timeout > 0 {
			f.SetReadDeadline(time.Now().Add(timeout))
		}
		stopc := make(chan struct{})
		stop := context.AfterFunc(p.ctx, func() {
			f.SetReadDeadline(time.Now())
			close(stopc)
		})
		defer func() {
			if !stop() {
				<-stopc
			}
			f.SetReadDeadline(time.Time{})
		}()
	}
	return fn(&byteReader{p: p, in: in})
}

func (r *byteReader) readByte() (byte, error) {
	if r.in == nil {
		return 0, io.EOF
	}
	var b [1]byte
	for {
		n, err := r.in.Read(b[:])
		if n == 1 {
			return b[0], nil
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			if r.p.ctx.Err() != nil {
				return 0, context.Cause(r.p.ctx)
			}
			return 0, errReadTimeout
		}
		if err != nil {
			return 0, err
		}
	}
}

// readCmd runs "read ARGS" and returns the command the interpreter runs
// in its place.
func (p *runProgram) readCmd(ctx context.Context, args []string) []string {
	o, msg, status := parseReadOpts(args)
	if msg != "" {
		return fail(status, msg)
	}
	hc := interp.HandlerCtx(ctx)
	max := p.limits.MaxAllocBytes
	var line []byte
	var rerr error
	timeout := time.Duration(-1)
	if o.hasTimeout {
		timeout = o.timeout
	}
	if o.hasTimeout && o.timeout == 0 {
		// read -t 0: whether input is available; ours is a pipe or a
		// file, so only a missing stdin has none.
		if hc.Stdin == nil {
			return []string{"false"}
		}
		return []string{"true"}
	}
	err := p.withStdin(hc.Stdin, timeout, func(r *byteReader) error {
		esc := false
		chars := 0
		for o.nchars < 0 || chars < o.nchars {
			b, err := r.readByte()
			if err != nil {
				return err
			}
			if int64(len(line)) >= max {
				return &host.LimitError{Limit: "MaxAllocBytes", Max: max,
					What: fmt.Sprintf("a line read by read of more than %d bytes", len(line))}
			}
			switch {
			case !o.raw && esc && b == '\n':
				line = line[:len(line)-1] // line continuation
				esc = false
				continue
			case !o.raw && esc && b == o.delim:
				line = append(line, b)
				esc = false
			case b == o.delim && !o.exact:
				return nil
			case !o.raw && b == '\\':
				line = append(line, b)
				esc = !esc
				continue
			default:
				line = append(line, b)
				esc = false
			}
			// A multibyte character counts once.
			if b < 0x80 || b >= 0xC0 {
				chars++
			}
			if o.nchars >= 0 && chars == o.nchars && b >= 0xC0 {
				// the last character: read the rest of its bytes
				want := 1
				if b >= 0xE0 {
					want = 2
				}
				if b >= 0xF0 {
					want = 3
				}
				for k := 0; k < want; k++ {
					c, err := r.readByte()
					if err != nil {
						return err
					}
					line = append(line, c)
				}
			}
		}
		return nil
	})
	var le *host.LimitError
	switch {
	case errors.As(err, &le):
		p.cancel(le)
		return fail(1, "read: "+le.Error())
	case err != nil && p.ctx.Err() != nil:
		return []string{"false"}
	case errors.Is(err, errReadTimeout):
		rerr = err
	case err != nil:
		rerr = err
	}
	var sb strings.Builder
	ifs := " \t\n"
	if v := hc.Env.Get("IFS"); v.IsSet() {
		ifs = v.String()
	}
	s := string(line)
	switch {
	case o.array != "":
		sb.WriteString(o.array + "=(")
		for i, v := range splitRead(s, ifs, -1, o.raw) {
			if i > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(singleQuote(v))
		}
		sb.WriteString(")")
	case len(o.names) == 0 || o.exact:
		// -N assigns what it read without splitting.
		if !o.raw {
			s = unescapeRead(s)
		}
		n := "REPLY"
		if len(o.names) > 0 {
			n = o.names[0]
		}
		sb.WriteString(n + "=" + singleQuote(s))
		for _, extra := range o.names[min(1, len(o.names)):] {
			sb.WriteString(" " + extra + "=")
		}
	default:
		vals := splitRead(s, ifs, len(o.names), o.raw)
		for i, n := range o.names {
			v := ""
			if i < len(vals) {
				v = vals[i]
			}
			if i > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(n + "=" + singleQuote(v))
		}
	}
	switch {
	case errors.Is(rerr, errReadTimeout):
		sb.WriteString("; __nook_status 142")
	case rerr != nil:
		sb.WriteString("; false")
	}
	return []string{"eval", sb.String()}
}

// splitRead splits a line read by read into at most n fields (all when
// n < 0) by POSIX's rules: IFS white space (space, tab, newline in IFS) is
// trimmed at both ends and separates fields in runs; every other IFS
// character ends a field, with the white space around it. The last field
// takes the rest of the line, trailing IFS white space removed. Without
// -r a backslash quotes the next character.
func splitRead(s, ifs string, n int, raw bool) []string {
	isWS := func(c byte) bool { return (c == ' ' || c == '\t' || c == '\n') && strings.IndexByte(ifs, c) >= 0 }
	isSep := func(c byte) bool { return strings.IndexByte(ifs, c) >= 0 }
	var fields []string
	var cur strings.Builder
	i := 0
	for i < len(s) && isWS(s[i]) {
		i++
	}
	if ifs == "" {
		return []string{unescapeIf(s, raw)}
	}
	for i < len(s) {
		if n > 0 && len(fields) == n-1 {
			// the rest of the line, without trailing IFS white space
			rest := s[i:]
			end := len(rest)
			for end > 0 && isWS(rest[end-1]) && !(end > 1 && rest[end-2] == '\\' && !raw) {
				end--
			}
			cur.WriteString(unescapeIf(rest[:end], raw))
			fields = append(fields, cur.String())
			return fields
		}
		c := s[i]
		switch {
		case c == '\\' && !raw:
			if i+1 < len(s) {
				cur.WriteByte(s[i+1])
			}
			i += 2
			continue
		case isSep(c):
			fields = append(fields, cur.String())
			cur.Reset()
			// the separator is its white space, at most one other IFS
			// character, and the white space after it
			for i < len(s) && isWS(s[i]) {
				i++
			}
			if i < len(s) && isSep(s[i]) && !isWS(s[i]) {
				i++
				for i < len(s) && isWS(s[i]) {
					i++
				}
			}
			continue
		}
		cur.WriteByte(c)
		i++
	}
	if cur.Len() > 0 {
		fields = append(fields, cur.String())
	}
	return fields
}

func unescapeIf(s string, raw bool) string {
	if raw {
		return s
	}
	return unescapeRead(s)
}

// unescapeRead drops the backslashes of a line read without -r.
func unescapeRead(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var sb strings.Builder
	esc := false
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && !esc {
			esc = true
			continue
		}
		sb.WriteByte(s[i])
		esc = false
	}
	return sb.String()
}

// mapfileCmd runs "mapfile ARGS" (or readarray).
func (p *runProgram) mapfileCmd(ctx context.Context, name string, args []string) []string {
	delim := byte('\n')
	trim := false
	count, skip, origin := -1, 0, 0
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			switch c {
			case 't':
				trim = true
			case 'd', 'n', 's', 'O', 'u', 'C', 'c':
				val := a[j+1:]
				if val == "" {
					if i+1 >= len(args) {
						return fail(2, fmt.Sprintf("%s: -%c: option requires an argument", name, c))
					}
					i++
					val = args[i]
				}
				j = len(a)
				if c == 'd' {
					delim = 0
					if val != "" {
						delim = val[0]
					}
					continue
				}
				if c == 'C' || c == 'c' {
					return fail(2, fmt.Sprintf("%s: -%c: callbacks are not supported", name, c))
				}
				n, err := strconv.Atoi(val)
				if err != nil || n < 0 {
					return fail(2, fmt.Sprintf("%s: %s: invalid number", name, val))
				}
				switch c {
				case 'n':
					count = n
					if n == 0 {
						count = -1
					}
				case 's':
					skip = n
				case 'O':
					origin = n
				case 'u':
					if n != 0 {
						return fail(2, fmt.Sprintf("%s: %d: only file descriptor 0 is available in the sandbox", name, n))
					}
				}
			default:
				return fail(2, fmt.Sprintf("%s: -%c: invalid option", name, c))
			}
		}
	}
	arr := "MAPFILE"
	if rest := args[i:]; len(rest) > 0 {
		arr = rest[0]
		if !syntax.ValidName(arr) {
			return fail(2, name+": `"+arr+"': not a valid identifier")
		}
	}
	hc := interp.HandlerCtx(ctx)
	max := p.limits.MaxAllocBytes
	var lines []string
	var total int64
	err := p.withStdin(hc.Stdin, -1, func(r *byteReader) error {
		var cur []byte
		for count < 0 || len(lines) < count+skip {
			b, err := r.readByte()
			if err == io.EOF {
				if len(cur) > 0 {
					lines = append(lines, string(cur))
				}
				return nil
			}
			if err != nil {
				return err
			}
			if total++; total > max {
				return &host.LimitError{Limit: "MaxAllocBytes", Max: max,
					What: fmt.Sprintf("input of %s of more than %d bytes", name, max)}
			}
			if b == delim {
				if !trim {
					cur = append(cur, b)
				}
				lines = append(lines, string(cur))
				cur = cur[:0]
				continue
			}
			cur = append(cur, b)
		}
		return nil
	})
	var le *host.LimitError
	if errors.As(err, &le) {
		p.cancel(le)
		return fail(1, name+": "+le.Error())
	}
	if err != nil {
		return []string{"false"}
	}
	if skip > len(lines) {
		skip = len(lines)
	}
	lines = lines[skip:]
	var sb strings.Builder
	if origin == 0 {
		sb.WriteString(arr + "=(")
		for k, l := range lines {
			if k > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(singleQuote(l))
		}
		sb.WriteString(")")
	} else {
		sb.WriteString(":")
		for k, l := range lines {
			fmt.Fprintf(&sb, "; %s[%d]=%s", arr, origin+k, singleQuote(l))
		}
	}
	return []string{"eval", sb.String()}
}
