package console

import (
	"bytes"
	"embed"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"time"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Options configure a Console.
type Options struct {
	// FS and Runtime are the workspace's (nook.Workspace.FS, .Runtime).
	FS      *vfs.FS
	Runtime *runtime.Runtime
	// Token is the bearer token a person logs in with (nook serve's); empty,
	// the console needs no login and answers only requests that name a
	// loopback host.
	Token string
	// SessionTTL is how long a login lasts (default DefaultSessionTTL);
	// MaxSessions bounds the sessions held (default DefaultMaxSessions).
	SessionTTL  time.Duration
	MaxSessions int
	// SecureCookies marks the cookies Secure even over plain HTTP (behind a
	// proxy that terminates TLS); over TLS they always are.
	SecureCookies bool
	// AuditDir is the workspace directory where each answer to a waiting
	// call is recorded, who and when (default DefaultAuditDir).
	AuditDir string
	// Logger receives what a page cannot show (default slog.Default()).
	Logger *slog.Logger
	// Now is the console's clock (default time.Now).
	Now func() time.Time
	// Prefix is the path the console is mounted under, such as
	// "/w/alpha" (a fleet node serves one console per workspace): every
	// link, redirect and cookie of the console is under it, and requests
	// reach the console with it (the console strips it). Empty: at "/".
	Prefix string
}

// DefaultAuditDir is where answers are recorded, outside every backend's
// root, so sandboxed code does not see it.
const DefaultAuditDir = "/.nook/console/answers"

// Console is the web console's handler. Mount it at "/".
type Console struct {
	opts     Options
	pages    map[string]*template.Template
	sessions *sessions
	logins   *loginLimiter
	local    *session // the session of every request without a token
	mux      *http.ServeMux
	handler  http.Handler
}

// New returns a console over a workspace.
func New(opts Options) (*Console, error) {
	if opts.SessionTTL <= 0 {
		opts.SessionTTL = DefaultSessionTTL
	}
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = DefaultMaxSessions
	}
	if opts.AuditDir == "" {
		opts.AuditDir = DefaultAuditDir
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	c := &Console{opts: opts, pages: map[string]*template.Template{},
		sessions: &sessions{m: map[string]*session{}, ttl: opts.SessionTTL, max: opts.MaxSessions, now: opts.Now},
		logins:   &loginLimiter{m: map[netip.Prefix]*loginFailures{}, now: opts.Now},
		local:    &session{name: "local user", csrf: randomToken()}}
	layout, err := template.New("layout.html").Funcs(funcs).ParseFS(templateFS, "templates/layout.html")
	if err != nil {
		return nil, err
	}
	for _, p := range []string{"login", "runs", "run", "approvals", "files", "file", "changes", "history", "usage", "checkpoints", "error"} {
		t, err := template.Must(layout.Clone()).ParseFS(templateFS, "templates/"+p+".html")
		if err != nil {
			return nil, err
		}
		c.pages[p] = t
	}
	static, _ := fs.Sub(staticFS, "static")
	m := http.NewServeMux()
	m.Handle("GET /static/", http.StripPrefix("/static/", staticHandler(static)))
	m.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	m.HandleFunc("GET /login", c.loginForm)
	m.HandleFunc("POST /login", c.login)
	m.Handle("POST /logout", c.authed(c.logout))
	m.Handle("GET /{$}", c.authed(func(w http.ResponseWriter, r *http.Request, _ *session) {
		c.redirect(w, r, "/approvals")
	}))
	m.Handle("GET /runs", c.authed(c.runsPage))
	m.Handle("GET /run", c.authed(c.runPage))
	m.Handle("GET /run/events", c.authed(c.runEvents))
	m.Handle("POST /run/action", c.authed(c.runAction))
	m.Handle("GET /approvals", c.authed(c.approvalsPage))
	m.Handle("POST /approvals/answer", c.authed(c.answer))
	m.Handle("GET /approvals/events", c.authed(c.approvalEvents))
	m.Handle("GET /files", c.authed(c.filesPage))
	m.Handle("GET /file", c.authed(c.filePage))
	m.Handle("GET /file/raw", c.authed(c.rawImage))
	m.Handle("GET /changes", c.authed(c.changesPage))
	m.Handle("GET /changes/events", c.authed(c.changeEvents))
	m.Handle("GET /history", c.authed(c.historyPage))
	m.Handle("GET /usage", c.authed(c.usagePage))
	m.Handle("GET /checkpoints", c.authed(c.checkpointsPage))
	m.Handle("/", c.authed(func(w http.ResponseWriter, r *http.Request, ss *session) {
		c.fail(w, r, ss, http.StatusNotFound, "There is no such page.")
	}))
	c.mux = m
	var h http.Handler = http.NewCrossOriginProtection().Handler(m)
	if opts.Prefix != "" {
		h = http.StripPrefix(opts.Prefix, h)
	}
	c.handler = c.secure(h)
	return c, nil
}

// redirect sends the browser to the console's page at path (a path of
// the console's own, "/approvals?...", under its mount prefix).
func (c *Console) redirect(w http.ResponseWriter, r *http.Request, path string) {
	http.Redirect(w, r, c.opts.Prefix+path, http.StatusSeeOther)
}

// ServeHTTP serves the console.
func (c *Console) ServeHTTP(w http.ResponseWriter, r *http.Request) { c.handler.ServeHTTP(w, r) }

// staticHandler serves the embedded static files, cacheable for an hour.
func staticHandler(fsys fs.FS) http.Handler {
	fh := http.FileServerFS(fsys)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=3600")
		fh.ServeHTTP(w, r)
	})
}

// base is what every page's layout needs.
type base struct {
	Title string
	CSRF  string // empty on the login page
	Who   string
	Nav   string // the section the page belongs to
	Token bool   // whether the console has a login (and so a logout)
	Root  string // the console's mount prefix (Options.Prefix), before every link
}

// page is implemented by every page's data.
type page interface{ layout() *base }

func (b *base) layout() *base { return b }

// render renders page name with data, in full before writing, so that a
// failing template yields a clean 500.
func (c *Console) render(w http.ResponseWriter, r *http.Request, status int, name string, data page) {
	var buf bytes.Buffer
	if err := c.pages[name].ExecuteTemplate(&buf, "layout.html", data); err != nil {
		c.opts.Logger.Error("console: rendering a page", "page", name, "err", err)
		http.Error(w, "internal error rendering the page", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// with fills the layout fields of a page of session ss.
func (c *Console) with(ss *session, nav, title string) base {
	return base{Title: title, CSRF: ss.csrf, Who: ss.name, Nav: nav, Token: c.opts.Token != "", Root: c.opts.Prefix}
}

type errorPage struct {
	base
	Message string
}

// fail renders an error page with status.
func (c *Console) fail(w http.ResponseWriter, r *http.Request, ss *session, status int, msg string) {
	c.render(w, r, status, "error", &errorPage{base: c.with(ss, "", http.StatusText(status)), Message: msg})
}
