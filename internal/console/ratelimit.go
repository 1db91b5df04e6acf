package console

import (
	"net/netip"
	"sync"
	"time"
)

// Login limits: a client address (an IPv4 address, an IPv6 /64) that
// gives MaxLoginFailures wrong tokens within LoginFailureWindow is refused
// every login, right token or not, until the window ends. Behind a proxy
// every client has the proxy's address and shares its count.
const (
	MaxLoginFailures   = 10
	LoginFailureWindow = time.Minute
	// maxLoginClients bounds the addresses counted at once; past it the
	// entry whose window began first is dropped.
	maxLoginClients = 4096
)

// loginLimiter counts wrong tokens by client address.
type loginLimiter struct {
	mu  sync.Mutex
	m   map[netip.Prefix]*loginFailures
	now func() time.Time
}

type loginFailures struct {
	n     int
	since time.Time // the first failure of the window
}

// clientPrefix is the address a request is counted under: its IPv4
// address, or the /64 of its IPv6 address (one host's share of a network).
func clientPrefix(remoteAddr string) netip.Prefix {
	ap, err := netip.ParseAddrPort(remoteAddr)
	if err != nil {
		return netip.Prefix{}
	}
	a := ap.Addr().Unmap()
	if a.Is4() {
		return netip.PrefixFrom(a, 32)
	}
	p, _ := a.Prefix(64)
	return p
}

// locked returns how long the address must wait before it may log in
// again; zero when it may now.
func (l *loginLimiter) locked(p netip.Prefix) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	f := l.m[p]
	if f == nil {
		return 0
	}
	left := f.since.Add(LoginFailureWindow).Sub(l.now())
	if left <= 0 {
		delete(l.m, p)
		return 0
	}
	if f.n < MaxLoginFailures {
		return 0
	}
	return left
}

// failed counts a wrong token from the address.
func (l *loginLimiter) failed(p netip.Prefix) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	f := l.m[p]
	if f != nil && !now.Before(f.since.Add(LoginFailureWindow)) {
		f = nil
	}
	if f == nil {
		if len(l.m) >= maxLoginClients {
			l.evict(now)
		}
		f = &loginFailures{since: now}
		l.m[p] = f
	}
	f.n++
}

// succeeded forgets the address's failures.
func (l *loginLimiter) succeeded(p netip.Prefix) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.m, p)
}

// evict drops the windows that ended and, if none did, the oldest one.
func (l *loginLimiter) evict(now time.Time) {
	var oldest netip.Prefix
	var first time.Time
	for p, f := range l.m {
		if !now.Before(f.since.Add(LoginFailureWindow)) {
			delete(l.m, p)
			continue
		}
		if first.IsZero() || f.since.Before(first) {
			oldest, first = p, f.since
		}
	}
	if len(l.m) >= maxLoginClients {
		delete(l.m, oldest)
	}
}
