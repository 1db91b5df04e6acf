package coreutils

import (
	"bufio"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base32"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"strconv"
	"strings"

	"golang.org/x/crypto/blake2b"
)

// sum, cksum, b2sum and base32. Inputs are streamed, so files of any size
// are summed in bounded memory.

func init() {
	register("sum", "sum [-rs] [FILE]...", sumCmd)
	register("cksum", "cksum [-a crc|md5|sha1|sha224|sha256|sha384|sha512|blake2b] [-l BITS] [--untagged] [FILE]...", cksum)
	register("b2sum", "b2sum [-l BITS] [-c] [--tag] [FILE]...", b2sum)
	register("base32", "base32 [-d] [-i] [-w COLS] [FILE]", base32Cmd)
}

// stream calls fn with a reader for each operand (or stdin).
func (e *Env) stream(files []string, fn func(name string, r io.Reader) error) int {
	if len(files) == 0 {
		files = []string{"-"}
	}
	status := 0
	for _, f := range files {
		if e.Ctx.Err() != nil {
			return 1
		}
		r, err := e.Open(f)
		if err != nil {
			e.FileErr(f, err)
			status = 1
			continue
		}
		err = fn(f, bufio.NewReaderSize(r, 64<<10))
		r.Close()
		if err != nil {
			e.FileErr(f, err)
			status = 1
		}
	}
	return status
}

func sumCmd(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "rs", long: map[string]bool{"sysv": false}, alias: map[string]string{"sysv": "s"}}, args)
	if !ok {
		return 1
	}
	w := bufio.NewWriter(e.Stdout)
	defer w.Flush()
	return e.stream(files, func(name string, r io.Reader) error {
		br := r.(*bufio.Reader)
		var n int64
		if o.has("s") {
			var s uint64
			for {
				c, err := br.ReadByte()
				if err != nil {
					break
				}
				s += uint64(c)
				n++
			}
			r := s%(1<<16) + s>>16
			cs := r%(1<<16) + r>>16
			fmt.Fprintf(w, "%d %d", cs, (n+511)/512)
		} else {
			var cs uint32
			for {
				c, err := br.ReadByte()
				if err != nil {
					break
				}
				cs = (cs >> 1) + ((cs & 1) << 15)
				cs = (cs + uint32(c)) & 0xffff
				n++
			}
			fmt.Fprintf(w, "%05d %5d", cs, (n+1023)/1024)
		}
		if name != "-" || len(files) > 0 {
			fmt.Fprintf(w, " %s", name)
		}
		w.WriteByte('\n')
		return e.Ctx.Err()
	})
}

// crcTable is POSIX cksum's CRC-32 (polynomial 0x04C11DB7, MSB first).
var crcTable = func() [256]uint32 {
	var t [256]uint32
	for i := range t {
		c := uint32(i) << 24
		for k := 0; k < 8; k++ {
			if c&0x80000000 != 0 {
				c = c<<1 ^ 0x04C11DB7
			} else {
				c <<= 1
			}
		}
		t[i] = c
	}
	return t
}()

func posixCRC(r io.Reader) (uint32, int64, error) {
	var crc uint32
	var n int64
	buf := make([]byte, 32<<10)
	for {
		k, err := r.Read(buf)
		for _, c := range buf[:k] {
			crc = crc<<8 ^ crcTable[byte(crc>>24)^c]
		}
		n += int64(k)
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, 0, err
		}
	}
	for l := n; l > 0; l >>= 8 {
		crc = crc<<8 ^ crcTable[byte(crc>>24)^byte(l)]
	}
	return ^crc, n, nil
}

func newHashByName(name string, bits int) (func() hash.Hash, string, bool) {
	switch name {
	case "md5":
		return md5.New, "MD5", true
	case "sha1":
		return sha1.New, "SHA1", true
	case "sha224":
		return sha256.New224, "SHA224", true
	case "sha256":
		return sha256.New, "SHA256", true
	case "sha384":
		return sha512.New384, "SHA384", true
	case "sha512":
		return sha512.New, "SHA512", true
	case "blake2b":
		if bits == 0 {
			bits = 512
		}
		tag := "BLAKE2b"
		if bits != 512 {
			tag += "-" + strconv.Itoa(bits)
		}
		return func() hash.Hash {
			h, _ := blake2b.New(bits/8, nil)
			return h
		}, tag, true
	}
	return nil, "", false
}

func cksum(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "c", vals: "al", long: map[string]bool{"algorithm": true, "length": true, "untagged": false,
		"tag": false, "check": false, "base64": false, "raw": false},
		alias: map[string]string{"algorithm": "a", "length": "l", "check": "c"}}, args)
	if !ok {
		return 1
	}
	algo := o.last("a", "crc")
	w := bufio.NewWriter(e.Stdout)
	defer w.Flush()
	if algo == "crc" {
		return e.stream(files, func(name string, r io.Reader) error {
			crc, n, err := posixCRC(r)
			if err != nil {
				return err
			}
			if len(files) == 0 {
				fmt.Fprintf(w, "%d %d\n", crc, n)
			} else {
				fmt.Fprintf(w, "%d %d %s\n", crc, n, name)
			}
			return nil
		})
	}
	bits, _ := strconv.Atoi(o.last("l", "0"))
	nh, tag, ok := newHashByName(algo, bits)
	if !ok || bits%8 != 0 || bits > 512 || bits < 0 {
		e.Errf("invalid argument '%s' for '--algorithm'", algo)
		return 1
	}
	return e.stream(files, func(name string, r io.Reader) error {
		h := nh()
		if _, err := io.Copy(h, r); err != nil {
			return err
		}
		if o.has("untagged") {
			fmt.Fprintf(w, "%x  %s\n", h.Sum(nil), name)
		} else {
			fmt.Fprintf(w, "%s (%s) = %x\n", tag, name, h.Sum(nil))
		}
		return nil
	})
}

func b2sum(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "cbtwz", vals: "l", long: map[string]bool{"length": true, "check": false, "tag": false,
		"status": false, "quiet": false, "binary": false, "text": false}, alias: map[string]string{"length": "l", "check": "c"}}, args)
	if !ok {
		return 1
	}
	bits, err := strconv.Atoi(o.last("l", "512"))
	if err != nil || bits%8 != 0 || bits < 8 || bits > 512 {
		e.Errf("invalid length: '%s'", o.last("l", ""))
		return 1
	}
	nh, tag, _ := newHashByName("blake2b", bits)
	w := bufio.NewWriter(e.Stdout)
	defer w.Flush()
	if o.has("c") {
		status := 0
		e.Inputs(files, func(_ string, b []byte) {
			for _, l := range splitLines(b) {
				want, name, ok := strings.Cut(l, "  ")
				if !ok {
					continue
				}
				got := ""
				e.stream([]string{name}, func(_ string, r io.Reader) error {
					h := nh()
					_, err := io.Copy(h, r)
					got = hex.EncodeToString(h.Sum(nil))
					return err
				})
				res := "OK"
				if got != want {
					res, status = "FAILED", 1
				}
				if !o.has("status") && !(o.has("quiet") && res == "OK") {
					fmt.Fprintf(w, "%s: %s\n", name, res)
				}
			}
		})
		return status
	}
	return e.stream(files, func(name string, r io.Reader) error {
		h := nh()
		if _, err := io.Copy(h, r); err != nil {
			return err
		}
		if o.has("tag") {
			fmt.Fprintf(w, "%s (%s) = %x\n", tag, name, h.Sum(nil))
		} else {
			fmt.Fprintf(w, "%x  %s\n", h.Sum(nil), name)
		}
		return nil
	})
}

func base32Cmd(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "di", vals: "w", long: map[string]bool{"decode": false, "wrap": true, "ignore-garbage": false},
		alias: map[string]string{"decode": "d", "wrap": "w", "ignore-garbage": "i"}}, args)
	if !ok {
		return 1
	}
	wrap, err := strconv.Atoi(o.last("w", "76"))
	if err != nil || wrap < 0 {
		e.Errf("invalid wrap size: '%s'", o.last("w", ""))
		return 1
	}
	status := 0
	st := e.Inputs(files, func(_ string, b []byte) {
		if o.has("d") {
			s := strings.Map(func(r rune) rune {
				switch {
				case r == '\n' || r == '\r':
					return -1
				case o.has("i") && !strings.ContainsRune("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567=", r):
					return -1
				}
				return r
			}, string(b))
			out, err := base32.StdEncoding.DecodeString(s)
			e.Stdout.Write(out)
			if err != nil {
				e.Errf("invalid input")
				status = 1
			}
			return
		}
		io.WriteString(e.Stdout, wrapped(base32.StdEncoding.EncodeToString(b), wrap))
	})
	return max(st, status)
}

// wrapped is encoded text cut into lines of wrap characters, as base32 and
// base64 print it (wrap 0: one line, with no newline at the end, as GNU).
func wrapped(s string, wrap int) string {
	var sb strings.Builder
	for wrap > 0 && len(s) > wrap {
		sb.WriteString(s[:wrap] + "\n")
		s = s[wrap:]
	}
	if s != "" {
		sb.WriteString(s)
		if wrap > 0 {
			sb.WriteString("\n")
		}
	}
	return sb.String()
}
