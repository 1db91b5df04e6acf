package coreutils

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"hash"
	"strings"
)

func init() {
	register("md5sum", "md5sum [FILE]...", hashCmd(md5.New))
	register("sha1sum", "sha1sum [FILE]...", hashCmd(sha1.New))
	register("sha256sum", "sha256sum [FILE]...", hashCmd(sha256.New))
	register("sha512sum", "sha512sum [FILE]...", hashCmd(sha512.New))
}

func hashCmd(newHash func() hash.Hash) func(*Env, []string) int {
	return func(e *Env, args []string) int {
		o, files, ok := e.parse(&flagSpec{bools: "cbtw", long: map[string]bool{"check": false, "status": false, "quiet": false}, alias: map[string]string{"check": "c"}}, args)
		if !ok {
			return 1
		}
		sum := func(b []byte) string {
			h := newHash()
			h.Write(b)
			return hex.EncodeToString(h.Sum(nil))
		}
		if o.has("c") {
			st := 0
			e.Inputs(files, func(_ string, b []byte) {
				for _, l := range splitLines(b) {
					want, name, ok := strings.Cut(l, "  ")
					if !ok {
						continue
					}
					data, err := e.ReadAll(name)
					res := "OK"
					if err != nil || sum(data) != want {
						res, st = "FAILED", 1
					}
					if !o.has("status") && !(o.has("quiet") && res == "OK") {
						fmt.Fprintf(e.Stdout, "%s: %s\n", name, res)
					}
				}
			})
			return st
		}
		return e.Inputs(files, func(name string, b []byte) {
			fmt.Fprintf(e.Stdout, "%s  %s\n", sum(b), name)
		})
	}
}
