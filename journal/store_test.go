package journal

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nookdev/nook/internal/sqldb"
	"github.com/nookdev/nook/internal/wsdb"
	"github.com/nookdev/nook/vfs"
)

func openStore(t *testing.T) (*Store, *vfs.FS) {
	t.Helper()
	f, err := vfs.Open(context.Background(), filepath.Join(t.TempDir(), "j.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	st, err := Open(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	return st, f
}

func TestRunLifecycle(t *testing.T) {
	st, _ := openStore(t)
	ctx := context.Background()
	t0 := time.Unix(100, 0)
	if err := st.Create(ctx, &Run{ID: "a", Backend: "js", Owner: "o1", Created: t0}); err != nil {
		t.Fatal(err)
	}
	if err := st.Create(ctx, &Run{ID: "a", Backend: "js", Owner: "o1", Created: t0}); !errors.Is(err, ErrExists) {
		t.Errorf("duplicate create: %v", err)
	}
	evs := []Event{{Seq: 1, Kind: Stdout, Data: []byte("hi\n")}, {Seq: 2, Kind: Stderr, Data: []byte("e\n")}}
	if err := st.Append(ctx, "a", evs, Progress{StdoutBytes: 3, StderrBytes: 2}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Delete(ctx, "a"); !errors.Is(err, ErrRunning) {
		t.Errorf("delete running: %v", err)
	}
	if ok, err := st.RequestKill(ctx, "a"); !ok || err != nil {
		t.Errorf("kill: %v %v", ok, err)
	}
	ids, _ := st.KillRequests(ctx, "o1")
	if len(ids) != 1 || ids[0] != "a" {
		t.Errorf("kill requests %v", ids)
	}
	_, err := st.Finish(ctx, "a", []Event{{Seq: 3, Kind: Exit, Data: []byte(`{}`)}},
		Progress{StdoutBytes: 3, StderrBytes: 2}, Final{Status: Completed, Value: []byte(`42`), Finished: t0.Add(time.Second)}, Retain{})
	if err != nil {
		t.Fatal(err)
	}
	// A second finisher changes nothing.
	st.Finish(ctx, "a", nil, Progress{}, Final{Status: Failed, ExitCode: 9, Finished: t0}, Retain{})
	r, err := st.Get(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Completed || string(r.Value) != "42" || r.LastSeq != 3 || r.StdoutBytes != 3 || r.Finished != t0.Add(time.Second) {
		t.Errorf("record %+v", r)
	}
	got, _ := st.Events(ctx, "a", 1, 10)
	if len(got) != 2 || got[0].Seq != 2 || got[1].Kind != Exit {
		t.Errorf("events after 1: %+v", got)
	}
	if ok, err := st.RequestKill(ctx, "a"); ok || err != nil {
		t.Errorf("kill finished: %v %v", ok, err)
	}
	if _, err := st.Delete(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Get(ctx, "a"); !errors.Is(err, ErrNotFound) {
		t.Errorf("get deleted: %v", err)
	}
	if evs, _ := st.Events(ctx, "a", 0, 10); len(evs) != 0 {
		t.Errorf("events of deleted run: %v", evs)
	}
}

// A nested run (PARENT.xN) is kept while its parent runs, whatever its age
// or count: the parent may still read it; runs with similar names are not.
func TestPruneKeepsNestedRunsOfRunningRuns(t *testing.T) {
	st, _ := openStore(t)
	ctx := context.Background()
	t0 := time.Unix(1000, 0)
	st.Create(ctx, &Run{ID: "p_1", Backend: "js", Owner: "o", Created: t0})
	for _, id := range []string{"p_1.x1", "p_1.x2.x1", "p_10.x1", "p_1x1", "q.x1"} {
		st.Create(ctx, &Run{ID: id, Backend: "js", Owner: "o", Created: t0})
		st.Finish(ctx, id, nil, Progress{}, Final{Status: Completed, Finished: t0}, Retain{})
	}
	gone, err := st.Prune(ctx, t0.Add(time.Minute), 0)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, g := range gone {
		ids = append(ids, g.ID)
	}
	slices.Sort(ids)
	if want := []string{"p_10.x1", "p_1x1", "q.x1"}; !slices.Equal(ids, want) {
		t.Fatalf("pruned %q, want %q", ids, want)
	}
	st.Finish(ctx, "p_1", nil, Progress{}, Final{Status: Completed, Finished: t0}, Retain{})
	if gone, _ = st.Prune(ctx, t0.Add(time.Minute), 0); len(gone) != 3 {
		t.Fatalf("once the parent finished, pruned %d runs, want 3", len(gone))
	}
}

func TestPrune(t *testing.T) {
	st, _ := openStore(t)
	ctx := context.Background()
	t0 := time.Unix(1000, 0)
	for i, id := range []string{"a", "b", "c", "d"} {
		st.Create(ctx, &Run{ID: id, Backend: "js", Owner: "o", Created: t0})
		st.Finish(ctx, id, nil, Progress{}, Final{Status: Completed, Finished: t0.Add(time.Duration(i) * time.Minute)}, Retain{})
	}
	st.Create(ctx, &Run{ID: "running", Backend: "js", Owner: "o", Created: t0})
	gone, err := st.Prune(ctx, t0.Add(90*time.Second), 10) // a and b finished before
	if err != nil || len(gone) != 2 {
		t.Fatalf("prune by age: %v %v", gone, err)
	}
	gone, _ = st.Prune(ctx, time.Time{}, 1)
	if len(gone) != 1 || gone[0].ID != "c" {
		t.Fatalf("prune by count: %+v", gone)
	}
	runs, _ := st.List(ctx, ListOptions{})
	if len(runs) != 2 {
		t.Errorf("left %d runs", len(runs))
	}
	running, _ := st.List(ctx, ListOptions{Running: true})
	if len(running) != 1 || running[0].ID != "running" {
		t.Errorf("running %+v", running)
	}
}

func TestOrphansAndLeases(t *testing.T) {
	st, f := openStore(t)
	db := wsdb.DB(f)
	ctx := context.Background()
	now := time.Now()
	st.Renew(ctx, "alive", now.Add(time.Minute))
	st.Renew(ctx, "expired", now.Add(-time.Second))
	// A lease of a process on this host that no longer exists.
	st.Renew(ctx, "dead", now.Add(time.Minute))
	db.Write(ctx, func(c *sqldb.Conn) error {
		return c.Exec(`UPDATE journal_owners SET pid = 999999999 WHERE owner = 'dead'`)
	})
	for _, o := range []string{"alive", "expired", "dead", "nobody"} {
		st.Create(ctx, &Run{ID: "run-" + o, Backend: "js", Owner: o, Created: now})
	}
	orphans, err := st.Orphans(ctx, now)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, r := range orphans {
		got[r.ID] = true
	}
	if len(got) != 3 || !got["run-expired"] || !got["run-dead"] || !got["run-nobody"] {
		t.Errorf("orphans %v", got)
	}
	if ok, _ := st.Alive(ctx, "alive", now); !ok {
		t.Error("alive owner reported dead")
	}
	st.Release(ctx, "alive")
	if ok, _ := st.Alive(ctx, "alive", now); ok {
		t.Error("released owner reported alive")
	}
}

// ReleaseAll makes the runs of every owner, even one with a live lease on
// this host, orphans.
func TestReleaseAll(t *testing.T) {
	st, _ := openStore(t)
	ctx := context.Background()
	now := time.Now()
	st.Renew(ctx, "alive", now.Add(time.Minute))
	st.Create(ctx, &Run{ID: "run-alive", Backend: "js", Owner: "alive", Created: now})
	if orphans, err := st.Orphans(ctx, now); err != nil || len(orphans) != 0 {
		t.Fatalf("orphans before ReleaseAll: %v %v", orphans, err)
	}
	if err := st.ReleaseAll(ctx); err != nil {
		t.Fatal(err)
	}
	orphans, err := st.Orphans(ctx, now)
	if err != nil || len(orphans) != 1 || orphans[0].ID != "run-alive" {
		t.Fatalf("orphans after ReleaseAll: %v %v, want run-alive", orphans, err)
	}
	if ok, _ := st.Alive(ctx, "alive", now); ok {
		t.Error("owner still alive after ReleaseAll")
	}
}

// A v1 journal gains output_error and the runs' creation index on open
// and keeps its runs.
func TestSchemaV1Migrates(t *testing.T) {
	st, f := openStore(t)
	db := wsdb.DB(f)
	ctx := context.Background()
	now := time.Unix(100, 0)
	if err := st.Create(ctx, &Run{ID: "r1", Backend: "js", Created: now}); err != nil {
		t.Fatal(err)
	}
	err := db.Write(ctx, func(c *sqldb.Conn) error {
		return c.Exec(`ALTER TABLE journal_runs DROP COLUMN output_error; DROP INDEX journal_runs_created; UPDATE journal_state SET schema_version = 1`)
	})
	if err != nil {
		t.Fatal(err)
	}
	st, err = Open(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Append(ctx, "r1", []Event{{Seq: 1, Kind: Stdout, Data: []byte("x")}}, Progress{StdoutBytes: 1, OutputError: "lost"}, nil); err != nil {
		t.Fatal(err)
	}
	r, err := st.Get(ctx, "r1")
	if err != nil || r.OutputError != "lost" || r.StdoutBytes != 1 {
		t.Fatalf("Get after migration = %+v, %v", r, err)
	}
	if l, err := st.List(ctx, ListOptions{}); err != nil || len(l) != 1 || l[0].ID != "r1" {
		t.Fatalf("List after migration = %v, %v", l, err)
	}
}

// List pages newest first through the creation index, filtered by state,
// status and backend, and never sorts the table.
func TestListPagesAndFilters(t *testing.T) {
	st, f := openStore(t)
	ctx := context.Background()
	for i := range 10 {
		backend := "js"
		if i%2 == 1 {
			backend = "shell"
		}
		// Two runs share each creation time: the id breaks the tie.
		if err := st.Create(ctx, &Run{ID: fmt.Sprintf("r%d", i), Backend: backend, Created: time.Unix(int64(100+i/2), 0)}); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []string{"r2", "r5"} {
		if _, err := st.Finish(ctx, id, nil, Progress{}, Final{Status: Completed, Finished: time.Unix(200, 0)}, Retain{}); err != nil {
			t.Fatal(err)
		}
	}
	ids := func(o ListOptions) string {
		t.Helper()
		l, err := st.List(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range l {
			out = append(out, r.ID)
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		o    ListOptions
		want string
	}{
		{ListOptions{}, "r9 r8 r7 r6 r5 r4 r3 r2 r1 r0"},
		{ListOptions{Limit: 3}, "r9 r8 r7"},
		{ListOptions{Limit: 3, Offset: 3}, "r6 r5 r4"},
		{ListOptions{Limit: 3, Offset: 9}, "r0"},
		{ListOptions{Offset: 10}, ""},
		{ListOptions{Backend: "shell"}, "r9 r7 r5 r3 r1"},
		{ListOptions{Backend: "shell", Offset: 1, Limit: 2}, "r7 r5"},
		{ListOptions{Status: Completed}, "r5 r2"},
		{ListOptions{Finished: true}, "r5 r2"},
		{ListOptions{Running: true, Backend: "js"}, "r8 r6 r4 r0"},
	} {
		if got := ids(c.o); got != c.want {
			t.Errorf("List(%+v) = %q, want %q", c.o, got, c.want)
		}
	}
	var plan []string
	err := wsdb.DB(f).Read(ctx, func(c *sqldb.Conn) error {
		q, args := listQuery(ListOptions{Limit: 50, Offset: 5000})
		s, err := c.Query(`EXPLAIN QUERY PLAN `+q, args...)
		if err != nil {
			return err
		}
		for s.Step() {
			plan = append(plan, s.ColumnText(3))
		}
		return sqldb.Done(s, nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	if p := strings.Join(plan, "; "); !strings.Contains(p, "SCAN journal_runs USING COVERING INDEX journal_runs_created") {
		t.Fatalf("the runs list does not page through its index alone: %s", p)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	_, f := openStore(t)
	db := wsdb.DB(f)
	ctx := context.Background()
	db.Write(ctx, func(c *sqldb.Conn) error {
		return c.Exec(`UPDATE journal_state SET schema_version = 99`)
	})
	if _, err := Open(ctx, f); err == nil || err.Error() != fmt.Sprintf("journal: the workspace's run tables are at schema version 99, newer than this build's %d; upgrade nook", SchemaVersion) {
		t.Errorf("got %v", err)
	}
}
