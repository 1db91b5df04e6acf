package worker

import (
	"fmt"
	"os"
	goruntime "runtime"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// sandboxSelf drops what the worker process can do, once everything it
// needs is open: no new privileges, Landlock with no filesystem access (and,
// where the kernel has them, no TCP and no signals out of the process), and
// a seccomp filter (see seccompFilter). It reports the Landlock ABI it used
// (0: none: the kernel has no Landlock) and whether the filter is in place.
//
// Both must apply to every thread of the process. seccomp(2) has a flag
// for it (TSYNC, which also sets no-new-privileges on every thread; it
// works with or without cgo), and Landlock has one from Linux 6.19;
// otherwise each is installed thread by thread with
// syscall.AllThreadsSyscall, which works only in a binary without cgo
// (CGO_ENABLED=0). A layer that cannot
// cover every thread is not used, and is reported as not in force.
// Threads started later inherit both from the thread that starts them.
func sandboxSelf() (landlock int, seccomp bool, err error) {
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return 0, false, fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %v", err)
	}
	landlock, err = restrictLandlock()
	if err != nil {
		return 0, false, err
	}
	prog := seccompFilter(os.Getpid())
	if prog == nil {
		return landlock, false, nil
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	_, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC,
		uintptr(unsafe.Pointer(&fprog)))
	if e != 0 {
		// seccomp(2) refused (some hosts filter it): install the filter
		// on each thread with prctl.
		if _, _, e = syscall.AllThreadsSyscall(unix.SYS_PRCTL, unix.PR_SET_NO_NEW_PRIVS, 1, 0); e == 0 {
			_, _, e = syscall.AllThreadsSyscall(unix.SYS_PRCTL, unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER,
				uintptr(unsafe.Pointer(&fprog)))
		}
		if e == unix.ENOTSUP {
			// cgo is linked: the threads cannot all be filtered.
			return landlock, false, nil
		}
		if e != 0 {
			return landlock, false, fmt.Errorf("seccomp: %v", e)
		}
	}
	goruntime.KeepAlive(prog)
	return landlock, true, nil
}

// landlockABI is the kernel's Landlock ABI version (0: none).
func landlockABI() int {
	v, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if e != 0 {
		return 0
	}
	return int(v)
}

// restrictLandlock restricts every thread of the process to no filesystem
// access at all: a ruleset that handles every right the kernel knows, with
// no rule granting any.
func restrictLandlock() (int, error) {
	abi := landlockABI()
	if abi <= 0 {
		return 0, nil
	}
	attr, size := landlockRuleset(abi)
	fd, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), size, 0)
	if e != 0 {
		return 0, fmt.Errorf("landlock_create_ruleset: %v", e)
	}
	defer unix.Close(int(fd))
	// Landlock applies to the calling thread: restrict every thread of
	// the process (the Go runtime already has several).
	_, _, e = unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, fd, unix.LANDLOCK_RESTRICT_SELF_TSYNC, 0)
	if e == unix.EINVAL {
		// An older kernel: no TSYNC.
		if _, _, e = syscall.AllThreadsSyscall(unix.SYS_PRCTL, unix.PR_SET_NO_NEW_PRIVS, 1, 0); e == 0 {
			_, _, e = syscall.AllThreadsSyscall(unix.SYS_LANDLOCK_RESTRICT_SELF, fd, 0, 0)
		}
		if e == unix.ENOTSUP {
			// cgo is linked: the threads cannot all be restricted
			// here. They all are when the process started inside its
			// launcher's domain (launch_linux.go).
			if inDomain() {
				return abi, nil
			}
			return 0, nil
		}
	}
	if e != 0 {
		return 0, fmt.Errorf("landlock_restrict_self: %v", e)
	}
	return abi, nil
}

// landlockRuleset is a ruleset that handles every right the kernel's
// Landlock ABI abi knows (filesystem, TCP, scopes), and its size for
// landlock_create_ruleset.
func landlockRuleset(abi int) (unix.LandlockRulesetAttr, uintptr) {
	var attr unix.LandlockRulesetAttr
	attr.Handled_access_fs = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE |
		unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR | unix.LANDLOCK_ACCESS_FS_REMOVE_DIR |
		unix.LANDLOCK_ACCESS_FS_REMOVE_FILE | unix.LANDLOCK_ACCESS_FS_MAKE_CHAR | unix.LANDLOCK_ACCESS_FS_MAKE_DIR |
		unix.LANDLOCK_ACCESS_FS_MAKE_REG | unix.LANDLOCK_ACCESS_FS_MAKE_SOCK | unix.LANDLOCK_ACCESS_FS_MAKE_FIFO |
		unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK | unix.LANDLOCK_ACCESS_FS_MAKE_SYM
	size := unsafe.Offsetof(attr.Handled_access_net)
	if abi >= 2 {
		attr.Handled_access_fs |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 {
		attr.Handled_access_fs |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	if abi >= 4 {
		attr.Handled_access_net = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
		size = unsafe.Offsetof(attr.Scoped)
	}
	if abi >= 5 {
		attr.Handled_access_fs |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	if abi >= 6 {
		attr.Scoped = unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | unix.LANDLOCK_SCOPE_SIGNAL
		size = unsafe.Offsetof(attr.Quiet_access_fs)
	}
	return attr, size
}

// inDomain reports that the process is inside a Landlock domain that
// handles reading directories and grants it nowhere (its launcher's): it
// cannot list the root directory.
func inDomain() bool {
	fd, err := unix.Open("/", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err == nil {
		unix.Close(fd)
	}
	return err == unix.EACCES
}

// BPF instructions.
func stmt(code uint16, k uint32) unix.SockFilter { return unix.SockFilter{Code: code, K: k} }
func jump(code uint16, k uint32, jt, jf uint8) unix.SockFilter {
	return unix.SockFilter{Code: code, Jt: jt, Jf: jf, K: k}
}

// Offsets in struct seccomp_data.
const (
	offNr   = 0
	offArch = 4
	offArg0 = 16 // the low 32 bits on a little-endian machine
)

// seccompFilter is the worker's seccomp program: on another architecture
// than the one it was built for, the process is killed; the syscalls of
// deniedSyscalls fail with EPERM; clone3 with ENOSYS; clone without
// CLONE_THREAD (a fork), and
// kill or tgkill aimed at another process than pid, fail with EPERM;
// everything else is allowed (the Go runtime needs mmap, futex, clone for
// threads, signals to its own threads, epoll, and so on). It is nil where
// the architecture has no list.
func seccompFilter(pid int) []unix.SockFilter {
	if auditArch == 0 {
		return nil
	}
	const (
		ld   = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq  = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jge  = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
		jset = unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K
		ret  = unix.BPF_RET | unix.BPF_K
	)
	eperm := uint32(unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM))
	allow := uint32(unix.SECCOMP_RET_ALLOW)
	p := []unix.SockFilter{
		stmt(ld, offArch),
		jump(jeq, auditArch, 1, 0),
		stmt(ret, unix.SECCOMP_RET_KILL_PROCESS),
		stmt(ld, offNr),
	}
	if syscallBit != 0 {
		// x32 system calls on x86-64.
		p = append(p, jump(jge, syscallBit, 0, 1), stmt(ret, eperm))
	}
	for _, nr := range deniedSyscalls {
		p = append(p, jump(jeq, uint32(nr), 0, 1), stmt(ret, eperm))
	}
	// clone3 passes its flags in memory, where a filter cannot look: it
	// says ENOSYS, so that glibc's pthread_create (in a binary with cgo)
	// falls back to clone, whose flags the next rule checks. (EPERM would
	// fail the thread, and the Go runtime with it.)
	p = append(p, jump(jeq, uint32(unix.SYS_CLONE3), 0, 1), stmt(ret, uint32(unix.SECCOMP_RET_ERRNO|uint32(unix.ENOSYS))))
	// clone: threads only.
	p = append(p,
		jump(jeq, uint32(unix.SYS_CLONE), 0, 4),
		stmt(ld, offArg0),
		jump(jset, unix.CLONE_THREAD, 0, 1),
		stmt(ret, allow),
		stmt(ret, eperm),
	)
	// kill and tgkill: this process only.
	for _, nr := range []uintptr{unix.SYS_KILL, unix.SYS_TGKILL} {
		p = append(p,
			jump(jeq, uint32(nr), 0, 4),
			stmt(ld, offArg0),
			jump(jeq, uint32(pid), 0, 1),
			stmt(ret, allow),
			stmt(ret, eperm),
		)
	}
	p = append(p, stmt(ret, allow))
	return p
}
