package nook_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/vfs"
)

// Open a workspace file, write a file and read it back. The workspace
// survives the process: opening the same file later finds the file again.
func ExampleOpen() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "nook-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	ws, err := nook.Open(ctx, filepath.Join(dir, "workspace.db"))
	if err != nil {
		log.Fatal(err)
	}
	f := ws.FS()
	err = f.WriteFile(ctx, "/notes/hello.txt", []byte("hello, nook\n"), &vfs.WriteOptions{MkdirAll: true})
	if err != nil {
		log.Fatal(err)
	}
	ws.Close()

	ws, err = nook.Open(ctx, filepath.Join(dir, "workspace.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer ws.Close()
	data, err := ws.FS().ReadFile(ctx, "/notes/hello.txt")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(data))

	_, err = ws.FS().ReadFile(ctx, "/notes/missing.txt")
	fmt.Println(errors.Is(err, fs.ErrNotExist), vfs.Code(err))
	// Output:
	// hello, nook
	// true ENOENT
}

// Search file contents: a literal query by default, RE2 with Regex.
func ExampleWorkspace_grep() {
	ctx := context.Background()
	ws, err := nook.OpenMemory(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer ws.Close()
	f := ws.FS()
	write(f, "/src/main.go", "package main\n\n// TODO: handle errors\nfunc main() {}\n")
	write(f, "/src/util.go", "package main\n\nfunc helper() {} // todo later\n")
	write(f, "/README.md", "no match here\n")

	res, err := f.Grep(ctx, "todo", "/", &vfs.GrepOptions{IgnoreCase: true})
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range res.Matches {
		fmt.Printf("%s:%d:%s\n", m.Path, m.Line, m.Text)
	}
	// Output:
	// /src/main.go:3:// TODO: handle errors
	// /src/util.go:3:func helper() {} // todo later
}

// Find paths by glob; "**" crosses directories and excluded names are not
// walked.
func ExampleWorkspace_find() {
	ctx := context.Background()
	ws, err := nook.OpenMemory(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer ws.Close()
	f := ws.FS()
	write(f, "/app/main.go", "package main\n")
	write(f, "/app/internal/db/db.go", "package db\n")
	write(f, "/app/vendor/x/x.go", "package x\n")
	write(f, "/app/README.md", "# app\n")

	l, err := f.Find(ctx, "/app", "**/*.go", &vfs.FindOptions{Exclude: []string{"vendor"}})
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range l.Entries {
		fmt.Println(e.Path)
	}
	// Output:
	// /app/internal/db/db.go
	// /app/main.go
}

func write(f *vfs.FS, name, content string) {
	err := f.WriteFile(context.Background(), name, []byte(content), &vfs.WriteOptions{MkdirAll: true})
	if err != nil {
		log.Fatal(err)
	}
}
