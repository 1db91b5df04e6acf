package scenario

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/nookdev/nook/tools"
)

func sleepCtx(ctx context.Context, ms int) error {
	t := time.NewTimer(time.Duration(ms) * time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// parseTxtar splits a txtar archive into its comment and its files.
func parseTxtar(data string) (comment string, files map[string]string, order []string) {
	files = map[string]string{}
	name := ""
	var cur strings.Builder
	flush := func() {
		if name == "" {
			comment = cur.String()
		} else {
			files[name] = cur.String()
			order = append(order, name)
		}
		cur.Reset()
	}
	for _, line := range strings.SplitAfter(data, "\n") {
		t := strings.TrimRight(line, "\n")
		if strings.HasPrefix(t, "-- ") && strings.HasSuffix(t, " --") && len(t) > 6 {
			flush()
			name = strings.TrimSpace(t[3 : len(t)-3])
			continue
		}
		cur.WriteString(line)
	}
	flush()
	return comment, files, order
}

// Expected text may hold placeholders: <*> matches any value, <$name>
// matches any value and binds it to name, and every other use of name (in
// the output or in the result) must match the same text. A line
// "<<for i=A..B>>TEXT" of an expected output stands for the lines TEXT with
// {i} replaced by A, A+1, ..., B.
var (
	placeholder = regexp.MustCompile(`<\*>|<\$[A-Za-z0-9_]+>`)
	forLine     = regexp.MustCompile(`^<<for i=(\d+)\.\.(\d+)>>(.*)$`)
)

// expandFor expands the <<for>> lines of an expected output.
func expandFor(want string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(want, "\n") {
		m := forLine.FindStringSubmatch(strings.TrimSuffix(line, "\n"))
		if m == nil {
			b.WriteString(line)
			continue
		}
		from, _ := strconv.Atoi(m[1])
		to, _ := strconv.Atoi(m[2])
		for i := from; i <= to; i++ {
			b.WriteString(strings.ReplaceAll(m[3], "{i}", strconv.Itoa(i)) + "\n")
		}
	}
	return b.String()
}

// matcher matches texts against expectations, keeping the bindings of
// <$name> placeholders across them.
type matcher struct{ bound map[string]string }

func newMatcher() *matcher { return &matcher{bound: map[string]string{}} }

// match matches got against want; in JSON mode a placeholder is a JSON
// string in want and matches any JSON scalar in got (bound to the
// string's contents, or the number's text).
func (m *matcher) match(want, got string, jsonMode bool) error {
	var re strings.Builder
	re.WriteString(`^`)
	var names []string
	last := 0
	value := `(\S+?)`
	if jsonMode {
		value = `("(?:[^"\\]|\\.)*"|[^,\]\}"]+)`
	}
	locs := placeholder.FindAllStringIndex(want, -1)
	for _, l := range locs {
		start, end := l[0], l[1]
		if jsonMode {
			// The placeholder is a whole JSON string.
			if start == 0 || want[start-1] != '"' || end >= len(want) || want[end] != '"' {
				continue
			}
			start, end = start-1, end+1
		}
		re.WriteString(regexp.QuoteMeta(want[last:start]))
		re.WriteString(value)
		names = append(names, strings.Trim(want[l[0]:l[1]], "<>"))
		last = end
	}
	re.WriteString(regexp.QuoteMeta(want[last:]))
	re.WriteString(`$`)
	rx, err := regexp.Compile(re.String())
	if err != nil {
		return fmt.Errorf("bad expectation: %v", err)
	}
	sub := rx.FindStringSubmatch(got)
	if sub == nil {
		return &mismatch{want: want, got: got, jsonMode: jsonMode}
	}
	for i, name := range names {
		v := sub[i+1]
		if jsonMode && strings.HasPrefix(v, `"`) {
			var s string
			if json.Unmarshal([]byte(v), &s) == nil {
				v = s
			}
		}
		if name == "*" {
			continue
		}
		name = strings.TrimPrefix(name, "$")
		if old, ok := m.bound[name]; ok && old != v {
			return fmt.Errorf("%s is %q here and %q elsewhere\ngot:\n%s", name, v, old, got)
		}
		m.bound[name] = v
	}
	return nil
}

// matchText matches an output or a file: a text without a final newline
// also matches its expectation less one (a txtar file always ends with
// one, so a scenario cannot say that a text has none).
func (m *matcher) matchText(want, got string) error {
	err := m.match(want, got, false)
	if err != nil && !strings.HasSuffix(got, "\n") && strings.HasSuffix(want, "\n") {
		if m.match(strings.TrimSuffix(want, "\n"), got, false) == nil {
			return nil
		}
	}
	return err
}

// mismatch is an expectation that the text did not meet.
type mismatch struct {
	want, got string
	jsonMode  bool
}

func (e *mismatch) Error() string { return fmt.Sprintf("got:\n%s\nwant:\n%s", e.got, e.want) }

// diff renders the mismatch as a unified diff from the expectation
// (labelled want) to the text (labelled got). A line of the expectation
// whose placeholders match the line of the text at the same place is
// shown as that line, so the diff shows only what did not match.
func (e *mismatch) diff(want, got string) string {
	w := strings.SplitAfter(e.want, "\n")
	g := strings.SplitAfter(e.got, "\n")
	for i, line := range w {
		if i < len(g) && placeholder.MatchString(line) && newMatcher().match(line, g[i], e.jsonMode) == nil {
			w[i] = g[i]
		}
	}
	return tools.UnifiedDiff(want, got, []byte(strings.Join(w, "")), []byte(e.got), 3)
}

// describe words err of matching the text named what (stdout, files/a.txt)
// against the expectation: a mismatch as a unified diff of want/what →
// got/what, anything else as it is.
func describe(what string, err error) string {
	var m *mismatch
	if errors.As(err, &m) {
		return fmt.Sprintf("%s does not match want/%s:\n%s", what, what, strings.TrimSuffix(m.diff("want/"+what, "got/"+what), "\n"))
	}
	return what + ": " + err.Error()
}

// canonicalJSON re-encodes a JSON text with sorted keys, numbers as
// written and no HTML escaping.
func canonicalJSON(b []byte) (string, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return "", err
	}
	var out bytes.Buffer
	e := json.NewEncoder(&out)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(out.String(), "\n"), nil
}
