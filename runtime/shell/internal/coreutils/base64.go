package coreutils

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
)

func init() {
	register("base64", "base64 [-d] [-w COLS] [FILE]", base64Cmd)
}

func base64Cmd(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "di", vals: "w", long: map[string]bool{"decode": false, "wrap": true, "ignore-garbage": false},
		alias: map[string]string{"decode": "d", "wrap": "w", "ignore-garbage": "i"}}, args)
	if !ok {
		return 1
	}
	wrap, _ := strconv.Atoi(o.last("w", "76"))
	return e.Inputs(files, func(_ string, b []byte) {
		if o.has("d") {
			s := strings.Map(func(r rune) rune {
				if r == '\n' || r == '\r' || r == ' ' {
					return -1
				}
				return r
			}, string(b))
			out, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				out, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
			}
			e.Stdout.Write(out)
			if err != nil {
				e.Errf("invalid input")
			}
			return
		}
		fmt.Fprint(e.Stdout, wrapped(base64.StdEncoding.EncodeToString(b), wrap))
	})
}
