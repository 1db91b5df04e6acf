package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"
)

// progress draws a one-line progress bar on standard error while a transfer
// runs. It is disabled (every method a no-op) unless standard error is a
// terminal and the output is not --json. It is an io.Writer that counts the
// bytes written to it.
type progress struct {
	w                  io.Writer
	verb               string
	totalFiles, totalB int64 // 0: unknown
	files, bytes       int64
	last               time.Time
	drawn              bool
}

func newProgress(a *app, verb string, totalFiles, totalBytes int64) *progress {
	if a.json || !isTerminal(a.stderr) {
		return nil
	}
	return &progress{w: a.stderr, verb: verb, totalFiles: totalFiles, totalB: totalBytes}
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func (p *progress) Write(b []byte) (int, error) {
	if p != nil {
		p.bytes += int64(len(b))
		p.draw(false)
	}
	return len(b), nil
}

// set replaces the totals so far.
func (p *progress) set(files, bytes int64) {
	if p != nil {
		p.files, p.bytes = files, bytes
		p.draw(false)
	}
}

func (p *progress) file() {
	if p != nil {
		p.files++
		p.draw(false)
	}
}

func (p *progress) draw(force bool) {
	now := time.Now()
	if !force && now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last = now
	line := fmt.Sprintf("%s %d files, %.1f MB", p.verb, p.files, float64(p.bytes)/1e6)
	if p.totalB > 0 || p.totalFiles > 0 {
		frac := 0.0
		if p.totalB > 0 {
			frac = float64(p.bytes) / float64(p.totalB)
		} else {
			frac = float64(p.files) / float64(p.totalFiles)
		}
		frac = min(max(frac, 0), 1)
		const width = 30
		n := int(frac * width)
		line = fmt.Sprintf("%s [%s%s] %3.0f%% %d/%d files, %.1f/%.1f MB", p.verb,
			strings.Repeat("=", n), strings.Repeat(" ", width-n), frac*100,
			p.files, p.totalFiles, float64(p.bytes)/1e6, float64(p.totalB)/1e6)
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s", line)
	p.drawn = true
}

// done erases the progress line.
func (p *progress) done() {
	if p != nil && p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
