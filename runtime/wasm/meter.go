package wasm

import (
	"errors"
	"fmt"
)

// Metering: a module is rewritten before it is compiled so that a guest
// that computes for a long time without calling its host still leaves
// native code regularly, where the Go scheduler can preempt it (the garbage
// collector's stop-the-world waits for every goroutine) and where the
// backend can stop it. See RATIONALE.md.
//
// The rewrite appends, without renumbering anything:
//
//   - a type [] -> [];
//   - two mutable i32 globals: fuel (initially meterFuel) and stop (0),
//     the latter exported as meterStopExport;
//   - a function tick of that type, exported as meterTickExport (which also
//     declares it for ref.func);
//
// and inserts at the start of every function body and of every loop body:
//
//	global.get fuel; i32.const 1; i32.sub; global.set fuel
//	global.get fuel; i32.eqz; if; call tick; end
//
// tick executes memory.grow 0, which wazero implements as an exit from
// native code to Go (a preemption point), traps with unreachable when stop is
// set, and refills fuel. Every unbounded execution goes through loop headers
// or function entries, so a guest leaves native code at least every
// meterFuel of them.

const (
	// meterFuel is how many loop iterations and calls a guest runs between
	// two exits to Go.
	meterFuel = 1 << 14
	// meterStopExport is the exported global that stops a metered guest.
	meterStopExport = "__nook_stop"
	// meterTickExport is the exported tick function.
	meterTickExport = "__nook_tick"
)

// errNoMeter means a module cannot be metered; it is run with wazero's
// context checks instead.
var errNoMeter = errors.New("wasm: module cannot be metered")

// sectionOrder ranks the known sections in the order the binary format
// requires.
var sectionOrder = map[byte]int{1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 13: 6, 6: 7, 7: 8, 8: 9, 9: 10, 12: 11, 10: 12, 11: 13}

type section struct {
	id   byte
	body []byte
}

// meter returns bin rewritten as described above, or errNoMeter (wrapped)
// when it cannot be: the binary is malformed, has no memory to grow, or uses
// instructions this decoder does not know. A malformed module is then
// reported by wazero's own validation.
func meter(bin []byte) (out []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("%w: %v", errNoMeter, p)
		}
	}()
	if len(bin) < 8 || string(bin[:4]) != wasmMagic || bin[4] != 1 || bin[5] != 0 || bin[6] != 0 || bin[7] != 0 {
		return nil, fmt.Errorf("%w: not a version 1 binary", errNoMeter)
	}
	var secs []section
	r := &reader{b: bin, i: 8}
	for r.i < len(r.b) {
		id := r.byte()
		n := r.u32()
		secs = append(secs, section{id: id, body: r.bytes(int(n))})
	}
	find := func(id byte) int {
		for i, s := range secs {
			if s.id == id {
				return i
			}
		}
		return -1
	}
	ensure := func(id byte) int {
		if i := find(id); i >= 0 {
			return i
		}
		rank := sectionOrder[id]
		at := len(secs)
		for i, s := range secs {
			if s.id != 0 && sectionOrder[s.id] > rank {
				at = i
				break
			}
		}
		secs = append(secs, section{})
		copy(secs[at+1:], secs[at:])
		secs[at] = section{id: id, body: []byte{0}}
		return at
	}

	// Imports: count functions, globals and memories.
	var impFuncs, impGlobals, memories uint32
	if i := find(2); i >= 0 {
		ir := &reader{b: secs[i].body}
		for n := ir.u32(); n > 0; n-- {
			ir.name()
			ir.name()
			switch kind := ir.byte(); kind {
			case 0:
				ir.u32()
				impFuncs++
			case 1: // table
				ir.byte()
				ir.limits()
			case 2:
				ir.limits()
				memories++
			case 3:
				ir.byte()
				ir.byte()
				impGlobals++
			case 4: // tag
				ir.byte()
				ir.u32()
			default:
				return nil, fmt.Errorf("%w: import kind %d", errNoMeter, kind)
			}
		}
	}
	if i := find(5); i >= 0 {
		memories += (&reader{b: secs[i].body}).u32()
	}
	if memories == 0 {
		return nil, fmt.Errorf("%w: no memory", errNoMeter)
	}
	if i := find(7); i >= 0 {
		er := &reader{b: secs[i].body}
		for n := er.u32(); n > 0; n-- {
			if name := er.name(); name == meterStopExport || name == meterTickExport {
				return nil, fmt.Errorf("%w: export %s exists", errNoMeter, name)
			}
			er.byte()
			er.u32()
		}
	}

	// Type section: append [] -> [].
	ti := ensure(1)
	typeIdx, rest := countOf(secs[ti].body)
	secs[ti].body = withCount(typeIdx+1, rest, []byte{0x60, 0, 0})

	// Function section: append tick's type.
	fi := ensure(3)
	defFuncs, rest := countOf(secs[fi].body)
	secs[fi].body = withCount(defFuncs+1, rest, leb(typeIdx))
	tickIdx := impFuncs + defFuncs

	// Globals: fuel, stop.
	gi := ensure(6)
	defGlobals, rest := countOf(secs[gi].body)
	fuelIdx := impGlobals + defGlobals
	stopIdx := fuelIdx + 1
	g := []byte{0x7f, 1, 0x41}
	g = append(g, sleb(meterFuel)...)
	g = append(g, 0x0b, 0x7f, 1, 0x41, 0, 0x0b)
	secs[gi].body = withCount(defGlobals+2, rest, g)

	// Exports: stop, tick.
	xi := ensure(7)
	nExports, rest := countOf(secs[xi].body)
	var x []byte
	x = append(x, name(meterStopExport)...)
	x = append(x, 3)
	x = append(x, leb(stopIdx)...)
	x = append(x, name(meterTickExport)...)
	x = append(x, 0)
	x = append(x, leb(tickIdx)...)
	secs[xi].body = withCount(nExports+2, rest, x)

	// Code: instrument every body, append tick.
	check := []byte{0x23}
	check = append(check, leb(fuelIdx)...)
	check = append(check, 0x41, 1, 0x6b, 0x24)
	check = append(check, leb(fuelIdx)...)
	check = append(check, 0x23)
	check = append(check, leb(fuelIdx)...)
	check = append(check, 0x45, 0x04, 0x40, 0x10)
	check = append(check, leb(tickIdx)...)
	check = append(check, 0x0b)

	ci := ensure(10)
	cr := &reader{b: secs[ci].body}
	nBodies := cr.u32()
	if nBodies != defFuncs {
		return nil, fmt.Errorf("%w: %d bodies for %d functions", errNoMeter, nBodies, defFuncs)
	}
	code := make([]byte, 0, len(secs[ci].body)+int(nBodies)*40)
	code = append(code, leb(nBodies+1)...)
	var body []byte
	for k := uint32(0); k < nBodies; k++ {
		size := cr.u32()
		b := cr.bytes(int(size))
		body, err = meterBody(body[:0], b, check, nil)
		if err != nil {
			return nil, err
		}
		code = append(code, leb(uint32(len(body)))...)
		code = append(code, body...)
	}
	if cr.i != len(cr.b) {
		return nil, fmt.Errorf("%w: trailing bytes in the code section", errNoMeter)
	}
	tick := []byte{0} // no locals
	tick = append(tick, 0x41, 0, 0x40, 0, 0x1a, 0x23)
	tick = append(tick, leb(stopIdx)...)
	tick = append(tick, 0x04, 0x40, 0x00, 0x0b, 0x41)
	tick = append(tick, sleb(meterFuel)...)
	tick = append(tick, 0x24)
	tick = append(tick, leb(fuelIdx)...)
	tick = append(tick, 0x0b)
	code = append(code, leb(uint32(len(tick)))...)
	code = append(code, tick...)
	secs[ci].body = code

	out = make([]byte, 0, len(bin)+len(bin)/8+256)
	out = append(out, bin[:8]...)
	for _, s := range secs {
		out = append(out, s.id)
		out = append(out, leb(uint32(len(s.body)))...)
		out = append(out, s.body...)
	}
	return out, nil
}

// meterBody appends the instrumented function body b to dst. With st it
// also adds up what the body costs wazero's compiler (see limits.go).
func meterBody(dst, b, check []byte, st *compileCost) ([]byte, error) {
	r := &reader{b: b}
	for n := r.u32(); n > 0; n-- { // locals
		r.u32()
		r.valtype()
	}
	dst = append(dst, b[:r.i]...)
	dst = append(dst, check...)
	start := r.i
	depth := 0
	for r.i < len(r.b) {
		op := r.byte()
		switch op {
		case 0x02, 0x03, 0x04, 0x06: // block, loop, if, try
			if depth++; depth > maxNesting {
				return nil, &limitError{fmt.Sprintf("a function nests more than %d blocks", maxNesting)}
			}
			if st != nil {
				st.nesting += int64(depth)
			}
		case 0x0b:
			depth--
		}
		switch {
		case op == 0x03: // loop bt
			r.s33()
			dst = append(dst, r.b[start:r.i]...)
			dst = append(dst, check...)
			start = r.i
		case op == 0x02 || op == 0x04: // block, if
			r.s33()
		case op == 0x0c || op == 0x0d || op == 0x10 || op == 0x12 || op == 0x14 || op == 0x15 ||
			op >= 0x20 && op <= 0x26 || op == 0xd2 || op == 0x08 || op == 0x09 || op == 0x07 || op == 0x18:
			r.u32()
		case op == 0x0e: // br_table
			n := r.u32()
			if int64(n) > int64(maxBrTable) {
				return nil, &limitError{fmt.Sprintf("a br_table has more than %d targets", maxBrTable)}
			}
			if st != nil {
				st.brTable += int64(n) * int64(n)
			}
			for ; n > 0; n-- {
				r.u32()
			}
			r.u32()
		case op == 0x11 || op == 0x13: // call_indirect, return_call_indirect
			r.u32()
			r.u32()
		case op == 0x1c: // select t*
			for n := r.u32(); n > 0; n-- {
				r.valtype()
			}
		case op >= 0x28 && op <= 0x3e:
			r.memarg()
		case op == 0x3f || op == 0x40:
			r.u32()
		case op == 0x41:
			r.s33()
		case op == 0x42:
			r.s64()
		case op == 0x43:
			r.bytes(4)
		case op == 0x44:
			r.bytes(8)
		case op == 0xd0:
			r.valtype()
		case op == 0xfc:
			switch sub := r.u32(); {
			case sub <= 7:
			case sub == 8:
				r.u32()
				r.u32()
			case sub == 9 || sub == 13 || sub == 15 || sub == 16 || sub == 17:
				r.u32()
			case sub == 10 || sub == 12 || sub == 14:
				r.u32()
				r.u32()
			case sub == 11:
				r.u32()
			default:
				return nil, fmt.Errorf("%w: opcode 0xfc %d", errNoMeter, sub)
			}
		case op == 0xfd:
			switch sub := r.u32(); {
			case sub <= 11 || sub == 92 || sub == 93:
				r.memarg()
			case sub == 12 || sub == 13:
				r.bytes(16)
			case sub >= 21 && sub <= 34:
				r.byte()
			case sub >= 84 && sub <= 91:
				r.memarg()
				r.byte()
			case sub > 0x113:
				return nil, fmt.Errorf("%w: opcode 0xfd %d", errNoMeter, sub)
			}
		case op == 0xfe:
			if sub := r.u32(); sub == 3 {
				r.byte()
			} else {
				r.memarg()
			}
		case op <= 0x01 || op == 0x05 || op == 0x06 || op == 0x0b || op == 0x0f || op == 0x19 ||
			op == 0x1a || op == 0x1b || op >= 0x45 && op <= 0xc4 || op == 0xd1 || op == 0xd3 || op == 0xd4:
			if op == 0x06 { // try bt
				r.s33()
			}
		default:
			return nil, fmt.Errorf("%w: opcode 0x%02x", errNoMeter, op)
		}
	}
	dst = append(dst, r.b[start:]...)
	return dst, nil
}

// reader decodes the binary format; it panics on malformed input, which
// meter turns into errNoMeter.
type reader struct {
	b []byte
	i int
}

func (r *reader) byte() byte {
	c := r.b[r.i]
	r.i++
	return c
}

func (r *reader) bytes(n int) []byte {
	if n < 0 || r.i+n > len(r.b) {
		panic("truncated")
	}
	s := r.b[r.i : r.i+n]
	r.i += n
	return s
}

func (r *reader) u32() uint32 {
	var v uint32
	for shift := 0; ; shift += 7 {
		if shift > 28 {
			panic("leb too long")
		}
		c := r.byte()
		v |= uint32(c&0x7f) << shift
		if c&0x80 == 0 {
			return v
		}
	}
}

// s33 and s64 skip a signed LEB of up to 5 and 10 bytes.
func (r *reader) s33() { r.skipLEB(5) }
func (r *reader) s64() { r.skipLEB(10) }

func (r *reader) skipLEB(max int) {
	for k := 0; k < max; k++ {
		if r.byte()&0x80 == 0 {
			return
		}
	}
	panic("leb too long")
}

func (r *reader) name() string { return string(r.bytes(int(r.u32()))) }

func (r *reader) valtype() {
	switch c := r.byte(); c {
	case 0x7f, 0x7e, 0x7d, 0x7c, 0x7b, 0x70, 0x6f:
	default:
		panic(fmt.Sprintf("value type 0x%02x", c))
	}
}

func (r *reader) limits() {
	flags := r.byte()
	r.u32()
	if flags&1 != 0 {
		r.u32()
	}
}

func (r *reader) memarg() {
	align := r.u32()
	if align&0x40 != 0 { // multi-memory: a memory index follows
		r.u32()
	}
	r.u32()
}

// countOf splits a vector section into its count and the encoded items.
func countOf(body []byte) (uint32, []byte) {
	r := &reader{b: body}
	n := r.u32()
	return n, body[r.i:]
}

// withCount re-encodes a vector section with count n, items, then extra.
func withCount(n uint32, items, extra []byte) []byte {
	out := leb(n)
	out = append(out, items...)
	return append(out, extra...)
}

func name(s string) []byte { return append(leb(uint32(len(s))), s...) }

func leb(v uint32) []byte {
	var out []byte
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v != 0 {
			out = append(out, c|0x80)
			continue
		}
		return append(out, c)
	}
}

func sleb(v int64) []byte {
	var out []byte
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(out, c)
		}
		out = append(out, c|0x80)
	}
}
