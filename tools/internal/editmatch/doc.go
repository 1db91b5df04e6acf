// Package editmatch is the pure engine behind the edit tool: it locates
// each requested old text in a file's original bytes and splices the
// replacements in, without touching any byte it was not asked to change.
//
// Apply follows the edit semantics of Cloudflare's Computer (itself
// adapted from pi's edit-diff) and reproduces its model-facing error
// messages exactly:
//
//   - Content must be valid UTF-8. A leading UTF-8 BOM is set aside for
//     matching and kept. The line ending is detected from the first
//     newline (CRLF or LF); content and edits are compared with every line
//     ending normalised to LF, but only the inserted text is converted to
//     the detected ending: untouched bytes, including stray CRs and mixed
//     endings, stay byte for byte identical.
//   - Every edit is matched against the original content, never against
//     the output of an earlier edit. An exact match is tried first. On a
//     miss the search moves to a normalised space (NFKC, per-line trailing
//     whitespace trimmed, typographic quotes, dashes and spaces folded to
//     ASCII), the hit is mapped back to original byte offsets, and the
//     replacement is spliced into the original bytes. A hit whose
//     boundaries fall inside an NFKC expansion or a combining sequence is
//     refused rather than guessed.
//   - Beyond Computer, two later fallbacks are tried: whole-line matching
//     that ignores leading indentation differences (tabs versus spaces,
//     indent width) while requiring a consistent indentation structure,
//     with the replacement re-indented to the file's style; and matching
//     with interior whitespace runs collapsed to one space. A miss also
//     carries a hint pointing at the closest text in the file.
//   - Each old text must match exactly once unless ReplaceAll is set
//     (overlapping occurrences count: "aa" is ambiguous in "aaa");
//     matched ranges must not overlap; a result identical to the original
//     is an error. All checks run before any output is produced.
//
// Match reports, per edit, which rule found it ("exact" or the fuzzy
// rules that were needed) and where, in original byte offsets. Errors are
// *Error values whose Message is the exact model-facing text.
//
// Exact matching costs a few linear scans (a 100 KB file with five edits
// takes well under a millisecond); the fuzzy stages build normalised
// copies of the text with offset maps and stay linear, with the work on
// pathological input bounded by giving up after 1,024 rejected
// candidates.
package editmatch
