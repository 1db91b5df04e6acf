package main

import (
	"log/slog"
	"net/http"
	"time"
)

// serveTimeouts bound the connections of "nook serve", so that no client,
// slow or malicious, holds a connection and its goroutine forever.
type serveTimeouts struct {
	// Header is the time to read a request's headers.
	Header time.Duration
	// Read is the time to read a whole request, headers and body: a
	// client that dribbles its body is cut off after it. It does not
	// bound the response.
	Read time.Duration
	// Write is the time one write of a response may take. It is a
	// deadline per write, renewed before each one, not per response: an
	// MCP event stream or a long tool call stays open as long as the
	// client keeps reading, and a client that stops reading is cut off.
	Write time.Duration
	// Idle is how long a keep-alive connection waits for its next
	// request.
	Idle time.Duration
}

// defaultServeTimeouts are the timeouts of "nook serve".
var defaultServeTimeouts = serveTimeouts{
	Header: 10 * time.Second,
	Read:   60 * time.Second,
	Write:  60 * time.Second,
	Idle:   2 * time.Minute,
}

// newHTTPServer returns the HTTP server of "nook serve" for h.
func newHTTPServer(h http.Handler, t serveTimeouts, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           withDeadlines(h, t),
		ReadHeaderTimeout: t.Header,
		ReadTimeout:       t.Read,
		WriteTimeout:      t.Write,
		IdleTimeout:       t.Idle,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// withDeadlines renews the write deadline before every write, so that the
// server's WriteTimeout bounds each write rather than the whole response.
// The read deadline needs nothing: net/http lifts it once the request body
// has been read, when it starts watching the connection for the client
// going away, so ReadTimeout bounds the request and not the response.
func withDeadlines(h http.Handler, t serveTimeouts) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
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
