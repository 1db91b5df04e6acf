package editmatch

// Edit is one requested replacement in a file.
type Edit struct {
	// OldText is the text to find. It must not be empty. Invalid UTF-8
	// bytes are read as U+FFFD, as a JSON decoder would.
	OldText string
	// NewText replaces OldText. Its line endings are converted to the
	// file's detected line ending; invalid UTF-8 bytes become U+FFFD.
	NewText string
	// ReplaceAll replaces every non-overlapping occurrence (at least one)
	// instead of requiring OldText to be unique.
	ReplaceAll bool
}

// Match describes how one edit matched the original content.
type Match struct {
	// Index is the position of the edit in the slice given to Apply.
	Index int
	// Rule is RuleExact, or the fuzzy rules that were needed to find the
	// text, joined with "+" in a fixed order (for example
	// "trailing-whitespace+quotes").
	Rule string
	// Start and End are byte offsets in the original content (BOM and CR
	// bytes included) of the replaced range. With ReplaceAll, Start is the
	// start of the first replaced range and End the end of the last.
	Start, End int
	// Count is the number of replacements made: 1, or more with ReplaceAll.
	Count int
}

// Result is the outcome of a successful Apply.
type Result struct {
	// Content is the new file content, BOM and untouched bytes preserved.
	Content []byte
	// Matches holds one Match per edit, in the order of the edits.
	Matches []Match
}

// Names of the matching rules reported in Match.Rule.
const (
	// RuleExact means OldText occurred verbatim (after line endings were
	// normalised to LF).
	RuleExact = "exact"
	// RuleNFKC means Unicode NFKC normalisation was needed.
	RuleNFKC = "nfkc"
	// RuleTrailingWhitespace means per-line trailing whitespace differed.
	RuleTrailingWhitespace = "trailing-whitespace"
	// RuleQuotes means typographic quotes were folded to ASCII quotes.
	RuleQuotes = "quotes"
	// RuleDashes means Unicode dashes and minus were folded to '-'.
	RuleDashes = "dashes"
	// RuleSpaces means typographic spaces were folded to ' '.
	RuleSpaces = "spaces"
	// RuleIndentation means leading indentation differed (whole lines were
	// matched with a consistent indentation structure).
	RuleIndentation = "indentation"
	// RuleInteriorWhitespace means runs of interior spaces and tabs
	// differed.
	RuleInteriorWhitespace = "interior-whitespace"
)
