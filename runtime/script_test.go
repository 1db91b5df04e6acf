package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// scriptBackend is a backend for testing the runtime without a language:
// each line of the source is a command.
//
//	out TEXT        print TEXT and a newline to stdout
//	err TEXT        the same on stderr
//	raw TEXT        print TEXT without a newline (Go-quoted escapes allowed)
//	sleep DUR       wait (stops early when the run's context ends)
//	hang            wait until the run's context ends
//	flood N         print N bytes of 'x' in 1 KiB writes
//	value JSON      the run's value
//	input           print the input
//	env K           print the value of K
//	entry           print the request's Entry and Args
//	call KIND OP JSON  make a host call and print its JSON result or error
//	callwithin DUR KIND OP JSON  the same, giving up on the call after DUR
//	clock           print the host clock (Unix ns)
//	rand            print 8 random bytes (hex)
//	exit N          end with exit code N
type scriptBackend struct {
	id       string
	callable bool
	maxT     time.Duration
	access   runtime.Access
}

func (b *scriptBackend) Info() runtime.BackendInfo {
	id := b.id
	if id == "" {
		id = "script"
	}
	return runtime.BackendInfo{ID: id, Description: "test scripts", Callable: b.callable,
		Root: "/workspace", DefaultTimeout: 10 * time.Second, MaxTimeout: b.maxT, Access: b.access}
}

func (b *scriptBackend) Prepare(ctx context.Context, fsys *vfs.FS, req *runtime.Request) (runtime.Program, error) {
	for i, line := range strings.Split(req.Source, "\n") {
		if strings.HasPrefix(line, "bad") {
			return nil, fmt.Errorf("line %d: unknown command %q", i+1, line)
		}
	}
	return &scriptProgram{req: req}, nil
}

type scriptProgram struct {
	req   *runtime.Request
	calls int64 // numbers calls, as a backend whose calls may complete out of order must
}

func (p *scriptProgram) Run(ctx context.Context, h runtime.Host) runtime.Exit {
	var value json.RawMessage
	for _, line := range strings.Split(p.req.Source, "\n") {
		cmd, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
		var err error
		switch cmd {
		case "out":
			err = h.Write(runtime.Stdout, []byte(arg+"\n"))
		case "err":
			err = h.Write(runtime.Stderr, []byte(arg+"\n"))
		case "raw":
			s, _ := strconv.Unquote(`"` + arg + `"`)
			err = h.Write(runtime.Stdout, []byte(s))
		case "sleep":
			d, _ := time.ParseDuration(arg)
			select {
			case <-time.After(d):
			case <-ctx.Done():
				return runtime.Exit{Code: 1, Err: ctx.Err()}
			}
		case "hang":
			<-ctx.Done()
			return runtime.Exit{Code: 1, Err: ctx.Err()}
		case "flood":
			n, _ := strconv.Atoi(arg)
			chunk := []byte(strings.Repeat("x", 1024))
			for n > 0 && err == nil {
				c := chunk[:min(n, len(chunk))]
				err = h.Write(runtime.Stdout, c)
				n -= len(c)
			}
		case "value":
			value = json.RawMessage(arg)
		case "input":
			err = h.Write(runtime.Stdout, append(append([]byte{}, p.req.Input...), '\n'))
		case "env":
			err = h.Write(runtime.Stdout, []byte(p.req.Env[arg]+"\n"))
		case "entry":
			err = h.Write(runtime.Stdout, []byte(fmt.Sprintf("%s %q\n", p.req.Entry, p.req.Args)))
		case "call", "callwithin":
			cctx, cancel := ctx, context.CancelFunc(func() {})
			if cmd == "callwithin" {
				d, rest, _ := strings.Cut(arg, " ")
				dur, _ := time.ParseDuration(d)
				cctx, cancel = context.WithTimeout(ctx, dur)
				arg = rest
			}
			kind, rest, _ := strings.Cut(arg, " ")
			op, js, _ := strings.Cut(rest, " ")
			var args any
			json.Unmarshal([]byte(js), &args)
			p.calls++
			res, cerr := h.Call(cctx, &runtime.Call{Kind: runtime.CallKind(kind), Op: op, Args: args, Seq: p.calls})
			cancel()
			if cerr != nil {
				err = h.Write(runtime.Stdout, []byte("error: "+cerr.Error()+"\n"))
			} else {
				b, _ := json.Marshal(res)
				err = h.Write(runtime.Stdout, append(b, '\n'))
			}
		case "clock":
			err = h.Write(runtime.Stdout, []byte(strconv.FormatInt(h.Now().UnixNano(), 10)+"\n"))
		case "rand":
			b := make([]byte, 8)
			h.Random(b)
			err = h.Write(runtime.Stdout, []byte(fmt.Sprintf("%x\n", b)))
		case "exit":
			n, _ := strconv.Atoi(arg)
			return runtime.Exit{Code: n}
		}
		if err != nil {
			return runtime.Exit{Code: 1, Err: err}
		}
	}
	return runtime.Exit{Value: value}
}
