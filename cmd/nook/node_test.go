package main

import (
	"os"
	"strings"
	"testing"
)

func TestNodeUsage(t *testing.T) {
	w := newWS(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"node", "--data", t.TempDir()}, "nook: node: --name and --data are required"},
		{[]string{"node", "--name", "n1", "--data", t.TempDir(), "--nats-url", "nats://127.0.0.1:4222", "--nats-listen", "127.0.0.1:0"},
			"nook: node: --nats-url joins a cluster: not with --nats-listen or --nats-routes"},
		{[]string{"node", "--name", "n1", "--data", t.TempDir(), "--on-interrupt", "retry"},
			`nook: node: --on-interrupt "retry": want fail, restart or replay`},
		{[]string{"node", "--name", "n1", "--data", t.TempDir(), "--http", "0.0.0.0:0"},
			`nook: node: refusing to listen on "0.0.0.0:0" without a token: use a loopback address or set --token-file or $NOOK_TOKEN`},
	} {
		if os.Getenv("NOOK_TOKEN") != "" && strings.Contains(c.want, "without a token") {
			continue
		}
		r := w.run(c.args...)
		if r.code != 2 || !strings.HasPrefix(r.stderr, c.want+"\n") {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", c.args, r.code, r.stderr, c.want)
		}
	}
	r := w.run("node", "--name", "bad.name", "--data", t.TempDir())
	if r.code != 1 || !strings.Contains(r.stderr, `node name "bad.name": want 1 to 64 of A-Z a-z 0-9 - _`) {
		t.Errorf("bad node name: %+v", r)
	}
}
