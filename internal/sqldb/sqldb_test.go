package sqldb

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"
)

func openTest(t testing.TB) *DB {
	t.Helper()
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "t.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	if err := db.Write(ctx, func(c *Conn) error { return c.Exec(`CREATE TABLE kv(k TEXT PRIMARY KEY, v INTEGER)`) }); err != nil {
		t.Fatal(err)
	}
	return db
}

func count(t testing.TB, db *DB) (n int) {
	t.Helper()
	err := db.Read(context.Background(), func(c *Conn) error {
		s, err := c.Query(`SELECT count(*) FROM kv`)
		if err != nil {
			return err
		}
		s.Step()
		n = s.ColumnInt(0)
		return Done(s, nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// Concurrent writers share commits, but each one's failure undoes only its
// own effects, and a panic reaches only its own caller.
func TestGroupCommitIsolatesFailures(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	errBoom := errors.New("boom")
	var wg sync.WaitGroup
	errs := make([]error, 200)
	panics := make([]any, 200)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { panics[i] = recover() }()
			errs[i] = db.Write(ctx, func(c *Conn) error {
				if err := c.Exec(`INSERT INTO kv VALUES (?, ?)`, fmt.Sprint(i), i); err != nil {
					return err
				}
				switch i % 10 {
				case 3:
					return errBoom
				case 7:
					panic(fmt.Sprint("panic ", i))
				}
				return nil
			})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		switch i % 10 {
		case 3:
			if !errors.Is(err, errBoom) {
				t.Errorf("write %d: err %v, want boom", i, err)
			}
		case 7:
			if panics[i] != fmt.Sprint("panic ", i) {
				t.Errorf("write %d: panic %v", i, panics[i])
			}
		default:
			if err != nil || panics[i] != nil {
				t.Errorf("write %d: err %v panic %v", i, err, panics[i])
			}
		}
	}
	if got := count(t, db); got != 160 {
		t.Fatalf("rows = %d, want 160", got)
	}
}

func TestWriteHonoursCancelledContext(t *testing.T) {
	db := openTest(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := db.Write(ctx, func(c *Conn) error { return c.Exec(`INSERT INTO kv VALUES ('a', 1)`) })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if got := count(t, db); got != 0 {
		t.Fatalf("rows = %d, want 0", got)
	}
}

func TestClosedDB(t *testing.T) {
	db := openTest(t)
	db.Close()
	err := db.Write(context.Background(), func(c *Conn) error { return nil })
	if !errors.Is(err, ErrClosed) {
		t.Fatalf("Write after Close: %v", err)
	}
	if err := db.Read(context.Background(), func(c *Conn) error { return nil }); !errors.Is(err, ErrClosed) {
		t.Fatalf("Read after Close: %v", err)
	}
}

// BenchmarkWrite measures small write transactions, sequential and from 8
// goroutines; the parallel case shows what group commit buys.
func BenchmarkWrite(b *testing.B) {
	for _, par := range []int{1, 8} {
		b.Run(fmt.Sprintf("goroutines=%d", par), func(b *testing.B) {
			db := openTest(b)
			ctx := context.Background()
			blob := make([]byte, 4096)
			var mu sync.Mutex
			next := 0
			b.SetParallelism(par)
			b.ResetTimer()
			if par == 1 {
				for i := 0; i < b.N; i++ {
					db.Write(ctx, func(c *Conn) error { return c.Exec(`INSERT INTO kv VALUES (?, ?)`, fmt.Sprint(i), blob) })
				}
				return
			}
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					mu.Lock()
					i := next
					next++
					mu.Unlock()
					db.Write(ctx, func(c *Conn) error { return c.Exec(`INSERT INTO kv VALUES (?, ?)`, fmt.Sprint(i), blob) })
				}
			})
		})
	}
}

// A write waiting for another process's lock gives up when its context
// ends, and a write that outwaits the busy timeout says why.
func TestWriteWaitingForLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	ctx := context.Background()
	db, err := Open(ctx, path, Options{BusyTimeout: 400 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Write(ctx, func(c *Conn) error { return c.Exec(`CREATE TABLE kv(k TEXT PRIMARY KEY, v INTEGER)`) }); err != nil {
		t.Fatal(err)
	}
	other, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := other.Exec(`BEGIN IMMEDIATE`); err != nil {
		t.Fatal(err)
	}
	insert := func(c *Conn) error { return c.Exec(`INSERT INTO kv VALUES ('a', 1)`) }

	tctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = db.Write(tctx, insert)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Write with a 100ms deadline = %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 350*time.Millisecond {
		t.Errorf("Write with a 100ms deadline returned after %v", d)
	}

	err = db.Write(ctx, insert)
	if !errors.Is(err, ErrLocked) || !errors.Is(err, sqlite3.BUSY) {
		t.Errorf("Write past the busy timeout = %v, want ErrLocked wrapping BUSY", err)
	}
	other.Exec(`ROLLBACK`)
	if err := db.Write(ctx, insert); err != nil {
		t.Fatalf("Write after the lock is released: %v", err)
	}
}
