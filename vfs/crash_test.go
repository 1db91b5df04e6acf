package vfs

// Crash test: a child process (this test binary, re-executed) mutates a
// workspace and is killed with SIGKILL at a random moment; the parent then
// checks that the database is intact and that every mutation was atomic and
// durable once reported.
//
// Children report each mutation on stdout as "B <op>" before they start it
// and "D" once it returned, so the parent knows the committed state exactly
// and which single operation may or may not have landed.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/nookdev/nook/internal/sqldb"
)

// Environment of a re-executed child.
const (
	envChildRole = "NOOK_VFS_CHILD_ROLE" // what the child does
	envChildDB   = "NOOK_VFS_CHILD_DB"   // the workspace database file
	envChildSeed = "NOOK_VFS_CHILD_SEED" // its random seed
	envChildProc = "NOOK_VFS_CHILD_PROC" // its index (concurrency test)
	envChildDur  = "NOOK_VFS_CHILD_DUR"  // how long it runs (concurrency test)
	envCrashSeed = "NOOK_VFS_CRASH_SEED" // replays a crash test run
)

// ---------------------------------------------------------------------------
// Recognisable content.

func splitmix(x uint64) uint64 {
	x += 0x9E3779B97F4A7C15
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9
	x = (x ^ (x >> 27)) * 0x94D049BB133111EB
	return x ^ (x >> 31)
}

// testContent is a file body that identifies itself: a 16-byte header ("NOOK",
// the file's id, its version) followed by bytes derived from (id, version,
// offset), so a mix of versions, a truncation or a stray byte is detected.
type testContent struct {
	id   uint32
	ver  uint64
	size int64
	seed uint64
}

const contentHeader = 16

func newContent(id uint32, ver uint64, size int64) testContent {
	return testContent{id: id, ver: ver, size: size, seed: splitmix(uint64(id)<<40 ^ ver)}
}

// fill writes the bytes at [off, off+len(dst)) (all within size).
func (c testContent) fill(dst []byte, off int64) {
	var hdr [contentHeader]byte
	copy(hdr[:4], "NOOK")
	binary.LittleEndian.PutUint32(hdr[4:], c.id)
	binary.LittleEndian.PutUint64(hdr[8:], c.ver)
	wi, w := int64(-1), uint64(0)
	for i := range dst {
		o := off + int64(i)
		if o < contentHeader {
			dst[i] = hdr[o]
			continue
		}
		if o>>3 != wi {
			wi = o >> 3
			w = splitmix(c.seed ^ uint64(wi)*0xD6E8FEB86659FD93)
		}
		dst[i] = byte(w >> (8 * (o & 7)))
	}
}

func (c testContent) bytes() []byte {
	b := make([]byte, c.size)
	c.fill(b, 0)
	return b
}

// reader streams the content without holding it.
func (c testContent) reader() io.Reader { return &contentReader{c: c} }

type contentReader struct {
	c   testContent
	off int64
}

func (r *contentReader) Read(p []byte) (int, error) {
	if r.off >= r.c.size {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), r.c.size-r.off))
	r.c.fill(p[:n], r.off)
	r.off += int64(n)
	return n, nil
}

// parseHeader decodes a content header.
func parseHeader(data []byte) (id uint32, ver uint64, err error) {
	if len(data) < contentHeader || string(data[:4]) != "NOOK" {
		return 0, 0, fmt.Errorf("no content header (%d bytes: %q)", len(data), data[:min(len(data), contentHeader)])
	}
	return binary.LittleEndian.Uint32(data[4:]), binary.LittleEndian.Uint64(data[8:]), nil
}

// check compares data with the content, byte for byte.
func (c testContent) check(data []byte) error {
	if int64(len(data)) != c.size {
		return fmt.Errorf("id %d version %d: %d bytes, want %d", c.id, c.ver, len(data), c.size)
	}
	want := c.bytes()
	if !bytes.Equal(data, want) {
		i := 0
		for data[i] == want[i] {
			i++
		}
		return fmt.Errorf("id %d version %d: first wrong byte at offset %d (chunk %d)", c.id, c.ver, i, i/ChunkSize)
	}
	return nil
}

// ---------------------------------------------------------------------------
// Child processes.

// child is a re-executed test binary.
type childProc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr bytes.Buffer
	ready  chan struct{} // closed when it printed READY
	done   chan struct{} // closed when its stdout ended

	mu    sync.Mutex
	lines []string // stdout lines but READY
}

// startChild runs the test named test in a child process with env added.
func startChild(t *testing.T, test string, env map[string]string) *childProc {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1", "-test.timeout=5m")
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	c := &childProc{cmd: cmd, ready: make(chan struct{}), done: make(chan struct{})}
	cmd.Stderr = &c.stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(c.done)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 64<<20)
		ready := false
		for sc.Scan() {
			if line := sc.Text(); line == "READY" && !ready {
				ready = true
				close(c.ready)
			} else {
				c.mu.Lock()
				c.lines = append(c.lines, line)
				c.mu.Unlock()
			}
		}
		io.Copy(io.Discard, out)
	}()
	return c
}

// waitReady waits for the child's READY line.
func (c *childProc) waitReady(t *testing.T) {
	t.Helper()
	select {
	case <-c.ready:
	case <-c.done:
		c.cmd.Wait()
		t.Fatalf("child exited before it was ready: %v\nstdout:\n%s\nstderr:\n%s", c.cmd.ProcessState, c.output(), c.stderr.String())
	case <-time.After(60 * time.Second):
		c.cmd.Process.Kill()
		c.cmd.Wait()
		t.Fatalf("child not ready after 60s\nstdout:\n%s\nstderr:\n%s", c.output(), c.stderr.String())
	}
}

// wait reaps the child after its stdout ended and returns its stdout lines.
func (c *childProc) wait() ([]string, error) {
	<-c.done
	err := c.cmd.Wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lines, err
}

func (c *childProc) output() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := strings.Join(c.lines, "\n")
	if len(s) > 8000 {
		s = "..." + s[len(s)-8000:]
	}
	return s
}

// killedBySIGKILL reports whether the child died of our SIGKILL.
func killedBySIGKILL(c *childProc) bool {
	st, ok := c.cmd.ProcessState.Sys().(syscall.WaitStatus)
	return ok && st.Signaled() && st.Signal() == syscall.SIGKILL
}

// say prints one line on stdout in a single write, so that a kill never
// leaves half a line.
func childSay(format string, args ...any) {
	os.Stdout.WriteString(fmt.Sprintf(format, args...) + "\n")
}

// ---------------------------------------------------------------------------
// Whole-workspace checks, shared with the concurrency test.

// integrityCheck runs PRAGMA integrity_check on the database file through a
// connection of its own.
func integrityCheck(path string) error {
	c, err := sqlite3.Open(path)
	if err != nil {
		return err
	}
	defer c.Close()
	s, _, err := c.Prepare(`PRAGMA integrity_check`)
	if err != nil {
		return err
	}
	defer s.Close()
	var rows []string
	for s.Step() {
		rows = append(rows, s.ColumnText(0))
	}
	if err := s.Err(); err != nil {
		return err
	}
	if len(rows) != 1 || rows[0] != "ok" {
		return fmt.Errorf("integrity_check: %q", rows)
	}
	return nil
}

// findAll pages through Find.
func findAllEntries(ctx context.Context, f *FS, dir, pattern string, types ...Type) ([]Entry, error) {
	var out []Entry
	off := 0
	for {
		l, err := f.Find(ctx, dir, pattern, &FindOptions{Page: Page{Limit: f.Limits().MaxPage, Offset: off}, Types: types})
		if err != nil {
			return nil, err
		}
		out = append(out, l.Entries...)
		if l.NextOffset == 0 {
			return out, nil
		}
		off = l.NextOffset
	}
}

// checkUsage compares Usage with a walk of the whole tree: Bytes with the
// sum of the files' sizes (as Stat reports them) and Entries with the number
// of nodes, the root included.
func checkUsage(ctx context.Context, f *FS) error {
	all, err := findAllEntries(ctx, f, "/", "")
	if err != nil {
		return err
	}
	var sum int64
	for _, e := range all {
		if e.Kind != TypeFile {
			continue
		}
		fi, err := f.Stat(ctx, e.Path)
		if err != nil {
			return err
		}
		if fi.Bytes != e.Size {
			return fmt.Errorf("%s: Stat says %d bytes, Find %d", e.Path, fi.Bytes, e.Size)
		}
		sum += fi.Bytes
	}
	u, err := f.Usage(ctx)
	if err != nil {
		return err
	}
	if u.Bytes != sum {
		return fmt.Errorf("Usage().Bytes = %d, files sum to %d", u.Bytes, sum)
	}
	if u.Entries != int64(len(all))+1 {
		return fmt.Errorf("Usage().Entries = %d, walk found %d nodes + root", u.Entries, len(all))
	}
	return nil
}

// checkStorage checks the content tables' bookkeeping: every blob's
// reference count is the number of chunks pointing at it, every chunk's
// blob and every blob's data exist, and no unlinked node is left behind (no
// process holds a handle when this runs), and the trigram index is sound.
func checkStorage(ctx context.Context, f *FS) error {
	checks := []struct{ what, sql string }{
		{"blobs whose refs differ from their chunk count", `SELECT count(*) FROM vfs_blobs b
			WHERE b.refs != (SELECT count(*) FROM vfs_chunks c WHERE c.blob = b.id)`},
		{"chunks whose blob is missing", `SELECT count(*) FROM vfs_chunks c
			WHERE NOT EXISTS (SELECT 1 FROM vfs_blobs b WHERE b.id = c.blob)`},
		{"blobs without data", `SELECT count(*) FROM vfs_blobs b
			WHERE NOT EXISTS (SELECT 1 FROM vfs_blob_data d WHERE d.id = b.id)`},
		{"blob data without a blob", `SELECT count(*) FROM vfs_blob_data d
			WHERE NOT EXISTS (SELECT 1 FROM vfs_blobs b WHERE b.id = d.id)`},
		{"files whose chunks do not sum to their size", `SELECT count(*) FROM vfs_nodes n WHERE n.type = 1
			AND n.size != (SELECT coalesce(sum(c.size), 0) FROM vfs_chunks c WHERE c.inode = n.inode)`},
		{"unlinked nodes", `SELECT count(*) FROM vfs_nodes WHERE nlink = 0`},
		{"directory entries pointing nowhere", `SELECT count(*) FROM vfs_dirents d
			WHERE NOT EXISTS (SELECT 1 FROM vfs_nodes n WHERE n.inode = d.inode)`},
		{"nodes whose nlink is not their number of names", `SELECT count(*) FROM vfs_nodes n WHERE n.inode != 1
			AND n.nlink != (SELECT count(*) FROM vfs_dirents d WHERE d.inode = n.inode)`},
		{"nodes without a directory entry", `SELECT count(*) FROM vfs_nodes n WHERE n.inode != 1
			AND NOT EXISTS (SELECT 1 FROM vfs_dirents d WHERE d.inode = n.inode)`},
	}
	err := f.db.Read(ctx, func(c *sqldb.Conn) error {
		for _, ck := range checks {
			s, err := c.Query(ck.sql)
			if err != nil {
				return err
			}
			var n int64
			if s.Step() {
				n = s.ColumnInt64(0)
			}
			if err := sqldb.Done(s, nil); err != nil {
				return err
			}
			if n != 0 {
				return fmt.Errorf("%d %s", n, ck.what)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	// The trigram index agrees with the content (nook index check).
	probs, err := f.IndexCheck(ctx)
	if err == nil && len(probs) > 0 {
		err = fmt.Errorf("trigram index: %d problems, the first %+v", len(probs), probs[0])
	}
	return err
}

// ---------------------------------------------------------------------------
// The crash workload.

// crashFile is one of the files the "write" child rewrites.
type crashFile struct {
	path string
	id   uint32
	big  bool // streamed with WriteFrom, 3-5 MiB; else WriteFile, < 4 KiB
}

var crashFiles = func() []crashFile {
	var fs []crashFile
	for i := range 3 {
		fs = append(fs, crashFile{path: fmt.Sprintf("/data/big%d.bin", i), id: uint32(1 + i), big: true})
	}
	for i := range 8 {
		fs = append(fs, crashFile{path: fmt.Sprintf("/data/small/s%d.txt", i), id: uint32(10 + i)})
	}
	return fs
}()

func (cf crashFile) contentOf(ver uint64) testContent {
	r := splitmix(uint64(cf.id)*0x9E3779B97F4A7C15 + ver)
	if cf.big {
		return newContent(cf.id, ver, 3<<20+int64(r%(2<<20+1)))
	}
	return newContent(cf.id, ver, contentHeader+int64(r%4000))
}

// readVersions returns the version of every crash file; with full, each
// file's every byte is checked against its version.
func readVersions(ctx context.Context, f *FS, full bool) (map[string]uint64, error) {
	out := map[string]uint64{}
	for _, cf := range crashFiles {
		var data []byte
		var err error
		if full {
			data, err = f.ReadFile(ctx, cf.path)
		} else {
			data, err = f.ReadRange(ctx, cf.path, 0, contentHeader)
		}
		if err != nil {
			return nil, err
		}
		id, ver, err := parseHeader(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", cf.path, err)
		}
		if id != cf.id {
			return nil, fmt.Errorf("%s: holds the content of file id %d", cf.path, id)
		}
		if full {
			if err := cf.contentOf(ver).check(data); err != nil {
				return nil, fmt.Errorf("%s: %v", cf.path, err)
			}
		}
		out[cf.path] = ver
	}
	return out, nil
}

// The tree the "rename" child moves around: treeFiles files spread over
// treeDirs directories, below /tree or /tree2.
const (
	treeDirs  = 5
	treeFiles = 50
)

// treeModel is the shape of the tree: which root, which directory names
// carry an "x", and where each file lives.
type treeModel struct {
	root  string
	dirX  [treeDirs]bool
	files [treeFiles]struct {
		dir   int
		moved bool // named f<j>.moved instead of f<j>
	}
}

func treeContent(j int) testContent {
	id := uint32(1000 + j)
	return newContent(id, 1, contentHeader+int64(splitmix(uint64(id))%3000))
}

func (m *treeModel) dirPath(k int) string {
	if m.dirX[k] {
		return fmt.Sprintf("%s/d%dx", m.root, k)
	}
	return fmt.Sprintf("%s/d%d", m.root, k)
}

func (m *treeModel) filePath(j int) string {
	name := fmt.Sprintf("f%02d", j)
	if m.files[j].moved {
		name += ".moved"
	}
	return m.dirPath(m.files[j].dir) + "/" + name
}

// layout maps every path of the tree to a file number (-1 for directories).
func (m *treeModel) layout() map[string]int {
	out := map[string]int{m.root: -1}
	for k := range treeDirs {
		out[m.dirPath(k)] = -1
	}
	for j := range treeFiles {
		out[m.filePath(j)] = j
	}
	return out
}

// treeOp is one rename: "r" (the root), "d k" (directory k) or "f j d m"
// (file j into directory d, named moved or not).
type treeOp string

func (m treeModel) apply(op treeOp) (treeModel, error) {
	fs := strings.Fields(string(op))
	num := func(i int) int {
		if i >= len(fs) {
			return -1
		}
		n, err := strconv.Atoi(fs[i])
		if err != nil {
			return -1
		}
		return n
	}
	switch {
	case len(fs) == 1 && fs[0] == "r":
		m.root = map[string]string{"/tree": "/tree2", "/tree2": "/tree"}[m.root]
	case len(fs) == 2 && fs[0] == "d" && num(1) >= 0 && num(1) < treeDirs:
		m.dirX[num(1)] = !m.dirX[num(1)]
	case len(fs) == 4 && fs[0] == "f" && num(1) >= 0 && num(1) < treeFiles && num(2) >= 0 && num(2) < treeDirs:
		m.files[num(1)].dir, m.files[num(1)].moved = num(2), fs[3] == "1"
	default:
		return m, fmt.Errorf("bad tree op %q", op)
	}
	return m, nil
}

// readTree returns the tree's layout as stored. Exactly one of /tree and
// /tree2 must exist. Files are identified by their content's id; with full
// their every byte is checked.
func readTree(ctx context.Context, f *FS, full bool) (map[string]int, error) {
	var root string
	for _, r := range []string{"/tree", "/tree2"} {
		fi, err := f.Stat(ctx, r)
		switch {
		case err == nil && fi.Kind == TypeDir:
			if root != "" {
				return nil, errors.New("both /tree and /tree2 exist")
			}
			root = r
		case err == nil:
			return nil, fmt.Errorf("%s is a %s", r, fi.Kind)
		case Code(err) != ENOENT:
			return nil, err
		}
	}
	if root == "" {
		return nil, errors.New("neither /tree nor /tree2 exists")
	}
	all, err := findAllEntries(ctx, f, root, "")
	if err != nil {
		return nil, err
	}
	out := map[string]int{root: -1}
	for _, e := range all {
		if e.Kind == TypeDir {
			out[e.Path] = -1
			continue
		}
		var data []byte
		if full {
			data, err = f.ReadFile(ctx, e.Path)
		} else {
			data, err = f.ReadRange(ctx, e.Path, 0, contentHeader)
		}
		if err != nil {
			return nil, err
		}
		id, _, err := parseHeader(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", e.Path, err)
		}
		j := int(id) - 1000
		if j < 0 || j >= treeFiles {
			return nil, fmt.Errorf("%s: holds the content of file id %d", e.Path, id)
		}
		if full {
			if err := treeContent(j).check(data); err != nil {
				return nil, fmt.Errorf("%s: %v", e.Path, err)
			}
		}
		out[e.Path] = j
	}
	return out, nil
}

// modelOf rebuilds the model from a layout that readTree returned.
func modelOf(layout map[string]int) (treeModel, error) {
	var m treeModel
	for p := range layout {
		if p == "/tree" || p == "/tree2" {
			m.root = p
		}
	}
	seenDir := map[int]bool{}
	seenFile := map[int]bool{}
	for p, j := range layout {
		rel := strings.TrimPrefix(p, m.root+"/")
		if p == m.root {
			continue
		}
		dir, name, isFile := strings.Cut(rel, "/")
		var k int
		x := strings.HasSuffix(dir, "x")
		if _, err := fmt.Sscanf(strings.TrimSuffix(dir, "x"), "d%d", &k); err != nil || k < 0 || k >= treeDirs {
			return m, fmt.Errorf("unexpected path %s", p)
		}
		if !isFile {
			if seenDir[k] {
				return m, fmt.Errorf("directory %d twice", k)
			}
			seenDir[k] = true
			m.dirX[k] = x
			continue
		}
		if j < 0 || seenFile[j] {
			return m, fmt.Errorf("unexpected path %s", p)
		}
		seenFile[j] = true
		m.files[j].dir, m.files[j].moved = k, strings.HasSuffix(name, ".moved")
	}
	if len(seenDir) != treeDirs || len(seenFile) != treeFiles {
		return m, fmt.Errorf("tree has %d directories and %d files", len(seenDir), len(seenFile))
	}
	if !maps.Equal(m.layout(), layout) {
		return m, fmt.Errorf("tree layout is not a valid shape")
	}
	return m, nil
}

// setupCrashWorkspace writes version 1 of every crash file and the tree.
func setupCrashWorkspace(ctx context.Context, path string) error {
	f, err := Open(ctx, path, nil)
	if err != nil {
		return err
	}
	defer f.Close()
	for _, cf := range crashFiles {
		if _, err := f.WriteFrom(ctx, cf.path, cf.contentOf(1).reader(), &WriteOptions{MkdirAll: true}); err != nil {
			return err
		}
	}
	m := treeModel{root: "/tree"}
	for j := range treeFiles {
		m.files[j].dir = j % treeDirs
		if err := f.WriteFile(ctx, m.filePath(j), treeContent(j).bytes(), &WriteOptions{MkdirAll: true}); err != nil {
			return err
		}
	}
	return nil
}

// TestCrashChild is the child side of TestCrash; it does nothing unless
// started by it.
func TestCrashChild(t *testing.T) {
	role := os.Getenv(envChildRole)
	if role != "write" && role != "rename" {
		t.Skip("only runs as a child of TestCrash")
	}
	fail := func(format string, args ...any) {
		childSay("ERR "+format, args...)
		os.Exit(3)
	}
	seed, _ := strconv.ParseUint(os.Getenv(envChildSeed), 10, 64)
	rng := rand.New(rand.NewPCG(seed, 0))
	ctx := context.Background()
	f, err := Open(ctx, os.Getenv(envChildDB), nil)
	if err != nil {
		fail("open: %v", err)
	}
	deadline := time.Now().Add(60 * time.Second) // never outlive a lost parent
	switch role {
	case "write":
		vers, err := readVersions(ctx, f, false)
		if err != nil {
			fail("%v", err)
		}
		childSay("READY")
		for time.Now().Before(deadline) {
			cf := crashFiles[rng.IntN(len(crashFiles))]
			if rng.IntN(2) == 0 {
				cf = crashFiles[rng.IntN(3)] // big files half the time
			}
			v := vers[cf.path] + 1
			childSay("B %s %d", cf.path, v)
			c := cf.contentOf(v)
			if cf.big {
				_, err = f.WriteFrom(ctx, cf.path, c.reader(), nil)
			} else {
				err = f.WriteFile(ctx, cf.path, c.bytes(), nil)
			}
			if err != nil {
				fail("write %s: %v", cf.path, err)
			}
			childSay("D")
			vers[cf.path] = v
		}
	case "rename":
		layout, err := readTree(ctx, f, false)
		if err != nil {
			fail("%v", err)
		}
		m, err := modelOf(layout)
		if err != nil {
			fail("%v", err)
		}
		childSay("READY")
		for time.Now().Before(deadline) {
			var op treeOp
			var from, to string
			switch r := rng.IntN(10); {
			case r < 3:
				op = "r"
				from = m.root
			case r < 5:
				k := rng.IntN(treeDirs)
				op, from = treeOp(fmt.Sprintf("d %d", k)), m.dirPath(k)
			default:
				j := rng.IntN(treeFiles)
				op = treeOp(fmt.Sprintf("f %d %d %d", j, rng.IntN(treeDirs), b2i(!m.files[j].moved)))
				from = m.filePath(j)
			}
			next, err := m.apply(op)
			if err != nil {
				fail("%v", err)
			}
			switch op[0] {
			case 'r':
				to = next.root
			case 'd':
				k, _ := strconv.Atoi(string(op[2:]))
				to = next.dirPath(k)
			case 'f':
				j, _ := strconv.Atoi(strings.Fields(string(op))[1])
				to = next.filePath(j)
			}
			childSay("B %s", op)
			if err := f.Rename(ctx, from, to); err != nil {
				fail("rename %s %s: %v", from, to, err)
			}
			childSay("D")
			m = next
		}
	}
	fail("not killed within a minute")
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test skipped in -short mode")
	}
	if os.Getenv(envChildRole) != "" {
		t.Skip("child process")
	}
	const iterations = 50
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv(envCrashSeed); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("seed %d (replay with %s=%d)", seed, envCrashSeed, seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	ctx := context.Background()
	dbPath := filepath.Join(t.TempDir(), "ws.db")
	if err := setupCrashWorkspace(ctx, dbPath); err != nil {
		t.Fatal(err)
	}

	// The committed state, as the children reported it.
	vers := map[string]uint64{}
	for _, cf := range crashFiles {
		vers[cf.path] = 1
	}
	tree := treeModel{root: "/tree"}
	for j := range treeFiles {
		tree.files[j].dir = j % treeDirs
	}

	var done, inflight, landed, skipped [2]int
	var gcBlobs int64
	roles := [2]string{"write", "rename"}
	for it := range iterations {
		ri := it % 2
		role := roles[ri]
		c := startChild(t, "TestCrashChild", map[string]string{
			envChildRole: role, envChildDB: dbPath, envChildSeed: strconv.FormatUint(rng.Uint64(), 10)})
		c.waitReady(t)
		time.Sleep(time.Duration(5+rng.IntN(146)) * time.Millisecond)
		c.cmd.Process.Signal(syscall.SIGKILL)
		lines, _ := c.wait()
		if !killedBySIGKILL(c) {
			t.Fatalf("iteration %d (%s): child ended on its own (%v)\nstdout:\n%s\nstderr:\n%s",
				it, role, c.cmd.ProcessState, c.output(), c.stderr.String())
		}

		// Replay the report: apply finished operations, keep the last one
		// started but not finished.
		var pending string
		for _, l := range lines {
			switch {
			case strings.HasPrefix(l, "B "):
				if pending != "" {
					t.Fatalf("iteration %d: child started %q before finishing %q", it, l, pending)
				}
				pending = l[2:]
			case l == "D":
				if pending == "" {
					t.Fatalf("iteration %d: D without B", it)
				}
				if err := applyReport(role, pending, vers, &tree); err != nil {
					t.Fatalf("iteration %d: %v", it, err)
				}
				done[ri]++
				pending = ""
			case strings.HasPrefix(l, "ERR "):
				t.Fatalf("iteration %d (%s): child failed: %s", it, role, l)
			default:
				// Test framework noise, if any, is ignored.
			}
		}
		if pending != "" {
			inflight[ri]++
		} else {
			skipped[ri]++
		}

		if err := integrityCheck(dbPath); err != nil {
			t.Fatalf("iteration %d (%s, seed %d): %v", it, role, seed, err)
		}
		got, n, err := verifyCrashWorkspace(ctx, dbPath, role, pending, vers, &tree)
		if err != nil {
			t.Fatalf("iteration %d (%s, seed %d, in flight %q): %v", it, role, seed, pending, err)
		}
		if got {
			landed[ri]++
		}
		gcBlobs += n
	}
	t.Logf("write:  %d writes committed, killed mid-write %d times (%d of those landed), %d kills between writes",
		done[0], inflight[0], landed[0], skipped[0])
	t.Logf("rename: %d renames committed, killed mid-rename %d times (%d of those landed), %d kills between renames",
		done[1], inflight[1], landed[1], skipped[1])
	t.Logf("GC collected %d staged or replaced chunks in all", gcBlobs)
}

// applyReport applies one finished operation to the expected state.
func applyReport(role, op string, vers map[string]uint64, tree *treeModel) error {
	if role == "write" {
		p, v, ok := strings.Cut(op, " ")
		n, err := strconv.ParseUint(v, 10, 64)
		if _, known := vers[p]; !ok || err != nil || !known {
			return fmt.Errorf("bad write report %q", op)
		}
		if n != vers[p]+1 {
			return fmt.Errorf("write report %q does not follow version %d", op, vers[p])
		}
		vers[p] = n
		return nil
	}
	next, err := tree.apply(treeOp(op))
	if err != nil {
		return err
	}
	*tree = next
	return nil
}

// verifyCrashWorkspace reopens the workspace after a kill and checks it:
// every file holds exactly the last reported version, or, for the operation
// in flight, possibly its result; the tree is whole; usage and storage
// bookkeeping agree with the content; GC keeps everything readable; a new
// write works. It updates vers and tree to what was found and reports
// whether the in-flight operation landed and how many chunks GC collected.
func verifyCrashWorkspace(ctx context.Context, dbPath, role, pending string, vers map[string]uint64, tree *treeModel) (landed bool, gcBlobs int64, err error) {
	f, err := Open(ctx, dbPath, &Options{GCWindow: time.Nanosecond})
	if err != nil {
		return false, 0, err
	}
	defer f.Close()

	check := func() error {
		got, err := readVersions(ctx, f, true)
		if err != nil {
			return err
		}
		for p, v := range got {
			if v == vers[p] {
				continue
			}
			if role == "write" && pending == fmt.Sprintf("%s %d", p, v) {
				landed = true
				continue
			}
			return fmt.Errorf("%s holds version %d, want %d (in flight: %q)", p, v, vers[p], pending)
		}
		layout, err := readTree(ctx, f, true)
		if err != nil {
			return err
		}
		if !maps.Equal(layout, tree.layout()) {
			next, err := tree.apply(treeOp(pending))
			if role != "rename" || err != nil || !maps.Equal(layout, next.layout()) {
				return fmt.Errorf("tree is neither the committed shape nor the in-flight rename's result (%q):\n got %v\nwant %v",
					pending, layoutKeys(layout), layoutKeys(tree.layout()))
			}
			landed = true
		}
		if err := checkUsage(ctx, f); err != nil {
			return err
		}
		return checkStorage(ctx, f)
	}
	if err := check(); err != nil {
		return false, 0, err
	}
	if landed {
		if role == "write" {
			p, _, _ := strings.Cut(pending, " ")
			vers[p]++
		} else {
			*tree, _ = tree.apply(treeOp(pending))
		}
	}

	// Collect the chunks the killed write staged and the replaced versions,
	// then check everything again.
	st, err := f.GC(ctx)
	if err != nil {
		return landed, 0, fmt.Errorf("GC: %v", err)
	}
	if err := check(); err != nil {
		return landed, 0, fmt.Errorf("after GC: %v", err)
	}

	probe := []byte(fmt.Sprintf("probe %d\n", time.Now().UnixNano()))
	if err := f.WriteFile(ctx, "/probe.txt", probe, nil); err != nil {
		return landed, 0, fmt.Errorf("new write: %v", err)
	}
	back, err := f.ReadFile(ctx, "/probe.txt")
	if err != nil || !bytes.Equal(back, probe) {
		return landed, 0, fmt.Errorf("new write read back %q, %v", back, err)
	}
	return landed, st.Blobs, nil
}

func layoutKeys(m map[string]int) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
