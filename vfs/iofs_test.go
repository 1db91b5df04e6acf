package vfs

import (
	"context"
	"testing"
	"testing/fstest"
)

func TestIOFSPassesFSTest(t *testing.T) {
	ctx := context.Background()
	f := openTest(t)
	files := map[string]string{
		"/a.txt":              "alpha\n",
		"/dir/b.txt":          "bravo",
		"/dir/sub/c.go":       "package c\n",
		"/dir/sub/deep/d.bin": string(make([]byte, ChunkSize+17)),
		"/ünïcode/é.txt":      "accents",
		"/empty":              "",
	}
	for p, c := range files {
		if err := f.WriteFile(ctx, p, []byte(c), &WriteOptions{MkdirAll: true}); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Mkdir(ctx, "/emptydir", 0); err != nil {
		t.Fatal(err)
	}
	if err := fstest.TestFS(f.IOFS(), "a.txt", "dir/b.txt", "dir/sub/c.go", "dir/sub/deep/d.bin", "ünïcode/é.txt", "empty", "emptydir"); err != nil {
		t.Fatal(err)
	}
	sub, err := f.IOFS().Sub("dir")
	if err != nil {
		t.Fatal(err)
	}
	if err := fstest.TestFS(sub, "b.txt", "sub/c.go"); err != nil {
		t.Fatal(err)
	}
}
