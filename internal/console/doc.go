// Package console is nook's web console for the people who watch and
// approve agents' work: the runs of a workspace with their output (live, by
// server-sent events), values, changed files and journals; the inbox of
// host calls waiting for a person's answer; and the workspace's files.
//
// It is server-rendered (html/template, embedded with embed.FS) with one
// small static script for live output and no build step. Everything a
// model wrote (file names and contents, run output, host-call arguments,
// approval payloads) is data: html/template escapes it in every context,
// and a strict Content-Security-Policy (no inline script, no origin but
// the console's own) is sent with every response.
//
// Authentication is the bearer token of nook serve's /mcp, exchanged once
// on the login page for a session cookie (HttpOnly, SameSite=Strict,
// Secure over TLS) naming a server-side session with an expiry. Every
// state-changing request must carry the session's CSRF token and pass
// net/http's cross-origin protection (Sec-Fetch-Site, Origin).
package console
