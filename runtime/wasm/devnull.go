package wasm

import (
	"io/fs"
	"path"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/sys"
)

// /dev/null. When the guest sees the workspace root as its / (Mount "/",
// as the CLI and the conformance suite run guests), POSIX programs expect
// /dev/null, and Go's os.DevNull is that path. The guest's /dev/null is
// then the null device, whatever the workspace holds at /dev/null (as on a
// real system, where /dev is its own filesystem): it can be opened with any
// flags and stat'ed; reads see end of file and writes are discarded, all
// without a host call. With any other mount, /dev is outside every
// preopened directory and the guest cannot name it.

// isDevNull reports whether p, a path relative to the mount, is /dev/null.
func (v *vfsFS) isDevNull(p string) bool {
	return v.st.opts.Mount == "/" && path.Clean("/"+p) == "/dev/null"
}

var devNullStat = sys.Stat_t{Mode: fs.ModeDevice | fs.ModeCharDevice | 0o666, Nlink: 1}

// nullFile is an open /dev/null.
type nullFile struct {
	experimentalsys.UnimplementedFile // Seek, Readdir: ENOSYS, as wazero's host files say for a device
	append                            bool
}

func (*nullFile) IsDir() (bool, experimentalsys.Errno)             { return false, 0 }
func (f *nullFile) IsAppend() bool                                 { return f.append }
func (f *nullFile) SetAppend(on bool) experimentalsys.Errno        { f.append = on; return 0 }
func (*nullFile) Stat() (sys.Stat_t, experimentalsys.Errno)        { return devNullStat, 0 }
func (*nullFile) Read([]byte) (int, experimentalsys.Errno)         { return 0, 0 }
func (*nullFile) Pread([]byte, int64) (int, experimentalsys.Errno) { return 0, 0 }
func (*nullFile) Write(b []byte) (int, experimentalsys.Errno)      { return len(b), 0 }
func (*nullFile) Pwrite(b []byte, _ int64) (int, experimentalsys.Errno) {
	return len(b), 0
}
func (*nullFile) Truncate(int64) experimentalsys.Errno       { return 0 }
func (*nullFile) Sync() experimentalsys.Errno                { return 0 }
func (*nullFile) Datasync() experimentalsys.Errno            { return 0 }
func (*nullFile) Utimens(int64, int64) experimentalsys.Errno { return 0 }
func (*nullFile) Close() experimentalsys.Errno               { return 0 }
