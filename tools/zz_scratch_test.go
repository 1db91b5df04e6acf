package tools

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"
)

func BenchmarkScratchRender(b *testing.B) {
	s, _ := newSet(b, Options{})
	var file strings.Builder
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&file, "\tif err := step%d(ctx, x); err != nil { return err } // line %d\n", i, i)
	}
	data := []byte(file.String())
	b.Run("text", func(b *testing.B) {
		for b.Loop() {
			r := &reader{s: s, ctx: bg, path: "/x", loaded: true, buf: data, eof: true}
			r.text(readQuery{line: 1, lines: 2000})
		}
	})
	b.Run("sha", func(b *testing.B) {
		for b.Loop() {
			sha256.Sum256(data)
		}
	})
	b.Run("decode", func(b *testing.B) {
		for b.Loop() {
			var in readIn
			decode("read", []byte(`{"path":"/src/file.go"}`), &in)
		}
	})
}

func BenchmarkScratchRender2(b *testing.B) {
	s, _ := newSet(b, Options{})
	var file strings.Builder
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&file, "\tif err := step%d(ctx, x); err != nil { return err } // line %d\n", i, i)
	}
	data := []byte(file.String())
	b.Run("text-big-nohash", func(b *testing.B) {
		big := append([]byte{}, data...)
		for b.Loop() {
			r := &reader{s: s, ctx: bg, path: "/x", loaded: true, buf: big, eof: true}
			r.text(readQuery{line: 1, lines: 2000})
		}
	})
}
