// nook console: live output of a run page by server-sent events, and
// confirmation before a destructive button. Output is
// added as text (textContent), never as markup. EventSource reconnects by
// itself, sending the last event id, so the stream resumes where it broke.
"use strict";
// A button with data-confirm asks before its form is sent.
document.addEventListener("click", function (e) {
  var b = e.target.closest && e.target.closest("button[data-confirm]");
  if (b && !window.confirm(b.dataset.confirm)) e.preventDefault();
});
document.addEventListener("DOMContentLoaded", function () {
  var out = document.getElementById("output");
  if (!out || !out.dataset.url) return;
  var status = document.getElementById("status");
  var es = new EventSource(out.dataset.url);
  if (status) status.textContent = "running (live)";
  es.addEventListener("output", function (e) {
    var d = JSON.parse(e.data);
    var span = document.createElement("span");
    span.className = d.stream;
    span.textContent = d.text;
    out.appendChild(span);
  });
  es.addEventListener("exit", function (e) {
    var d = JSON.parse(e.data);
    es.close();
    if (status) status.textContent = d.status + " (exit " + d.exitCode + ")";
    // The finished page has the value, changed files and journal.
    setTimeout(function () { location.reload(); }, 200);
  });
  es.addEventListener("error", function (e) {
    if (e.data && status) status.textContent = "live output failed: " + JSON.parse(e.data).message;
  });
});
// The change feed's first page: each new change is added on top, as text.
document.addEventListener("DOMContentLoaded", function () {
  var feed = document.getElementById("feed");
  if (!feed || !feed.dataset.url) return;
  var es = new EventSource(feed.dataset.url);
  es.addEventListener("change", function (e) {
    var d = JSON.parse(e.data);
    var tr = document.createElement("tr");
    tr.className = "op-" + d.op + " new";
    var path = (d.oldPath ? d.oldPath + " \u2192 " : "") + d.path;
    [String(d.seq), d.time, d.op, d.kind, path].forEach(function (text, i) {
      var td = document.createElement("td");
      td.textContent = text;
      if (i === 0) td.className = "hint";
      if (i === 4) td.className = "mono";
      tr.appendChild(td);
    });
    feed.insertBefore(tr, feed.firstChild);
    var empty = document.getElementById("empty");
    if (empty) empty.remove();
  });
});
// The inbox: when the waiting calls change, the page reloads to show
// them, unless an answer is being typed; then it says so instead.
document.addEventListener("DOMContentLoaded", function () {
  var inbox = document.getElementById("inbox");
  if (!inbox || !inbox.dataset.url) return;
  var shown = inbox.dataset.calls;
  var es = new EventSource(inbox.dataset.url);
  es.addEventListener("waits", function (e) {
    var d = JSON.parse(e.data);
    if (d.calls.join(" ") === shown) return;
    var typing = Array.prototype.some.call(document.querySelectorAll("form.answer textarea, form.answer input[type=text]"),
      function (el) { return el.value !== ""; });
    if (!typing) { es.close(); location.reload(); return; }
    inbox.className = "notice";
    inbox.textContent = "The waiting calls changed (" + d.total + " wait now): reload the page to see them.";
  });
});
