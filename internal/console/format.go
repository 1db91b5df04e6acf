package console

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"strconv"
	"strings"
	"time"
)

var funcs = template.FuncMap{
	"ago":      ago,
	"duration": durationString,
	"when":     func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") },
	"bytes":    humanBytes,
	"addBytes": func(a, b int64) int64 { return a + b },
	"since":    func(a, b time.Time) time.Duration { return max(0, b.Sub(a)) },
	"percent":  percent,
}

// percent is n as a share of limit, for a usage table ("" without a limit).
func percent(n, limit int64) string {
	if limit <= 0 {
		return ""
	}
	return strconv.FormatFloat(100*float64(n)/float64(limit), 'f', 1, 64) + "%"
}

// pretty indents a JSON value for people, cut to MaxValueBytes.
func pretty(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var buf bytes.Buffer
	if json.Indent(&buf, raw, "", "  ") != nil {
		buf.Reset()
		buf.Write(raw)
	}
	return clip(unescapeHTML(buf.String()), MaxValueBytes)
}

// unescapeHTML turns the \u003c, \u003e and \u0026 escapes Go's JSON
// encoder writes for <, > and & back into the characters, for people to
// read: the page escapes them for HTML. An escaped backslash before
// "u003c" stays as it is.
func unescapeHTML(s string) string {
	if !strings.Contains(s, `\u00`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		if s[i+1] == 'u' && i+6 <= len(s) {
			switch s[i+2 : i+6] {
			case "003c", "003C":
				b.WriteByte('<')
				i += 5
				continue
			case "003e", "003E":
				b.WriteByte('>')
				i += 5
				continue
			case "0026":
				b.WriteByte('&')
				i += 5
				continue
			}
		}
		b.WriteString(s[i : i+2]) // any other escape, kept whole
		i++
	}
	return b.String()
}

// clip cuts s to n bytes, with a note saying how much was cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return fmt.Sprintf("%s\n… (%d more bytes not shown: limit MaxValueBytes)", s[:n], len(s)-n)
}

// ago renders how long ago t was: "12s ago", "3m ago", "2h ago", "4d ago".
func ago(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	d := time.Since(t)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds ago", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	}
	return fmt.Sprintf("%dd ago", int(d.Hours()/24))
}

// durationString renders d for people: "12ms", "3.4s", "2m5s".
func durationString(d time.Duration) string {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

// humanBytes renders n bytes: "512 B", "3.0 KiB", "1.2 MiB".
func humanBytes(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
}
