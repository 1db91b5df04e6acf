package console

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

type runRow struct {
	runtime.RunInfo
	Policy      runtime.Policy
	Duration    time.Duration
	Running     bool
	Interrupted bool
}

type runsPage struct {
	base
	Runs       []runRow
	Page       int
	Prev, Next int // -1: none
	Capped     bool
	// The filters: the selected status and backend ("" any), and the
	// choices.
	Status, Backend string
	Statuses        []runtime.Status
	Backends        []string
	// Disposed is the run a dispose button just deleted.
	Disposed string
}

// runStatuses are the statuses the runs list filters by.
var runStatuses = []runtime.Status{runtime.StatusRunning, runtime.StatusCompleted, runtime.StatusFailed,
	runtime.StatusCancelled, runtime.StatusTimedOut}

// PageURL is the address of page pg of the list with its filters.
func (p *runsPage) PageURL(pg int) string {
	q := url.Values{}
	if p.Status != "" {
		q.Set("status", p.Status)
	}
	if p.Backend != "" {
		q.Set("backend", p.Backend)
	}
	if pg > 0 {
		q.Set("page", strconv.Itoa(pg))
	}
	if len(q) == 0 {
		return p.Root + "/runs"
	}
	return p.Root + "/runs?" + q.Encode()
}

func (c *Console) runsPage(w http.ResponseWriter, r *http.Request, ss *session) {
	ctx := r.Context()
	q := r.URL.Query()
	pg, _ := strconv.Atoi(q.Get("page"))
	pg = max(pg, 0)
	p := &runsPage{base: c.with(ss, "runs", "Runs"), Page: pg, Prev: pg - 1, Next: -1, Statuses: runStatuses,
		Disposed: q.Get("disposed")}
	for _, b := range c.opts.Runtime.Backends() {
		p.Backends = append(p.Backends, b.ID)
	}
	if st := q.Get("status"); st != "" {
		if !slices.Contains(runStatuses, runtime.Status(st)) {
			c.fail(w, r, ss, http.StatusBadRequest, "There is no run status "+strconv.Quote(st)+".")
			return
		}
		p.Status = st
	}
	if b := q.Get("backend"); b != "" {
		if !slices.Contains(p.Backends, b) {
			c.fail(w, r, ss, http.StatusBadRequest, "There is no backend "+strconv.Quote(b)+".")
			return
		}
		p.Backend = b
	}
	start := pg * RunsPerPage
	if start >= MaxRunsListed {
		c.fail(w, r, ss, http.StatusBadRequest, "The runs list pages only through the newest "+strconv.Itoa(MaxRunsListed)+" runs (limit MaxRunsListed).")
		return
	}
	// One more than the page tells whether there is a next one.
	limit := min(RunsPerPage+1, MaxRunsListed-start)
	runs, err := c.opts.Runtime.ListRuns(ctx, runtime.ListRunsOptions{Status: runtime.Status(p.Status), Backend: p.Backend,
		Offset: start, Limit: limit})
	if err != nil {
		c.fail(w, r, ss, http.StatusInternalServerError, "Listing the runs failed: "+err.Error())
		return
	}
	if len(runs) > RunsPerPage {
		p.Next = pg + 1
		runs = runs[:RunsPerPage]
	} else if start+len(runs) == MaxRunsListed {
		p.Capped = true
	}
	var gone map[string]bool
	now := c.opts.Now()
	for _, info := range runs {
		row := runRow{RunInfo: info, Policy: info.Policy, Running: info.Finished.IsZero()}
		if row.Running {
			if gone == nil {
				// Only a page with running runs asks which are orphans.
				gone = map[string]bool{}
				if ids, err := c.opts.Runtime.Interrupted(ctx); err == nil {
					for _, id := range ids {
						gone[id] = true
					}
				}
			}
			row.Interrupted = gone[info.ID]
		}
		end := info.Finished
		if end.IsZero() {
			end = now
		}
		row.Duration = max(0, end.Sub(info.Created))
		p.Runs = append(p.Runs, row)
	}
	c.render(w, r, http.StatusOK, "runs", p)
}

// segment is a stretch of one stream's output.
type segment struct {
	Stream string // "stdout" or "stderr"
	Text   string
}

type journalRow struct {
	runtime.JournalCall
	CallID      string
	ArgsText    string
	ResultText  string
	ErrorText   string
	Interrupted bool // the call waited for an answer (ws: modules)
}

type runPage struct {
	base
	ID, Backend string
	Policy      runtime.Policy
	Info        *runtime.RunInfo // nil when the run's record could not be read
	Running     bool
	Output      []segment
	OutputNote  string
	Cursor      int64 // the last event shown; live output starts after it
	Result      *runtime.Result
	Value       string
	Changes     *runtime.Changes
	Journal     []journalRow
	JournalNote string
	Waiting     []pendingRow
	// Message reports what a button did; Error marks it a failure.
	Message string
	Error   bool
}

// runNotices are the messages a redirect after a button names (?done=).
var runNotices = map[string]string{
	"kill": "Kill requested: the run ends as cancelled (exit code 130).",
}

func (c *Console) runPage(w http.ResponseWriter, r *http.Request, ss *session) {
	q := r.URL.Query()
	c.showRun(w, r, ss, q.Get("id"), http.StatusOK, runNotices[q.Get("done")], false)
}

// runAction is what the run page's buttons post: kill a running run,
// verify a finished replay-policy run against its journal, or dispose of
// a finished run.
func (c *Console) runAction(w http.ResponseWriter, r *http.Request, ss *session) {
	ctx := r.Context()
	id, action := r.PostFormValue("id"), r.PostFormValue("action")
	rt := c.opts.Runtime
	var err error
	switch action {
	case "kill":
		if err = rt.KillExec(ctx, id); err == nil {
			c.redirect(w, r, "/run?"+url.Values{"id": {id}, "done": {"kill"}}.Encode())
			return
		}
	case "dispose":
		if err = rt.DisposeExec(ctx, id); err == nil {
			c.redirect(w, r, "/runs?"+url.Values{"disposed": {id}}.Encode())
			return
		}
	case "verify":
		err = rt.Verify(ctx, id)
		var div *runtime.DivergenceError
		switch {
		case err == nil:
			c.showRun(w, r, ss, id, http.StatusOK, "Verified: replayed against its journal, the run printed the same output and ended the same way.", false)
			return
		case errors.As(err, &div):
			c.showRun(w, r, ss, id, http.StatusOK, "The replay diverged from the run: "+err.Error(), true)
			return
		}
	default:
		c.fail(w, r, ss, http.StatusBadRequest, "Unknown action "+strconv.Quote(action)+": want kill, verify or dispose.")
		return
	}
	status := http.StatusInternalServerError
	switch {
	case errors.Is(err, vfs.ENOENT):
		c.fail(w, r, ss, http.StatusNotFound, "There is no run "+strconv.Quote(id)+": it may have been disposed of or pruned.")
		return
	case errors.Is(err, vfs.EBUSY), errors.Is(err, vfs.EINVAL):
		status = http.StatusConflict
	}
	c.showRun(w, r, ss, id, status, "The "+action+" failed: "+err.Error(), true)
}

// showRun renders run id's page with status and a message.
func (c *Console) showRun(w http.ResponseWriter, r *http.Request, ss *session, id string, status int, msg string, isErr bool) {
	ctx := r.Context()
	rt := c.opts.Runtime
	tail, err := rt.GetExec(ctx, id, runtime.GetOptions{Tail: true})
	if errors.Is(err, vfs.ENOENT) {
		c.fail(w, r, ss, http.StatusNotFound, "There is no run "+strconv.Quote(id)+": it may have been disposed of or pruned.")
		return
	}
	if err != nil {
		c.fail(w, r, ss, http.StatusInternalServerError, "Reading the run failed: "+err.Error())
		return
	}
	p := &runPage{base: c.with(ss, "runs", "Run "+id), ID: id, Backend: tail.Backend, Running: true, Message: msg, Error: isErr}
	if rec, err := rt.Record(ctx, id); err == nil {
		p.Policy = rec.Policy
	}
	if p.Policy == "" {
		p.Policy = runtime.PolicyFail
	}
	// The output so far: the stored events up to the newest, which Next
	// returns without waiting.
	last := tail.Cursor()
	h, err := rt.GetExec(ctx, id, runtime.GetOptions{})
	if err != nil {
		c.fail(w, r, ss, http.StatusInternalServerError, "Reading the run failed: "+err.Error())
		return
	}
	shown := 0
	for h.Cursor() < last {
		ev, err := h.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			c.fail(w, r, ss, http.StatusInternalServerError, "Reading the run's output failed: "+err.Error())
			return
		}
		switch ev.Kind {
		case runtime.EventStdout, runtime.EventStderr:
			if shown+len(ev.Data) > MaxPageOutput {
				p.OutputNote = "Output after the first " + humanBytes(MaxPageOutput) + " is not shown here (limit MaxPageOutput)."
				for h.Cursor() < last { // skip to the newest event: live output follows it
					if _, err := h.Next(ctx); err != nil {
						break
					}
				}
				continue
			}
			shown += len(ev.Data)
			s := ev.Kind.String()
			if n := len(p.Output); n > 0 && p.Output[n-1].Stream == s {
				p.Output[n-1].Text += string(ev.Data)
			} else {
				p.Output = append(p.Output, segment{s, string(ev.Data)})
			}
		case runtime.EventTruncated:
			var files []string
			for _, f := range ev.Paths {
				files = append(files, f)
			}
			p.OutputNote = "The stored output ends here; all of it is in " + strings.Join(files, " and ") + "."
		case runtime.EventExit:
			p.Running = false
		}
	}
	p.Cursor = h.Cursor()
	if !p.Running {
		res, err := h.Result(ctx)
		if err != nil {
			c.fail(w, r, ss, http.StatusInternalServerError, "Reading the run's result failed: "+err.Error())
			return
		}
		p.Result, p.Value, p.Changes = res, pretty(res.Value), res.Changes
	} else if ps, err := rt.Pending(ctx); err == nil {
		for _, pc := range ps {
			if pc.RunID == id {
				p.Waiting = append(p.Waiting, pendingRowOf(pc))
			}
		}
	}
	if p.Running {
		// Only the run's record has a running run's start; a finished
		// run's result has it.
		if info, err := rt.Info(ctx, id); err == nil {
			p.Info = &info
		}
	} else {
		p.Info = &runtime.RunInfo{ID: id, Created: p.Result.Created, Finished: p.Result.Finished}
	}
	calls, err := rt.Journal(ctx, id)
	if err == nil {
		if len(calls) > MaxJournalCalls {
			p.JournalNote = "Only the first " + strconv.Itoa(MaxJournalCalls) + " of " + strconv.Itoa(len(calls)) + " calls are listed (limit MaxJournalCalls)."
			calls = calls[:MaxJournalCalls]
		}
		for _, jc := range calls {
			row := journalRow{JournalCall: jc, CallID: runtime.CallID(id, jc.Seq), ArgsText: pretty(jc.Args), ResultText: pretty(jc.Result)}
			if jc.Error != nil {
				row.ErrorText = jc.Error.Code + ": " + jc.Error.Message
			}
			p.Journal = append(p.Journal, row)
		}
	}
	p.Title = "Run " + id
	c.render(w, r, status, "run", p)
}

// sseKeepalive is how often an idle event stream sends a comment, so that
// proxies and the browser keep it open.
const sseKeepalive = 15 * time.Second

// runEvents streams a run's events after a cursor (the Last-Event-ID
// header of a reconnecting EventSource, else ?after=) as server-sent
// events: "output" events with {"stream","text"} data, then one "exit"
// event with {"status","exitCode"}, each with its sequence number as id.
func (c *Console) runEvents(w http.ResponseWriter, r *http.Request, ss *session) {
	id := r.URL.Query().Get("id")
	after, _ := strconv.ParseInt(r.URL.Query().Get("after"), 10, 64)
	if v := r.Header.Get("Last-Event-ID"); v != "" {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			after = n
		}
	}
	h, err := c.opts.Runtime.GetExec(r.Context(), id, runtime.GetOptions{After: max(after, 0)})
	if err != nil {
		code := http.StatusInternalServerError
		if errors.Is(err, vfs.ENOENT) {
			code = http.StatusNotFound
		}
		http.Error(w, err.Error(), code)
		return
	}
	rc := startEvents(w)
	events := make(chan runtime.Event)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		for {
			ev, err := h.Next(ctx)
			if err != nil {
				errc <- err
				return
			}
			select {
			case events <- ev:
			case <-ctx.Done():
				errc <- ctx.Err()
				return
			}
		}
	}()
	tick := time.NewTicker(sseKeepalive)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			if _, err := io.WriteString(w, ": keepalive\n\n"); err != nil {
				return
			}
			rc.Flush()
		case err := <-errc:
			if err != io.EOF && ctx.Err() == nil {
				writeEvent(w, 0, "error", map[string]string{"message": err.Error()})
				rc.Flush()
			}
			return
		case ev := <-events:
			switch ev.Kind {
			case runtime.EventStdout, runtime.EventStderr:
				writeEvent(w, ev.Seq, "output", map[string]string{"stream": ev.Kind.String(), "text": string(ev.Data)})
			case runtime.EventTruncated:
				writeEvent(w, ev.Seq, "output", map[string]string{"stream": "note", "text": "\n[the stored output ends here]\n"})
			case runtime.EventExit:
				writeEvent(w, ev.Seq, "exit", map[string]any{"status": ev.Status, "exitCode": ev.ExitCode})
			}
			if err := rc.Flush(); err != nil {
				return
			}
		}
	}
}
