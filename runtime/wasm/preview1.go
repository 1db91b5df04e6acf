package wasm

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// The guest's wasi_snapshot_preview1 is wazero's, with a layer of our own
// in front of every function that takes a file descriptor (see
// RATIONALE.md, "WASI preview1: what is ours"). wazero keeps its file table
// inside the module instance, where nothing outside wazero can reach it, so
// the guest's descriptors are ours (fdTable) and each names one of
// wazero's; the functions wazero gets wrong for the WASI testsuite
// (fd_renumber, fd_fdstat_get/set_rights, fd_prestat_*, poll_oneoff,
// path_readlink into a short buffer, path_link's flags,
// path_filestat_set_times without following, sock_shutdown) are done here
// around wazero's, whose file operations still go through vfsFS, and so
// through the Host: replay and journaling are unchanged.

// WASI errno values.
const (
	errnoSuccess     = 0
	errnoBadf        = 8
	errnoFault       = 21
	errnoInval       = 28
	errnoNametoolong = 37
	errnoNotsock     = 57
	errnoNotcapable  = 76
)

// WASI rights.
const (
	rightFdDatasync          = 1 << 0
	rightFdRead              = 1 << 1
	rightFdSeek              = 1 << 2
	rightFdFdstatSetFlags    = 1 << 3
	rightFdSync              = 1 << 4
	rightFdTell              = 1 << 5
	rightFdWrite             = 1 << 6
	rightFdAdvise            = 1 << 7
	rightFdAllocate          = 1 << 8
	rightPathCreateDirectory = 1 << 9
	rightPathCreateFile      = 1 << 10
	rightPathLinkSource      = 1 << 11
	rightPathLinkTarget      = 1 << 12
	rightPathOpen            = 1 << 13
	rightFdReaddir           = 1 << 14
	rightPathReadlink        = 1 << 15
	rightPathRenameSource    = 1 << 16
	rightPathRenameTarget    = 1 << 17
	rightPathFilestatGet     = 1 << 18
	rightPathFilestatSetSize = 1 << 19
	rightPathFilestatSetTime = 1 << 20
	rightFdFilestatGet       = 1 << 21
	rightFdFilestatSetSize   = 1 << 22
	rightFdFilestatSetTimes  = 1 << 23
	rightPathSymlink         = 1 << 24
	rightPathRemoveDirectory = 1 << 25
	rightPathUnlinkFile      = 1 << 26
	rightPollFdReadwrite     = 1 << 27

	// fileRights are those of a regular file or a character device.
	fileRights = rightFdDatasync | rightFdRead | rightFdSeek | rightFdFdstatSetFlags | rightFdSync |
		rightFdTell | rightFdWrite | rightFdAdvise | rightFdAllocate | rightFdFilestatGet |
		rightFdFilestatSetSize | rightFdFilestatSetTimes | rightPollFdReadwrite
	// dirRights are those of a directory (no seek, read, write or
	// truncation: the testsuite checks that a directory lacks them).
	dirRights = rightFdDatasync | rightFdFdstatSetFlags | rightFdSync | rightPathCreateDirectory |
		rightPathCreateFile | rightPathLinkSource | rightPathLinkTarget | rightPathOpen | rightFdReaddir |
		rightPathReadlink | rightPathRenameSource | rightPathRenameTarget | rightPathFilestatGet |
		rightPathFilestatSetSize | rightPathFilestatSetTime | rightFdFilestatGet | rightFdFilestatSetTimes |
		rightPathSymlink | rightPathRemoveDirectory | rightPathUnlinkFile
)

// fdflags kept here: wazero does not report the sync flags.
const fdflagsSync = 2 | 8 | 16 // DSYNC, RSYNC, SYNC

// fdEntry is one of the guest's file descriptors.
type fdEntry struct {
	real      uint32 // wazero's descriptor
	base, inh uint64 // rights
	preopen   bool
	sync      uint16 // the sync fdflags it was opened with
	// narrowed is set once fd_fdstat_set_rights dropped rights: from then
	// on fd_read, fd_write and path_open's O_TRUNC check them (before, the
	// access mode wazero opened the file with decides, as it did: Go opens
	// a directory without the truncation right and then creates files in
	// it with O_TRUNC).
	narrowed bool
}

// fdTable maps the guest's descriptors to wazero's.
type fdTable struct {
	m map[uint32]*fdEntry
}

// newFDTable is the table at the start: stdio and the preopen (fd 3),
// each its own number in wazero.
func newFDTable() *fdTable {
	t := &fdTable{m: map[uint32]*fdEntry{}}
	for fd := uint32(0); fd < 3; fd++ {
		t.m[fd] = &fdEntry{real: fd, base: fileRights &^ (rightFdSeek | rightFdTell)}
	}
	t.m[3] = &fdEntry{real: 3, base: dirRights, inh: fileRights | dirRights, preopen: true}
	return t
}

// add gives wazero's new descriptor real the lowest free guest number.
func (t *fdTable) add(e *fdEntry) uint32 {
	for fd := uint32(0); ; fd++ {
		if t.m[fd] == nil {
			t.m[fd] = e
			return fd
		}
	}
}

// fdParams are the parameters that are file descriptors, by function.
var fdParams = map[string][]int{
	"fd_advise": {0}, "fd_allocate": {0}, "fd_close": {0}, "fd_datasync": {0}, "fd_fdstat_get": {0},
	"fd_fdstat_set_flags": {0}, "fd_fdstat_set_rights": {0}, "fd_filestat_get": {0},
	"fd_filestat_set_size": {0}, "fd_filestat_set_times": {0}, "fd_pread": {0}, "fd_prestat_get": {0},
	"fd_prestat_dir_name": {0}, "fd_pwrite": {0}, "fd_read": {0}, "fd_readdir": {0}, "fd_renumber": {0, 1},
	"fd_seek": {0}, "fd_sync": {0}, "fd_tell": {0}, "fd_write": {0}, "path_create_directory": {0},
	"path_filestat_get": {0}, "path_filestat_set_times": {0}, "path_link": {0, 4}, "path_open": {0},
	"path_readlink": {0}, "path_remove_directory": {0}, "path_rename": {0, 3}, "path_symlink": {2},
	"path_unlink_file": {0}, "sock_accept": {0}, "sock_recv": {0}, "sock_send": {0}, "sock_shutdown": {0},
}

// preview1 is wazero's preview1 implementation, by function name.
type preview1 map[string]api.GoModuleFunction

// instantiateWASI instantiates wasi_snapshot_preview1 in rt: wazero's
// functions, those with descriptors behind our table.
func instantiateWASI(ctx context.Context, rt wazero.Runtime) error {
	// wazero's functions, to call from ours: compiled, not instantiated,
	// under another name.
	b0 := rt.NewHostModuleBuilder("nook_wazero_preview1")
	wasi_snapshot_preview1.NewFunctionExporter().ExportFunctions(b0)
	cm0, err := b0.Compile(ctx)
	if err != nil {
		return err
	}
	impl := preview1{}
	defs := cm0.ExportedFunctions()
	for name, def := range defs {
		f, ok := def.GoFunction().(api.GoModuleFunction)
		if !ok {
			return fmt.Errorf("wazero's %s is not a Go function", name)
		}
		impl[name] = f
	}
	b := rt.NewHostModuleBuilder(wasi_snapshot_preview1.ModuleName)
	wasi_snapshot_preview1.NewFunctionExporter().ExportFunctions(b)
	for name := range fdParams {
		def := defs[name]
		if def == nil {
			continue
		}
		b.NewFunctionBuilder().WithGoModuleFunction(impl.wrap(name), def.ParamTypes(), def.ResultTypes()).
			WithParameterNames(def.ParamNames()...).Export(name)
	}
	poll := defs["poll_oneoff"]
	b.NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(pollOneoff), poll.ParamTypes(), poll.ResultTypes()).
		WithParameterNames(poll.ParamNames()...).Export("poll_oneoff")
	if err := cm0.Close(ctx); err != nil {
		return err
	}
	_, err = b.Instantiate(ctx)
	return err
}

// wrap returns the function name: the guest's descriptors translated to
// wazero's, and what is ours done before or after wazero's.
func (impl preview1) wrap(name string) api.GoModuleFunction {
	f := impl[name]
	params := fdParams[name]
	return api.GoModuleFunc(func(ctx context.Context, mod api.Module, stack []uint64) {
		st := stateOf(ctx)
		if st == nil || st.fds == nil {
			f.Call(ctx, mod, stack)
			return
		}
		t := st.fds
		var guestA [2]uint32 // no function has more than two descriptors
		var entsA [2]*fdEntry
		guest, ents := guestA[:len(params)], entsA[:len(params)]
		for i, p := range params {
			guest[i] = uint32(stack[p])
			if ents[i] = t.m[guest[i]]; ents[i] == nil {
				stack[0] = errnoBadf
				return
			}
		}
		e := ents[0]
		switch name {
		case "fd_renumber":
			if guest[0] != guest[1] {
				// Close wazero's descriptor behind to (a preopen or stdio
				// included), then give to from's.
				cs := []uint64{uint64(ents[1].real)}
				impl["fd_close"].Call(ctx, mod, cs)
				t.m[guest[1]] = e
				delete(t.m, guest[0])
			}
			stack[0] = errnoSuccess
			return
		case "fd_fdstat_set_rights":
			base, inh := stack[1], stack[2]
			if base&^e.base != 0 || inh&^e.inh != 0 {
				stack[0] = errnoNotcapable
				return
			}
			e.base, e.inh, e.narrowed = base, inh, true
			stack[0] = errnoSuccess
			return
		case "fd_prestat_get", "fd_prestat_dir_name":
			if !e.preopen {
				stack[0] = errnoBadf
				return
			}
			if name == "fd_prestat_dir_name" {
				// A buffer shorter than the name is ENAMETOOLONG (wazero
				// truncates the name).
				dir := []byte(st.opts.Mount)
				if uint32(stack[2]) < uint32(len(dir)) {
					stack[0] = errnoNametoolong
					return
				}
				if !mod.Memory().Write(uint32(stack[1]), dir) {
					stack[0] = errnoFault
					return
				}
				stack[0] = errnoSuccess
				return
			}
		case "sock_shutdown":
			// No descriptor of a run is a socket.
			stack[0] = errnoNotsock
			return
		case "fd_read", "fd_pread":
			if e.narrowed && e.base&rightFdRead == 0 {
				stack[0] = errnoBadf
				return
			}
		case "fd_write", "fd_pwrite":
			if e.narrowed && e.base&rightFdWrite == 0 {
				stack[0] = errnoBadf
				return
			}
		case "path_open":
			st.lastOpenDir = false
			if uint16(stack[4])&8 != 0 && e.narrowed && e.base&rightPathFilestatSetSize == 0 { // O_TRUNC
				stack[0] = errnoNotcapable
				return
			}
		case "path_link":
			// Following a symlink at the source is not supported (as in
			// wasmtime): link(2) links the symlink itself.
			if stack[1]&1 != 0 {
				stack[0] = errnoInval
				return
			}
		case "path_filestat_set_times":
			if stack[1]&1 == 0 {
				st.noFollow = true
				defer func() { st.noFollow = false }()
			}
		case "path_readlink":
			st.lastLink = nil
		}
		// path_open's arguments, before wazero's result overwrites them.
		var openRes uint32
		var openBase, openInh uint64
		var openFlags uint16
		if name == "path_open" {
			openRes, openBase, openInh, openFlags = uint32(stack[8]), stack[5], stack[6], uint16(stack[7])
		}
		for i, p := range params {
			stack[p] = uint64(ents[i].real)
		}
		f.Call(ctx, mod, stack)
		switch name {
		case "fd_close":
			if stack[0] == errnoSuccess {
				delete(t.m, guest[0])
			}
		case "fd_fdstat_get":
			if stack[0] == errnoSuccess {
				ptr := uint32(stack[1])
				if buf, ok := mod.Memory().Read(ptr, 24); ok {
					flags := binary.LittleEndian.Uint16(buf[2:])
					binary.LittleEndian.PutUint16(buf[2:], flags|e.sync)
					binary.LittleEndian.PutUint64(buf[8:], e.base)
					binary.LittleEndian.PutUint64(buf[16:], e.inh)
				}
			}
		case "path_open":
			if stack[0] == errnoSuccess {
				real, _ := mod.Memory().ReadUint32Le(openRes)
				// Rights: those asked for, that the directory passes on,
				// that the file's type has.
				kind := uint64(fileRights)
				if st.lastOpenDir {
					kind = dirRights
				}
				ne := &fdEntry{real: real, base: openBase & e.inh & kind, inh: openInh & e.inh, sync: openFlags & fdflagsSync}
				mod.Memory().WriteUint32Le(openRes, t.add(ne))
			}
		case "sock_accept":
			if stack[0] == errnoSuccess {
				res := uint32(stack[2])
				real, _ := mod.Memory().ReadUint32Le(res)
				mod.Memory().WriteUint32Le(res, t.add(&fdEntry{real: real, base: fileRights}))
			}
		case "path_readlink":
			// A buffer too small gets the start of the target, as
			// readlink(2) does (wazero says ERANGE).
			if stack[0] == 68 && st.lastLink != nil { // ERANGE
				buf, n, used := uint32(stack[3]), uint32(stack[4]), uint32(stack[5])
				l := st.lastLink
				if uint32(len(l)) > n {
					l = l[:n]
				}
				if !mod.Memory().Write(buf, l) || !mod.Memory().WriteUint32Le(used, uint32(len(l))) {
					stack[0] = errnoFault
					return
				}
				stack[0] = errnoSuccess
			}
		}
	})
}

// pollOneoff implements poll_oneoff(in, out, nsubscriptions, nevents):
// descriptors are always ready (files, and stdio, whose input is read to
// the end before the run starts and whose output never blocks); clocks
// sleep through the run's clock, for at most the rest of the run.
func pollOneoff(ctx context.Context, mod api.Module, stack []uint64) {
	in, out, n, neventsPtr := uint32(stack[0]), uint32(stack[1]), uint32(stack[2]), uint32(stack[3])
	st := stateOf(ctx)
	if n == 0 {
		stack[0] = errnoInval
		return
	}
	mem := mod.Memory()
	if st == nil || mem == nil || uint64(n)*48 > uint64(mem.Size()) {
		stack[0] = errnoFault
		return
	}
	subs, ok1 := mem.Read(in, n*48)
	_, ok2 := mem.Read(out, n*32)
	if !ok1 || !ok2 {
		stack[0] = errnoFault
		return
	}
	subs = append([]byte(nil), subs...) // in and out may overlap
	type event struct {
		userdata uint64
		errno    uint16
		typ      byte
	}
	var events []event
	var clocks []int // subscriptions that are clocks
	var wait []int64 // how long each clock waits
	for i := uint32(0); i < n; i++ {
		s := subs[i*48 : i*48+48]
		ud := binary.LittleEndian.Uint64(s)
		switch tag := s[8]; tag {
		case 0: // clock
			id := binary.LittleEndian.Uint32(s[16:])
			timeout := int64(binary.LittleEndian.Uint64(s[24:]))
			abs := binary.LittleEndian.Uint16(s[40:])&1 != 0
			d := timeout
			if abs {
				switch id {
				case 0: // realtime
					d = timeout - st.host.Now().UnixNano()
				default:
					d = timeout - st.nanotime()
				}
			}
			if id > 3 {
				events = append(events, event{ud, errnoInval, 0})
				continue
			}
			clocks = append(clocks, int(i))
			wait = append(wait, d)
		case 1, 2: // fd_read, fd_write
			fd := binary.LittleEndian.Uint32(s[16:])
			e := event{userdata: ud, typ: tag}
			if st.fds != nil && st.fds.m[fd] == nil {
				e.errno = errnoBadf
			}
			events = append(events, e)
		default:
			events = append(events, event{ud, errnoInval, tag})
		}
	}
	if len(events) == 0 && len(clocks) > 0 {
		least := wait[0]
		for _, d := range wait[1:] {
			least = min(least, d)
		}
		if least > 0 {
			// Cut short when the run ends; the guest is stopped at its
			// next check.
			st.nanosleep(least)
		}
		for k, i := range clocks {
			if wait[k] <= least {
				events = append(events, event{userdata: binary.LittleEndian.Uint64(subs[i*48:]), typ: 0})
			}
		}
	} else {
		for k, i := range clocks {
			if wait[k] <= 0 {
				events = append(events, event{userdata: binary.LittleEndian.Uint64(subs[i*48:]), typ: 0})
			}
		}
	}
	buf := make([]byte, 32*len(events))
	for k, e := range events {
		b := buf[k*32:]
		binary.LittleEndian.PutUint64(b, e.userdata)
		binary.LittleEndian.PutUint16(b[8:], e.errno)
		b[10] = e.typ
	}
	if !mem.Write(out, buf) || !mem.WriteUint32Le(neventsPtr, uint32(len(events))) {
		stack[0] = errnoFault
		return
	}
	stack[0] = errnoSuccess
}
