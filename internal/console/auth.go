package console

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Cookie names.
const (
	sessionCookie = "nook_session"
	loginCookie   = "nook_login" // the login form's double-submit token
)

// session is one logged-in browser.
type session struct {
	name    string // who the person said they are, for the audit record
	csrf    string // the token every form of the session carries
	expires time.Time
}

// sessions is the server-side session table.
type sessions struct {
	mu  sync.Mutex
	m   map[string]*session // by the hash of the cookie's id
	ttl time.Duration
	max int
	now func() time.Time
}

// randomToken returns 32 random bytes, base64url.
func randomToken() string {
	b := make([]byte, 32)
	rand.Read(b) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b)
}

// key is the map key of a session id: its hash, so that the table's
// lookups do not compare secrets byte by byte.
func key(id string) string {
	s := sha256.Sum256([]byte(id))
	return string(s[:])
}

// create starts a session for name and returns its id.
func (s *sessions) create(name string) (string, *session) {
	id := randomToken()
	ss := &session{name: name, csrf: randomToken(), expires: s.now().Add(s.ttl)}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	for k, v := range s.m {
		if !now.Before(v.expires) {
			delete(s.m, k)
		}
	}
	for len(s.m) >= s.max {
		var oldest string
		var at time.Time
		for k, v := range s.m {
			if oldest == "" || v.expires.Before(at) {
				oldest, at = k, v.expires
			}
		}
		delete(s.m, oldest)
	}
	s.m[key(id)] = ss
	return id, ss
}

// get returns the live session of id, or nil.
func (s *sessions) get(id string) *session {
	if id == "" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k := key(id)
	ss := s.m[k]
	if ss != nil && !s.now().Before(ss.expires) {
		delete(s.m, k)
		return nil
	}
	return ss
}

// end ends the session of id.
func (s *sessions) end(id string) {
	s.mu.Lock()
	delete(s.m, key(id))
	s.mu.Unlock()
}

// count returns the number of sessions held.
func (s *sessions) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.m)
}

// equal compares two secrets in time independent of where they differ.
func equal(a, b string) bool {
	x, y := sha256.Sum256([]byte(a)), sha256.Sum256([]byte(b))
	return subtle.ConstantTimeCompare(x[:], y[:]) == 1 && a != ""
}

// contentSecurityPolicy is sent with every response.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

// secure sets the headers every response carries, and refuses requests
// that reach a console without a token through a name that is not
// loopback (DNS rebinding).
func (c *Console) secure(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", contentSecurityPolicy)
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("Cross-Origin-Opener-Policy", "same-origin")
		hd.Set("Cross-Origin-Resource-Policy", "same-origin")
		if c.opts.Token == "" && !loopbackHost(r.Host) {
			http.Error(w, "forbidden: a console without a token answers only at a loopback address", http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// loopbackHost reports whether a Host header names a loopback address.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// sessionOf returns the request's session and its id, or nil. Without a
// token every request has one, named "local".
func (c *Console) sessionOf(r *http.Request) (*session, string) {
	if ck, err := r.Cookie(sessionCookie); err == nil {
		if ss := c.sessions.get(ck.Value); ss != nil {
			return ss, ck.Value
		}
	}
	if c.opts.Token == "" {
		return c.local, ""
	}
	return nil, ""
}

// authed wraps a page: without a session, a GET goes to the login page
// and anything else gets 401. A state-changing request must carry the
// session's CSRF token in its "csrf" form field.
func (c *Console) authed(h func(w http.ResponseWriter, r *http.Request, ss *session)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ss, _ := c.sessionOf(r)
		if ss == nil {
			if r.Method == http.MethodGet || r.Method == http.MethodHead {
				c.redirect(w, r, "/login")
				return
			}
			http.Error(w, "unauthorized: log in first", http.StatusUnauthorized)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			r.Body = http.MaxBytesReader(w, r.Body, MaxFormBytes)
			if err := r.ParseForm(); err != nil {
				http.Error(w, "bad form: "+err.Error(), http.StatusBadRequest)
				return
			}
			if !equal(r.PostFormValue("csrf"), ss.csrf) {
				http.Error(w, "forbidden: the form's CSRF token is missing or wrong (reload the page)", http.StatusForbidden)
				return
			}
		}
		w.Header().Set("Cache-Control", "no-store")
		h(w, r, ss)
	})
}

// setCookie sets a cookie of the console: HttpOnly, SameSite=Strict,
// Secure when the request came over TLS (or Options.SecureCookies).
func (c *Console) setCookie(w http.ResponseWriter, r *http.Request, name, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: value, Path: c.opts.Prefix + "/", MaxAge: maxAge,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil || c.opts.SecureCookies})
}

type loginPage struct {
	base
	Token   string // the double-submit token of the form
	Message string
}

func (c *Console) loginForm(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	if c.opts.Token == "" {
		c.redirect(w, r, "/")
		return
	}
	// Keep the token of an earlier visit: another tab's login page, or a
	// request the browser makes on its own (a favicon sent here), must not
	// invalidate the form on screen.
	t := ""
	if ck, err := r.Cookie(loginCookie); err == nil && len(ck.Value) == len(randomToken()) {
		t = ck.Value
	} else {
		t = randomToken()
	}
	c.setCookie(w, r, loginCookie, t, 600)
	c.render(w, r, http.StatusOK, "login", &loginPage{base: base{Title: "Log in", Root: c.opts.Prefix}, Token: t})
}

func (c *Console) login(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	r.Body = http.MaxBytesReader(w, r.Body, MaxFormBytes)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form: "+err.Error(), http.StatusBadRequest)
		return
	}
	ck, err := r.Cookie(loginCookie)
	if err != nil || !equal(r.PostFormValue("csrf"), ck.Value) {
		http.Error(w, "forbidden: the login form's token is missing or wrong (reload the login page)", http.StatusForbidden)
		return
	}
	client := clientPrefix(r.RemoteAddr)
	if wait := c.logins.locked(client); wait > 0 {
		secs := int((wait + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		t := randomToken()
		c.setCookie(w, r, loginCookie, t, 600)
		c.render(w, r, http.StatusTooManyRequests, "login", &loginPage{base: base{Title: "Log in", Root: c.opts.Prefix}, Token: t,
			Message: "Too many wrong tokens from this address: try again in " + strconv.Itoa(secs) +
				" s (limit MaxLoginFailures, " + strconv.Itoa(MaxLoginFailures) + " a minute)."})
		return
	}
	if c.opts.Token == "" || !equal(r.PostFormValue("token"), c.opts.Token) {
		c.logins.failed(client)
		t := randomToken()
		c.setCookie(w, r, loginCookie, t, 600)
		c.render(w, r, http.StatusUnauthorized, "login", &loginPage{base: base{Title: "Log in", Root: c.opts.Prefix}, Token: t,
			Message: "That is not the token this server was started with."})
		return
	}
	name := strings.TrimSpace(r.PostFormValue("name"))
	if len(name) > 100 {
		name = name[:100]
	}
	if name == "" {
		name = "someone with the token"
	}
	c.logins.succeeded(client)
	id, _ := c.sessions.create(name)
	c.setCookie(w, r, loginCookie, "", -1)
	c.setCookie(w, r, sessionCookie, id, int(c.opts.SessionTTL.Seconds()))
	c.redirect(w, r, "/approvals")
}

func (c *Console) logout(w http.ResponseWriter, r *http.Request, ss *session) {
	if _, id := c.sessionOf(r); id != "" {
		c.sessions.end(id)
	}
	c.setCookie(w, r, sessionCookie, "", -1)
	c.redirect(w, r, "/login")
}
