package vfs_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"testing/fstest"
	"time"

	"github.com/nookdev/nook/vfs"
)

func Example() {
	ctx := context.Background()
	f, err := vfs.Open(ctx, "", nil) // "" is a private in-memory workspace
	if err != nil {
		panic(err)
	}
	defer f.Close()

	f.WriteFile(ctx, "/src/main.go", []byte("package main\n\nfunc main() {}\n"), &vfs.WriteOptions{MkdirAll: true})
	data, _ := f.ReadFile(ctx, "/src/main.go")
	fmt.Printf("%q\n", data[:12])

	_, err = f.ReadFile(ctx, "/src/missing.go")
	fmt.Println(err)
	fmt.Println(errors.Is(err, fs.ErrNotExist), vfs.Code(err))
	// Output:
	// "package main"
	// no such file: /src/missing.go
	// true ENOENT
}

func ExampleFS_Grep() {
	ctx := context.Background()
	f, _ := vfs.Open(ctx, "", nil)
	defer f.Close()
	f.WriteFile(ctx, "/app/a.go", []byte("package app\n// TODO: retry\nfunc A() {}\n"), &vfs.WriteOptions{MkdirAll: true})
	f.WriteFile(ctx, "/app/b.go", []byte("package app\nfunc B() {} // todo later\n"), nil)

	res, _ := f.Grep(ctx, "todo", "/app", &vfs.GrepOptions{IgnoreCase: true})
	for _, m := range res.Matches {
		fmt.Printf("%s:%d:%s\n", m.Path, m.Line, m.Text)
	}
	// Output:
	// /app/a.go:2:// TODO: retry
	// /app/b.go:2:func B() {} // todo later
}

func ExampleFS_Find() {
	ctx := context.Background()
	f, _ := vfs.Open(ctx, "", nil)
	defer f.Close()
	for _, p := range []string{"/p/main.go", "/p/main_test.go", "/p/node_modules/x/y.go", "/p/lib/util.go"} {
		f.WriteFile(ctx, p, nil, &vfs.WriteOptions{MkdirAll: true})
	}
	l, _ := f.Find(ctx, "/p", "**/*.go", &vfs.FindOptions{Exclude: []string{"node_modules"}})
	for _, e := range l.Entries {
		fmt.Println(e.Path)
	}
	// Output:
	// /p/lib/util.go
	// /p/main.go
	// /p/main_test.go
}

func ExampleFS_Rename() {
	ctx := context.Background()
	f, _ := vfs.Open(ctx, "", nil)
	defer f.Close()
	f.WriteFile(ctx, "/a/one.txt", []byte("1"), &vfs.WriteOptions{MkdirAll: true})
	f.MkdirAll(ctx, "/b", 0)

	fmt.Println(f.Rename(ctx, "/a", "/b"))       // an empty directory is replaced
	fmt.Println(f.Rename(ctx, "/b", "/b/inner")) // never into itself
	data, _ := f.ReadFile(ctx, "/b/one.txt")
	fmt.Println(string(data))
	// Output:
	// <nil>
	// cannot rename a directory into itself: /b/inner
	// 1
}

func ExampleFS_OpenFile() {
	ctx := context.Background()
	f, _ := vfs.Open(ctx, "", nil)
	defer f.Close()
	h, _ := f.OpenFile(ctx, "/log", os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	h.Write([]byte("first\n"))
	f.Remove(ctx, "/log", nil) // the handle keeps the file alive
	h.Write([]byte("second\n"))
	fi, _ := h.Stat()
	fmt.Println(fi.Size(), fi.Mode())
	h.Close()
	// Output:
	// 13 -rw-------
}

func ExampleFS_ReadDir() {
	ctx := context.Background()
	t0 := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	f, _ := vfs.Open(ctx, "", &vfs.Options{Now: func() time.Time { return t0 }})
	defer f.Close()
	f.MkdirAll(ctx, "/app/bin", 0o750)
	f.WriteFile(ctx, "/app/bin/run", []byte("#!/bin/sh\n"), &vfs.WriteOptions{Mode: 0o755})
	f.Chmod(ctx, "/app/bin/run", fs.ModeSetuid|0o755)
	l, _ := f.ReadDir(ctx, "/app/bin", vfs.Page{})
	l2, _ := f.ReadDir(ctx, "/app", vfs.Page{})
	for _, e := range append(l2.Entries, l.Entries...) {
		// Modes are io/fs modes, times are time.Time; UnixMode gives the
		// chmod(2) bits.
		fmt.Println(e.Path, e.Mode, e.Mode.IsDir(), e.Mode.Perm(), fmt.Sprintf("%04o", vfs.UnixMode(e.Mode)), e.Mtime.UTC().Format(time.RFC3339))
	}
	// Output:
	// /app/bin drwxr-x--- true -rwxr-x--- 0750 2024-05-06T07:08:09Z
	// /app/bin/run urwxr-xr-x false -rwxr-xr-x 4755 2024-05-06T07:08:09Z
}

func ExampleFS_Changes() {
	ctx := context.Background()
	f, _ := vfs.Open(ctx, "", nil)
	defer f.Close()
	since, _ := f.Rev(ctx)
	f.MkdirAll(ctx, "/docs", 0)
	f.WriteFile(ctx, "/docs/a.md", []byte("# A"), nil)
	f.Rename(ctx, "/docs/a.md", "/docs/b.md")
	changes, _ := f.Changes(ctx, since, 0)
	for _, c := range changes {
		if c.OldPath != "" {
			fmt.Println(c.Op, c.Kind, c.OldPath, "->", c.Path)
		} else {
			fmt.Println(c.Op, c.Kind, c.Path)
		}
	}
	// Output:
	// create dir /docs
	// create file /docs/a.md
	// rename file /docs/a.md -> /docs/b.md
}

func ExampleFS_Mount() {
	ctx := context.Background()
	f, _ := vfs.Open(ctx, "", nil)
	defer f.Close()
	f.Mount(ctx, "/ref", fstest.MapFS{"README": {Data: []byte("read me")}})

	data, _ := f.ReadFile(ctx, "/ref/README")
	fmt.Println(string(data))
	err := f.WriteFile(ctx, "/ref/README", []byte("changed"), nil)
	fmt.Println(err, vfs.Code(err))
	// Output:
	// read me
	// read-only mount at /ref: cannot modify: /ref/README EROFS
}
