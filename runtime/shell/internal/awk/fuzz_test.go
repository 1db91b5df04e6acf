package awk

import (
	"io"
	"strings"
	"testing"
)

// FuzzParse: parsing never panics, and a parsed program runs without
// panicking within bounded steps and bytes.
func FuzzParse(f *testing.F) {
	for _, c := range cases {
		f.Add(c.src)
	}
	f.Add(`BEGIN { while (1) x = x "ab" }`)
	f.Add(`function f(a) { a[1]; return f(a) } BEGIN { f(z) }`)
	f.Fuzz(func(t *testing.T, src string) {
		prog, err := Parse(src)
		if err != nil {
			return
		}
		steps := 0
		cfg := &Config{
			Stdin: strings.NewReader("a b c\n1 2 3\n"), Stdout: io.Discard, Stderr: io.Discard,
			Tick: func() error {
				if steps++; steps > 10000 {
					return io.EOF
				}
				return nil
			},
			MaxBytes: 1 << 16, MaxDepth: 100,
		}
		Run(prog, cfg, nil, nil)
	})
}
