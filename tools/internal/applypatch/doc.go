// Package applypatch is the engine behind the patch tool: it parses the
// apply_patch envelope that OpenAI's Codex models are trained to write and
// computes the new content of every file it touches. It performs no I/O of
// its own: files are read through a [Reader], and the result is a list of
// [Op]s for the caller to carry out, typically in one transaction.
//
// # Format
//
//	*** Begin Patch
//	*** Add File: path/to/new.txt
//	+line
//	*** Delete File: path/old.txt
//	*** Update File: path/file.py
//	*** Move to: path/renamed.py
//	@@ def greet():
//	 context
//	-removed
//	+added
//	*** End of File
//	*** End Patch
//
// An Add File section is followed by its content, every line prefixed
// with "+"; the file gets a newline after every line. A Delete File
// section has no body. An Update File section may be followed at once by
// a Move to line (rename) and then has one or more hunks. A hunk starts
// with "@@", optionally followed by text: a line of the file (typically a
// class or function header) that the hunk's lines come after; several
// "@@ text" lines in a row narrow the search step by step. The hunk's
// lines start with " " (context, kept), "-" (removed) or "+" (added). A
// hunk followed by "*** End of File" must match the end of the file.
// Paths may be absolute workspace paths or relative to the cwd given to
// [Patch.Plan].
//
// [Parse] is lenient where models are sloppy: CRLF line endings, a
// heredoc (<<'EOF' ... EOF) or Markdown code fence around the envelope,
// blank lines between sections, whitespace and letter case around the
// markers, empty context lines without their leading space, a first hunk
// without "@@", unified-diff "@@ -1,2 +1,3 @@" headers, and a pure rename
// (Move to without hunks).
//
// # Matching
//
// Hunks are located as Codex locates them: in file order, each searched
// for after the previous one and after its "@@" context lines, first
// byte-for-byte, then ignoring trailing whitespace, then ignoring leading
// and trailing whitespace, then also treating Unicode dashes, quotes and
// spaces as their ASCII counterparts. Each level is tried over the whole
// range before the next; the first match wins. An "@@" context line also
// matches a line that starts with it ("@@ def run" finds "def run(self):").
// If a hunk ends with blank context lines that are not in the file they
// are dropped and the search retried (they are usually separators).
// Context lines keep the file's own text, so a lenient match never
// rewrites them; added lines take the file's dominant line ending, and
// the file keeps whether it ends with a newline.
//
// # Errors
//
// Syntax errors are *[ParseError], with the patch line. [Patch.Plan] is
// all-or-nothing and reports every problem it finds: a *[FileError] for a
// missing or existing file, a *[HunkError] for each hunk that does not
// apply (quoting the lines it looked for and the closest lines of the
// file), a *[PlanError] when there are several, and an
// *[AlreadyAppliedError] when the patch fails because its result is
// already there.
package applypatch
