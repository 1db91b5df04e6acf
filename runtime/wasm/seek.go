package wasm

import (
	"io"
	"io/fs"
	"time"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/experimental/sysfs"
)

// wazero's sys.File requires Seek(int64, int) (int64, sys.Errno), and go
// vet's stdmethods check refuses to let any method named Seek have a
// signature other than io.Seeker's. So file does not declare Seek: it
// embeds a sys.File made by wazero's own fs.FS adapter over a proxy that
// has io.Seeker's signature and calls file.seek. The adapter's Seek turns
// the proxy's error back into the errno file.seek returned. Only Seek is
// reached through the embedded value; file declares every other method.
type seeker = experimentalsys.File

// newSeeker returns the embedded sys.File whose Seek calls f.seek.
func newSeeker(f *file) seeker {
	s, errno := (&sysfs.AdaptFS{FS: seekFS{&seekProxy{f}}}).OpenFile(".", experimentalsys.O_RDONLY, 0)
	if errno != 0 {
		panic("wasm: cannot adapt a seeker: " + errno.Error())
	}
	return s
}

type seekFS struct{ p *seekProxy }

func (s seekFS) Open(string) (fs.File, error) { return s.p, nil }

// seekProxy is an fs.File and io.Seeker standing for a file. It reports a
// regular file, so the adapter passes even a directory's rewind through.
type seekProxy struct{ f *file }

func (p *seekProxy) Stat() (fs.FileInfo, error) { return proxyInfo{}, nil }
func (p *seekProxy) Read([]byte) (int, error)   { return 0, io.EOF }
func (p *seekProxy) Close() error               { return nil }

func (p *seekProxy) Seek(offset int64, whence int) (int64, error) {
	n, errno := p.f.seek(offset, whence)
	if errno != 0 {
		return n, errno
	}
	return n, nil
}

type proxyInfo struct{}

func (proxyInfo) Name() string       { return "." }
func (proxyInfo) Size() int64        { return 0 }
func (proxyInfo) Mode() fs.FileMode  { return 0 }
func (proxyInfo) ModTime() time.Time { return time.Time{} }
func (proxyInfo) IsDir() bool        { return false }
func (proxyInfo) Sys() any           { return nil }
