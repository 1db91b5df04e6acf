package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// ExecOptions configure the exec tool.
type ExecOptions struct {
	// MaxOutputBytes is how much of each stream a result shows (default
	// 32 KiB): the first half and the last half of a longer stream, cut at
	// UTF-8 character boundaries (and at line ends when one is near), with
	// a marker between them naming the workspace file that holds it all.
	MaxOutputBytes int
	// ProgressInterval is the least time between two progress reports of
	// a run (default 100 ms); see WithProgress.
	ProgressInterval time.Duration
	// OutputDir is where the tool saves a stream that is longer than
	// MaxOutputBytes when the runtime has not already saved it (default:
	// the runtime's OutputDir, so that DisposeExec and retention delete
	// what the tool writes).
	OutputDir string
	// DefaultBackend is the backend used when a call names none (default:
	// the runtime's first backend). A shell makes a good default for
	// models; the description lists it first.
	DefaultBackend string
	// MaxModulesBytes bounds the part of the description that lists the
	// host modules code can import and their functions (default
	// DefaultExecMaxModulesBytes); longer lists are summarised.
	MaxModulesBytes int
}

// Defaults of ExecOptions.
const (
	DefaultExecMaxOutputBytes   = 32 << 10
	DefaultExecProgressInterval = 100 * time.Millisecond
)

// killWait bounds how long a cancelled call waits for its killed run to
// end, so that the run is over when Call returns.
const killWait = 5 * time.Second

func execTool(s *Set) *Tool {
	rt := s.opts.Runtime
	if rt == nil {
		return nil
	}
	infos := orderBackends(rt.Backends(), s.opts.Exec.DefaultBackend)
	if len(infos) == 0 {
		return nil
	}
	ids, _ := json.Marshal(backendIDs(infos))
	backendDesc, _ := json.Marshal("Backend id (default " + infos[0].ID + ")")
	return &Tool{
		Name:        "exec",
		Description: execDescription(infos) + execModules(rt, infos, s.opts.Exec.MaxModulesBytes),
		InputSchema: schema(fmt.Sprintf(`{"type":"object","properties":{
			"command":{"type":"string","description":"The source to run: a module for a callable backend, a script for a shell"},
			"backend":{"type":"string","enum":%s,"description":%s},
			"input":{"description":"Any JSON value, passed to the program of a callable backend"},
			"cwd":{"type":"string","description":"Working directory, relative to the backend's root"},
			"env":{"type":"object","additionalProperties":{"type":"string"},"description":"Environment variables of this run (nothing else is inherited)"},
			"timeoutMs":{"type":"integer","minimum":1,"description":"Time limit in milliseconds (the backend's default when left out; clamped to its maximum)"}},
			"required":["command"],"additionalProperties":false}`, ids, backendDesc)),
		OutputSchema: schema(`{"type":"object","properties":{
			"id":{"type":"string"},
			"backend":{"type":"string"},
			"status":{"type":"string","enum":["completed","failed","cancelled","timed_out"]},
			"exitCode":{"type":"integer"},
			"stdout":{"type":"string"},
			"stderr":{"type":"string"},
			"value":{},
			"stdoutPath":{"type":"string"},
			"stderrPath":{"type":"string"},
			"stdoutBytes":{"type":"integer"},
			"stderrBytes":{"type":"integer"},
			"durationMs":{"type":"integer"},
			"error":{"type":"string"},
			"changes":{"type":"object","description":"Files the run changed (backends that track them, e.g. the shell)","properties":{
				"created":{"type":"array","items":{"type":"string"}},
				"updated":{"type":"array","items":{"type":"string"}},
				"deleted":{"type":"array","items":{"type":"string"}},
				"dirsCreated":{"type":"array","items":{"type":"string"}},
				"dirsDeleted":{"type":"array","items":{"type":"string"}}}}},
			"required":["id","backend","status","exitCode","stdout","stderr","stdoutBytes","stderrBytes","durationMs"]}`),
		Annotations: Annotations{Destructive: true, OpenWorld: rt.Networked()},
		run:         s.exec,
	}
}

// orderBackends puts the default backend first.
func orderBackends(infos []runtime.BackendInfo, def string) []runtime.BackendInfo {
	for i, in := range infos {
		if in.ID == def && i > 0 {
			out := append([]runtime.BackendInfo{in}, infos[:i]...)
			return append(out, infos[i+1:]...)
		}
	}
	return infos
}

func backendIDs(infos []runtime.BackendInfo) []string {
	ids := make([]string, len(infos))
	for i, in := range infos {
		ids[i] = in.ID
	}
	return ids
}

// execDescription is the exec tool's description, generated from the
// backends.
func execDescription(infos []runtime.BackendInfo) string {
	var b strings.Builder
	b.WriteString("Run code in a sandbox over the workspace files and get its exit status and output. Backends:\n")
	callable := false
	roots := map[string]bool{}
	for _, in := range infos {
		tag := ""
		if in.Callable {
			tag, callable = " (callable)", true
		}
		fmt.Fprintf(&b, "- %q%s: %s\n", in.ID, tag, strings.TrimSpace(in.Description))
		roots[rootOf(in)] = true
	}
	fmt.Fprintf(&b, "Default backend: %q.\n", infos[0].ID)
	if len(roots) == 1 {
		fmt.Fprintf(&b, "Code sees the workspace files under %s; cwd is relative to it. ", rootOf(infos[0]))
	} else {
		b.WriteString("Code sees the workspace files under its backend's root (")
		for i, in := range infos {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%q: %s", in.ID, rootOf(in))
		}
		b.WriteString("); cwd is relative to it. ")
	}
	b.WriteString("Use exec to compute, to test code, or to change many files at once; use read, ls, find, grep, write and edit for plain file work.\n")
	if callable {
		b.WriteString("On a callable backend, command is a module: input is passed to its default export, and what that returns comes back as value.\n")
	}
	b.WriteString("Long output shows its head and tail; the whole output is saved to a workspace file, named in the result, that the read tool can open.")
	return b.String()
}

// maxChangesListed bounds the paths the text of a result lists per kind.
const maxChangesListed = 50

// writeChanges lists the files a run changed, when its backend reports
// them.
func writeChanges(b *strings.Builder, c *runtime.Changes) {
	if c == nil {
		return
	}
	for _, k := range []struct {
		name  string
		paths []string
	}{{"created", c.Created}, {"updated", c.Updated}, {"deleted", c.Deleted},
		{"dirs created", c.DirsCreated}, {"dirs deleted", c.DirsDeleted}} {
		if len(k.paths) == 0 {
			continue
		}
		shown := k.paths[:min(len(k.paths), maxChangesListed)]
		fmt.Fprintf(b, "%s: %s", k.name, strings.Join(shown, " "))
		if n := len(k.paths) - len(shown); n > 0 {
			fmt.Fprintf(b, " (and %d more)", n)
		}
		b.WriteByte('\n')
	}
}

func rootOf(in runtime.BackendInfo) string {
	if in.Root == "" {
		return "/workspace"
	}
	return in.Root
}

type execIn struct {
	Command   *string           `json:"command"`
	Backend   string            `json:"backend"`
	Input     json.RawMessage   `json:"input"`
	Cwd       string            `json:"cwd"`
	Env       map[string]string `json:"env"`
	TimeoutMs *int64            `json:"timeoutMs"`
}

type execOut struct {
	ID          string           `json:"id"`
	Backend     string           `json:"backend"`
	Status      runtime.Status   `json:"status"`
	ExitCode    int              `json:"exitCode"`
	Stdout      string           `json:"stdout"`
	Stderr      string           `json:"stderr"`
	Value       json.RawMessage  `json:"value,omitempty"`
	StdoutPath  string           `json:"stdoutPath,omitempty"`
	StderrPath  string           `json:"stderrPath,omitempty"`
	StdoutBytes int64            `json:"stdoutBytes"`
	StderrBytes int64            `json:"stderrBytes"`
	DurationMs  int64            `json:"durationMs"`
	Error       string           `json:"error,omitempty"`
	OutputError string           `json:"outputError,omitempty"`
	Changes     *runtime.Changes `json:"changes,omitempty"`
}

func (s *Set) exec(ctx context.Context, raw json.RawMessage) (*Result, error) {
	var in execIn
	if r := decode("exec", raw, &in); r != nil {
		return r, nil
	}
	if in.Command == nil {
		return Errorf("invalid arguments for exec: command is required (the source to run)"), nil
	}
	rt := s.opts.Runtime
	if in.Backend == "" {
		in.Backend = orderBackends(rt.Backends(), s.opts.Exec.DefaultBackend)[0].ID
	}
	if in.Backend == runtime.CallBackend {
		// The runtime's built-in backend is not one the tool offers.
		return Errorf("no backend with id %q; the backends are %s", in.Backend, strings.Join(backendIDs(rt.Backends()), ", ")), nil
	}
	o := runtime.ExecOptions{Backend: in.Backend, Cwd: in.Cwd, Env: in.Env}
	if len(in.Input) > 0 && string(in.Input) != "null" {
		o.Input = in.Input
	}
	if in.TimeoutMs != nil {
		if *in.TimeoutMs < 1 {
			return Errorf("timeoutMs must be at least 1, got %d", *in.TimeoutMs), nil
		}
		o.Timeout = time.Duration(min(*in.TimeoutMs, int64(time.Duration(1<<62)/time.Millisecond))) * time.Millisecond
	}
	h, err := rt.Exec(ctx, *in.Command, o)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return Errorf("%v", err), nil
	}
	if err := s.follow(ctx, h); err != nil {
		if ctx.Err() != nil {
			// The caller gave up: stop the run and let it finish as
			// cancelled before returning.
			kctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), killWait)
			defer cancel()
			if rt.KillExec(kctx, h.ID) == nil {
				h.Wait(kctx)
			}
			return nil, ctx.Err()
		}
		return nil, err
	}
	res, err := h.Result(ctx)
	if err != nil {
		return nil, err
	}
	return s.execResult(ctx, res), nil
}

// follow waits for the run to end, reporting progress when ctx asks for
// it.
func (s *Set) follow(ctx context.Context, h *runtime.Handle) error {
	report := progressFunc(ctx)
	if report == nil {
		return h.Wait(ctx)
	}
	now := time.Now()
	p := &execProgress{start: now, reported: now}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		p.loop(done, s.opts.Exec.ProgressInterval, report)
	}()
	defer func() {
		close(done)
		wg.Wait()
	}()
	for {
		ev, err := h.Next(ctx)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		p.add(ev)
	}
}

// execProgress is what a running call knows of its run's output.
type execProgress struct {
	start time.Time

	mu       sync.Mutex
	bytes    [3]int64 // by runtime.Stream
	last     string   // the last line printed so far
	changed  bool
	reported time.Time
}

func (p *execProgress) add(ev runtime.Event) {
	if ev.Kind != runtime.EventStdout && ev.Kind != runtime.EventStderr {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.bytes[ev.Kind] += int64(len(ev.Data))
	if line := lastLine(ev.Data); line != "" {
		p.last = line
	}
	p.changed = true
}

// heartbeat is how often a run that prints nothing is still reported.
const heartbeat = time.Second

// loop reports the progress every interval while it changes, and at
// least every heartbeat, until done is closed.
func (p *execProgress) loop(done <-chan struct{}, interval time.Duration, report func(Progress)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case now := <-t.C:
			p.mu.Lock()
			due := p.changed || now.Sub(p.reported) >= heartbeat
			msg := fmt.Sprintf("running: %s stdout, %s stderr", sizeText(p.bytes[runtime.Stdout]), sizeText(p.bytes[runtime.Stderr]))
			if p.last != "" {
				msg += ", last line: " + p.last
			}
			if due {
				p.changed, p.reported = false, now
			}
			p.mu.Unlock()
			if due {
				report(Progress{Message: msg, Current: now.Sub(p.start).Seconds()})
			}
		}
	}
}

// lastLine returns the last non-empty line of b, at most 120 bytes of it.
func lastLine(b []byte) string {
	b = bytes.TrimRight(b, "\r\n")
	if i := bytes.LastIndexAny(b, "\r\n"); i >= 0 {
		b = b[i+1:]
	}
	b = bytes.TrimSpace(b)
	if len(b) > 120 {
		b = b[:120]
		b = b[:completeRunes(b)]
		return strings.ToValidUTF8(string(b), "\uFFFD") + "…"
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// sizeText renders n as "512 B" or "3.0 KiB".
func sizeText(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// execResult shapes a finished run for the model.
func (s *Set) execResult(ctx context.Context, res *runtime.Result) *Result {
	out := execOut{ID: res.ID, Backend: res.Backend, Status: res.Status, ExitCode: res.ExitCode,
		Value: res.Value, StdoutBytes: res.StdoutBytes, StderrBytes: res.StderrBytes,
		DurationMs: max(0, res.Finished.Sub(res.Created).Milliseconds()), Error: res.Error, Changes: res.Changes,
		OutputError: res.OutputError}
	var b strings.Builder
	b.WriteString(statusLine(res.Status, res.ExitCode, out.DurationMs))
	b.WriteByte('\n')
	for _, st := range []runtime.Stream{runtime.Stdout, runtime.Stderr} {
		shown, path, omitted := s.excerpt(ctx, res, st)
		if st == runtime.Stdout {
			out.Stdout, out.StdoutPath = shown, path
		} else {
			out.Stderr, out.StderrPath = shown, path
		}
		if shown == "" && omitted == 0 {
			continue
		}
		fmt.Fprintf(&b, "--- %s ---\n%s", st, shown)
		if !strings.HasSuffix(shown, "\n") {
			b.WriteByte('\n')
		}
	}
	if len(res.Value) > 0 {
		fmt.Fprintf(&b, "value: %s\n", res.Value)
	}
	writeChanges(&b, res.Changes)
	// Why the run failed, unless its stderr already says it.
	errLine := res.Error != "" && !strings.Contains(out.Stderr, res.Error)
	if errLine {
		fmt.Fprintf(&b, "error: %s\n", res.Error)
	}
	if out.Stdout == "" && out.Stderr == "" && len(res.Value) == 0 && !errLine {
		b.WriteString("(no output)\n")
	}
	r := Text(strings.TrimSuffix(b.String(), "\n"), out)
	r.IsError = res.Status != runtime.StatusCompleted
	return r
}

// statusLine is the first line of a result, e.g. "exit 0 (completed) in
// 12 ms".
func statusLine(st runtime.Status, code int, ms int64) string {
	d := durationText(ms)
	switch st {
	case runtime.StatusTimedOut:
		return fmt.Sprintf("timed out after %s (exit %d)", d, code)
	case runtime.StatusCancelled:
		return fmt.Sprintf("cancelled after %s (exit %d)", d, code)
	}
	return fmt.Sprintf("exit %d (%s) in %s", code, st, d)
}

func durationText(ms int64) string {
	if ms < 10_000 {
		return fmt.Sprintf("%d ms", ms)
	}
	return fmt.Sprintf("%.1f s", float64(ms)/1000)
}

// excerpt returns what a result shows of one stream of a finished run: all
// of it when it fits MaxOutputBytes, else its head and tail around a marker
// naming the file that holds all of it. path is that file ("" when the
// stream is whole in the result); omitted counts the bytes left out.
func (s *Set) excerpt(ctx context.Context, res *runtime.Result, st runtime.Stream) (shown, path string, omitted int64) {
	data, path := res.Stdout, res.StdoutPath
	if st == runtime.Stderr {
		data, path = res.Stderr, res.StderrPath
	}
	maxShown := s.opts.Exec.MaxOutputBytes
	half := maxShown / 2
	if path != "" && strings.Contains(res.OutputError, path) {
		// The file holds only the beginning of the stream: show the
		// record's head and say so, never "full output".
		size := res.StdoutBytes
		if st == runtime.Stderr {
			size = res.StderrBytes
		}
		return cutMiddle(data[:min(len(data), half+utf8.UTFMax)], nil, size, half, path, res.OutputError)
	}
	if path != "" {
		// The runtime saved the whole stream: read its ends from the file.
		if head, tail, size, err := s.fileEnds(ctx, path, half); err == nil {
			if size <= int64(maxShown) {
				return string(head), path, 0
			}
			return cutMiddle(head, tail, size, half, path, "")
		}
		// The file is unreadable: show what the record holds.
	}
	if len(data) <= maxShown {
		return string(data), path, 0
	}
	note := ""
	if path == "" {
		path = fmt.Sprintf("%s/%s/%s", s.opts.Exec.OutputDir, res.ID, st)
		err := s.fs.WriteFile(ctx, path, data, &vfs.WriteOptions{MkdirAll: true})
		if err != nil {
			path, note = "", fmt.Sprintf("the full output could not be saved: %v", err)
		}
	}
	end := len(data) - half - utf8.UTFMax
	return cutMiddle(data[:min(len(data), half+utf8.UTFMax)], data[max(0, end):], int64(len(data)), half, path, note)
}

// fileEnds reads the first half+UTFMax and the last half+UTFMax bytes of a
// workspace file (all of it when it is at most 2*half bytes).
func (s *Set) fileEnds(ctx context.Context, path string, half int) (head, tail []byte, size int64, err error) {
	fi, err := s.fs.Stat(ctx, path)
	if err != nil {
		return nil, nil, 0, err
	}
	size = fi.Size()
	if size <= int64(2*half) {
		head, err = s.fs.ReadRange(ctx, path, 0, size)
		return head, nil, size, err
	}
	n := int64(half + utf8.UTFMax)
	if head, err = s.fs.ReadRange(ctx, path, 0, n); err != nil {
		return nil, nil, 0, err
	}
	tail, err = s.fs.ReadRange(ctx, path, size-n, n)
	return head, tail, size, err
}

// cutMiddle shows at most half bytes from head (the start of a stream of
// size bytes) and from tail (its end), with a marker between them. Cuts
// fall on UTF-8 character boundaries, and on a line end when one is within
// the last (first) quarter of the kept part.
func cutMiddle(head, tail []byte, size int64, half int, path, note string) (shown, outPath string, omitted int64) {
	h := min(half, len(head))
	for k := 0; k < utf8.UTFMax && h > 0 && h < len(head) && !utf8.RuneStart(head[h]); k++ {
		h--
	}
	if i := bytes.LastIndexByte(head[:h], '\n'); i >= 0 && h-(i+1) <= half/4 {
		h = i + 1
	}
	t := max(0, len(tail)-half)
	for k := 0; k < utf8.UTFMax && t < len(tail) && !utf8.RuneStart(tail[t]); k++ {
		t++
	}
	if j := bytes.IndexByte(tail[t:], '\n'); t > 0 && tail[t-1] != '\n' && j >= 0 && j+1 <= half/4 && t+j+1 < len(tail) {
		t += j + 1
	}
	head, tail = head[:h], tail[t:]
	omitted = size - int64(len(head)) - int64(len(tail))
	var b strings.Builder
	b.Write(head)
	if len(head) > 0 && head[len(head)-1] != '\n' {
		b.WriteByte('\n')
	}
	if note == "" {
		note = "full output: " + path
	}
	fmt.Fprintf(&b, "[... %d bytes omitted; %s ...]\n", omitted, note)
	b.Write(tail)
	return b.String(), path, omitted
}

// completeRunes returns the length of the longest prefix of b that does not
// end inside a UTF-8 character.
func completeRunes(b []byte) int {
	for k := 0; k < utf8.UTFMax && k < len(b); k++ {
		i := len(b) - 1 - k
		if utf8.RuneStart(b[i]) {
			if utf8.FullRune(b[i:]) {
				return len(b)
			}
			return i
		}
	}
	return len(b)
}
