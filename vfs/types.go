package vfs

import (
	"io/fs"
	"time"
)

// Type is the kind of a node.
type Type uint8

// Node kinds.
const (
	TypeFile    Type = 1
	TypeDir     Type = 2
	TypeSymlink Type = 3
)

func (t Type) String() string {
	switch t {
	case TypeFile:
		return "file"
	case TypeDir:
		return "dir"
	case TypeSymlink:
		return "symlink"
	}
	return "unknown"
}

// FileInfo describes a node. It implements fs.FileInfo and fs.DirEntry.
type FileInfo struct {
	Path  string // canonical path through which the node was reached
	Inode int64  // stable identity; 0 never occurs for stored nodes
	Kind  Type
	// Perm holds the permission bits (Perm.Perm()) and fs.ModeSetuid,
	// fs.ModeSetgid and fs.ModeSticky, as io/fs spells them; Mode adds the
	// type bits.
	Perm  fs.FileMode
	Bytes int64 // file length; symlink target length; 0 for directories
	Nlink int64
	Atime time.Time // access time: set at creation and by Chtimes (reads do not update it)
	Mtime time.Time // modification time of the content
	Ctime time.Time // time of the node's last change (content, mode or times)
	Rev   int64     // revision of the last change to this node
	// Target is a symlink's stored target.
	Target string
	// ReadOnly is set for nodes served from a read-only mount.
	ReadOnly bool

	name string // overrides the name derived from Path (io/fs views)
}

// Name is the last path segment ("/" for the root).
func (fi *FileInfo) Name() string {
	if fi.name != "" {
		return fi.name
	}
	if fi.Path == "/" {
		return "/"
	}
	return Base(fi.Path)
}

// Size is the length in bytes.
func (fi *FileInfo) Size() int64 { return fi.Bytes }

// Mode returns the io/fs mode: permission bits plus the type bits.
func (fi *FileInfo) Mode() fs.FileMode { return fi.Perm&permBits | fi.Kind.mode() }

// ModTime is the modification time.
func (fi *FileInfo) ModTime() time.Time { return fi.Mtime }

// IsDir reports whether the node is a directory.
func (fi *FileInfo) IsDir() bool { return fi.Kind == TypeDir }

// Sys returns the FileInfo itself.
func (fi *FileInfo) Sys() any { return fi }

// Type returns the type bits of Mode (fs.DirEntry).
func (fi *FileInfo) Type() fs.FileMode { return fi.Mode().Type() }

// Info returns fi (fs.DirEntry).
func (fi *FileInfo) Info() (fs.FileInfo, error) { return fi, nil }

// WriteOptions control WriteFile and WriteFrom.
type WriteOptions struct {
	// Mode sets the permission bits (Mode.Perm() and fs.ModeSetuid,
	// fs.ModeSetgid, fs.ModeSticky; type bits are ignored). Zero keeps an
	// existing file's mode and gives a new file DefaultFileMode.
	Mode fs.FileMode
	// Exclusive fails with EEXIST when the path exists (a final symlink is
	// not followed).
	Exclusive bool
	// MkdirAll creates missing parent directories (mode DefaultDirMode).
	MkdirAll bool
	// NoFollow replaces a symlink at the path with the file instead of
	// writing through it.
	NoFollow bool
	// ModTime sets the file's modification time; zero means now.
	ModTime time.Time
}

// Default modes.
const (
	DefaultFileMode fs.FileMode = 0o644
	DefaultDirMode  fs.FileMode = 0o755
)

// The stored modes: the 12 Unix permission bits (setuid 0o4000, setgid
// 0o2000, sticky 0o1000, rwxrwxrwx), as the database keeps them.
const (
	defaultFileMode uint32 = 0o644
	defaultDirMode  uint32 = 0o755
	symlinkMode     uint32 = 0o777
)

// permBits are the bits of an fs.FileMode a node's stored mode keeps.
const permBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// UnixMode returns the Unix form of the permission bits of m, as chmod(2)
// takes them and the database stores them: m.Perm() in the low nine bits
// and fs.ModeSetuid, fs.ModeSetgid and fs.ModeSticky as 0o4000, 0o2000 and
// 0o1000. Type bits and the other io/fs bits are dropped.
func UnixMode(m fs.FileMode) uint32 {
	u := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		u |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		u |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		u |= 0o1000
	}
	return u
}

// FromUnixMode is UnixMode's inverse: the io/fs form of the 12 Unix
// permission bits of u (setuid, setgid, sticky, rwxrwxrwx). Other bits of u
// (a stat(2) file type) are dropped.
func FromUnixMode(u uint32) fs.FileMode {
	m := fs.FileMode(u & 0o777)
	if u&0o4000 != 0 {
		m |= fs.ModeSetuid
	}
	if u&0o2000 != 0 {
		m |= fs.ModeSetgid
	}
	if u&0o1000 != 0 {
		m |= fs.ModeSticky
	}
	return m
}

// mode returns the io/fs type bits of a kind.
func (t Type) mode() fs.FileMode {
	switch t {
	case TypeDir:
		return fs.ModeDir
	case TypeSymlink:
		return fs.ModeSymlink
	}
	return 0
}

// nsTime returns the time of a stored timestamp (nanoseconds since the
// Unix epoch).
func nsTime(ns int64) time.Time { return time.Unix(0, ns) }

// RemoveOptions control Remove.
type RemoveOptions struct {
	Recursive bool // remove a directory and everything below it
	Force     bool // a missing path is not an error
}

// Page selects a window of a listing: skip Offset entries, return at most
// Limit (0 means the call's default; above the MaxPage limit is clamped).
type Page struct {
	Limit  int
	Offset int
}

// Entry is one result of ReadDir, Find or Ls.
type Entry struct {
	Path string // absolute canonical path
	Name string // last segment
	Kind Type
	// Mode is the node's io/fs mode: permission bits, fs.ModeSetuid,
	// fs.ModeSetgid, fs.ModeSticky and the type bits (fs.ModeDir,
	// fs.ModeSymlink), so Mode.IsDir() and Mode.Perm() work.
	Mode  fs.FileMode
	Size  int64
	Mtime time.Time
	Inode int64
}

// Listing is a page of entries. NextOffset is the offset of the next page,
// or 0 when the listing is complete.
type Listing struct {
	Entries    []Entry
	NextOffset int
}

// FindOptions control Find.
type FindOptions struct {
	Page
	// Exclude holds globs whose matches are skipped; a matching directory is
	// not walked. A slash-free glob matches a name at any depth (".git").
	Exclude []string
	// Types restricts results to these kinds (none: all kinds).
	Types []Type
}

// GrepMode selects what Grep reports.
type GrepMode int

// Grep output modes.
const (
	GrepContent GrepMode = iota // matching lines (with context)
	GrepFiles                   // paths of files with at least one match
	GrepCount                   // per-file count of matching lines
)

// GrepOptions control Grep.
type GrepOptions struct {
	Page            // over matching lines (content), files (files, count)
	Regex      bool // RE2 syntax instead of a literal
	IgnoreCase bool // case-insensitive
	Context    int  // lines of context before and after each match
	Mode       GrepMode
	Include    []string // globs relative to the searched directory; none: all files
	Exclude    []string // globs pruned from the walk (see FindOptions.Exclude)
	// MaxFileSize skips larger files (reported in Skipped). Zero means
	// DefaultGrepMaxFileSize.
	MaxFileSize int64
	// Timeout, when positive, bounds the search: once it has passed,
	// Grep stops (within a file too) and returns the results found so far
	// with GrepResult.TimedOut set, instead of an error. The end of the
	// caller's context is still an error.
	Timeout time.Duration
}

// DefaultGrepMaxFileSize is the largest file Grep reads unless told otherwise.
const DefaultGrepMaxFileSize = 64 << 20

// GrepLine is a line of a file: a match or context.
type GrepLine struct {
	Line      int    // 1-based
	Text      string // without the line terminator (and without a trailing \r)
	IsMatch   bool
	Truncated bool // Text was cut at the line display cap
}

// GrepMatch is one matching line with its context.
type GrepMatch struct {
	Path    string
	Line    int
	Text    string
	Context []GrepLine // before, the match itself, after (empty without Context)
}

// GrepFile is a per-file summary (files and count modes).
type GrepFile struct {
	Path  string
	Count int
}

// GrepSkip is a file Grep did not search, and why: "binary" (a NUL byte in
// its first 8 KiB) or "too large" (over GrepOptions.MaxFileSize).
type GrepSkip struct {
	Path   string
	Reason string
}

// GrepResult is a page of grep results.
type GrepResult struct {
	Matches []GrepMatch // content mode
	Files   []GrepFile  // files and count modes
	// Skipped lists files too large to search, and binary files that
	// grep opened: those the trigram filters or index ruled out are not
	// read, so they are not known to be binary.
	Skipped    []GrepSkip
	NextOffset int // 0 when there is nothing more
	// TimedOut reports that GrepOptions.Timeout ended the search: the
	// results are those found until then, in order, and NextOffset (when
	// set) continues after them.
	TimedOut bool
}

// ChangeOp is what a change did.
type ChangeOp string

// Change operations.
const (
	OpCreate  ChangeOp = "create"  // a file, directory or symlink was created
	OpWrite   ChangeOp = "write"   // a file's content changed
	OpRemove  ChangeOp = "remove"  // a node was removed (a tombstone)
	OpRename  ChangeOp = "rename"  // OldPath moved to Path (a whole subtree for directories)
	OpLink    ChangeOp = "link"    // Path became another name of the node at OldPath (a hard link)
	OpChmod   ChangeOp = "chmod"   // permission bits changed
	OpChtimes ChangeOp = "chtimes" // times changed
)

// Change is one entry of the change feed.
type Change struct {
	Seq     int64 // position in the feed, strictly increasing
	Rev     int64 // revision of the transaction that made it
	Op      ChangeOp
	Path    string
	OldPath string // for renames and links
	Kind    Type
	Time    time.Time // when the change was made (the clock of Options.Now)
}
