package host

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/nookdev/nook/vfs"
)

// FSOps performs the filesystem calls of sandboxed code (KindFS), confined
// to Root with the given Access.
//
// Every op is one self-contained request: its arguments are a map of plain
// JSON-compatible values (numbers may arrive as float64, int or int64; data
// as []byte or a string) and its result is JSON-compatible too (numbers as
// float64, binary data as []byte). No op leaves state behind on the host, so
// a journal can record each call and answer it again on replay. File
// descriptors live in the guest: the node:fs shim keeps, per descriptor, a
// path, flags and a position, and reads and writes through the ranged ops
// pread, pwrite and truncate.
//
// The ops, with their arguments and results (paths are absolute; the shim
// resolves relative ones against the run's working directory):
//
//	readFile   {path}                                  → []byte
//	pread      {path, offset, length}                  → []byte (short at end of file, and at MaxCallBytes)
//	writeFile  {path, data, flag: "w"|"wx"|"a"|"ax", mode?}
//	pwrite     {path, data, offset, append?}           → {bytesWritten, size}
//	truncate   {path, length}
//	open       {path, flags (Linux O_* bits), mode?}   → stats of the opened file
//	stat, lstat {path}                                 → stats
//	access     {path, mode (F_OK|R_OK|W_OK|X_OK)}
//	mkdir      {path, recursive?, mode?}               → first directory created (recursive), else nil
//	readdir    {path, withFileTypes?, recursive?}      → sorted names, or [{name, type}]
//	readdirPage {path, offset, limit}                  → {entries: [{name, type, ino}], next}
//	rm         {path, recursive?, force?}
//	rmdir      {path, recursive?}
//	unlink     {path}
//	rename     {from, to}
//	copyFile   {from, to, flags? (COPYFILE_EXCL = 1)}
//	cp         {from, to, recursive?, force? (default true), errorOnExist?, dereference?, preserveTimestamps?}
//	symlink    {target, path}
//	link       {existingPath, newPath}                 (a hard link; a final symlink is not followed)
//	readlink   {path}                                  → target
//	realpath   {path}                                  → canonical path
//	chmod      {path, mode}
//	utimes     {path, atimeMs, mtimeMs, atimeNs?, mtimeNs?} (*Ns: decimal strings, exact; they win over *Ms)
//	lutimes    as utimes, on a final symlink itself
//	mkdtemp    {path}                                  → path (the shim draws the random suffix)
//	changes    {since}                                 → {rev, changes: [{op, path, oldPath?}]} (the change feed under Root; fs.watch)
//
// Stats are maps {dev, ino, mode, nlink, uid, gid, rdev, size, blksize,
// blocks, atimeMs, mtimeMs, ctimeMs, birthtimeMs, atimeNs, mtimeNs, ctimeNs,
// birthtimeNs, type} where mode carries the S_IFREG/S_IFDIR/S_IFLNK type
// bits, type is "file", "dir" or "symlink", the *Ms times are float
// milliseconds (as in Node) and the *Ns times the exact nanoseconds since
// the epoch as decimal strings (see nsString).
//
// Errors are *CallError values worded as Node words them ("ENOENT: no such
// file or directory, open '/workspace/a'"), with Path (and Dest for two-path
// ops) as the code gave them. Paths outside Root, and symlinks whose
// resolution leaves Root, fail with EACCES (see confine). Under ReadOnly
// access every mutation fails with EROFS.
//
// Limits: a file read larger than MaxCallBytes, and a write whose data is
// larger, fail with the catchable code ERR_FS_FILE_TOO_LARGE (Node's code for
// a file too big to read whole), whose message names MaxCallBytes and says to
// use ranged reads and writes through a file handle; pread returns at most
// MaxCallBytes bytes (a short read, which the shim's read loop continues). A
// listing of more than MaxDirEntries entries fails with the catchable code
// ERR_FS_DIR_TOO_LARGE naming MaxDirEntries; readdirPage (fs.opendir) reads
// a directory of any size in pages.
type FSOps struct {
	FS     *vfs.FS
	Root   string
	Access Access
	Limits Limits
}

// fsOpTable holds every operation, each bound to the struct of its
// arguments (see bind).
var fsOpTable map[string]opFunc

func init() {
	fsOpTable = map[string]opFunc{
		"readFile":    bind((*FSOps).opReadFile),
		"pread":       bind((*FSOps).opPread),
		"writeFile":   bind((*FSOps).opWriteFile),
		"pwrite":      bind((*FSOps).opPwrite),
		"truncate":    bind((*FSOps).opTruncate),
		"open":        bind((*FSOps).opOpen),
		"stat":        bind((*FSOps).opStat),
		"lstat":       bind((*FSOps).opLstat),
		"access":      bind((*FSOps).opAccess),
		"mkdir":       bind((*FSOps).opMkdir),
		"readdir":     bind((*FSOps).opReaddir),
		"readdirPage": bind((*FSOps).opReaddirPage),
		"rm":          bind((*FSOps).opRm),
		"rmdir":       bind((*FSOps).opRmdir),
		"unlink":      bind((*FSOps).opUnlink),
		"rename":      bind((*FSOps).opRename),
		"copyFile":    bind((*FSOps).opCopyFile),
		"cp":          bind((*FSOps).opCp),
		"symlink":     bind((*FSOps).opSymlink),
		"readlink":    bind((*FSOps).opReadlink),
		"realpath":    bind((*FSOps).opRealpath),
		"chmod":       bind((*FSOps).opChmod),
		"utimes":      bind((*FSOps).opUtimes),
		"lutimes":     bind((*FSOps).opLutimes),
		"mkdtemp":     bind((*FSOps).opMkdtemp),
		"link":        bind((*FSOps).opLink),
		"changes":     bind((*FSOps).opChanges),
	}
}

// FSOpNames returns the names of the ops Do serves, sorted.
func FSOpNames() []string {
	names := make([]string, 0, len(fsOpTable))
	for n := range fsOpTable {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Do performs one filesystem operation.
func (o *FSOps) Do(ctx context.Context, op string, args map[string]any) (any, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f := fsOpTable[op]
	if f == nil {
		return nil, &CallError{Code: "ENOSYS", Message: fmt.Sprintf("ENOSYS: function not implemented, fs op %q", op), Syscall: op}
	}
	if o.FS == nil {
		return nil, &CallError{Code: "EIO", Message: "EIO: i/o error, no filesystem", Syscall: op}
	}
	return f(o, ctx, fsArgs{op: op, m: args})
}

// lim returns the limits with defaults applied.
func (o *FSOps) lim() Limits { return o.Limits.WithDefaults() }

// readOnly reports whether mutations are refused.
func (o *FSOps) readOnly() bool { return o.Access == ReadOnly }

// umask is applied to the modes of created files and directories, as a
// process with Node's usual umask would see.
const umask = 0o022

// The Linux open(2) flags the shim passes (fs.constants in Node on Linux).
const (
	oRDONLY = 0
	oWRONLY = 1
	oRDWR   = 2
	oCREAT  = 0o100
	oEXCL   = 0o200
	oTRUNC  = 0o1000
	oAPPEND = 0o2000
)

// File type bits of a stat mode.
const (
	sIFREG = 0o100000
	sIFDIR = 0o040000
	sIFLNK = 0o120000
)

// statMap describes fi as the shim builds a fs.Stats from it.
func statMap(fi *vfs.FileInfo) map[string]any {
	typ, bits := "file", sIFREG
	switch fi.Kind {
	case vfs.TypeDir:
		typ, bits = "dir", sIFDIR
	case vfs.TypeSymlink:
		typ, bits = "symlink", sIFLNK
	}
	size := fi.Bytes
	birth := fi.Ctime
	if fi.Mtime.Before(birth) {
		birth = fi.Mtime
	}
	ms := func(t time.Time) float64 { return float64(t.UnixNano()) / 1e6 }
	return map[string]any{
		"dev":         float64(1),
		"ino":         float64(fi.Inode),
		"mode":        float64(bits | int(vfs.UnixMode(fi.Perm))),
		"nlink":       float64(fi.Nlink),
		"uid":         float64(0),
		"gid":         float64(0),
		"rdev":        float64(0),
		"size":        float64(size),
		"blksize":     float64(4096),
		"blocks":      float64((size + 511) / 512),
		"atimeMs":     ms(fi.Atime),
		"mtimeMs":     ms(fi.Mtime),
		"ctimeMs":     ms(fi.Ctime),
		"birthtimeMs": ms(birth),
		"atimeNs":     nsString(fi.Atime.UnixNano()),
		"mtimeNs":     nsString(fi.Mtime.UnixNano()),
		"ctimeNs":     nsString(fi.Ctime.UnixNano()),
		"birthtimeNs": nsString(birth.UnixNano()),
		"type":        typ,
	}
}

// typeName is the shim's name of a node kind.
func typeName(k vfs.Type) string {
	switch k {
	case vfs.TypeDir:
		return "dir"
	case vfs.TypeSymlink:
		return "symlink"
	}
	return "file"
}

// withDest rewrites a one-path error of a two-path op to name both paths,
// as Node does ("rename '/a' -> '/b'").
func withDest(err error, path, dest string) error {
	ce, ok := err.(*CallError)
	if !ok || ce.Syscall == "" || ce.Dest != "" || fsDescriptions[ce.Code] == "" {
		return err
	}
	return fsErr(ce.Code, ce.Syscall, path, dest)
}
