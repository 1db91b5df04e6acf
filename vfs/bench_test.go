package vfs

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"sync/atomic"
	"testing"
)

// These benchmarks chose ChunkSize (see RATIONALE.md): they cover whole-file
// writes, handle appends, small random overwrites and whole-file reads.

func randBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func BenchmarkWriteFile(b *testing.B) {
	for _, size := range []int{4 << 10, 1 << 20} {
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			f := openTest(b)
			ctx := context.Background()
			r := rand.New(rand.NewPCG(1, 2))
			data := randBytes(r, size)
			b.SetBytes(int64(size))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				data[0], data[1], data[2] = byte(i), byte(i>>8), byte(i>>16)
				if err := f.WriteFile(ctx, fmt.Sprintf("/f%d", i), data, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkHandleAppend4KiB(b *testing.B) {
	f := openTest(b)
	ctx := context.Background()
	data := randBytes(rand.New(rand.NewPCG(1, 2)), 4<<10)
	h, err := f.OpenFile(ctx, "/log", os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := h.Write(data); err != nil {
			b.Fatal(err)
		}
	}
	if err := h.Sync(); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkRandomOverwrite4KiB(b *testing.B) {
	f := openTest(b)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(1, 2))
	const size = 8 << 20
	if err := f.WriteFile(ctx, "/big", randBytes(r, size), nil); err != nil {
		b.Fatal(err)
	}
	h, err := f.OpenFile(ctx, "/big", os.O_RDWR, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	data := randBytes(r, 4<<10)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := h.WriteAt(data, r.Int64N(size-int64(len(data)))); err != nil {
			b.Fatal(err)
		}
		if err := h.Sync(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadFile8MiB(b *testing.B) {
	f := openTest(b)
	ctx := context.Background()
	const size = 8 << 20
	if err := f.WriteFile(ctx, "/big", randBytes(rand.New(rand.NewPCG(1, 2)), size), nil); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := f.ReadFile(ctx, "/big"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteFileParallel writes 4 KiB files from 8 goroutines; against
// BenchmarkWriteFile/4096 it shows what group commit buys.
func BenchmarkWriteFileParallel(b *testing.B) {
	f := openTest(b)
	ctx := context.Background()
	var n atomic.Int64
	b.SetBytes(4 << 10)
	b.SetParallelism(4) // 8 goroutines on 2 cores
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		data := randBytes(rand.New(rand.NewPCG(uint64(n.Add(1)), 2)), 4<<10)
		for pb.Next() {
			i := n.Add(1)
			data[0], data[1], data[2] = byte(i), byte(i>>8), byte(i>>16)
			if err := f.WriteFile(ctx, fmt.Sprintf("/f%d", i), data, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
