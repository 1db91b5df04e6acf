//go:build linux

package worker

import "golang.org/x/sys/unix"

const (
	auditArch  = unix.AUDIT_ARCH_X86_64
	syscallBit = 0x40000000 // __X32_SYSCALL_BIT
)

// deniedSyscalls fail with EPERM in a worker once it is sandboxed: opening
// or changing host paths, sockets, running programs, and the kernel
// interfaces a sandbox escape starts from.
var deniedSyscalls = []uintptr{
	unix.SYS_OPEN, unix.SYS_OPENAT, unix.SYS_OPENAT2, unix.SYS_CREAT, unix.SYS_OPEN_BY_HANDLE_AT,
	unix.SYS_NAME_TO_HANDLE_AT, unix.SYS_MKDIR, unix.SYS_MKDIRAT, unix.SYS_RMDIR, unix.SYS_UNLINK,
	unix.SYS_UNLINKAT, unix.SYS_RENAME, unix.SYS_RENAMEAT, unix.SYS_RENAMEAT2, unix.SYS_LINK, unix.SYS_LINKAT,
	unix.SYS_SYMLINK, unix.SYS_SYMLINKAT, unix.SYS_CHMOD, unix.SYS_FCHMODAT, unix.SYS_CHOWN,
	unix.SYS_LCHOWN, unix.SYS_FCHOWNAT, unix.SYS_TRUNCATE, unix.SYS_MKNOD, unix.SYS_MKNODAT,
	unix.SYS_SOCKET, unix.SYS_SOCKETPAIR, unix.SYS_CONNECT, unix.SYS_BIND, unix.SYS_LISTEN,
	unix.SYS_ACCEPT, unix.SYS_ACCEPT4,
	unix.SYS_EXECVE, unix.SYS_EXECVEAT, unix.SYS_FORK, unix.SYS_VFORK,
	unix.SYS_PTRACE, unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV, unix.SYS_PIDFD_OPEN,
	unix.SYS_PIDFD_GETFD, unix.SYS_PIDFD_SEND_SIGNAL, unix.SYS_TKILL, unix.SYS_RT_SIGQUEUEINFO,
	unix.SYS_RT_TGSIGQUEUEINFO,
	unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT, unix.SYS_CHROOT, unix.SYS_UNSHARE,
	unix.SYS_SETNS, unix.SYS_SETRLIMIT, unix.SYS_PRLIMIT64, unix.SYS_PERSONALITY,
	unix.SYS_BPF, unix.SYS_PERF_EVENT_OPEN, unix.SYS_USERFAULTFD, unix.SYS_KEYCTL, unix.SYS_ADD_KEY,
	unix.SYS_REQUEST_KEY, unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
	unix.SYS_MEMFD_CREATE, unix.SYS_KEXEC_LOAD, unix.SYS_KEXEC_FILE_LOAD, unix.SYS_INIT_MODULE,
	unix.SYS_FINIT_MODULE, unix.SYS_DELETE_MODULE, unix.SYS_QUOTACTL, unix.SYS_SWAPON, unix.SYS_SWAPOFF,
	unix.SYS_REBOOT, unix.SYS_SETHOSTNAME, unix.SYS_SETDOMAINNAME, unix.SYS_ACCT, unix.SYS_SETTIMEOFDAY,
	unix.SYS_CLOCK_SETTIME, unix.SYS_ADJTIMEX, unix.SYS_IOPL, unix.SYS_IOPERM, unix.SYS_FANOTIFY_INIT,
	unix.SYS_INOTIFY_INIT, unix.SYS_INOTIFY_INIT1, unix.SYS_OPEN_TREE, unix.SYS_MOVE_MOUNT,
	unix.SYS_FSOPEN, unix.SYS_FSMOUNT, unix.SYS_FSPICK, unix.SYS_MOUNT_SETATTR,
	unix.SYS_SETUID, unix.SYS_SETGID, unix.SYS_SETREUID, unix.SYS_SETREGID, unix.SYS_SETRESUID,
	unix.SYS_SETRESGID, unix.SYS_SETGROUPS, unix.SYS_CAPSET,
}
