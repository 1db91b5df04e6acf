package coreutils

import (
	"bufio"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/ext/serdes"
	"github.com/ncruces/go-sqlite3/vfs/memdb"

	"github.com/nookdev/nook/runtime/shell/internal/hostfs"
)

// sqlite3: the SQLite command-line shell over a database file of the
// workspace, without cgo (ncruces/go-sqlite3: SQLite compiled to Go from
// WebAssembly). The file is read whole through the host (at most
// MaxAllocBytes), opened in memory, and written back with one writeFile
// call when the SQL changed it and the run may write. Output follows the
// sqlite3 CLI (3.40): modes list, csv, tabs, line, column, table,
// markdown, box, json, quote; dot commands .tables, .schema, .indexes,
// .dump, .headers, .mode, .separator, .nullvalue, .width, .read, .print,
// .bail, .quit.

func init() {
	register("sqlite3", "sqlite3 [OPTIONS] [FILE] [SQL | .COMMAND]...\n"+
		"OPTIONS: -header -noheader -list -csv -tabs -line -column -table -markdown -box -json -quote -separator SEP -newline SEP\n"+
		"-nullvalue TEXT -cmd COMMAND -bail -readonly -batch -version. Without SQL arguments the SQL (and dot commands) is read from stdin.\n"+
		"FILE is a workspace file (at most MaxAllocBytes), changed in memory and written back once at the end; without it, or :memory:, the database is in memory.", sqliteCmd)
}

// sqlShell is one sqlite3 invocation.
type sqlShell struct {
	e          *Env
	conn       *sqlite3.Conn
	out        *bufio.Writer
	mode       string
	colSep     string
	rowSep     string
	nullValue  string
	showHeader bool
	headerSet  bool
	bail       bool
	widths     []int
	readOnly   bool
	errs       int
	quit       bool
	status     int    // the exit status .quit/.exit asked for
	where      string // "" (arguments) or the input being read, for error messages
	stopped    error  // the output failed (the run is over)
	stepCode   int    // the SQLite code of the last failed step
}

func sqliteCmd(e *Env, args []string) (status int) {
	defer func() {
		// SQLite's allocator panics in Go when the database's memory
		// (MaxMemoryBytes) is spent: the CLI's shell_out_of_memory.
		if v := recover(); v != nil {
			if err, ok := v.(error); !ok || err.Error() != "sqlite3: out of memory" {
				panic(v)
			}
			fmt.Fprintln(e.Stderr, "Error: out of memory")
			status = 1
		}
	}()
	s := &sqlShell{e: e, mode: "list", colSep: "|", rowSep: "\n", out: bufio.NewWriterSize(e.Stdout, 32<<10)}
	defer s.out.Flush()
	var file string
	var cmds, sqls []string
	haveFile := false
	a := args[1:]
	for len(a) > 0 {
		arg := a[0]
		a = a[1:]
		if !strings.HasPrefix(arg, "-") {
			if !haveFile {
				file, haveFile = arg, true
			} else {
				sqls = append(sqls, arg)
			}
			continue
		}
		opt := "-" + strings.TrimLeft(arg, "-")
		val := func() (string, bool) {
			if len(a) == 0 {
				fmt.Fprintf(e.Stderr, "sqlite3: Error: missing argument to %s\n", arg)
				return "", false
			}
			v := a[0]
			a = a[1:]
			return v, true
		}
		switch opt {
		case "-header", "-headers":
			s.showHeader, s.headerSet = true, true
		case "-noheader":
			s.showHeader, s.headerSet = false, true
		case "-list", "-csv", "-tabs", "-line", "-column", "-table", "-markdown", "-box", "-json", "-quote":
			s.setMode(opt[1:], false)
		case "-separator", "-newline", "-nullvalue", "-cmd", "-init":
			v, ok := val()
			if !ok {
				return 1
			}
			switch opt {
			case "-separator":
				s.colSep = unescapeSep(v)
			case "-newline":
				s.rowSep = unescapeSep(v)
			case "-nullvalue":
				s.nullValue = v
			case "-cmd":
				cmds = append(cmds, v)
			case "-init":
				cmds = append(cmds, ".read "+quoteArg(v))
			}
		case "-bail":
			s.bail = true
		case "-readonly":
			s.readOnly = true
		case "-batch", "-interactive", "-echo", "-safe", "-nofollow", "-memtrace", "-stats":
		case "-version":
			fmt.Fprintln(s.out, sqliteVersion())
			return 0
		case "-help":
			c, _ := Lookup("sqlite3")
			fmt.Fprintf(e.Stdout, "Usage: %s\n", c.Help)
			return 0
		default:
			fmt.Fprintf(e.Stderr, "sqlite3: Error: unknown option: %s\nUse -help for a list of options.\n", arg)
			return 1
		}
	}
	db, st := s.open(file)
	if st != 0 {
		return st
	}
	defer func() {
		s.conn.Close()
		memdb.Delete(db.mem)
	}()
	// An argument that fails ends the command: with the failing step's
	// SQLite code as its status (as the CLI), 1 for other errors.
	argStatus := func(err error) int {
		switch {
		case s.stopped != nil:
			return 1
		case s.quit:
			return s.status
		case errors.Is(err, errStep):
			return s.stepCode
		}
		return 1
	}
	for _, c := range cmds {
		if err := s.runChunk(c, 0); err != nil && s.bail || s.quit || s.stopped != nil {
			return s.finish(db, argStatus(err))
		}
	}
	if len(sqls) > 0 {
		for _, q := range sqls {
			if err := s.runChunk(q, 0); err != nil || s.quit || s.stopped != nil {
				return s.finish(db, argStatus(err))
			}
		}
	} else {
		in, err := e.readStdin()
		if err != nil {
			fmt.Fprintf(e.Stderr, "sqlite3: %v\n", err)
			return s.finish(db, 1)
		}
		s.where = "input"
		s.runInput(string(in))
	}
	st = 0
	if s.errs > 0 || s.stopped != nil {
		st = 1
	}
	if s.quit {
		st = s.status
	}
	return s.finish(db, st)
}

// sqliteVersion is what -version prints: the library's version and source id.
func sqliteVersion() string {
	c, err := sqlite3.Open(":memory:")
	if err != nil {
		return "unknown"
	}
	defer c.Close()
	st, _, err := c.Prepare("SELECT sqlite_version() || ' ' || sqlite_source_id()")
	if err != nil {
		return "unknown"
	}
	defer st.Close()
	st.Step()
	return st.ColumnText(0)
}

// dbFile is the database's workspace file, when there is one.
type dbFile struct {
	path    string // "" for an in-memory database
	orig    []byte // the file as read, until memdb owns it
	sum     [32]byte
	size    int
	existed bool
	mem     string // the memdb name
}

// memdbSeq names each invocation's memdb database.
var memdbSeq atomic.Int64

// open reads the file and opens it in memory.
func (s *sqlShell) open(name string) (*dbFile, int) {
	e := s.e
	lim := e.Limits.WithDefaults()
	maxDB := lim.MaxAllocBytes
	db := &dbFile{}
	if name != "" && name != ":memory:" && !strings.HasPrefix(name, "file::memory:") {
		db.path = e.Abs(strings.TrimPrefix(name, "file:"))
		if i := strings.IndexByte(db.path, '?'); i >= 0 && strings.HasPrefix(name, "file:") {
			db.path = db.path[:i]
		}
		info, err := e.FS.Stat(e.Ctx, db.path)
		switch {
		case err == nil && info.IsDir():
			fmt.Fprintf(e.Stderr, "Error: unable to open database \"%s\": unable to open database file\n", name)
			return nil, 1
		case err == nil && info.Size() > maxDB:
			fmt.Fprintf(e.Stderr, "Error: unable to open database \"%s\": the file's %d bytes exceed the limit MaxAllocBytes (%d)\n", name, info.Size(), maxDB)
			return nil, 1
		case err == nil:
			b, err := e.FS.ReadAll(e.Ctx, db.path)
			if err != nil {
				fmt.Fprintf(e.Stderr, "Error: unable to open database \"%s\": %s\n", name, hostfs.Text(err))
				return nil, 1
			}
			db.orig, db.existed = b, true
		case hostfs.Code(err) != "ENOENT":
			fmt.Fprintf(e.Stderr, "Error: unable to open database \"%s\": %s\n", name, hostfs.Text(err))
			return nil, 1
		}
		if !s.readOnly {
			// A read-only workspace (or run) cannot take the file back:
			// SQL that writes fails as on a read-only file.
			target := db.path
			if !db.existed {
				target = db.path[:strings.LastIndexByte(db.path, '/')+1]
			}
			if e.ReadOnly || e.FS.Access(e.Ctx, target, 2) != nil {
				if !db.existed {
					fmt.Fprintf(e.Stderr, "Error: unable to open database \"%s\": unable to open database file\n", name)
					return nil, 1
				}
				s.readOnly = true
			}
		}
	}
	mem := min(max(lim.MaxMemoryBytes, 16<<20), 4<<30)
	// The file's bytes become a memdb database of their own (SQLite reads
	// them lazily, as it reads a file: a file that is not a database fails
	// only when a statement needs the schema, as with sqlite3).
	db.mem = fmt.Sprintf("nook-sqlite3-%d", memdbSeq.Add(1)) // opened as "/NAME": shared by name
	if len(db.orig) >= 20 && (db.orig[18] == 2 && db.orig[19] == 2 || db.orig[18] == 3 && db.orig[19] == 3) {
		// memdb opens a WAL database in rollback mode (it rewrites these
		// bytes itself): a query that changes nothing must not look like
		// a change.
		db.orig[18], db.orig[19] = 1, 1
	}
	db.sum, db.size = sha256.Sum256(db.orig), len(db.orig)
	if n := len(db.orig); n%65536 != 0 && !strings.HasPrefix(string(db.orig[:min(n, 16)]), "SQLite format 3\x00") {
		// Not a database: memdb fails short reads, where a file reads as
		// zeros past its end; padded, SQLite says "file is not a database"
		// when a statement needs the schema, as sqlite3 does. Such a file
		// is never written back.
		db.orig = append(db.orig, make([]byte, 65536-n%65536)...)
	}
	memdb.Create(db.mem, db.orig) // memdb owns the bytes from here
	db.orig = nil
	conn, err := sqlite3.OpenContext(sqlite3.WithMaxMemory(context.Background(), mem), "file:/"+db.mem+"?vfs=memdb")
	if err != nil {
		memdb.Delete(db.mem)
		fmt.Fprintf(e.Stderr, "Error: unable to open database \"%s\": %s\n", name, sqlMsg(err))
		return nil, 1
	}
	s.conn = conn
	if !db.existed || db.size == 0 {
		// sqlite3's default page size for a new file (memdb's large
		// sectors would make SQLite pick 8192).
		conn.Exec("PRAGMA page_size=4096")
	}
	// The database may not outgrow what can be read again.
	var pageSize int64 = 4096
	if st, _, err := conn.Prepare("PRAGMA page_size"); err == nil {
		if st.Step() {
			pageSize = max(st.ColumnInt64(0), 512)
		}
		st.Close()
	}
	conn.Exec("PRAGMA max_page_count=" + strconv.FormatInt(max(maxDB/pageSize, 1), 10))
	// Temporary tables and the sorter stay in SQLite's heap, which
	// MaxMemoryBytes bounds (memdb would keep them in Go slices without
	// a bound; the default VFS in host files).
	conn.Exec("PRAGMA temp_store=MEMORY")
	if s.readOnly {
		conn.Exec("PRAGMA query_only=1")
	}
	// No other database: ATTACH and VACUUM INTO would open host files
	// through the default VFS.
	conn.Limit(sqlite3.LIMIT_ATTACHED, 0)
	// SQLite's double-quoted string literals (a "name" that is no column
	// is the string): the library is built without them, the 3.40 CLI
	// has them in statements and in schemas.
	conn.Config(sqlite3.DBCONFIG_DQS_DML, true)
	conn.Config(sqlite3.DBCONFIG_DQS_DDL, true)
	// Nor may SQL lift the bounds set here: query_only (read-only access),
	// max_page_count (the database's size), temp_store (where the sorter
	// keeps its data) are read-only pragmas.
	conn.SetAuthorizer(func(action sqlite3.AuthorizerActionCode, name, arg, _, _ string) sqlite3.AuthorizerReturnCode {
		switch {
		case action == sqlite3.AUTH_ATTACH || action == sqlite3.AUTH_DETACH:
			return sqlite3.AUTH_DENY
		case action == sqlite3.AUTH_PRAGMA && arg != "" && lockedPragmas[strings.ToLower(name)]:
			return sqlite3.AUTH_DENY
		}
		return sqlite3.AUTH_OK
	})
	conn.SetInterrupt(e.Ctx)
	return db, 0
}

// finish writes the database back when it changed.
func (s *sqlShell) finish(db *dbFile, st int) int {
	s.flush()
	if db.path == "" || s.readOnly || s.stopped != nil || s.e.Ctx.Err() != nil {
		return st
	}
	s.conn.SetInterrupt(context.Background())
	if !s.conn.GetAutocommit() {
		// The CLI ends with the transaction left open: rolled back.
		s.conn.Exec("ROLLBACK")
	}
	data, err := serdes.Serialize(s.conn, "main")
	if err != nil && errors.Is(err, sqlite3.NOTADB) {
		return st // not a database: nothing can have changed
	}
	if err != nil {
		fmt.Fprintf(s.e.Stderr, "Error: cannot save the database: %s\n", sqlMsg(err))
		return 1
	}
	if !db.existed && s.empty() {
		// As the CLI, a new file that holds nothing is created empty.
		data = nil
	}
	if db.existed && sha256.Sum256(data) == db.sum {
		return st
	}
	if lim := s.e.Limits.WithDefaults().MaxCallBytes; int64(len(data)) > lim-4096 {
		fmt.Fprintf(s.e.Stderr, "Error: cannot save the database: its %d bytes exceed the limit MaxCallBytes (%d) of one write; nothing was written\n", len(data), lim)
		return 1
	}
	if err := s.e.FS.WriteFile(s.e.Ctx, db.path, data, "w"); err != nil {
		fmt.Fprintf(s.e.Stderr, "Error: cannot save the database: %s\n", hostfs.Text(err))
		return 1
	}
	return st
}

func (s *sqlShell) flush() {
	if err := s.out.Flush(); err != nil && s.stopped == nil {
		s.stopped = err
	}
}

// errorf reports an error on stderr, after the output so far.
func (s *sqlShell) errorf(format string, args ...any) {
	s.flush()
	fmt.Fprintf(s.e.Stderr, format, args...)
}

// sqlMsg is SQLite's message without the Go wrapper's prefix.
func sqlMsg(err error) string {
	var se *sqlite3.Error
	var ec sqlite3.ErrorCode
	var xc sqlite3.ExtendedErrorCode
	msg := err.Error()
	switch {
	case errors.As(err, &se):
		msg = strings.TrimPrefix(msg, "sqlite3: ")
		if i := strings.Index(msg, ": "); i >= 0 {
			msg = msg[i+2:]
		}
	case errors.As(err, &xc) || errors.As(err, &ec):
		msg = strings.TrimPrefix(msg, "sqlite3: ")
	}
	return msg
}

func sqlCode(err error) int {
	var se *sqlite3.Error
	if errors.As(err, &se) {
		return int(se.Code())
	}
	var xc sqlite3.ExtendedErrorCode
	if errors.As(err, &xc) {
		return int(xc.Code())
	}
	var ec sqlite3.ErrorCode
	if errors.As(err, &ec) {
		return int(ec)
	}
	return 1
}

// runInput runs a script: dot commands at the start of a line, SQL
// statements executed as soon as they are complete.
func (s *sqlShell) runInput(src string) {
	var buf strings.Builder
	start := 0
	lines := strings.SplitAfter(src, "\n")
	for i, line := range lines {
		if s.quit || s.stopped != nil || s.e.Ctx.Err() != nil {
			return
		}
		if buf.Len() == 0 {
			if strings.TrimSpace(line) == "" {
				continue
			}
			if line[0] == '.' || line[0] == '#' {
				if line[0] == '.' {
					if s.dot(strings.TrimRight(line, "\r\n")) != nil && s.bail {
						return
					}
				}
				continue
			}
			start = i + 1
		}
		buf.WriteString(line)
		if sqlComplete(buf.String()) {
			err := s.runChunk(strings.TrimSuffix(buf.String(), "\n"), start) // lines joined, as the CLI does
			buf.Reset()
			if err != nil && s.bail {
				return
			}
		}
	}
	if strings.TrimSpace(buf.String()) != "" {
		s.runChunk(strings.TrimSuffix(buf.String(), "\n"), start)
	}
}

// runChunk runs a dot command or the SQL statements of one chunk; the
// first failing statement ends the chunk.
func (s *sqlShell) runChunk(sql string, line int) error {
	if strings.HasPrefix(sql, ".") {
		return s.dot(sql)
	}
	for sql != "" {
		if s.stopped != nil {
			return s.stopped
		}
		st, tail, err := s.conn.Prepare(sql)
		if err != nil {
			s.errs++
			if line > 0 {
				s.errorf("Parse error near line %d: %s%s\n", line, sqlMsg(err), errorContext(sql, err))
			} else {
				s.errorf("Error: in prepare, %s%s\n", sqlMsg(err), errorContext(sql, err))
			}
			return err
		}
		sql = tail
		if st == nil {
			continue
		}
		err = s.exec(st)
		st.Close()
		if err != nil {
			if s.stopped != nil {
				return err
			}
			s.errs++
			if line > 0 {
				s.errorf("Runtime error near line %d: %s (%d)\n", line, sqlMsg(err), sqlCode(err))
			} else {
				s.errorf("Error: stepping, %s (%d)\n", sqlMsg(err), sqlCode(err))
				s.stepCode = sqlCode(err)
				return errStep
			}
			return err
		}
	}
	return nil
}

// sqlComplete reports whether s ends with a complete SQL statement (a
// semicolon outside quotes, comments and trigger bodies), as
// sqlite3_complete does.
func sqlComplete(s string) bool {
	complete := false
	upper := strings.ToUpper(s)
	trigger := false
	words := 0 // words of the statement so far (CREATE [TEMP] TRIGGER)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ';':
			if trigger {
				// A trigger ends with END;
				j := strings.TrimRight(upper[:i], " \t\r\n")
				if strings.HasSuffix(j, "END") {
					trigger, words = false, 0
					complete = true
				}
				continue
			}
			complete, words = true, 0
		case c == '\'' || c == '"' || c == '`' || c == '[':
			end := byte(c)
			if c == '[' {
				end = ']'
			}
			j := strings.IndexByte(s[i+1:], end)
			if j < 0 {
				return false
			}
			i += j + 1
			complete = false
			words++
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				return complete
			}
			i += j
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return false
			}
			i += j + 3
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
		default:
			complete = false
			if isIdentByte(c) {
				j := i
				for j < len(s) && isIdentByte(s[j]) {
					j++
				}
				w := upper[i:j]
				words++
				if !trigger && w == "TRIGGER" && words <= 4 && strings.HasPrefix(strings.TrimLeft(upper, " \t\r\n;"), "CREATE") {
					trigger = true
				}
				i = j - 1
			}
		}
	}
	return complete
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80 || c == '$'
}

func unescapeSep(s string) string {
	r := strings.NewReplacer(`\t`, "\t", `\n`, "\n", `\r`, "\r", `\\`, `\`, `\"`, `"`)
	return r.Replace(s)
}

func quoteArg(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// setMode switches the output mode; dot is true for .mode (which turns
// the header on for column mode unless it was set).
func (s *sqlShell) setMode(m string, dot bool) bool {
	switch m {
	case "list":
		s.colSep, s.rowSep = "|", "\n"
	case "csv":
		s.colSep, s.rowSep = ",", "\n"
		if dot {
			s.rowSep = "\r\n"
		}
	case "tabs":
		s.colSep, s.rowSep = "\t", "\n"
	case "line", "json", "quote":
		s.rowSep = "\n"
		if m == "quote" {
			s.colSep = ","
		}
	case "column", "table", "markdown", "box":
		if dot && m == "column" && !s.headerSet {
			s.showHeader = true
		}
	default:
		return false
	}
	s.mode = m
	return true
}

// value is one column of the current row as text, and whether it is NULL.
func (s *sqlShell) value(st *sqlite3.Stmt, i int) (string, bool) {
	switch st.ColumnType(i) {
	case sqlite3.NULL:
		return s.nullValue, true
	case sqlite3.BLOB:
		return string(st.ColumnRawBlob(i)), false
	}
	return string(st.ColumnRawText(i)), false
}

// float formats a real as the CLI's quote and json modes do.
func (s *sqlShell) float(r float64) string {
	switch {
	case math.IsInf(r, 1):
		return "1e999"
	case math.IsInf(r, -1):
		return "-1e999"
	case r == math.Trunc(r) && math.Abs(r) < 9.2e18:
		return strconv.FormatInt(int64(r), 10) + ".0"
	}
	return formatG20(r)
}

// quoted is a value as an SQL literal (quote mode, .dump).
func (s *sqlShell) quoted(st *sqlite3.Stmt, i int, dump bool) string {
	switch st.ColumnType(i) {
	case sqlite3.NULL:
		return "NULL"
	case sqlite3.INTEGER:
		return st.ColumnText(i)
	case sqlite3.FLOAT:
		return s.float(st.ColumnFloat(i))
	case sqlite3.BLOB:
		return fmt.Sprintf("X'%x'", st.ColumnRawBlob(i))
	}
	t := st.ColumnText(i)
	q := "'" + strings.ReplaceAll(t, "'", "''") + "'"
	if dump && strings.ContainsAny(t, "\r\n") {
		q = strings.ReplaceAll(q, "\n", `\n`)
		q = strings.ReplaceAll(q, "\r", `\r`)
		if strings.Contains(t, "\r") {
			q = "replace(" + q + ",'\\r',char(13))"
		}
		if strings.Contains(t, "\n") {
			q = "replace(" + q + ",'\\n',char(10))"
		}
	}
	return q
}

func jsonString(b *strings.Builder, z string) {
	b.WriteByte('"')
	for i := 0; i < len(z); i++ {
		c := z[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\f':
			b.WriteString(`\f`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20:
			fmt.Fprintf(b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}

func csvNeedsQuote(z, sep string) bool {
	if z == "" || sep != "" && strings.Contains(z, sep) {
		return true
	}
	for i := 0; i < len(z); i++ {
		if c := z[i]; c <= ' ' || c == '"' || c == '\'' || c >= 0x7f {
			return true
		}
	}
	return false
}

func (s *sqlShell) csv(z string, null bool) string {
	if null || !csvNeedsQuote(z, s.colSep) {
		return z
	}
	return `"` + strings.ReplaceAll(z, `"`, `""`) + `"`
}

func (s *sqlShell) write(str string) {
	if s.stopped != nil {
		return
	}
	if _, err := s.out.WriteString(str); err != nil {
		s.stopped = err
	}
}

// exec steps one statement, printing its rows in the current mode.
func (s *sqlShell) exec(st *sqlite3.Stmt) error {
	n := st.ColumnCount()
	names := make([]string, n)
	for i := range names {
		names[i] = st.ColumnName(i)
	}
	switch s.mode {
	case "column", "table", "markdown", "box":
		return s.columnar(st, names)
	}
	rows := 0
	var b strings.Builder
	for st.Step() {
		if err := s.e.Ctx.Err(); err != nil {
			return err
		}
		b.Reset()
		switch s.mode {
		case "line":
			w := 5
			for _, nm := range names {
				w = max(w, len(nm))
			}
			if rows > 0 {
				b.WriteString(s.rowSep)
			}
			for i, nm := range names {
				v, _ := s.value(st, i)
				fmt.Fprintf(&b, "%*s = %s%s", w, nm, v, s.rowSep)
			}
		case "json":
			if rows == 0 {
				b.WriteString("[{")
			} else {
				b.WriteString(",\n{")
			}
			for i, nm := range names {
				if i > 0 {
					b.WriteByte(',')
				}
				jsonString(&b, nm)
				b.WriteByte(':')
				switch st.ColumnType(i) {
				case sqlite3.NULL:
					b.WriteString("null")
				case sqlite3.INTEGER:
					b.WriteString(st.ColumnText(i))
				case sqlite3.FLOAT:
					b.WriteString(s.float(st.ColumnFloat(i)))
				default:
					v, _ := s.value(st, i)
					jsonString(&b, v)
				}
			}
			b.WriteByte('}')
		default: // list, csv, tabs, quote
			if rows == 0 && s.showHeader {
				for i, nm := range names {
					switch s.mode {
					case "csv":
						nm = s.csv(nm, false)
					case "quote":
						nm = "'" + strings.ReplaceAll(nm, "'", "''") + "'"
					}
					b.WriteString(nm)
					b.WriteString(sepAfter(i, n, s.colSep, s.rowSep))
				}
			}
			for i := range names {
				var v string
				switch s.mode {
				case "quote":
					v = s.quoted(st, i, false)
				case "csv":
					v = s.csv(s.value(st, i))
				default:
					v, _ = s.value(st, i)
				}
				b.WriteString(v)
				b.WriteString(sepAfter(i, n, s.colSep, s.rowSep))
			}
		}
		rows++
		s.write(b.String())
		if s.stopped != nil {
			return s.stopped
		}
	}
	if rows > 0 && s.mode == "json" {
		s.write("]\n")
	}
	return st.Err()
}

func sepAfter(i, n int, col, row string) string {
	if i == n-1 {
		return row
	}
	return col
}

// displayLines splits a value into the lines a columnar mode shows, tabs
// expanded.
func displayLines(z string) []string {
	if !strings.ContainsAny(z, "\t\r\n") {
		return []string{z}
	}
	var out []string
	var b strings.Builder
	col := 0
	for _, r := range z {
		switch r {
		case '\t':
			for {
				b.WriteByte(' ')
				col++
				if col%8 == 0 {
					break
				}
			}
		case '\r':
		case '\n':
			out = append(out, b.String())
			b.Reset()
			col = 0
		default:
			b.WriteRune(r)
			col++
		}
	}
	return append(out, b.String())
}

// columnar buffers the statement's rows (at most MaxAllocBytes) and
// prints them aligned.
func (s *sqlShell) columnar(st *sqlite3.Stmt, names []string) error {
	n := len(names)
	if n == 0 {
		for st.Step() {
		}
		return st.Err()
	}
	limit := s.e.Limits.WithDefaults().MaxAllocBytes
	var size int64
	var rows [][][]string // row → column → lines
	width := make([]int, n)
	for i, nm := range names {
		if i < len(s.widths) {
			width[i] = abs(s.widths[i])
		}
		width[i] = max(width[i], utf8.RuneCountInString(nm))
	}
	for st.Step() {
		if err := s.e.Ctx.Err(); err != nil {
			return err
		}
		row := make([][]string, n)
		for i := range row {
			v, _ := s.value(st, i)
			size += int64(len(v)) + 16
			row[i] = displayLines(v)
			for _, l := range row[i] {
				width[i] = max(width[i], utf8.RuneCountInString(l))
			}
		}
		if size > limit {
			s.errorf("Error: the rows of a %s-mode result exceed the limit MaxAllocBytes (%d); use list or csv mode for large results\n", s.mode, limit)
			return errStopped
		}
		rows = append(rows, row)
	}
	if err := st.Err(); err != nil {
		return err
	}
	if len(rows) == 0 {
		return nil
	}
	multi := false
	for _, r := range rows {
		for _, c := range r {
			multi = multi || len(c) > 1
		}
	}
	var b strings.Builder
	pad := func(z string, w int, right bool) {
		sp := strings.Repeat(" ", max(w-utf8.RuneCountInString(z), 0))
		if right {
			b.WriteString(sp + z)
		} else {
			b.WriteString(z + sp)
		}
	}
	center := func(z string, w int) {
		d := max(w-utf8.RuneCountInString(z), 0)
		b.WriteString(strings.Repeat(" ", d/2) + z + strings.Repeat(" ", d-d/2))
	}
	rule := func(left, mid, right, fill string) {
		b.WriteString(left)
		for i, w := range width {
			b.WriteString(strings.Repeat(fill, w+2))
			if i < n-1 {
				b.WriteString(mid)
			}
		}
		b.WriteString(right + "\n")
	}
	right := func(i int) bool { return i < len(s.widths) && s.widths[i] < 0 }
	bar := "|"
	if s.mode == "box" {
		bar = "│"
	}
	switch s.mode {
	case "column":
		if s.showHeader {
			for i, nm := range names {
				pad(nm, width[i], right(i))
				b.WriteString(sepAfter(i, n, "  ", "\n"))
			}
			for i, w := range width {
				b.WriteString(strings.Repeat("-", w))
				b.WriteString(sepAfter(i, n, "  ", "\n"))
			}
		}
	case "table":
		rule("+", "+", "+", "-")
	case "box":
		rule("┌", "┬", "┐", "─")
	}
	if s.mode != "column" {
		b.WriteString(bar + " ")
		for i, nm := range names {
			center(nm, width[i])
			b.WriteString(sepAfter(i, n, " "+bar+" ", " "+bar+"\n"))
		}
		switch s.mode {
		case "table":
			rule("+", "+", "+", "-")
		case "markdown":
			rule("|", "|", "|", "-")
		case "box":
			rule("├", "┼", "┤", "─")
		}
	}
	for ri, r := range rows {
		if ri > 0 && multi {
			switch s.mode {
			case "table":
				rule("+", "+", "+", "-")
			case "box":
				rule("├", "┼", "┤", "─")
			}
		}
		h := 1
		for _, c := range r {
			h = max(h, len(c))
		}
		for k := range h {
			if s.mode != "column" {
				b.WriteString(bar + " ")
			}
			for i, c := range r {
				l := ""
				if k < len(c) {
					l = c[k]
				}
				pad(l, width[i], right(i))
				if s.mode == "column" {
					b.WriteString(sepAfter(i, n, "  ", "\n"))
				} else {
					b.WriteString(sepAfter(i, n, " "+bar+" ", " "+bar+"\n"))
				}
			}
		}
		if b.Len() > 32<<10 {
			s.write(b.String())
			b.Reset()
			if s.stopped != nil {
				return s.stopped
			}
		}
	}
	switch s.mode {
	case "table":
		rule("+", "+", "+", "-")
	case "box":
		rule("└", "┴", "┘", "─")
	}
	s.write(b.String())
	return s.stopped
}

var (
	errStopped = errors.New("stopped")
	errStep    = errors.New("a statement failed")
)

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// query runs sql with args and calls fn for each row.
func (s *sqlShell) query(sql string, fn func(st *sqlite3.Stmt), args ...string) error {
	st, _, err := s.conn.Prepare(sql)
	if err != nil {
		return err
	}
	defer st.Close()
	for i, a := range args {
		st.BindText(i+1, a)
	}
	for st.Step() {
		fn(st)
	}
	return st.Err()
}

// dotArgs splits a dot command's line, honouring quotes.
func dotArgs(line string) []string {
	var out []string
	i := 0
	for i < len(line) {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i >= len(line) {
			break
		}
		if q := line[i]; q == '\'' || q == '"' {
			j := i + 1
			var b strings.Builder
			for j < len(line) && line[j] != q {
				if q == '"' && line[j] == '\\' && j+1 < len(line) {
					j++
				}
				b.WriteByte(line[j])
				j++
			}
			out = append(out, b.String())
			i = j + 1
			continue
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' {
			j++
		}
		out = append(out, line[i:j])
		i = j
	}
	return out
}

// dot runs a dot command.
func (s *sqlShell) dot(line string) error {
	a := dotArgs(strings.TrimSpace(line)[1:])
	if len(a) == 0 {
		return nil
	}
	bad := func() error {
		s.errs++
		s.errorf("Error: unknown command or invalid arguments:  \"%s\". Enter \".help\" for help\n", a[0])
		return errStopped
	}
	on := func(v string) bool { return v == "on" || v == "1" || v == "yes" || v == "true" }
	switch a[0] {
	case "headers", "header":
		if len(a) != 2 {
			return bad()
		}
		s.showHeader, s.headerSet = on(a[1]), true
	case "mode":
		if len(a) == 1 {
			s.write("current output mode: " + s.mode + "\n")
			return nil
		}
		if !s.setMode(a[1], true) {
			s.errs++
			s.errorf("Error: mode should be one of: ascii box column csv html insert json line list markdown qbox quote table tabs tcl\n")
			return errStopped
		}
	case "separator":
		if len(a) < 2 || len(a) > 3 {
			return bad()
		}
		s.colSep = unescapeSep(a[1])
		if len(a) == 3 {
			s.rowSep = unescapeSep(a[2])
		}
	case "nullvalue":
		if len(a) != 2 {
			return bad()
		}
		s.nullValue = a[1]
	case "width":
		s.widths = s.widths[:0]
		for _, w := range a[1:] {
			n, _ := strconv.Atoi(w)
			s.widths = append(s.widths, n)
		}
	case "bail":
		if len(a) != 2 {
			return bad()
		}
		s.bail = on(a[1])
	case "quit", "exit":
		s.quit = true
		if len(a) > 1 {
			s.status, _ = strconv.Atoi(a[1])
		}
	case "print":
		s.write(strings.Join(a[1:], " ") + "\n")
	case "echo", "timer", "changes", "eqp", "explain", "stats", "prompt", "show":
		// Interactive niceties: accepted, no effect.
	case "tables", "indexes", "indices":
		return s.tables(a)
	case "schema":
		return s.schema(a)
	case "dump":
		return s.dump(a)
	case "import":
		return s.importCmd(a)
	case "read":
		if len(a) != 2 {
			return bad()
		}
		b, err := s.e.ReadAll(a[1])
		if err != nil {
			s.errs++
			s.errorf("Error: cannot open \"%s\"\n", a[1])
			return errStopped
		}
		where := s.where
		s.where = a[1]
		s.runInput(string(b))
		s.where = where
	default:
		return bad()
	}
	return nil
}

// tables lists tables and views (or indexes) in columns, as the CLI does.
func (s *sqlShell) tables(a []string) error {
	pattern := "%"
	if len(a) > 1 {
		pattern = a[1]
	}
	var names []string
	var err error
	if a[0] == "tables" {
		err = s.query("SELECT name FROM sqlite_schema WHERE type IN ('table','view') AND name NOT LIKE 'sqlite_%' ESCAPE '\\' AND name LIKE ?1 ORDER BY 1",
			func(st *sqlite3.Stmt) { names = append(names, st.ColumnText(0)) }, pattern)
	} else {
		err = s.query("SELECT name FROM sqlite_schema WHERE type='index' AND tbl_name LIKE ?1 ORDER BY 1",
			func(st *sqlite3.Stmt) { names = append(names, st.ColumnText(0)) }, pattern)
	}
	if err != nil {
		return s.dotErr(err)
	}
	if len(names) == 0 {
		return nil
	}
	w := 0
	for _, nm := range names {
		w = max(w, len(nm))
	}
	cols := max(80/(w+2), 1)
	rowsN := (len(names) + cols - 1) / cols
	var b strings.Builder
	for i := range rowsN {
		for j := i; j < len(names); j += rowsN {
			if j >= rowsN {
				b.WriteString("  ")
			}
			fmt.Fprintf(&b, "%-*s", w, names[j])
		}
		b.WriteByte('\n')
	}
	s.write(b.String())
	return nil
}

func (s *sqlShell) dotErr(err error) error {
	if err != nil {
		s.errs++
		s.errorf("Error: %s\n", sqlMsg(err))
	}
	return err
}

// identNeedsQuote reports whether a name must be double-quoted in SQL.
func identNeedsQuote(z string) bool {
	if z == "" || z[0] >= '0' && z[0] <= '9' {
		return true
	}
	for i := 0; i < len(z); i++ {
		if c := z[i]; !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return true
		}
	}
	return false
}

func quoteIdent(z string) string {
	if !identNeedsQuote(z) {
		return z
	}
	return `"` + strings.ReplaceAll(z, `"`, `""`) + `"`
}

// schema prints the CREATE statements (a view with its columns).
func (s *sqlShell) schema(a []string) error {
	pattern := "%"
	if len(a) > 1 {
		pattern = a[1]
	}
	type obj struct{ sql, typ, name string }
	var objs []obj
	err := s.query("SELECT sql, type, name FROM sqlite_schema WHERE sql NOTNULL AND name NOT LIKE 'sqlite_%' ESCAPE '\\' AND (tbl_name LIKE ?1 OR name LIKE ?1) ORDER BY rowid",
		func(st *sqlite3.Stmt) { objs = append(objs, obj{st.ColumnText(0), st.ColumnText(1), st.ColumnText(2)}) }, pattern)
	if err != nil {
		return s.dotErr(err)
	}
	for _, o := range objs {
		line := schemaLine(o.sql)
		if o.typ == "view" {
			var cols []string
			s.query("SELECT name FROM pragma_table_info(?1)", func(st *sqlite3.Stmt) { cols = append(cols, quoteIdent(st.ColumnText(0))) }, o.name)
			if len(cols) > 0 {
				line += "\n/* " + quoteIdent(o.name) + "(" + strings.Join(cols, ",") + ") */"
			}
		}
		s.write(line + ";\n")
	}
	return nil
}

// dump prints SQL that recreates the database (or the tables named).
func (s *sqlShell) dump(a []string) error {
	pattern := "%"
	if len(a) > 1 {
		pattern = a[1]
	}
	s.write("PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\n")
	type obj struct{ name, sql string }
	var tables []obj
	err := s.query("SELECT name, sql FROM sqlite_schema WHERE sql NOT NULL AND type=='table' AND tbl_name LIKE ?1 ORDER BY tbl_name='sqlite_sequence', rowid",
		func(st *sqlite3.Stmt) { tables = append(tables, obj{st.ColumnText(0), st.ColumnText(1)}) }, pattern)
	if err != nil {
		return s.dotErr(err)
	}
	for _, t := range tables {
		switch {
		case t.name == "sqlite_sequence":
			s.write("DELETE FROM sqlite_sequence;\n")
		case t.name == "sqlite_stat1":
			s.write("ANALYZE sqlite_schema;\n")
		case strings.HasPrefix(t.name, "sqlite_"):
			continue
		case strings.HasPrefix(strings.ToUpper(t.sql), "CREATE VIRTUAL TABLE"):
			continue
		default:
			s.write(schemaLine(t.sql) + ";\n")
		}
		q := "INSERT INTO " + quoteIdent(t.name) + " VALUES("
		st, _, err := s.conn.Prepare("SELECT * FROM " + `"` + strings.ReplaceAll(t.name, `"`, `""`) + `"`)
		if err != nil {
			return s.dotErr(err)
		}
		var b strings.Builder
		for st.Step() {
			b.Reset()
			b.WriteString(q)
			for i := range st.ColumnCount() {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(s.quoted(st, i, true))
			}
			b.WriteString(");\n")
			s.write(b.String())
			if s.stopped != nil {
				break
			}
		}
		err = st.Err()
		st.Close()
		if err != nil {
			return s.dotErr(err)
		}
	}
	var rest []string
	err = s.query("SELECT sql FROM sqlite_schema WHERE sql NOT NULL AND type IN ('index','trigger','view') AND tbl_name LIKE ?1 ORDER BY rowid",
		func(st *sqlite3.Stmt) { rest = append(rest, st.ColumnText(0)) }, pattern)
	if err != nil {
		return s.dotErr(err)
	}
	for _, r := range rest {
		s.write(r + ";\n")
	}
	s.write("COMMIT;\n")
	return nil
}

// formatG20 is SQLite's printf("%!.20g", r): 20 significant digits,
// trailing zeros dropped but a ".0" kept, exponent form below 1e-4 and
// from 1e20. (SQLite 3.40 computes the digits in long double, so its last
// digits may differ for values far from 1; these are exact.)
func formatG20(r float64) string {
	e := strconv.FormatFloat(r, 'e', 19, 64)
	mant, exps, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(exps)
	trim := func(s string) string {
		if strings.Contains(s, ".") {
			s = strings.TrimRight(s, "0")
			if strings.HasSuffix(s, ".") {
				s += "0"
			}
		} else {
			s += ".0"
		}
		return s
	}
	if exp < -4 || exp >= 20 {
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		return fmt.Sprintf("%se%s%02d", trim(mant), sign, exp)
	}
	return trim(strconv.FormatFloat(r, 'f', max(19-exp, 0), 64))
}

// empty reports whether the database holds no schema and no header
// settings.
func (s *sqlShell) empty() bool {
	n := int64(0)
	for _, q := range []string{"SELECT count(*) FROM sqlite_schema", "PRAGMA user_version", "PRAGMA application_id"} {
		s.query(q, func(st *sqlite3.Stmt) { n += st.ColumnInt64(0) })
	}
	return n == 0
}

// importReader reads the fields of a delimited file as the CLI's .import
// does: a field may be double-quoted ("" is a quote), an unquoted field
// ends at the column or row separator (a CR before the row separator is
// dropped).
type importReader struct {
	data     string
	pos      int
	col, row byte
	line     int
	file     string
	warn     func(format string, args ...any)
	term     int // what ended the last field: the separator, or -1 at the end
}

// field returns the next field, or ok=false at the end of the data.
func (r *importReader) field() (string, bool) {
	if r.pos >= len(r.data) {
		r.term = -1
		return "", false
	}
	next := func() int {
		if r.pos >= len(r.data) {
			return -1
		}
		c := r.data[r.pos]
		r.pos++
		return int(c)
	}
	col, row := int(r.col), int(r.row)
	c := next()
	var b []byte
	if c == '"' {
		start := r.line
		pc, ppc := 0, 0
		b = append(b, '"')
		for {
			c = next()
			if c == row {
				r.line++
			}
			if c == '"' && pc == '"' {
				pc = 0
				continue
			}
			if c == col && pc == '"' || c == row && pc == '"' || c == row && pc == '\r' && ppc == '"' || c == -1 && pc == '"' {
				i := len(b) - 1
				for i >= 0 && b[i] != '"' {
					i--
				}
				b = b[:max(i, 0)]
				r.term = c
				break
			}
			if pc == '"' && c != '\r' {
				r.warn("%s:%d: unescaped \" character\n", r.file, r.line)
			}
			if c == -1 {
				r.warn("%s:%d: unterminated \"-quoted field\n", r.file, start)
				r.term = c
				break
			}
			b = append(b, byte(c))
			ppc, pc = pc, c
		}
		return string(b[min(1, len(b)):]), true
	}
	for c != -1 && c != col && c != row {
		b = append(b, byte(c))
		c = next()
	}
	if c == row {
		r.line++
		if len(b) > 0 && b[len(b)-1] == '\r' {
			b = b[:len(b)-1]
		}
	}
	r.term = c
	return string(b), true
}

// importCmd is .import [--csv] [--skip N] FILE TABLE.
func (s *sqlShell) importCmd(a []string) error {
	var ops []string
	csvFlag := false
	skip := 0
	for i := 1; i < len(a); i++ {
		switch a[i] {
		case "--csv", "-csv":
			csvFlag = true
		case "--ascii", "-ascii":
			s.errs++
			s.errorf("Error: .import --ascii is not supported here\n")
			return errStopped
		case "--skip", "-skip":
			if i+1 < len(a) {
				i++
				skip, _ = strconv.Atoi(a[i])
			}
		case "--schema", "-schema":
			i++
		case "-v":
		default:
			ops = append(ops, a[i])
		}
	}
	if len(ops) != 2 {
		s.errs++
		s.errorf("Usage: .import [--csv] [--skip N] FILE TABLE\n")
		return errStopped
	}
	file, table := ops[0], ops[1]
	data, err := s.e.ReadAll(file)
	if err != nil {
		s.errs++
		s.errorf("Error: cannot open \"%s\"\n", file)
		return errStopped
	}
	if !csvFlag && s.rowSep == "\r\n" {
		// As the CLI: importing with the output mode's separators turns
		// csv mode's CRLF row separator into LF, for output too.
		s.rowSep = "\n"
	}
	col, row := s.colSep, s.rowSep
	if csvFlag {
		col, row = ",", "\n"
	}
	if len(col) != 1 || len(row) != 1 {
		s.errs++
		s.errorf("Error: multi-character column or row separators are not allowed for import\n")
		return errStopped
	}
	r := &importReader{data: string(data), col: col[0], row: row[0], line: 1, file: file, warn: func(f string, args ...any) { s.errorf(f, args...) }}
	readRow := func() ([]string, bool) {
		var fields []string
		for {
			f, ok := r.field()
			if !ok && len(fields) == 0 {
				return nil, false
			}
			fields = append(fields, f)
			if r.term != int(r.col) {
				return fields, true
			}
		}
	}
	for range skip {
		if _, ok := readRow(); !ok {
			return nil
		}
	}
	qt := `"` + strings.ReplaceAll(table, `"`, `""`) + `"`
	nCol := 0
	if st, _, err := s.conn.Prepare("SELECT * FROM " + qt); err == nil {
		nCol = st.ColumnCount()
		st.Close()
	} else {
		head, ok := readRow()
		if !ok {
			return nil
		}
		var b strings.Builder
		b.WriteString("CREATE TABLE IF NOT EXISTS " + qt + "(")
		for i, h := range head {
			if i == 0 {
				b.WriteString("\n")
			} else {
				b.WriteString(", ")
			}
			b.WriteString(`"` + strings.ReplaceAll(h, `"`, `""`) + `" TEXT`)
		}
		b.WriteString(")")
		if err := s.conn.Exec(b.String()); err != nil {
			return s.dotErr(err)
		}
		nCol = len(head)
	}
	if nCol == 0 {
		return nil
	}
	ins, _, err := s.conn.Prepare("INSERT INTO " + qt + " VALUES(?" + strings.Repeat(",?", nCol-1) + ")")
	if err != nil {
		return s.dotErr(err)
	}
	defer ins.Close()
	inTx := s.conn.GetAutocommit()
	if inTx {
		s.conn.Exec("BEGIN")
	}
	for {
		if err := s.e.Ctx.Err(); err != nil {
			return err
		}
		line := r.line
		fields, ok := readRow()
		if !ok {
			break
		}
		for i := range nCol {
			if i < len(fields) {
				ins.BindText(i+1, fields[i])
			} else {
				ins.BindNull(i + 1)
			}
		}
		if len(fields) < nCol {
			s.errorf("%s:%d: expected %d columns but found %d - filling the rest with NULL\n", file, line, nCol, len(fields))
		} else if len(fields) > nCol {
			s.errorf("%s:%d: expected %d columns but found %d - extras ignored\n", file, line, nCol, len(fields))
		}
		if err := ins.Exec(); err != nil {
			s.errs++
			s.errorf("%s:%d: INSERT failed: %s\n", file, line, sqlMsg(err))
		}
	}
	if inTx {
		if err := s.conn.Exec("COMMIT"); err != nil {
			return s.dotErr(err)
		}
	}
	return nil
}

// schemaLine is a table's CREATE statement as .schema and .dump print it:
// a quoted table name gets IF NOT EXISTS, as the CLI writes.
func schemaLine(sql string) string {
	if strings.HasPrefix(sql, "CREATE TABLE ") && len(sql) > 13 && (sql[13] == '"' || sql[13] == '\'') {
		return "CREATE TABLE IF NOT EXISTS " + sql[13:]
	}
	return sql
}

// lockedPragmas may be read but not set by the SQL sqlite3 runs.
var lockedPragmas = map[string]bool{"query_only": true, "max_page_count": true, "temp_store": true,
	"temp_store_directory": true, "data_store_directory": true, "mmap_size": true}

// errorContext shows where a syntax error is, as the CLI does: the SQL
// around it (at most 78 bytes, starting at most 50 before it) and a
// marker under it. Only for syntax errors: sqlite3 3.40's library sets
// no offset for the others.
func errorContext(sql string, err error) string {
	var se *sqlite3.Error
	msg := sqlMsg(err)
	if !errors.As(err, &se) || se.SQL() == "" || !strings.Contains(msg, "syntax error") && !strings.Contains(msg, "unrecognized token") {
		return ""
	}
	off := len(sql) - len(se.SQL())
	if off < 0 || off > len(sql) {
		return ""
	}
	z := sql
	for off > 50 {
		off--
		z = z[1:]
		for len(z) > 0 && z[0]&0xc0 == 0x80 {
			z = z[1:]
			off--
		}
	}
	n := len(z)
	if n > 78 {
		n = 78
		for n > 0 && z[n]&0xc0 == 0x80 {
			n--
		}
	}
	code := []byte(z[:n])
	for i, c := range code {
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' {
			code[i] = ' '
		}
	}
	if off < 25 {
		return fmt.Sprintf("\n  %s\n  %*s^--- error here", code, off, "")
	}
	return fmt.Sprintf("\n  %s\n  %*serror here ---^", code, off-14, "")
}
