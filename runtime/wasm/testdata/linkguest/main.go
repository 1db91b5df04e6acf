// Command linkguest exercises hard links and nanosecond times from a WASI
// guest (runtime/wasm's link_test.go builds it for wasip1).
package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "devnull" {
		devNull()
		return
	}
	if err := run(); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
}

func run() error {
	if err := os.WriteFile("a", []byte("hello"), 0o644); err != nil {
		return err
	}
	if err := os.Link("a", "b"); err != nil {
		return err
	}
	// An open file keeps working when another name is removed.
	f, err := os.OpenFile("b", os.O_RDWR, 0)
	if err != nil {
		return err
	}
	fa, _ := os.Stat("a")
	fb, _ := os.Stat("b")
	fmt.Println("same:", os.SameFile(fa, fb), "nlink:", fa.Sys().(*syscall.Stat_t).Nlink)
	if err := os.Remove("a"); err != nil {
		return err
	}
	if _, err := f.WriteAt([]byte("J"), 0); err != nil {
		return err
	}
	f.Close()
	b, _ := os.ReadFile("b")
	fmt.Println("b:", string(b))
	err = os.Link("b", "b")
	fmt.Println("exist:", errors.Is(err, fs.ErrExist))
	err = os.Link("nope", "c")
	fmt.Println("missing:", errors.Is(err, fs.ErrNotExist))
	os.Mkdir("d", 0o755)
	err = os.Link("d", "e")
	fmt.Println("dir:", errors.Is(err, fs.ErrPermission))
	t := time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.UTC)
	if err := os.Chtimes("b", t, t); err != nil {
		return err
	}
	st, _ := os.Stat("b")
	fmt.Println("mtime:", st.ModTime().UTC().Format(time.RFC3339Nano))
	return nil
}

func devNull() {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	n, err := f.Write([]byte("gone"))
	fi, _ := f.Stat()
	f.Close()
	b, rerr := os.ReadFile(os.DevNull)
	_, eerr := os.OpenFile(os.DevNull, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	fmt.Println("write:", n, err, "mode:", fi.Mode(), "read:", len(b), rerr, "excl:", errors.Is(eerr, fs.ErrExist))
}
