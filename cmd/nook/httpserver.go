package main

import (
	"fmt"
	"log/slog"
	"net/http"
	"time"
)

// serveTimeouts bound the connections of "nook serve", so that no client,
// slow or malicious, holds a connection and its goroutine forever.
type serveTimeouts struct {
	// Header is the time to read a request's headers.
	Header time.Duration
	// Body is the time to read a request's body once its headers are in,
	// for a body of up to BodyRate bytes; a larger one gets a second more
	// for each BodyRate bytes it declares (or MaxBody's worth, for a body
	// of unknown length). A client that dribbles its body is cut off
	// past it: the deadline does not grow with what has arrived. It does
	// not bound the response.
	Body     time.Duration
	BodyRate int64 // bytes per second
	// MaxBody is the largest request body (the limit MaxRequestBytes): a
	// larger one is refused with 413, or cut off where it passes the limit.
	MaxBody int64
	// Write is the time one write of a response may take. It is a
	// deadline per write, renewed before each one, not per response: an
	// MCP event stream or a long tool call stays open as long as the
	// client keeps reading, and a client that stops reading is cut off.
	Write time.Duration
	// Idle is how long a keep-alive connection waits for its next
	// request.
	Idle time.Duration
}

// defaultServeTimeouts are the timeouts of "nook serve". The largest body
// is a tool's largest input (2 MiB of a write's content, JSON-escaped)
// several times over.
var defaultServeTimeouts = serveTimeouts{
	Header:   10 * time.Second,
	Body:     10 * time.Second,
	BodyRate: 256 << 10,
	MaxBody:  16 << 20,
	Write:    60 * time.Second,
	Idle:     2 * time.Minute,
}

// newHTTPServer returns the HTTP server of "nook serve" for h.
func newHTTPServer(h http.Handler, t serveTimeouts, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           withDeadlines(h, t),
		ReadHeaderTimeout: t.Header,
		WriteTimeout:      t.Write,
		IdleTimeout:       t.Idle,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// withDeadlines gives a request's body its read deadline and size limit,
// and renews the write deadline before every write, so that the server's
// WriteTimeout bounds each write rather than the whole response.
//
// The body's deadline is set only on a request that has a body: net/http
// lifts the read deadline when the body has been read, as it starts
// watching the connection for the client going away, so the deadline
// bounds the request and not the response; a request without a body is
// watched from the start, and a deadline then would end its response (an
// event stream) instead.
func withDeadlines(h http.Handler, t serveTimeouts) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if r.ContentLength > t.MaxBody {
			http.Error(w, fmt.Sprintf("request body of %d bytes is over MaxRequestBytes (%d)", r.ContentLength, t.MaxBody),
				http.StatusRequestEntityTooLarge)
			return
		}
		if r.ContentLength != 0 && r.Body != http.NoBody {
			n := r.ContentLength
			if n < 0 {
				n = t.MaxBody
			}
			rc.SetReadDeadline(time.Now().Add(t.Body + time.Duration(n/t.BodyRate)*time.Second))
			r.Body = http.MaxBytesReader(w, r.Body, t.MaxBody)
		}
		h.ServeHTTP(&deadlineWriter{ResponseWriter: w, rc: rc, d: t.Write}, r)
		// What the server flushes after the handler gets a deadline too.
		rc.SetWriteDeadline(time.Now().Add(t.Write))
	})
}

// deadlineWriter renews the connection's write deadline before each write
// and flush.
type deadlineWriter struct {
	http.ResponseWriter
	rc *http.ResponseController
	d  time.Duration
}

func (w *deadlineWriter) renew() { w.rc.SetWriteDeadline(time.Now().Add(w.d)) }

func (w *deadlineWriter) WriteHeader(code int) {
	w.renew()
	w.ResponseWriter.WriteHeader(code)
}

func (w *deadlineWriter) Write(p []byte) (int, error) {
	w.renew()
	return w.ResponseWriter.Write(p)
}

// Flush makes the writer an http.Flusher, which event streams need.
func (w *deadlineWriter) Flush() {
	w.renew()
	w.rc.Flush()
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
