package shell_test

import (
	"context"
	"os"
	"path/filepath"
	goruntime "runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/internal/tiertest"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/shell"
	"github.com/nookdev/nook/vfs"
)

// sqlite3 on a read-only workspace reads the database and refuses to
// change it as sqlite3 does on a read-only file; nothing is written.
func TestSQLiteReadOnly(t *testing.T) {
	ctx := context.Background()
	ws := openWS(t, nil)
	if r := run(t, ws, `sqlite3 db.sqlite "create table t(x); insert into t values (1)"`); r.ExitCode != 0 {
		t.Fatalf("create: %s %q", r.Status, r.Stderr)
	}
	before, _ := ws.FS().ReadFile(ctx, "/workspace/db.sqlite")
	ro := openWS(t, nil, shell.Options{ReadOnly: true})
	ro.FS().WriteFile(ctx, "/workspace/db.sqlite", before, &vfs.WriteOptions{})
	r := run(t, ro, `sqlite3 db.sqlite "select x from t" "insert into t values (2)"; echo rc=$?; sqlite3 -readonly db.sqlite "select count(*) from t"; sqlite3 new.db "select 1"; echo rc=$?`)
	if string(r.Stdout) != "1\nrc=8\n1\nrc=1\n" {
		t.Errorf("stdout %q", r.Stdout)
	}
	want := "Error: stepping, attempt to write a readonly database (8)\n" + `Error: unable to open database "new.db": unable to open database file` + "\n"
	if string(r.Stderr) != want {
		t.Errorf("stderr %q, want %q", r.Stderr, want)
	}
	after, _ := ro.FS().ReadFile(ctx, "/workspace/db.sqlite")
	if string(after) != string(before) {
		t.Error("the read-only database changed")
	}
	// A read-write run that only reads does not write the file back.
	r = run(t, ws, `sqlite3 db.sqlite "select count(*) from t"`)
	if c := changesOf(t, r); len(c.Changes.Updated)+len(c.Changes.Created) != 0 {
		t.Errorf("a read changed files: %+v", c.Changes)
	}
	r = run(t, ws, `sqlite3 db.sqlite "insert into t values (3)"`)
	if c := changesOf(t, r); strings.Join(c.Changes.Updated, ",") != "/workspace/db.sqlite" {
		t.Errorf("a write: %+v", c.Changes)
	}
}

// The worst inputs of sqlite3: an endless recursive query stops at the
// run's timeout; an endless result stops at MaxOutputBytes; a buffered
// column-mode result at MaxAllocBytes; a huge blob at the memory bound;
// a database larger than MaxAllocBytes is refused before it is read.
// After each the host is idle and small.
func TestSQLiteWorstInputs(t *testing.T) {
	ctx := context.Background()
	lim := runtime.Limits{MaxOutputBytes: 1 << 20, MaxAllocBytes: 4 << 20, MaxMemoryBytes: 64 << 20}
	ws, err := nook.Open(ctx, t.TempDir()+"/w.db", nook.WithBackends(shell.New(shell.Options{})), nook.WithRuntime(runtime.Options{Limits: lim}))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ws.FS().MkdirAll(ctx, "/workspace", 0o755)
	ws.FS().WriteFile(ctx, "/workspace/big.db", make([]byte, 5<<20), &vfs.WriteOptions{})
	endless := "with recursive c(x) as (select 1 union all select x+1 from c) "
	// A first run starts what stays (the process tier's pool and its
	// connections) before the host's baseline is taken.
	if r := run(t, ws, `sqlite3 :memory: "select 1"`); r.ExitCode != 0 {
		t.Fatalf("warm-up: %s %q", r.Status, r.Stderr)
	}
	g0 := goruntime.NumGoroutine()
	var ms goruntime.MemStats
	debug.FreeOSMemory()
	goruntime.ReadMemStats(&ms)
	heap0 := ms.HeapInuse
	for _, c := range []struct {
		name, script string
		timeout      time.Duration
		status       runtime.Status
		errText      string // in the result's error or stderr
	}{
		{"endless query", `sqlite3 :memory: "` + endless + `select count(*) from c"`, time.Second, runtime.StatusTimedOut, ""},
		{"endless result", `sqlite3 :memory: "` + endless + `select x from c"`, 30 * time.Second, runtime.StatusFailed, "exceeds the limit MaxOutputBytes (1048576)"},
		{"endless column result", `sqlite3 -column :memory: "` + endless + `select x from c"`, 30 * time.Second, runtime.StatusFailed,
			"Error: the rows of a column-mode result exceed the limit MaxAllocBytes (4194304); use list or csv mode for large results"},
		{"huge blob", `sqlite3 :memory: "select length(zeroblob(100000000) || zeroblob(100000000))"`, 30 * time.Second, runtime.StatusFailed, "out of memory"},
		{"endless sort", `sqlite3 :memory: "` + endless + `select x from c order by x desc"`, 30 * time.Second, runtime.StatusFailed, "out of memory"},
		{"growing database", `sqlite3 g.db "create table t(b); ` + endless + `insert into t select randomblob(100000) from c"`, 30 * time.Second, runtime.StatusFailed, "database or disk is full"},
		{"big file", `sqlite3 big.db "select 1"`, 30 * time.Second, runtime.StatusFailed,
			`Error: unable to open database "big.db": the file's 5242880 bytes exceed the limit MaxAllocBytes (4194304)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "endless sort" && raceEnabled {
				t.Skip("under the race detector SQLite sorts too slowly to reach MaxMemoryBytes within the timeout")
			}
			r := run(t, ws, c.script, runtime.ExecOptions{Timeout: c.timeout})
			errText := c.errText
			if c.name == "endless sort" && tiertest.Pool != nil {
				// In a worker the process's memory bound can trip
				// before SQLite's own allocator gives up.
				if strings.Contains(r.Error, "exceeds the limit MaxMemoryBytes (67108864)") {
					errText = "exceeds the limit MaxMemoryBytes (67108864)"
				}
			}
			if r.Status != c.status || !strings.Contains(r.Error+string(r.Stderr), errText) {
				t.Errorf("status %s error %q stderr %q, want %s with %q", r.Status, r.Error, r.Stderr, c.status, c.errText)
			}
			hostSettles(t, g0, heap0)
		})
	}
	if _, err := ws.FS().Stat(ctx, "/workspace/g.db"); err == nil {
		b, _ := ws.FS().ReadFile(ctx, "/workspace/g.db")
		if len(b) > 4<<20 {
			t.Errorf("g.db is %d bytes", len(b))
		}
	}
	if r := run(t, ws, `sqlite3 :memory: "select 'ok'"`); string(r.Stdout) != "ok\n" {
		t.Errorf("healthy run after: %q %q", r.Stdout, r.Stderr)
	}
}

// SQL cannot reach a host file: ATTACH and VACUUM INTO are refused (they
// would open the path through SQLite's default VFS).
func TestSQLiteNoHostFiles(t *testing.T) {
	host := t.TempDir()
	ws := openWS(t, nil)
	r := run(t, ws, `sqlite3 :memory: "attach '`+host+`/a.db' as a; create table a.t(x)"; echo "rc=$?"
sqlite3 :memory: "create table t(x); vacuum into '`+host+`/v.db'"; echo "rc=$?"
sqlite3 :memory: "attach 'file:/nook-sqlite3-1?vfs=memdb' as m"; echo "rc=$?"`)
	if string(r.Stdout) != "rc=1\nrc=23\nrc=1\n" {
		t.Errorf("stdout %q stderr %q", r.Stdout, r.Stderr)
	}
	want := "Error: in prepare, not authorized\nError: stepping, authorization denied (23)\nError: in prepare, not authorized\n"
	if string(r.Stderr) != want {
		t.Errorf("stderr %q, want %q", r.Stderr, want)
	}
	for _, f := range []string{"a.db", "v.db"} {
		if _, err := os.Stat(filepath.Join(host, f)); err == nil {
			t.Errorf("SQL created the host file %s", f)
		}
	}
}

// SQL cannot lift the bounds sqlite3 sets: read-only access, the
// database's size, where the sorter keeps its data.
func TestSQLiteLockedPragmas(t *testing.T) {
	ws := openWS(t, nil, shell.Options{ReadOnly: true})
	ctx := context.Background()
	rw := openWS(t, nil)
	run(t, rw, `sqlite3 db.sqlite "create table t(x)"`)
	b, _ := rw.FS().ReadFile(ctx, "/workspace/db.sqlite")
	ws.FS().WriteFile(ctx, "/workspace/db.sqlite", b, &vfs.WriteOptions{})
	r := run(t, ws, `sqlite3 db.sqlite "pragma query_only" "pragma query_only=0" "insert into t values (1)"; echo "rc=$?"
sqlite3 :memory: "pragma max_page_count=999999999"; echo "rc=$?"; sqlite3 :memory: "pragma temp_store=file"; echo "rc=$?"`)
	if string(r.Stdout) != "1\nrc=1\nrc=1\nrc=1\n" {
		t.Errorf("stdout %q stderr %q", r.Stdout, r.Stderr)
	}
	if want := "Error: in prepare, not authorized\n"; string(r.Stderr) != want+want+want {
		t.Errorf("stderr %q", r.Stderr)
	}
}
