// Package search is the storage-independent search engine behind the
// filesystem's Find and Grep operations.
//
// It has three parts, none of which knows how files are stored:
//
//   - Path selection: [Glob] matches doublestar patterns against paths
//     relative to the searched directory and tells a walker which directories
//     it may skip ([Glob.CouldMatchUnder]); [Excluder] prunes directories and
//     files by gitignore-like exclude patterns.
//   - Line search: [Compile] turns grep [Options] into a [Matcher], and a
//     [Scanner] runs it over a file delivered as a sequence of byte chunks,
//     reporting matching lines with their numbers and context ([Hit]).
//   - Chunk skipping: [BuildFilter] summarises a chunk's trigrams in a small
//     Bloom filter when it is written, and [Query.MayMatchAny] uses those
//     filters to rule out files that cannot contain a match without reading
//     their bytes.
//
// A Matcher, Glob, Excluder and Query are immutable and safe for concurrent
// use. A Scanner holds buffers and serves one goroutine at a time.
package search
