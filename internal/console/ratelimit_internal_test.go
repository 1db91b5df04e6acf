package console

import (
	"fmt"
	"net/netip"
	"testing"
	"time"
)

// Addresses count by IPv4 address and IPv6 /64; the table stays bounded
// however many addresses fail.
func TestLoginLimiterAddresses(t *testing.T) {
	for addr, want := range map[string]string{
		"192.0.2.7:5000":             "192.0.2.7/32",
		"[::ffff:192.0.2.7]:5000":    "192.0.2.7/32",
		"[2001:db8:1:2:aaaa::1]:443": "2001:db8:1:2::/64",
		"[2001:db8:1:2:bbbb::9]:80":  "2001:db8:1:2::/64",
		"not an address":             "invalid Prefix",
	} {
		if got := clientPrefix(addr).String(); got != want {
			t.Errorf("clientPrefix(%q) = %s, want %s", addr, got, want)
		}
	}
	now := time.Unix(1767225600, 0)
	l := &loginLimiter{m: map[netip.Prefix]*loginFailures{}, now: func() time.Time { return now }}
	for i := range maxLoginClients + 100 {
		l.failed(clientPrefix(fmt.Sprintf("10.%d.%d.%d:1", i>>16&255, i>>8&255, i&255)))
		now = now.Add(time.Millisecond)
	}
	if len(l.m) != maxLoginClients {
		t.Fatalf("%d addresses counted, want the bound %d", len(l.m), maxLoginClients)
	}
	if _, ok := l.m[clientPrefix("10.0.0.0:1")]; ok {
		t.Error("the oldest window was kept past the bound")
	}
	p := clientPrefix("[2001:db8::1]:1")
	for range MaxLoginFailures {
		l.failed(clientPrefix("[2001:db8::2]:1"))
	}
	if l.locked(p) != LoginFailureWindow {
		t.Errorf("another address of the same /64 is not locked: %v", l.locked(p))
	}
}
