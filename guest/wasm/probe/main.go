//go:build wasip1

// Command probe is the guest program of the wasm backend's tests and
// benchmarks: one mode per first argument.
package main

import (
	"bytes"
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/nookdev/nook/guest/wasm/nook"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Println("hello, world")
		return
	}
	arg := func(i int) string {
		if len(os.Args) > i {
			return os.Args[i]
		}
		return ""
	}
	switch os.Args[1] {
	case "hello":
		fmt.Println("hello, world")
	case "env":
		env := os.Environ()
		sort.Strings(env)
		wd, _ := os.Getwd()
		fmt.Printf("args=%q\nenv=%q\ncwd=%s\n", os.Args[2:], env, wd)
	case "exit":
		n, _ := strconv.Atoi(arg(2))
		fmt.Fprintln(os.Stderr, "exiting with", n)
		os.Exit(n)
	case "stdin":
		io.Copy(os.Stdout, os.Stdin)
	case "fs":
		fsTest(arg(2))
	case "files":
		n, _ := strconv.Atoi(arg(2))
		files(n, arg(3))
	case "write":
		check(os.WriteFile(arg(2), []byte(arg(3)), 0o644))
	case "cat":
		b, err := os.ReadFile(arg(2))
		check(err)
		os.Stdout.Write(b)
	case "spin":
		n, _ := strconv.Atoi(arg(2))
		fmt.Println(spin(n))
	case "loop":
		for {
		}
	case "recurse":
		fmt.Println(recurse(1))
	case "grow":
		var keep [][]byte
		for {
			keep = append(keep, make([]byte, 1<<20))
		}
	case "print":
		n, _ := strconv.Atoi(arg(2))
		line := strings.Repeat("x", 1023) + "\n"
		for i := 0; n == 0 || i < n; i++ {
			os.Stdout.WriteString(line)
		}
	case "sleep":
		d, _ := time.ParseDuration(arg(2))
		time.Sleep(d)
		fmt.Println("slept")
	case "call":
		res, err := nook.Call(arg(2), toArgs(os.Args[3:])...)
		if err != nil {
			var ne *nook.Error
			if errors.As(err, &ne) {
				fmt.Printf("error %s: %s\n", ne.Code, ne.Message)
				return
			}
			check(err)
		}
		fmt.Printf("result %s\n", res)
	case "interrupt":
		_, err := nook.Interrupt(map[string]any{"q": "may I?"})
		fmt.Println(err == nook.ErrNotSupported, err)
	case "journal":
		journal(arg(2))
	case "escape":
		escape()
	default:
		fmt.Fprintln(os.Stderr, "unknown mode", os.Args[1])
		os.Exit(2)
	}
}

// toArgs turns command-line arguments into call arguments: numbers,
// JSON objects and arrays as values, anything else as a string.
func toArgs(ss []string) []any {
	out := []any{}
	for _, s := range ss {
		var v any
		if n, err := strconv.ParseFloat(s, 64); err == nil {
			out = append(out, n)
		} else if (strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[")) && json.Unmarshal([]byte(s), &v) == nil {
			out = append(out, v)
		} else {
			out = append(out, s)
		}
	}
	return out
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "FAIL:", err)
		os.Exit(1)
	}
}

func expect(ok bool, format string, args ...any) {
	if !ok {
		fmt.Fprintf(os.Stderr, "FAIL: "+format+"\n", args...)
		os.Exit(1)
	}
}

//go:noinline
func recurse(n int) int {
	var pad [64]byte
	pad[n%64] = byte(n)
	return recurse(n+1) + int(pad[3])
}

func spin(n int) string {
	h := sha256.New()
	buf := make([]byte, 1<<16)
	for i := 0; i < n; i++ {
		buf[i%len(buf)] = byte(i)
		if i%len(buf) == len(buf)-1 {
			h.Write(buf)
		}
	}
	x := uint64(1)
	for i := 0; i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return fmt.Sprintf("%x %d", h.Sum(nil)[:8], x%1000)
}

// files writes n small files under dir and reads them back.
func files(n int, dir string) {
	check(os.MkdirAll(dir, 0o755))
	for i := 0; i < n; i++ {
		check(os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%05d.txt", i)), []byte(fmt.Sprintf("file %d\n", i)), 0o644))
	}
	total := 0
	for i := 0; i < n; i++ {
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("f%05d.txt", i)))
		check(err)
		total += len(b)
	}
	fmt.Println("files", n, "bytes", total)
}

// fsTest exercises files, directories, rename, symlinks and large files
// under dir, printing one line per step.
func fsTest(dir string) {
	step := func(s string) { fmt.Println("ok", s) }
	check(os.MkdirAll(filepath.Join(dir, "a/b/c"), 0o755))
	step("mkdirall")

	p := filepath.Join(dir, "a/hello.txt")
	check(os.WriteFile(p, []byte("hello"), 0o644))
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	check(err)
	_, err = f.WriteString(", world")
	check(err)
	check(f.Close())
	b, err := os.ReadFile(p)
	check(err)
	expect(string(b) == "hello, world", "append: %q", b)
	step("write append read")

	f, err = os.OpenFile(p, os.O_RDWR, 0)
	check(err)
	_, err = f.Seek(7, io.SeekStart)
	check(err)
	buf := make([]byte, 5)
	_, err = io.ReadFull(f, buf)
	check(err)
	expect(string(buf) == "world", "seek read: %q", buf)
	end, err := f.Seek(0, io.SeekEnd)
	check(err)
	expect(end == 12, "seek end: %d", end)
	_, err = f.WriteAt([]byte("J"), 0)
	check(err)
	check(f.Truncate(5))
	fi, err := f.Stat()
	check(err)
	expect(fi.Size() == 5, "truncate size %d", fi.Size())
	check(f.Close())
	b, _ = os.ReadFile(p)
	expect(string(b) == "Jello", "writeat+truncate: %q", b)
	step("seek writeat truncate")

	_, err = os.Stat(filepath.Join(dir, "missing"))
	expect(errors.Is(err, fs.ErrNotExist), "missing: %v", err)
	_, err = os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	expect(errors.Is(err, fs.ErrExist), "excl: %v", err)
	err = os.Remove(filepath.Join(dir, "a"))
	expect(err != nil, "rmdir non-empty succeeded")
	step("errors")

	for i := 0; i < 30; i++ {
		check(os.WriteFile(filepath.Join(dir, "a/b", fmt.Sprintf("n%02d", i)), nil, 0o644))
	}
	ents, err := os.ReadDir(filepath.Join(dir, "a/b"))
	check(err)
	expect(len(ents) == 31, "readdir: %d entries", len(ents))
	expect(ents[0].Name() == "c" && ents[0].IsDir(), "first entry %v", ents[0])
	d, err := os.Open(filepath.Join(dir, "a/b"))
	check(err)
	names1, err := d.Readdirnames(10)
	check(err)
	names2, err := d.Readdirnames(-1)
	check(err)
	expect(len(names1) == 10 && len(names2) == 21, "readdirnames %d %d", len(names1), len(names2))
	_, err = d.Seek(0, io.SeekStart)
	check(err)
	names3, err := d.Readdirnames(-1)
	check(err)
	expect(len(names3) == 31, "rewind: %d", len(names3))
	check(d.Close())
	var walked int
	check(filepath.WalkDir(dir, func(string, fs.DirEntry, error) error { walked++; return nil }))
	expect(walked >= 35, "walk %d", walked)
	step("readdir rewind walk")

	check(os.Rename(filepath.Join(dir, "a/b"), filepath.Join(dir, "a/moved")))
	_, err = os.Stat(filepath.Join(dir, "a/moved/c"))
	check(err)
	f, err = os.Open(p)
	check(err)
	check(os.Rename(p, filepath.Join(dir, "renamed.txt")))
	b, err = io.ReadAll(f)
	check(err)
	expect(string(b) == "Jello", "read after rename: %q", b)
	check(f.Close())
	step("rename")

	f, err = os.Open(filepath.Join(dir, "renamed.txt"))
	check(err)
	check(os.Remove(filepath.Join(dir, "renamed.txt")))
	b, err = io.ReadAll(f)
	check(err)
	expect(string(b) == "Jello", "read after unlink: %q", b)
	check(f.Close())
	_, err = os.Stat(filepath.Join(dir, "renamed.txt"))
	expect(errors.Is(err, fs.ErrNotExist), "unlinked still there: %v", err)
	step("unlink while open")

	check(os.WriteFile(filepath.Join(dir, "target.txt"), []byte("target"), 0o644))
	check(os.Symlink("target.txt", filepath.Join(dir, "rel.lnk")))
	abs, err := filepath.Abs(filepath.Join(dir, "target.txt"))
	check(err)
	check(os.Symlink(abs, filepath.Join(dir, "abs.lnk")))
	for _, l := range []string{"rel.lnk", "abs.lnk"} {
		b, err := os.ReadFile(filepath.Join(dir, l))
		check(err)
		expect(string(b) == "target", "%s: %q", l, b)
		fi, err := os.Lstat(filepath.Join(dir, l))
		check(err)
		expect(fi.Mode()&fs.ModeSymlink != 0, "%s lstat mode %v", l, fi.Mode())
	}
	t, err := os.Readlink(filepath.Join(dir, "abs.lnk"))
	check(err)
	expect(t == abs, "readlink %q want %q", t, abs)
	step("symlinks")

	big := bytes.Repeat([]byte("0123456789abcdef"), 3<<20/16+7)
	check(os.WriteFile(filepath.Join(dir, "big.bin"), big, 0o644))
	got, err := os.ReadFile(filepath.Join(dir, "big.bin"))
	check(err)
	expect(bytes.Equal(got, big), "large file: %d bytes back of %d", len(got), len(big))
	step("large file")

	check(os.RemoveAll(filepath.Join(dir, "a")))
	_, err = os.Stat(filepath.Join(dir, "a"))
	expect(errors.Is(err, fs.ErrNotExist), "removeall: %v", err)
	step("removeall")
}

func escape() {
	try := func(what string, err error) {
		if err == nil {
			fmt.Println("ESCAPED", what)
			return
		}
		fmt.Println("denied", what)
	}
	_, err := os.ReadFile("/etc/passwd")
	try("read /etc/passwd", err)
	_, err = os.ReadFile("../../../../etc/passwd")
	try("read ../../etc/passwd", err)
	err = os.WriteFile("/tmp/escape.txt", []byte("x"), 0o644)
	try("write /tmp", err)
	wd, _ := os.Getwd()
	err = os.Symlink("/etc/passwd", filepath.Join(wd, "abs-out.lnk"))
	if err == nil {
		_, err = os.ReadFile(filepath.Join(wd, "abs-out.lnk"))
	}
	try("symlink to /etc/passwd", err)
	err = os.Symlink("../../../../../etc/passwd", filepath.Join(wd, "rel-out.lnk"))
	if err == nil {
		_, err = os.ReadFile(filepath.Join(wd, "rel-out.lnk"))
	}
	try("symlink ../../etc/passwd", err)
}

// journal does what a replay test needs: appends, a host-module call,
// randomness and the clock in its output, and a sleep to be killed in.
func journal(dir string) {
	appendTo := func(s string) {
		f, err := os.OpenFile(dir+"/log.txt", os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		check(err)
		_, err = f.WriteString(s)
		check(err)
		check(f.Close())
	}
	appendTo("a")
	var b [8]byte
	crand.Read(b[:])
	fmt.Printf("rand %x\n", b)
	fmt.Printf("clock %d\n", time.Now().UnixNano())
	res, err := nook.Call("ws:side/hit", "w")
	check(err)
	fmt.Printf("hit %s\n", res)
	time.Sleep(600 * time.Millisecond)
	appendTo("b")
	log, err := os.ReadFile(dir + "/log.txt")
	check(err)
	fmt.Printf("done %s\n", log)
}
