package console_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// chromium returns the path of a Chromium (or Chrome) binary: $NOOK_CHROMIUM,
// else the first of the usual names on $PATH.
func chromium() string {
	if p := os.Getenv("NOOK_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// The console in a real browser (headless Chromium driven over CDP): a
// wrong token is refused; the token logs in; the inbox shows the waiting
// call; answering it with JSON completes the run, whose page shows the
// answer in its value; a run's output appears live on its page, by
// server-sent events, and the page turns to the finished run. The page's
// script runs under the console's CSP (it is a file, not inline). A
// screenshot of each page goes to $NOOK_CONSOLE_SCREENSHOTS (default: the
// test's temporary directory).
func TestBrowser(t *testing.T) {
	bin := chromium()
	if bin == "" && os.Getenv("CI") == "true" {
		t.Fatal("no chromium binary found: CI installs it (.ci/run), and runs the browser test")
	}
	if bin == "" {
		t.Skip("no chromium binary found (apt-get install chromium, or set NOOK_CHROMIUM): the browser test needs one")
	}
	shots := os.Getenv("NOOK_CONSOLE_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	} else if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, testToken)
	h, _ := e.startAsk("browser", "deploy v2 to production?")

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox,
		chromedp.WindowSize(1200, 900), chromedp.Flag("disable-gpu", true))
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()
	start := time.Now()

	shot := func(name string) {
		t.Helper()
		png, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot %s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(shots, name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	do := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(bctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(bctx, chromedp.TextContent(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return s
	}
	// waitText waits until the element's text holds want.
	waitText := func(sel, want string) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		var got string
		for time.Now().Before(deadline) {
			if s, err := chromedp.Run(bctx, chromedp.TextContent(chromedp.CSS(sel))); err == nil {
				if got = s; strings.Contains(s, want) {
					return
				}
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatalf("%s never held %q (last %q)", sel, want, got)
	}

	do("wrong token", chromedp.Navigate(e.srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS("#token")),
		chromedp.SendKeys(chromedp.CSS("#token"), "not-the-token"), chromedp.Click(chromedp.CSS("#login")),
		chromedp.WaitVisible(chromedp.CSS("#message")))
	if got := text("#message"); got != "That is not the token this server was started with." {
		t.Errorf("wrong token message %q", got)
	}
	shot("login-refused")
	do("log in", chromedp.SendKeys(chromedp.CSS("#token"), testToken), chromedp.SendKeys(chromedp.CSS("#name"), "Ada Lovelace"),
		chromedp.Click(chromedp.CSS("#login")), chromedp.WaitVisible(chromedp.CSS("section.pending")))
	if got := text("section.pending pre.payload"); got != "{\n  \"question\": \"deploy v2 to production?\"\n}" {
		t.Errorf("inbox payload %q", got)
	}
	if got := text(".who"); got != "Ada Lovelace" {
		t.Errorf("who %q", got)
	}
	shot("approvals")
	do("answer", chromedp.SendKeys(chromedp.CSS("section.pending textarea"), `{"approved": true, "note": "after 17:00"}`),
		chromedp.Click(chromedp.CSS("section.pending button.send")), chromedp.WaitVisible(chromedp.CSS("#message")))
	if got := text("#message"); got != "Answered browser/1 (answer); run browser resumes." {
		t.Errorf("after answering: %q", got)
	}
	if got := text("#answers tbody td:nth-child(2)"); !strings.HasPrefix(got, "Ada Lovelace 127.0.0.1:") {
		t.Errorf("audit row: who %q", got)
	}
	shot("approvals-answered")
	res := waitResult(t, h)
	if string(res.Value) != `{"answer":{"approved":true,"note":"after 17:00"}}` {
		t.Errorf("run value %s", res.Value)
	}
	do("run page", chromedp.Navigate(e.srv.URL+"/run?id=browser"), chromedp.WaitVisible(chromedp.CSS("#value")))
	if got := text("#status"); got != "completed" {
		t.Errorf("run status %q", got)
	}
	if got := text("#value"); got != "{\n  \"answer\": {\n    \"approved\": true,\n    \"note\": \"after 17:00\"\n  }\n}" {
		t.Errorf("run value on the page %q", got)
	}
	shot("run-completed")

	// Live output: a run that prints for a while, watched as it runs.
	tick, err := e.ws.Runtime().Exec(context.Background(), `for (let i = 0; i < 6; i++) {
  console.log("tick " + i + " <b>not bold</b>");
  await new Promise((r) => setTimeout(r, 250));
}
export default () => "ticked";`, runtime.ExecOptions{ID: "ticker", Backend: "js"})
	if err != nil {
		t.Fatal(err)
	}
	do("live run page", chromedp.Navigate(e.srv.URL+"/run?id=ticker"), chromedp.WaitVisible(chromedp.CSS("#output")))
	waitText("#status", "running (live)") // the script runs: the CSP lets the console's own file run
	waitText("#output", "tick 3 <b>not bold</b>")
	shot("run-live")
	waitResult(t, tick)
	waitText("#value", `"ticked"`) // the page reloads into the finished run
	if got := text("#status"); got != "completed" {
		t.Errorf("ticker status after the live stream: %q", got)
	}
	if got := text("#output"); !strings.Contains(got, "tick 0 <b>not bold</b>\ntick 1") || !strings.Contains(got, "tick 5 <b>not bold</b>\n") {
		t.Errorf("ticker output %q", got)
	}
	var bold int
	if n, err := chromedp.Run(bctx, chromedp.Evaluate[int](`document.querySelectorAll("#output b").length`)); err == nil {
		bold = n
	}
	if bold != 0 {
		t.Errorf("output became markup: %d <b> elements", bold)
	}
	shot("run-finished-after-live")
	do("runs list", chromedp.Navigate(e.srv.URL+"/runs"), chromedp.WaitVisible(chromedp.CSS("table.runs")))
	shot("runs")

	// A changed file: its view, its history and its diff from a checkpoint.
	f := e.ws.FS()
	if err := f.WriteFile(ctx, "/workspace/notes.md", []byte("# Notes\nfirst line\n"), &vfs.WriteOptions{MkdirAll: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Checkpoint(ctx, "before-edit"); err != nil {
		t.Fatal(err)
	}
	if err := f.WriteFile(ctx, "/workspace/notes.md", []byte("# Notes\nfirst line, edited\n<script>alert(1)</script>\n"), nil); err != nil {
		t.Fatal(err)
	}
	do("file view", chromedp.Navigate(e.srv.URL+"/file?path=/workspace/notes.md"), chromedp.WaitVisible(chromedp.CSS("#source")))
	if got := text("#source"); !strings.Contains(got, "first line, edited") || !strings.Contains(got, "<script>alert(1)</script>") {
		t.Errorf("file view text %q", got)
	}
	shot("file")
	do("file history", chromedp.Click(chromedp.CSS(`a[href^="/history"]`)), chromedp.WaitVisible(chromedp.CSS("table.changes")))
	if got := text("table.changes tbody"); !strings.Contains(got, "write") || !strings.Contains(got, "create") {
		t.Errorf("history table %q", got)
	}
	shot("history")
	do("diff", chromedp.Navigate(e.srv.URL+"/checkpoints?a=before-edit&path=/workspace"), chromedp.WaitVisible(chromedp.CSS("#diff")))
	if got := text("#diff"); !strings.Contains(got, "/workspace/notes.md") || !strings.Contains(got, "+first line, edited") || !strings.Contains(got, "-first line") {
		t.Errorf("diff text %q", got)
	}
	var scripts int
	if n, err := chromedp.Run(bctx, chromedp.Evaluate[int](`document.querySelectorAll("main script").length`)); err == nil {
		scripts = n
	}
	if scripts != 0 {
		t.Errorf("a file's text became markup: %d <script> elements", scripts)
	}
	shot("diff")
	t.Logf("browser test took %s; screenshots in %s", time.Since(start).Round(time.Millisecond), shots)
}
