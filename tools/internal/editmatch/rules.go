package editmatch

import "strings"

// ruleSet is a set of fuzzy rules, one bit per rule, in reporting order.
type ruleSet uint8

const (
	ruleNFKC ruleSet = 1 << iota
	ruleTrailing
	ruleQuotes
	ruleDashes
	ruleSpaces
	ruleIndentation
	ruleInterior
)

// baseRules are Computer's normalisation rules, applied together.
const baseRules = ruleNFKC | ruleTrailing | ruleQuotes | ruleDashes | ruleSpaces

// foldRules are the per-rune folding rules.
const foldRules = ruleQuotes | ruleDashes | ruleSpaces

var ruleNames = [...]string{
	RuleNFKC,
	RuleTrailingWhitespace,
	RuleQuotes,
	RuleDashes,
	RuleSpaces,
	RuleIndentation,
	RuleInteriorWhitespace,
}

// String joins the names of the rules in the set with "+".
func (r ruleSet) String() string {
	var names []string
	for i, name := range ruleNames {
		if r&(1<<i) != 0 {
			names = append(names, name)
		}
	}
	return strings.Join(names, "+")
}
