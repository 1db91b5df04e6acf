package scenario

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"text/tabwriter"
	"unicode/utf8"
)

// Test runs the scenarios of files matching patterns as subtests of t, one
// per scenario and one per case: what go test users call from a test
// (opts.Short defaults to testing.Short()).
//
//	func TestAgentRuns(t *testing.T) {
//		scenario.Test(t, scenario.Options{Interrupt: true}, "testdata/*.txtar")
//	}
func Test(t *testing.T, opts Options, patterns ...string) {
	t.Helper()
	scs, err := Load(patterns...)
	if err != nil {
		t.Fatal(err)
	}
	if !opts.Short {
		opts.Short = testing.Short()
	}
	if opts.Dir == "" {
		opts.Dir = t.TempDir()
	}
	for _, sc := range scs {
		t.Run(sc.Name, func(t *testing.T) {
			rep, err := Run(t.Context(), sc, opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range rep.Cases {
				t.Run(c.Name, func(t *testing.T) {
					for _, p := range c.Problems {
						t.Error(p)
					}
				})
			}
		})
	}
}

// Update rewrites sc's expectations from the uninterrupted run of rep:
// its status, exit code, value and output, and every file under
// /workspace the run created or changed. Placeholders in expectations the
// run still matches are kept.
func Update(sc *Scenario, rep *Report) {
	res := rep.Result
	if res == nil {
		return
	}
	o := &outcome{res: res, files: rep.Files}
	keep := sc.check(o, false)
	if len(keep) == 0 {
		return
	}
	sc.Config.Want = Want{}
	if res.Status != "completed" {
		sc.Config.Want.Status = string(res.Status)
	}
	if _, def := sc.wantStatus(); res.ExitCode != def {
		code := res.ExitCode
		sc.Config.Want.ExitCode = &code
	}
	sc.WantStdout, sc.WantStderr = string(res.Stdout), string(res.Stderr)
	sc.WantValue = nil
	if len(res.Value) > 0 && string(res.Value) != "null" {
		v := canonicalValue(res.Value)
		sc.WantValue = &v
	}
	sc.WantFiles = map[string]string{}
	for p, data := range rep.Files {
		if old, ok := sc.Files[p]; ok && old == data {
			continue
		}
		// Text files only, and not git's own: a scenario is text, and a
		// repository's objects are checked through git's output.
		if strings.HasPrefix(p, ".git/") || strings.Contains(p, "/.git/") || !utf8.ValidString(data) || strings.ContainsRune(data, 0) {
			continue
		}
		sc.WantFiles[p] = data
	}
}

// WriteTable writes one line per scenario (and one per failed case) as a
// table a person reads.
func WriteTable(w io.Writer, reps []*Report) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SCENARIO\tCALLS\tCASES\tRESULT")
	pass, fail := 0, 0
	for _, r := range reps {
		failed := 0
		for _, c := range r.Cases {
			if !c.Passed() {
				failed++
			}
		}
		verdict := "pass"
		if failed > 0 {
			verdict = fmt.Sprintf("FAIL (%d of %d cases)", failed, len(r.Cases))
			fail++
		} else {
			pass++
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\n", r.Scenario, r.Calls, len(r.Cases), verdict)
	}
	tw.Flush()
	for _, r := range reps {
		for _, c := range r.Cases {
			if c.Passed() {
				continue
			}
			fmt.Fprintf(w, "\n--- %s / %s\n", r.Scenario, c.Name)
			for _, p := range c.Problems {
				fmt.Fprintf(w, "    %s\n", strings.ReplaceAll(p, "\n", "\n    "))
			}
		}
	}
	fmt.Fprintf(w, "\n%d passed, %d failed\n", pass, fail)
}

// reportJSON is a report in --json output.
type reportJSON struct {
	Scenario string     `json:"scenario"`
	Calls    int64      `json:"calls"`
	Passed   bool       `json:"passed"`
	Cases    []caseJSON `json:"cases"`
}

type caseJSON struct {
	Name       string   `json:"name"`
	Policy     string   `json:"policy"`
	After      int64    `json:"after"`
	Passed     bool     `json:"passed"`
	Problems   []string `json:"problems,omitempty"`
	DurationMs int64    `json:"durationMs"`
}

// WriteJSON writes the reports as one JSON document.
func WriteJSON(w io.Writer, reps []*Report) error {
	out := make([]reportJSON, 0, len(reps))
	for _, r := range reps {
		rj := reportJSON{Scenario: r.Scenario, Calls: r.Calls, Passed: r.Passed(), Cases: []caseJSON{}}
		for _, c := range r.Cases {
			rj.Cases = append(rj.Cases, caseJSON{Name: c.Name, Policy: string(c.Policy), After: c.After, Passed: c.Passed(),
				Problems: c.Problems, DurationMs: c.Duration.Milliseconds()})
		}
		out = append(out, rj)
	}
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(map[string]any{"scenarios": out})
}

// JUnit XML, as CI systems read it: a testsuite per scenario, a testcase
// per case.
type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes the reports as JUnit XML.
func WriteJUnit(w io.Writer, reps []*Report) error {
	var doc junitSuites
	for _, r := range reps {
		s := junitSuite{Name: r.Scenario, Tests: len(r.Cases)}
		var total float64
		for _, c := range r.Cases {
			sec := c.Duration.Seconds()
			total += sec
			jc := junitCase{Name: c.Name, Classname: "scenario." + r.Scenario, Time: fmt.Sprintf("%.3f", sec)}
			if !c.Passed() {
				s.Failures++
				jc.Failure = &junitFailure{Message: firstLine(c.Problems[0]), Text: strings.Join(c.Problems, "\n")}
			}
			s.Cases = append(s.Cases, jc)
		}
		s.Time = fmt.Sprintf("%.3f", total)
		doc.Suites = append(doc.Suites, s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	e := xml.NewEncoder(w)
	e.Indent("", "  ")
	if err := e.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// RunAll runs every scenario in turn, stopping only when ctx ends.
func RunAll(ctx context.Context, scs []*Scenario, opts Options) ([]*Report, error) {
	var reps []*Report
	for _, sc := range scs {
		rep, err := Run(ctx, sc, opts)
		if err != nil {
			if ctx.Err() != nil {
				return reps, ctx.Err()
			}
			rep = &Report{Scenario: sc.Name, Cases: []*Case{{Name: "uninterrupted", After: -1, Problems: []string{err.Error()}}}}
		}
		reps = append(reps, rep)
	}
	return reps, nil
}

// WriteFile writes sc back to its Path.
func WriteFile(sc *Scenario) error {
	return os.WriteFile(sc.Path, Format(sc), 0o644)
}
