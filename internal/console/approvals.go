package console

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

type pendingRow struct {
	runtime.PendingCall
	PayloadText string
}

func pendingRowOf(p runtime.PendingCall) pendingRow {
	return pendingRow{PendingCall: p, PayloadText: pretty(p.Payload)}
}

// Answer is the audit record of one answer given in the console, kept as a
// JSON file in Options.AuditDir.
type Answer struct {
	RunID  string          `json:"runId"`
	CallID string          `json:"callId"`
	Action string          `json:"action"` // approve, deny or answer
	Answer json.RawMessage `json:"answer"`
	By     string          `json:"by"`   // the name given at login
	From   string          `json:"from"` // the client's address
	At     time.Time       `json:"at"`
}

type answerRow struct {
	Answer
	AnswerText string
}

type approvalsPage struct {
	base
	Pending []pendingRow
	Note    string
	Message string // the outcome of the last answer, or why it was refused
	Error   bool
	Answers []answerRow
	// Form holds what was typed into a refused answer, by call id.
	FormCall, FormAnswer string
}

func (c *Console) approvalsPage(w http.ResponseWriter, r *http.Request, ss *session) {
	q := r.URL.Query()
	c.showApprovals(w, r, ss, http.StatusOK, q.Get("done"), false, "", "")
}

func (c *Console) showApprovals(w http.ResponseWriter, r *http.Request, ss *session, status int, msg string, isErr bool, formCall, formAnswer string) {
	ctx := r.Context()
	ps, err := c.opts.Runtime.Pending(ctx)
	if err != nil {
		c.fail(w, r, ss, http.StatusInternalServerError, "Listing the waiting calls failed: "+err.Error())
		return
	}
	p := &approvalsPage{base: c.with(ss, "approvals", "Approvals"), Message: msg, Error: isErr,
		FormCall: formCall, FormAnswer: formAnswer}
	if len(ps) > MaxInbox {
		p.Note = fmt.Sprintf("Only the oldest %d of %d waiting calls are shown (limit MaxInbox).", MaxInbox, len(ps))
		ps = ps[:MaxInbox]
	}
	for _, pc := range ps {
		p.Pending = append(p.Pending, pendingRowOf(pc))
	}
	p.Answers = c.recentAnswers(ctx)
	c.render(w, r, status, "approvals", p)
}

// recentAnswers reads the newest audit records.
func (c *Console) recentAnswers(ctx context.Context) []answerRow {
	l, err := c.opts.FS.ReadDir(ctx, c.opts.AuditDir, vfs.Page{Limit: MaxAnswersShown})
	if err != nil {
		return nil
	}
	var out []answerRow
	for _, e := range l.Entries {
		data, err := c.opts.FS.ReadRange(ctx, e.Path, 0, MaxAnswerBytes+4096)
		if err != nil {
			continue
		}
		var a Answer
		if json.Unmarshal(data, &a) == nil {
			out = append(out, answerRow{a, pretty(a.Answer)})
		}
	}
	return out
}

// answer answers a waiting call: action approve ({"approved":true}), deny
// ({"approved":false,"reason":...}) or answer (the JSON typed in). The
// answer is recorded in the audit directory first, then given; the run
// resumes in this process.
func (c *Console) answer(w http.ResponseWriter, r *http.Request, ss *session) {
	run, call, action := r.PostFormValue("run"), r.PostFormValue("call"), r.PostFormValue("action")
	reason := strings.TrimSpace(r.PostFormValue("reason"))
	typed := r.PostFormValue("answer")
	var ans json.RawMessage
	switch action {
	case "approve":
		ans = json.RawMessage(`{"approved":true}`)
	case "deny":
		ans = marshal(map[string]any{"approved": false, "reason": reason}, "")
	case "answer":
		if len(typed) > MaxAnswerBytes {
			c.showApprovals(w, r, ss, http.StatusBadRequest,
				fmt.Sprintf("The answer is %d bytes; at most %d are taken (limit MaxAnswerBytes).", len(typed), MaxAnswerBytes), true, call, "")
			return
		}
		dec := json.NewDecoder(strings.NewReader(typed))
		var v any
		if err := dec.Decode(&v); err != nil {
			c.showApprovals(w, r, ss, http.StatusBadRequest, "The answer is not valid JSON: "+err.Error(), true, call, typed)
			return
		}
		if _, err := dec.Token(); err != io.EOF {
			c.showApprovals(w, r, ss, http.StatusBadRequest, "The answer is not valid JSON: more follows the first value.", true, call, typed)
			return
		}
		var buf bytes.Buffer
		json.Compact(&buf, []byte(typed)) // valid: it decoded
		ans = buf.Bytes()
	default:
		c.showApprovals(w, r, ss, http.StatusBadRequest, "Unknown action "+strconv.Quote(action)+": want approve, deny or answer.", true, "", "")
		return
	}
	now := c.opts.Now()
	rec := Answer{RunID: run, CallID: call, Action: action, Answer: ans, By: ss.name, From: r.RemoteAddr, At: now.UTC()}
	data := marshal(rec, "  ")
	// Newest first in byte order of names; the hash of the call id keeps
	// names unique and free of what a run id may hold.
	sum := sha256.Sum256([]byte(call))
	name := path.Join(c.opts.AuditDir, fmt.Sprintf("%019d-%s.json", math.MaxInt64-now.UnixNano(), hex.EncodeToString(sum[:8])))
	ctx := r.Context()
	if err := c.opts.FS.WriteFile(ctx, name, data, &vfs.WriteOptions{MkdirAll: true, Exclusive: true}); err != nil {
		c.showApprovals(w, r, ss, http.StatusInternalServerError, "Recording the answer failed, so it was not given: "+err.Error(), true, call, typed)
		return
	}
	// The run resumes here, and runs on after this request: its context
	// must not end with the request's.
	err := c.opts.Runtime.Respond(context.WithoutCancel(ctx), run, call, ans)
	if errors.Is(err, runtime.ENOTWAITING) || errors.Is(err, vfs.EINVAL) {
		c.opts.FS.Remove(ctx, name, nil)
		c.showApprovals(w, r, ss, http.StatusConflict, err.Error(), true, "", "")
		return
	}
	if err != nil {
		c.showApprovals(w, r, ss, http.StatusInternalServerError, "The answer was stored, but the run could not resume: "+err.Error(), true, "", "")
		return
	}
	c.redirect(w, r, "/approvals?done="+urlQuery(fmt.Sprintf("Answered %s (%s); run %s resumes.", call, action, run)))
}

// marshal encodes v as JSON without escaping <, > and & (the console's
// templates escape for HTML; the data stays as the person typed it).
func marshal(v any, indent string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	enc.Encode(v)
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// InboxPoll is how often an open inbox's event stream looks for calls
// that started or stopped waiting.
const InboxPoll = time.Second

// approvalEvents streams the set of waiting calls (their call ids, the
// oldest MaxInbox) as a server-sent "waits" event at once and then each
// time it changes, so an open inbox learns of new waits without a reload.
func (c *Console) approvalEvents(w http.ResponseWriter, r *http.Request, ss *session) {
	ctx := r.Context()
	rc := startEvents(w)
	poll := time.NewTicker(InboxPoll)
	defer poll.Stop()
	last, idle := "", time.Duration(0)
	for first := true; ; first = false {
		if !first {
			select {
			case <-ctx.Done():
				return
			case <-poll.C:
			}
		}
		ps, err := c.opts.Runtime.Pending(ctx)
		if err != nil {
			if ctx.Err() == nil {
				writeEvent(w, 0, "error", map[string]string{"message": err.Error()})
				rc.Flush()
			}
			return
		}
		calls := []string{}
		for _, pc := range ps[:min(len(ps), MaxInbox)] {
			calls = append(calls, pc.CallID)
		}
		key := strings.Join(calls, " ")
		idle += InboxPoll
		switch {
		case first || key != last:
			err = writeEvent(w, 0, "waits", map[string]any{"calls": calls, "total": len(ps)})
			last, idle = key, 0
		case idle >= sseKeepalive:
			_, err = io.WriteString(w, ": keepalive\n\n")
			idle = 0
		}
		if err != nil || rc.Flush() != nil {
			return
		}
	}
}
