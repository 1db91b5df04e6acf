package scenario

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/nookdev/nook/runtime"
)

// Version is the scenario format this package reads and writes.
const Version = 1

// Config is scenario.json.
type Config struct {
	// Version is the format version (1; 0 is taken as 1).
	Version int `json:"version,omitempty"`
	// Backend runs the program: "js" (default for main.js/main.ts),
	// "shell" (main.sh) or "wasm" (main.wasm.b64).
	Backend string `json:"backend,omitempty"`
	// WasmSHA256 is the hex SHA-256 of a WASI module's bytes.
	WasmSHA256 string `json:"wasmSha256,omitempty"`
	// Input, Env, Cwd (default /workspace) and Args are the run's.
	Input json.RawMessage   `json:"input,omitempty"`
	Env   map[string]string `json:"env,omitempty"`
	Cwd   string            `json:"cwd,omitempty"`
	Args  []string          `json:"args,omitempty"`
	Stdin string            `json:"stdin,omitempty"`
	// Seed is the run's random seed (hex, 32 bytes; default all zero)
	// and Clock the guest clock's start (RFC 3339; default 2025-01-01).
	Seed  string `json:"seed,omitempty"`
	Clock string `json:"clock,omitempty"`
	// ClockReads are the guest clock's readings, in nanoseconds after
	// Clock, in the order a recorded run made them (Export writes them):
	// the n-th read of the clock gets the n-th of them. Past the last (and
	// without any) the clock goes on a millisecond a read.
	ClockReads []int64 `json:"clockReads,omitempty"`
	// Timers are the timer firings a recorded run journaled (Export writes
	// them): a run of the scenario fires its timers in that order, each at
	// the recorded point among the completions of its host calls, without
	// waiting (runtime.ExecOptions.Timers), so a timer that raced a slow
	// call takes the recorded path when the fake answers at once.
	Timers []runtime.TimerFiring `json:"timers,omitempty"`
	// Modules are the host-module fakes: module ("ws:shop") → function →
	// fake.
	Modules map[string]map[string]Fake `json:"modules,omitempty"`
	// Fetch are the HTTP exchanges fetch and curl get, in order.
	Fetch []Exchange `json:"fetch,omitempty"`
	// Policies are the interrupt policies an interrupted run of the
	// scenario is resumed under (default replay, restart and fail): a run
	// that waits for an approval can run under replay only.
	Policies []runtime.Policy `json:"policies,omitempty"`
	// Restart "any" says the program is not idempotent: a restart, which
	// runs it again over the files its first attempt changed, may end
	// otherwise. By default a restart must give the same result.
	Restart string `json:"restart,omitempty"`
	// Want holds expectations that are not files: the status (default
	// completed) and exit code (default 0, or 1 when the status is
	// failed).
	Want Want `json:"want,omitzero"`
}

// Want is the end of a run a scenario expects.
type Want struct {
	Status   string `json:"status,omitempty"`
	ExitCode *int   `json:"exitCode,omitempty"`
}

// Fake is a host-module function's fake: canned results handed out in call
// order (the first whose Args equal the call's, or the next without Args),
// or an echo of the call's arguments; each answered after DelayMs.
type Fake struct {
	Results []Result `json:"results,omitempty"`
	Echo    bool     `json:"echo,omitempty"`
	DelayMs int      `json:"delayMs,omitempty"`
	// Wait makes the call wait for an approval (CallContext.Interrupt)
	// with this payload; the runner answers it with Answer, as a person
	// would through Runtime.Respond, and the call returns the answer.
	Wait   any `json:"wait,omitempty"`
	Answer any `json:"answer,omitempty"`
	// UnsafeToRepeat marks the function runtime.UnsafeToRepeat.
	UnsafeToRepeat bool `json:"unsafeToRepeat,omitempty"`
}

// Result is one canned result of a fake.
type Result struct {
	Args  []any  `json:"args,omitempty"`
	Value any    `json:"value,omitempty"`
	Error string `json:"error,omitempty"`
}

// Exchange is one recorded HTTP exchange of fetch.
type Exchange struct {
	Method  string            `json:"method,omitempty"` // default GET
	URL     string            `json:"url"`
	Status  int               `json:"status,omitempty"` // default 200
	Headers map[string]string `json:"headers,omitempty"`
	Body    string            `json:"body,omitempty"`
}

// Scenario is one parsed scenario.
type Scenario struct {
	// Name is the file name without .txtar; Path the file it came from.
	Name, Path string
	// Comment is the text before the first file.
	Comment string
	Config  Config
	// Entry is the program's file name (main.js, main.sh, ...) and Source
	// its bytes (decoded, for a WASI module).
	Entry  string
	Source []byte
	// Files is the workspace before the run, by path under /workspace.
	Files map[string]string
	// WantValue, WantStdout and WantStderr are the expectations (nil
	// value: none, the program returns nothing); WantFiles the files the
	// run leaves, by path under /workspace.
	WantValue  *string
	WantStdout string
	WantStderr string
	WantFiles  map[string]string
	// Notes are what Export decided that a person should know (why the
	// scenario says "restart": "any", say); they are in Comment too, and
	// Parse leaves them empty.
	Notes []string
}

// entries are the program file names, by backend.
var entries = map[string]string{"main.js": "js", "main.ts": "js", "main.sh": "shell", "main.wasm.b64": "wasm"}

// Parse reads a scenario from its txtar text.
func Parse(name string, data []byte) (*Scenario, error) {
	comment, files, _ := parseTxtar(string(data))
	sc := &Scenario{Name: name, Comment: comment, Files: map[string]string{}, WantFiles: map[string]string{}}
	if s, ok := files["scenario.json"]; ok {
		d := json.NewDecoder(strings.NewReader(s))
		d.DisallowUnknownFields()
		if err := d.Decode(&sc.Config); err != nil {
			return nil, fmt.Errorf("%s: scenario.json: %v", name, err)
		}
	}
	if v := sc.Config.Version; v > Version {
		return nil, fmt.Errorf("%s: scenario format version %d is newer than this build's %d", name, v, Version)
	}
	for e, backend := range entries {
		src, ok := files[e]
		if !ok {
			continue
		}
		if sc.Entry != "" {
			return nil, fmt.Errorf("%s: two programs, %s and %s", name, sc.Entry, e)
		}
		sc.Entry, sc.Source = e, []byte(src)
		if sc.Config.Backend == "" {
			sc.Config.Backend = backend
		}
	}
	if sc.Entry == "" {
		return nil, fmt.Errorf("%s: no program (main.js, main.ts, main.sh or main.wasm.b64)", name)
	}
	if sc.Entry == "main.wasm.b64" {
		b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(string(sc.Source)), ""))
		if err != nil {
			return nil, fmt.Errorf("%s: main.wasm.b64: %v", name, err)
		}
		sum := sha256.Sum256(b)
		if got := hex.EncodeToString(sum[:]); sc.Config.WasmSHA256 != "" && got != sc.Config.WasmSHA256 {
			return nil, fmt.Errorf("%s: main.wasm.b64 has SHA-256 %s, scenario.json says %s", name, got, sc.Config.WasmSHA256)
		}
		sc.Source = b
	}
	for f, data := range files {
		switch {
		case strings.HasPrefix(f, "files/"):
			sc.Files[strings.TrimPrefix(f, "files/")] = data
		case strings.HasPrefix(f, "want/files/"):
			sc.WantFiles[strings.TrimPrefix(f, "want/files/")] = data
		case f == "want/result.json":
			v := data
			sc.WantValue = &v
		case f == "want/stdout":
			sc.WantStdout = expandFor(data)
		case f == "want/stderr":
			sc.WantStderr = expandFor(data)
		case f == "scenario.json" || entries[f] != "":
		default:
			return nil, fmt.Errorf("%s: unknown file %q (want files/, want/files/, want/result.json, want/stdout, want/stderr)", name, f)
		}
	}
	if _, err := sc.seed(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if _, err := sc.clock(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return sc, nil
}

// Load reads the scenarios of files matching pattern (a filepath.Glob
// pattern) or named by path, in name order.
func Load(patterns ...string) ([]*Scenario, error) {
	var names []string
	for _, p := range patterns {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			p = filepath.Join(p, "*.txtar")
		}
		m, err := filepath.Glob(p)
		if err != nil {
			return nil, err
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("no scenario matches %s", p)
		}
		names = append(names, m...)
	}
	sort.Strings(names)
	var out []*Scenario
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		sc, err := Parse(strings.TrimSuffix(filepath.Base(n), ".txtar"), b)
		if err != nil {
			return nil, err
		}
		sc.Path = n
		out = append(out, sc)
	}
	return out, nil
}

// Format writes sc as txtar text: Parse(Format(sc)) is sc.
func Format(sc *Scenario) []byte {
	var b bytes.Buffer
	b.WriteString(sc.Comment)
	if sc.Comment != "" && !strings.HasSuffix(sc.Comment, "\n") {
		b.WriteByte('\n')
	}
	file := func(name, data string) {
		fmt.Fprintf(&b, "-- %s --\n%s", name, data)
		if data != "" && !strings.HasSuffix(data, "\n") {
			// txtar cannot hold a file without a final newline: such
			// files lose nothing but it, and the runner matches a text
			// without one against its expectation less it.
			b.WriteByte('\n')
		}
	}
	cfg := sc.Config
	if cfg.Version == 0 {
		cfg.Version = Version
	}
	src := string(sc.Source)
	if sc.Entry == "main.wasm.b64" {
		sum := sha256.Sum256(sc.Source)
		cfg.WasmSHA256 = hex.EncodeToString(sum[:])
		src = wrap(base64.StdEncoding.EncodeToString(sc.Source), 76)
	}
	j, _ := json.MarshalIndent(cfg, "", "  ")
	file("scenario.json", string(j)+"\n")
	file(sc.Entry, src)
	for _, p := range sortedKeys(sc.Files) {
		file("files/"+p, sc.Files[p])
	}
	if sc.WantValue != nil {
		file("want/result.json", *sc.WantValue)
	}
	file("want/stdout", sc.WantStdout)
	if sc.WantStderr != "" {
		file("want/stderr", sc.WantStderr)
	}
	for _, p := range sortedKeys(sc.WantFiles) {
		file("want/files/"+p, sc.WantFiles[p])
	}
	return b.Bytes()
}

func wrap(s string, n int) string {
	var b strings.Builder
	for len(s) > n {
		b.WriteString(s[:n] + "\n")
		s = s[n:]
	}
	b.WriteString(s + "\n")
	return b.String()
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// seed returns the run's random seed.
func (sc *Scenario) seed() ([]byte, error) {
	if sc.Config.Seed == "" {
		return make([]byte, 32), nil
	}
	b, err := hex.DecodeString(sc.Config.Seed)
	if err != nil || len(b) != 32 {
		return nil, fmt.Errorf("seed must be 64 hex digits, got %q", sc.Config.Seed)
	}
	return b, nil
}

// defaultClock is where a scenario's guest clock starts by default.
var defaultClock = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// clock returns the guest clock's start.
func (sc *Scenario) clock() (time.Time, error) {
	if sc.Config.Clock == "" {
		return defaultClock, nil
	}
	t, err := time.Parse(time.RFC3339Nano, sc.Config.Clock)
	if err != nil {
		return time.Time{}, fmt.Errorf("clock: %v", err)
	}
	return t, nil
}

// wantStatus returns the expected status and exit code.
func (sc *Scenario) wantStatus() (string, int) {
	st := sc.Config.Want.Status
	if st == "" {
		st = "completed"
	}
	code := 0
	if st != "completed" {
		code = 1
	}
	if c := sc.Config.Want.ExitCode; c != nil {
		code = *c
	}
	return st, code
}
