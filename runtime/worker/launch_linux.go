package worker

import (
	"bufio"
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A Landlock domain is inherited across fork and exec, and, unlike
// restricting a running process, restricting one thread needs no help
// from the Go runtime (syscall.AllThreadsSyscall, which a binary with cgo
// does not have). So the parent starts its workers from one OS thread of
// its own that has restricted itself: a goroutine locked to its thread
// for the life of the process, never handed back to the scheduler (which
// does not start new threads from a locked one), whose domain grants
// nothing but reading and executing the files a worker needs to start.
// Every worker then starts inside that domain, with or without cgo, on
// any kernel with Landlock; a worker that can restrict itself further
// (no cgo, or Linux 6.19's TSYNC) adds a domain granting nothing at all.

// launcher starts the workers of one command from its restricted thread.
type launcher struct {
	abi  int   // the Landlock ABI of its domain (0: none)
	err  error // why it has none
	jobs chan launchJob
}

type launchJob struct {
	cmd  *exec.Cmd
	done chan error
}

var (
	launchMu  sync.Mutex
	launchers = map[string]*launcher{}
)

// startWorker starts cmd (a worker) inside the Landlock domain of its
// command's launcher when the kernel has Landlock, and reports the ABI
// of that domain (0: started outside any, as an ordinary child).
func startWorker(cmd *exec.Cmd) (int, error) {
	l := launcherFor(cmd)
	if l.abi == 0 {
		return 0, cmd.Start()
	}
	done := make(chan error, 1)
	l.jobs <- launchJob{cmd, done}
	return l.abi, <-done
}

// launcherFor is the launcher of cmd's program and time zone, started on
// first use.
func launcherFor(cmd *exec.Cmd) *launcher {
	tz, _ := lookupEnv(cmd.Env, "TZ")
	key := cmd.Path + "\x00" + tz
	launchMu.Lock()
	defer launchMu.Unlock()
	if l := launchers[key]; l != nil {
		return l
	}
	l := &launcher{jobs: make(chan launchJob)}
	files, err := workerFiles(cmd.Path, tz)
	if err != nil {
		l.err = err
	} else {
		ready := make(chan struct{})
		go l.serve(files, ready)
		<-ready
	}
	launchers[key] = l
	return l
}

// serve restricts its thread, then starts workers on it for ever.
func (l *launcher) serve(files []string, ready chan struct{}) {
	// Never unlocked: the thread is restricted, and a goroutine that
	// ends while locked takes its thread with it, so none other runs on
	// it.
	goruntime.LockOSThread()
	l.abi, l.err = restrictThread(files)
	close(ready)
	if l.abi == 0 {
		return
	}
	for j := range l.jobs {
		j.done <- j.cmd.Start()
	}
}

// restrictThread restricts the calling thread (only: its siblings keep
// their rights) to reading and executing files.
func restrictThread(files []string) (int, error) {
	abi := landlockABI()
	if abi <= 0 {
		return 0, errors.New("the kernel has no Landlock")
	}
	attr, size := landlockRuleset(abi)
	fd, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), size, 0)
	if e != 0 {
		return 0, fmt.Errorf("landlock_create_ruleset: %v", e)
	}
	defer unix.Close(int(fd))
	for _, name := range files {
		f, err := unix.Open(name, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			return 0, fmt.Errorf("opening %s: %v", name, err)
		}
		rule := unix.LandlockPathBeneathAttr{
			Allowed_access: unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE,
			Parent_fd:      int32(f),
		}
		_, _, e := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, fd, unix.LANDLOCK_RULE_PATH_BENEATH,
			uintptr(unsafe.Pointer(&rule)), 0, 0, 0)
		unix.Close(f)
		if e != 0 {
			return 0, fmt.Errorf("landlock_add_rule %s: %v", name, e)
		}
	}
	// Both on this thread only (RawSyscall: no scheduler hand-off).
	if _, _, e := unix.RawSyscall(unix.SYS_PRCTL, unix.PR_SET_NO_NEW_PRIVS, 1, 0); e != 0 {
		return 0, fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %v", e)
	}
	if _, _, e := unix.RawSyscall(unix.SYS_LANDLOCK_RESTRICT_SELF, fd, 0, 0); e != 0 {
		return 0, fmt.Errorf("landlock_restrict_self: %v", e)
	}
	return abi, nil
}

// workerFiles are the files a worker process reads to start: its program,
// the program's ELF interpreter and shared libraries (found as the dynamic
// loader finds them), the loader's cache, and its time zone. A program
// that is not ELF (a script) has no launcher: its workers restrict
// themselves.
func workerFiles(prog, tz string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	add := func(name string) bool {
		real, err := filepath.EvalSymlinks(name)
		if err != nil {
			return false
		}
		if st, err := os.Stat(real); err != nil || !st.Mode().IsRegular() {
			return false
		}
		if !seen[real] {
			seen[real] = true
			out = append(out, real)
		}
		return true
	}
	if !add(prog) {
		return nil, fmt.Errorf("%s is not a regular file", prog)
	}
	dirs := libraryDirs()
	var walk func(name string, depth int) error
	walk = func(name string, depth int) error {
		f, err := elf.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				b := make([]byte, p.Filesz)
				if _, err := p.ReadAt(b, 0); err != nil {
					return err
				}
				interp := strings.TrimRight(string(b), "\x00")
				if !add(interp) {
					return fmt.Errorf("%s: no interpreter %s", name, interp)
				}
				dirs = append(dirs, filepath.Dir(interp))
			}
		}
		libs, _ := f.ImportedLibraries()
		var own []string
		for _, tag := range []elf.DynTag{elf.DT_RUNPATH, elf.DT_RPATH} {
			paths, _ := f.DynString(tag)
			for _, p := range paths {
				for _, d := range filepath.SplitList(p) {
					own = append(own, strings.ReplaceAll(d, "$ORIGIN", filepath.Dir(name)))
				}
			}
		}
	next:
		for _, lib := range libs {
			for _, d := range append(own, dirs...) {
				p := filepath.Join(d, lib)
				if seen[p] {
					continue next
				}
				if _, err := os.Stat(p); err == nil && add(p) {
					if depth < 8 {
						if err := walk(p, depth+1); err != nil {
							return err
						}
					}
					continue next
				}
			}
			return fmt.Errorf("%s: no library %s", name, lib)
		}
		return nil
	}
	if err := walk(prog, 0); err != nil {
		return nil, err
	}
	add("/etc/ld.so.cache")
	switch {
	case tz == "":
		add("/etc/localtime")
	case strings.HasPrefix(tz, "/"):
		add(tz)
	default:
		for _, d := range []string{"/usr/share/zoneinfo/", "/usr/share/lib/zoneinfo/", "/usr/lib/locale/TZ/", "/etc/zoneinfo/"} {
			add(d + strings.TrimPrefix(tz, ":"))
		}
	}
	return out, nil
}

// libraryDirs are where the dynamic loader looks for libraries: the
// directories of those this process has mapped, then the usual ones.
func libraryDirs() []string {
	var dirs []string
	if f, err := os.Open("/proc/self/maps"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if i := strings.Index(sc.Text(), " /"); i >= 0 && strings.Contains(sc.Text(), ".so") {
				dirs = append(dirs, filepath.Dir(sc.Text()[i+1:]))
			}
		}
		f.Close()
	}
	return append(dirs, "/lib/"+multiarch, "/usr/lib/"+multiarch, "/lib64", "/usr/lib64", "/lib", "/usr/lib")
}

func lookupEnv(env []string, name string) (string, bool) {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			return v, true
		}
	}
	return "", false
}

// multiarch is the Debian multiarch directory of this architecture's
// libraries.
var multiarch = map[string]string{"amd64": "x86_64-linux-gnu", "arm64": "aarch64-linux-gnu",
	"386": "i386-linux-gnu", "arm": "arm-linux-gnueabihf", "riscv64": "riscv64-linux-gnu",
	"ppc64le": "powerpc64le-linux-gnu", "s390x": "s390x-linux-gnu"}[goruntime.GOARCH]
