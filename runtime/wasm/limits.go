package wasm

import (
	"errors"
	"fmt"
)

// Compile bombs. wazero's compiler is linear in most of a module's size,
// but a few declarations cost far more to compile than they take to write:
// a function that declares 2^32 locals is 47 bytes and makes the compiler
// allocate gigabytes for minutes, and compilation cannot be interrupted.
// So before a module reaches wazero, checkLimits refuses what exceeds the
// implementation limits that web browsers share (the WebAssembly JS API
// specification, "Limits"), which no real module comes near, except the
// number of functions: a million empty functions (4 MB) take wazero 16 s
// and 600 MB to compile, so the bound is a quarter of the browsers'.
const (
	maxFunctions     = 250_000   // functions defined and imported
	maxFunctionBytes = 7_654_321 // one function body
	maxLocals        = 50_000    // locals of one function
)

// wazero's compiler takes time quadratic in a function's block nesting and
// in the size of a br_table (measured on this 2-core machine: 50,000 nested
// blocks, 150 KB, take 11 s and 100,000 take 67 s; a br_table of 100,000
// targets 3.5 s). One function's nesting and br_tables are bounded, and so
// is their sum over the module (compileCost), which is what a module of
// many such functions would pay. The bounds are far above what compilers
// emit: Go's os test binary (15 MB) nests at most 549 blocks and has
// br_tables of at most 1,144 targets; its costs are in TestCompileBombs.
var (
	maxNesting = 20_000
	maxBrTable = 100_000
	// Budgets of the module's compileCost: about 4 s of compiling each.
	maxNestingCost int64 = 500_000_000
	maxBrTableCost int64 = 10_000_000_000
)

// compileCost adds up, over a module's functions, what makes wazero's
// compile time superlinear: the depth at every block opened, and the
// square of every br_table's size.
type compileCost struct {
	nesting, brTable int64
}

// limitError is a module over one of the limits above.
type limitError struct{ text string }

func (e *limitError) Error() string { return e.text }

// checkLimits reads the sections of bin and refuses a module that exceeds
// the limits above. A malformed module is left to wazero's validation.
func checkLimits(bin []byte) (err error) {
	defer func() {
		if recover() != nil {
			err = nil // malformed: wazero says why
		}
	}()
	r := &reader{b: bin, i: 8}
	var funcs uint64
	var cost compileCost
	for r.i < len(r.b) {
		id := r.byte()
		body := r.bytes(int(r.u32()))
		s := &reader{b: body}
		switch id {
		case 2: // imports
			for n := s.u32(); n > 0; n-- {
				s.name()
				s.name()
				switch kind := s.byte(); kind {
				case 0:
					s.u32()
					funcs++
				case 1:
					s.valtype()
					s.limits()
				case 2:
					s.limits()
				case 3:
					s.valtype()
					s.byte()
				default:
					return nil
				}
			}
		case 3: // functions
			funcs += uint64(s.u32())
		case 10: // code
			for n := s.u32(); n > 0; n-- {
				size := s.u32()
				if size > maxFunctionBytes {
					return fmt.Errorf("a function body of %d bytes exceeds the limit of %d bytes", size, maxFunctionBytes)
				}
				b := s.bytes(int(size))
				fb := &reader{b: b}
				var locals uint64
				for g := fb.u32(); g > 0; g-- {
					locals += uint64(fb.u32())
					fb.valtype()
					if locals > maxLocals {
						return fmt.Errorf("a function declares more than %d locals", maxLocals)
					}
				}
				// The metering decoder checks nesting and br_tables; a body
				// it cannot decode (an instruction it does not know) is
				// left to wazero.
				var le *limitError
				if _, err := meterBody(nil, b, nil, 0, &cost); errors.As(err, &le) {
					return le
				}
				if cost.nesting > maxNestingCost {
					return fmt.Errorf("the module's block nesting would take too long to compile (cost %d, limit %d)", cost.nesting, maxNestingCost)
				}
				if cost.brTable > maxBrTableCost {
					return fmt.Errorf("the module's br_tables would take too long to compile (cost %d, limit %d)", cost.brTable, maxBrTableCost)
				}
			}
		}
		if funcs > maxFunctions {
			return fmt.Errorf("the module has more than %d functions", maxFunctions)
		}
	}
	return nil
}
