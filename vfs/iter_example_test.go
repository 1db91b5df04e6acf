package vfs_test

import (
	"context"
	"fmt"

	"github.com/nookdev/nook/vfs"
)

// Every page of a listing in one range loop: 350 files are two pages of
// the default size, fetched as the loop goes.
func ExampleFS_FindAll() {
	ctx := context.Background()
	f, err := vfs.Open(ctx, "", nil)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	for i := range 350 {
		f.WriteFile(ctx, fmt.Sprintf("/logs/%03d.log", i), []byte("ok\n"), &vfs.WriteOptions{MkdirAll: true})
	}

	n := 0
	for e, err := range f.FindAll(ctx, "/logs", "*.log", nil) {
		if err != nil {
			panic(err)
		}
		if n++; n == 350 {
			fmt.Println("last:", e.Path)
		}
	}
	fmt.Println("found:", n)
	// Output:
	// last: /logs/349.log
	// found: 350
}
