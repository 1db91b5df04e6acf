package wasm

import (
	"errors"
	"fmt"
	"strings"
)

// Metering: a module is rewritten before it is compiled so that a guest
// that computes for a long time without calling its host still leaves
// native code regularly, where the Go scheduler can preempt it (the garbage
// collector's stop-the-world waits for every goroutine) and where the
// backend can stop it; and so that instructions whose cost depends on an
// operand (bulk memory and table instructions, memory.grow) pay for what
// they do and cannot grow a table past the run's MaxTableElements. See
// RATIONALE.md.
//
// The rewrite appends, without renumbering anything:
//
//   - the types its functions and blocks need;
//   - four mutable globals: fuel (i32, initially meterFuel), stop (i32,
//     exported as meterStopExport), tablemax (i64, exported as
//     meterTableMaxExport: the run's MaxTableElements) and tablehit (i64,
//     exported as meterTableHitExport: the size a refused table.grow asked
//     for);
//   - a function tick (exported as meterTickExport), then the helpers the
//     module's instructions need (below);
//   - a memory of no pages when the module has none (tick grows it by 0);
//
// moves the start function, if any, from the start section to the export
// meterStartExport (so it runs after the run has set tablemax and can
// stop it), and inserts at the start of every function body and of every
// loop body (not with InterruptChecked, whose compiled code checks by
// itself):
//
//	global.get fuel; i32.const 1; i32.sub; global.set fuel
//	global.get fuel; i32.const 0; i32.le_s; if; call tick; end
//
// tick executes memory.grow 0, which wazero implements as an exit from
// native code to Go (a preemption point), traps with unreachable when stop is
// set, and refills fuel. Every unbounded execution goes through loop headers
// or function entries, so a guest leaves native code at least every
// meterFuel steps.
//
// Operand-dependent instructions are charged by their size, one step per
// 64 bytes (memory), per 8 elements (tables) or 1024 per page (memory.grow):
//
//   - memory.fill and memory.copy stay inline up to meterChunk bytes, and
//     charge after them; a larger one calls a helper that does it in
//     chunks of meterChunk bytes with a charge and a check after each (an
//     out-of-bounds one is left to the instruction itself, which traps
//     before writing, as the specification says);
//   - memory.grow, memory.init, table.init, table.copy and table.fill call a
//     helper that charges and executes the instruction;
//   - table.grow calls a helper that returns -1 (the specification's answer
//     to a growth that fails) and records the size asked for in tablehit
//     when the table would exceed tablemax elements.
const (
	// meterFuel is how many steps a guest runs between two exits to Go.
	meterFuel = 1 << 14
	// meterChunk is the largest memory.fill or memory.copy done by one
	// instruction: 1 MiB, a few tens of microseconds.
	meterChunk = 1 << 20
	// meterStopExport is the exported global that stops a metered guest.
	meterStopExport = "__nook_stop"
	// meterTickExport is the exported tick function.
	meterTickExport = "__nook_tick"
	// meterTableMaxExport is the exported global holding the run's
	// MaxTableElements.
	meterTableMaxExport = "__nook_tablemax"
	// meterTableHitExport is the exported global that records a table.grow
	// refused for MaxTableElements (the size it asked for).
	meterTableHitExport = "__nook_tablehit"
	// meterStartExport exports the module's start function.
	meterStartExport = "__nook_start"
	// meterCheckedSection names the custom section that marks a rewrite
	// for InterruptChecked (so its bytes, and its compilation cache key,
	// differ from the metered rewrite's).
	meterCheckedSection = "nook.checked"
)

// errNoMeter means a module cannot be rewritten; it is handed to wazero as
// it is (whose validation then says what is wrong with it).
var errNoMeter = errors.New("wasm: module cannot be metered")

// sectionOrder ranks the known sections in the order the binary format
// requires.
var sectionOrder = map[byte]int{1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 13: 6, 6: 7, 7: 8, 8: 9, 9: 10, 12: 11, 10: 12, 11: 13}

type section struct {
	id   byte
	body []byte
}

// meterInfo is what a rewrite tells the run about the module.
type meterInfo struct {
	// tableMin is the largest declared minimum of the module's tables,
	// checked against MaxTableElements before instantiation.
	tableMin uint32
	// start reports whether the module has a start function, exported as
	// meterStartExport.
	start bool
	// dbg is the module's own DWARF, when it has one (dwarf.go).
	dbg *debugInfo
}

// Value types and opcodes the rewrite emits.
const (
	tI32 = 0x7f
	tI64 = 0x7e

	opIf        = 0x04
	opElse      = 0x05
	opEnd       = 0x0b
	opBrIf      = 0x0d
	opReturn    = 0x0f
	opCall      = 0x10
	opLocalGet  = 0x20
	opLocalSet  = 0x21
	opLocalTee  = 0x22
	opGlobalGet = 0x23
	opGlobalSet = 0x24
	opMemSize   = 0x3f
	opMemGrow   = 0x40
	opI32Const  = 0x41
	opI64Const  = 0x42
	opI32Ne     = 0x47
	opI32LeS    = 0x4c
	opI32GtU    = 0x4b
	opI32LeU    = 0x4d
	opI64GtU    = 0x56
	opI32Add    = 0x6a
	opI32Sub    = 0x6b
	opI32Or     = 0x72
	opI32Shl    = 0x74
	opI32ShrU   = 0x76
	opI64Add    = 0x7c
	opI64Shl    = 0x86
	opI64ExtU   = 0xad
	opPrefixFC  = 0xfc
)

// Helper kinds.
const (
	hFillBig = iota
	hCopyBig
	hMemGrow
	hMemInit
	hTableGrow
	hTableFill
	hTableCopy
	hTableInit
)

type helperKey struct {
	kind byte
	a, b uint32
}

// rewriter holds what the rewrite of one module appends.
type rewriter struct {
	fuel bool // insert fuel checks (InterruptMetered)

	nTypes   uint32 // types declared by the module
	newTypes []byte
	types    map[string]uint32

	tickIdx   uint32
	helpers   [][]byte // bodies, in function order after tick
	helperTy  []uint32
	helperIdx map[helperKey]uint32

	fuelIdx, stopIdx, maxIdx, hitIdx uint32
	tableTypes                       []byte // element type of each table

	check []byte // the fuel check

	// debug is set when the module has DWARF: cur then collects the spans
	// of the body being rewritten (offsets in the body), spans those of
	// the code section (debugInfo).
	debug bool
	cur   []span
	spans []span
}

// typ returns the index of the function type params -> results, appending
// it when the module does not have it yet.
func (w *rewriter) typ(params, results []byte) uint32 {
	enc := append([]byte{0x60}, leb(uint32(len(params)))...)
	enc = append(enc, params...)
	enc = append(enc, leb(uint32(len(results)))...)
	enc = append(enc, results...)
	if i, ok := w.types[string(enc)]; ok {
		return i
	}
	i := w.nTypes + uint32(len(w.types))
	w.types[string(enc)] = i
	w.newTypes = append(w.newTypes, enc...)
	return i
}

// charge appends fuel -= (local n) >> shift (or << -shift).
func (w *rewriter) charge(b []byte, n uint32, shift int) []byte {
	b = append(b, opGlobalGet)
	b = append(b, leb(w.fuelIdx)...)
	b = append(b, opLocalGet)
	b = append(b, leb(n)...)
	switch {
	case shift > 0:
		b = append(b, opI32Const, byte(shift), opI32ShrU)
	case shift < 0:
		b = append(b, opI32Const, byte(-shift), opI32Shl)
	}
	b = append(b, opI32Sub, opGlobalSet)
	return append(b, leb(w.fuelIdx)...)
}

// chargeChunk appends fuel -= meterChunk>>6, and a call of tick when fuel
// is spent.
func (w *rewriter) chargeChunk(b []byte) []byte {
	b = append(b, opGlobalGet)
	b = append(b, leb(w.fuelIdx)...)
	b = append(b, opI32Const)
	b = append(b, sleb(meterChunk>>6)...)
	b = append(b, opI32Sub, opGlobalSet)
	b = append(b, leb(w.fuelIdx)...)
	b = append(b, opGlobalGet)
	b = append(b, leb(w.fuelIdx)...)
	b = append(b, opI32Const, 0, opI32LeS, opIf, 0x40, opCall)
	b = append(b, leb(w.tickIdx)...)
	return append(b, opEnd)
}

// get appends local.get of each index.
func get(b []byte, idx ...uint32) []byte {
	for _, i := range idx {
		b = append(b, opLocalGet)
		b = append(b, leb(i)...)
	}
	return b
}

// outOfBounds appends: (local a) + (local n) > the memory's size in
// bytes, computed in i64.
func outOfBounds(b []byte, a, n uint32) []byte {
	b = get(b, a)
	b = append(b, opI64ExtU)
	b = get(b, n)
	b = append(b, opI64ExtU, opI64Add, opMemSize, 0, opI64ExtU, opI64Const, 16, opI64Shl, opI64GtU)
	return b
}

// helper returns the function index of a helper, building it on first use.
func (w *rewriter) helper(k helperKey) uint32 {
	if i, ok := w.helperIdx[k]; ok {
		return i
	}
	i3 := []byte{tI32, tI32, tI32}
	var ty uint32
	var b []byte
	chunk := sleb(meterChunk)
	switch k.kind {
	case hFillBig, hCopyBig: // (d, v|s, n): n > meterChunk
		ty = w.typ(i3, nil)
		op := []byte{opPrefixFC, 11, 0}
		if k.kind == hCopyBig {
			op = []byte{opPrefixFC, 10, 0, 0}
		}
		b = append(b, 0) // no locals
		b = outOfBounds(b, 0, 2)
		if k.kind == hCopyBig {
			b = outOfBounds(b, 1, 2)
			b = append(b, opI32Or)
		}
		// Out of bounds: the instruction traps, before writing anything.
		b = append(b, opIf, 0x40)
		b = get(b, 0, 1, 2)
		b = append(b, op...)
		b = append(b, opReturn, opEnd)
		forward := func(b []byte) []byte {
			b = append(b, 0x03, 0x40) // loop
			b = get(b, 0, 1)
			b = append(b, opI32Const)
			b = append(b, chunk...)
			b = append(b, op...)
			b = w.chargeChunk(b)
			b = get(b, 0)
			b = append(b, opI32Const)
			b = append(b, chunk...)
			b = append(b, opI32Add, opLocalSet, 0)
			if k.kind == hCopyBig {
				b = get(b, 1)
				b = append(b, opI32Const)
				b = append(b, chunk...)
				b = append(b, opI32Add, opLocalSet, 1)
			}
			b = get(b, 2)
			b = append(b, opI32Const)
			b = append(b, chunk...)
			b = append(b, opI32Sub, opLocalTee, 2, opI32Const)
			b = append(b, chunk...)
			return append(b, opI32GtU, opBrIf, 0, opEnd)
		}
		if k.kind == hFillBig {
			b = forward(b)
		} else {
			// An overlapping copy to a higher address goes backwards.
			b = get(b, 0, 1)
			b = append(b, opI32LeU, opIf, 0x40)
			b = forward(b)
			b = append(b, opElse, 0x03, 0x40) // loop
			b = get(b, 2)
			b = append(b, opI32Const)
			b = append(b, chunk...)
			b = append(b, opI32Sub, opLocalSet, 2)
			b = get(b, 0, 2)
			b = append(b, opI32Add)
			b = get(b, 1, 2)
			b = append(b, opI32Add, opI32Const)
			b = append(b, chunk...)
			b = append(b, op...)
			b = w.chargeChunk(b)
			b = get(b, 2)
			b = append(b, opI32Const)
			b = append(b, chunk...)
			b = append(b, opI32GtU, opBrIf, 0, opEnd, opEnd)
		}
		b = get(b, 0, 1, 2)
		b = append(b, op...)
		b = w.charge(b, 2, 6)
	case hMemGrow: // (n) -> old | -1
		ty = w.typ([]byte{tI32}, []byte{tI32})
		b = append(b, 1, 1, tI32) // one local: the result
		b = get(b, 0)
		b = append(b, opMemGrow, 0, opLocalTee, 1, opI32Const, 0x7f, opI32Ne, opIf, 0x40)
		b = w.charge(b, 0, -10)
		b = append(b, opEnd)
		b = get(b, 1)
	case hMemInit, hTableCopy, hTableInit: // (d, s, n)
		ty = w.typ(i3, nil)
		b = append(b, 0)
		shift := 3
		if k.kind == hMemInit {
			shift = 6
		}
		b = w.charge(b, 2, shift)
		b = get(b, 0, 1, 2)
		sub := map[byte]uint32{hMemInit: 8, hTableCopy: 14, hTableInit: 12}[k.kind]
		b = append(b, opPrefixFC)
		b = append(b, leb(sub)...)
		b = append(b, leb(k.a)...)
		b = append(b, leb(k.b)...)
	case hTableFill: // (i, ref, n)
		ty = w.typ([]byte{tI32, w.tableTypes[k.a], tI32}, nil)
		b = append(b, 0)
		b = w.charge(b, 2, 3)
		b = get(b, 0, 1, 2)
		b = append(b, opPrefixFC, 17)
		b = append(b, leb(k.a)...)
	case hTableGrow: // (ref, n) -> old | -1
		ty = w.typ([]byte{w.tableTypes[k.a], tI32}, []byte{tI32})
		b = append(b, 1, 1, tI64) // one local: the size asked for
		b = append(b, opPrefixFC, 16)
		b = append(b, leb(k.a)...)
		b = append(b, opI64ExtU)
		b = get(b, 1)
		b = append(b, opI64ExtU, opI64Add, opLocalTee, 2, opGlobalGet)
		b = append(b, leb(w.maxIdx)...)
		b = append(b, opI64GtU, opIf, 0x40)
		b = get(b, 2)
		b = append(b, opGlobalSet)
		b = append(b, leb(w.hitIdx)...)
		b = append(b, opI32Const, 0x7f, opReturn, opEnd)
		b = w.charge(b, 1, 3)
		b = get(b, 0, 1)
		b = append(b, opPrefixFC, 15)
		b = append(b, leb(k.a)...)
	}
	b = append(b, opEnd)
	i := w.tickIdx + 1 + uint32(len(w.helpers))
	w.helpers = append(w.helpers, b)
	w.helperTy = append(w.helperTy, ty)
	w.helperIdx[k] = i
	return i
}

// meter returns bin rewritten as described above (with fuel checks when
// fuel is set), or errNoMeter (wrapped) when it cannot be: the binary is
// malformed or uses instructions this decoder does not know (none that
// wazero's default features accept). A malformed module is then reported
// by wazero's own validation.
func meter(bin []byte, fuel bool) (out []byte, info meterInfo, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("%w: %v", errNoMeter, p)
		}
	}()
	if len(bin) < 8 || string(bin[:4]) != wasmMagic || bin[4] != 1 || bin[5] != 0 || bin[6] != 0 || bin[7] != 0 {
		return nil, info, fmt.Errorf("%w: not a version 1 binary", errNoMeter)
	}
	var secs []section
	r := &reader{b: bin, i: 8}
	debugSecs := map[string][]byte{}
	for r.i < len(r.b) {
		id := r.byte()
		n := r.u32()
		body := r.bytes(int(n))
		if id == 0 {
			cr := &reader{b: body}
			if nm := cr.name(); strings.HasPrefix(nm, ".debug_") {
				debugSecs[nm] = body[cr.i:]
				continue
			}
		}
		secs = append(secs, section{id: id, body: body})
	}
	find := func(id byte) int {
		for i, s := range secs {
			if s.id == id {
				return i
			}
		}
		return -1
	}
	ensure := func(id byte, empty []byte) int {
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
		secs[at] = section{id: id, body: empty}
		return at
	}
	w := &rewriter{fuel: fuel, types: map[string]uint32{}, helperIdx: map[helperKey]uint32{}}
	w.debug = debugSecs[".debug_info"] != nil && debugSecs[".debug_line"] != nil

	// Types: the parameter count of each.
	var typeParams []uint32
	if i := find(1); i >= 0 {
		tr := &reader{b: secs[i].body}
		for n := tr.u32(); n > 0; n-- {
			if form := tr.byte(); form != 0x60 {
				return nil, info, fmt.Errorf("%w: type form 0x%02x", errNoMeter, form)
			}
			np := tr.u32()
			for k := np; k > 0; k-- {
				tr.valtype()
			}
			for k := tr.u32(); k > 0; k-- {
				tr.valtype()
			}
			typeParams = append(typeParams, np)
		}
	}
	w.nTypes = uint32(len(typeParams))

	// Imports: count functions, globals and memories; the tables' types.
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
				w.tableTypes = append(w.tableTypes, ir.reftype())
				ir.limits()
			case 2:
				ir.limits()
				memories++
			case 3:
				ir.byte()
				ir.byte()
				impGlobals++
			default:
				return nil, info, fmt.Errorf("%w: import kind %d", errNoMeter, kind)
			}
		}
	}
	if i := find(4); i >= 0 {
		tr := &reader{b: secs[i].body}
		for n := tr.u32(); n > 0; n-- {
			w.tableTypes = append(w.tableTypes, tr.reftype())
			flags := tr.byte()
			if flags > 1 {
				return nil, info, fmt.Errorf("%w: table limits 0x%02x", errNoMeter, flags)
			}
			info.tableMin = max(info.tableMin, tr.u32())
			if flags&1 != 0 {
				tr.u32()
			}
		}
	}
	if i := find(5); i >= 0 {
		memories += (&reader{b: secs[i].body}).u32()
	}
	if memories == 0 {
		// tick grows memory 0 by nothing: give the module one, of no
		// pages. No instruction of a valid module without a memory uses
		// one.
		ensure(5, []byte{1, 1, 0, 0})
	}
	if i := find(7); i >= 0 {
		er := &reader{b: secs[i].body}
		for n := er.u32(); n > 0; n-- {
			switch er.name() {
			case meterStopExport, meterTickExport, meterTableMaxExport, meterTableHitExport, meterStartExport:
				return nil, info, fmt.Errorf("%w: an export's name starts with __nook_", errNoMeter)
			}
			er.byte()
			er.u32()
		}
	}
	startFunc := uint32(0)
	if i := find(8); i >= 0 {
		startFunc = (&reader{b: secs[i].body}).u32()
		info.start = true
		secs = append(secs[:i], secs[i+1:]...)
	}

	// Function section: the type of each defined function.
	var funcTypes []uint32
	if i := find(3); i >= 0 {
		fr := &reader{b: secs[i].body}
		for n := fr.u32(); n > 0; n-- {
			funcTypes = append(funcTypes, fr.u32())
		}
	}
	defFuncs := uint32(len(funcTypes))
	w.tickIdx = impFuncs + defFuncs

	// Globals: fuel, stop, tablemax, tablehit.
	gi := ensure(6, []byte{0})
	defGlobals, rest := countOf(secs[gi].body)
	w.fuelIdx = impGlobals + defGlobals
	w.stopIdx, w.maxIdx, w.hitIdx = w.fuelIdx+1, w.fuelIdx+2, w.fuelIdx+3
	g := []byte{tI32, 1, opI32Const}
	g = append(g, sleb(meterFuel)...)
	g = append(g, opEnd, tI32, 1, opI32Const, 0, opEnd, tI64, 1, opI64Const)
	g = append(g, sleb(1_000_000)...) // runtime.DefaultMaxTableElements; the run sets its own
	g = append(g, opEnd, tI64, 1, opI64Const, 0, opEnd)
	secs[gi].body = withCount(defGlobals+4, rest, g)

	// The fuel check.
	w.check = []byte{opGlobalGet}
	w.check = append(w.check, leb(w.fuelIdx)...)
	w.check = append(w.check, opI32Const, 1, opI32Sub, opGlobalSet)
	w.check = append(w.check, leb(w.fuelIdx)...)
	w.check = append(w.check, opGlobalGet)
	w.check = append(w.check, leb(w.fuelIdx)...)
	w.check = append(w.check, opI32Const, 0, opI32LeS, opIf, 0x40, opCall)
	w.check = append(w.check, leb(w.tickIdx)...)
	w.check = append(w.check, opEnd)

	// Code: rewrite every body.
	ci := ensure(10, []byte{0})
	cr := &reader{b: secs[ci].body}
	nBodies := cr.u32()
	if nBodies != defFuncs {
		return nil, info, fmt.Errorf("%w: %d bodies for %d functions", errNoMeter, nBodies, defFuncs)
	}
	code := make([]byte, 0, len(secs[ci].body)+int(nBodies)*40)
	var body []byte
	for k := uint32(0); k < nBodies; k++ {
		size := cr.u32()
		oldStart := uint32(cr.i)
		b := cr.bytes(int(size))
		if funcTypes[k] >= uint32(len(typeParams)) {
			return nil, info, fmt.Errorf("%w: function %d has no type", errNoMeter, k)
		}
		body, err = meterBody(body[:0], b, w, typeParams[funcTypes[k]], nil)
		if err != nil {
			return nil, info, err
		}
		code = append(code, leb(uint32(len(body)))...)
		for _, sp := range w.cur {
			w.spans = append(w.spans, span{newOff: uint32(len(code)) + sp.newOff, oldOff: oldStart + sp.oldOff})
		}
		code = append(code, body...)
	}
	if cr.i != len(cr.b) {
		return nil, info, fmt.Errorf("%w: trailing bytes in the code section", errNoMeter)
	}
	tick := []byte{0} // no locals
	tick = append(tick, opI32Const, 0, opMemGrow, 0, 0x1a, opGlobalGet)
	tick = append(tick, leb(w.stopIdx)...)
	tick = append(tick, opIf, 0x40, 0x00, opEnd, opI32Const)
	tick = append(tick, sleb(meterFuel)...)
	tick = append(tick, opGlobalSet)
	tick = append(tick, leb(w.fuelIdx)...)
	tick = append(tick, opEnd)
	tickType := w.typ(nil, nil)
	added := append([][]byte{tick}, w.helpers...)
	addedTy := append([]uint32{tickType}, w.helperTy...)
	out2 := leb(nBodies + uint32(len(added)))
	if w.debug {
		for i := range w.spans {
			w.spans[i].newOff += uint32(len(out2))
		}
		keep := make(map[string][]byte, len(debugSecs))
		for k, v := range debugSecs {
			keep[k] = append([]byte(nil), v...) // not bin: let it go
		}
		info.dbg = &debugInfo{sections: keep, spans: w.spans}
	}
	out2 = append(out2, code...)
	for _, b := range added {
		out2 = append(out2, leb(uint32(len(b)))...)
		out2 = append(out2, b...)
	}
	secs[ci].body = out2

	// Type section: what the helpers and blocks need.
	ti := ensure(1, []byte{0})
	_, rest = countOf(secs[ti].body)
	secs[ti].body = withCount(w.nTypes+uint32(len(w.types)), rest, w.newTypes)

	// Function section: the added functions' types.
	fi := ensure(3, []byte{0})
	_, rest = countOf(secs[fi].body)
	var ft []byte
	for _, t := range addedTy {
		ft = append(ft, leb(t)...)
	}
	secs[fi].body = withCount(defFuncs+uint32(len(added)), rest, ft)

	// Exports.
	xi := ensure(7, []byte{0})
	nExports, rest := countOf(secs[xi].body)
	var x []byte
	x = append(x, name(meterStopExport)...)
	x = append(x, 3)
	x = append(x, leb(w.stopIdx)...)
	x = append(x, name(meterTableMaxExport)...)
	x = append(x, 3)
	x = append(x, leb(w.maxIdx)...)
	x = append(x, name(meterTableHitExport)...)
	x = append(x, 3)
	x = append(x, leb(w.hitIdx)...)
	x = append(x, name(meterTickExport)...)
	x = append(x, 0)
	x = append(x, leb(w.tickIdx)...)
	nx := nExports + 4
	if info.start {
		x = append(x, name(meterStartExport)...)
		x = append(x, 0)
		x = append(x, leb(startFunc)...)
		nx++
	}
	secs[xi].body = withCount(nx, rest, x)

	out = make([]byte, 0, len(bin)+len(bin)/8+1024)
	out = append(out, bin[:8]...)
	for _, s := range secs {
		out = append(out, s.id)
		out = append(out, leb(uint32(len(s.body)))...)
		out = append(out, s.body...)
	}
	if w.debug {
		fake := fakeDWARF()
		for _, k := range []string{".debug_abbrev", ".debug_info", ".debug_line"} {
			cs := append(name(k), fake[k]...)
			out = append(out, 0)
			out = append(out, leb(uint32(len(cs)))...)
			out = append(out, cs...)
		}
	}
	if !fuel {
		out = append(out, 0)
		cs := append(name(meterCheckedSection), 1) // (wazero refuses an empty one)
		out = append(out, leb(uint32(len(cs)))...)
		out = append(out, cs...)
	}
	return out, info, nil
}

// meterBody appends the function body b, rewritten by w, to dst; params is
// the function's parameter count. With w nil it only decodes b (and with
// st adds up what the body costs wazero's compiler: see limits.go).
func meterBody(dst, b []byte, w *rewriter, params uint32, st *compileCost) ([]byte, error) {
	r := &reader{b: b}
	var locals uint64
	groups := r.u32()
	for n := groups; n > 0; n-- {
		locals += uint64(r.u32())
		r.valtype()
	}
	// scratch is an i32 local appended to the function's own when an
	// instruction needs it.
	scratch := uint32(uint64(params) + locals)
	usedScratch := false
	hdr := r.i
	base := len(dst)
	if w != nil {
		dst = append(dst, b[:hdr]...)
	}
	if w != nil && w.fuel {
		dst = append(dst, w.check...)
	}
	start := r.i
	depth := 0
	if w != nil {
		w.cur = w.cur[:0]
	}
	flush := func(to int) {
		if w != nil {
			if w.debug && to > start {
				w.cur = append(w.cur, span{newOff: uint32(len(dst) - base), oldOff: uint32(start)})
			}
			dst = append(dst, r.b[start:to]...)
		}
	}
	call := func(at int, k helperKey) {
		if w == nil {
			return
		}
		flush(at)
		dst = append(dst, opCall)
		dst = append(dst, leb(w.helper(k))...)
		start = r.i
	}
	for r.i < len(r.b) {
		at := r.i
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
			if w != nil && w.fuel {
				flush(r.i)
				dst = append(dst, w.check...)
				start = r.i
			}
		case op == 0x02 || op == 0x04: // block, if
			r.s33()
		case op == 0x40: // memory.grow
			r.u32()
			call(at, helperKey{kind: hMemGrow})
		case op == 0x0c || op == 0x0d || op == 0x10 || op == 0x12 || op == 0x14 || op == 0x15 ||
			op >= 0x20 && op <= 0x26 || op == 0xd2 || op == 0x08 || op == 0x09 || op == 0x07 || op == 0x18 || op == 0x3f:
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
			case sub == 8: // memory.init data mem
				d := r.u32()
				r.u32()
				call(at, helperKey{kind: hMemInit, a: d})
			case sub == 10 || sub == 11: // memory.copy mem mem, memory.fill mem
				r.u32()
				if sub == 10 {
					r.u32()
				}
				if w != nil {
					// local.tee s; local.get s; i32.const chunk; i32.gt_u
					// if [i32 i32 i32] -> []: call big; else: op, charge
					flush(at)
					usedScratch = true
					dst = append(dst, opLocalTee)
					dst = append(dst, leb(scratch)...)
					dst = append(dst, opLocalGet)
					dst = append(dst, leb(scratch)...)
					dst = append(dst, opI32Const)
					dst = append(dst, sleb(meterChunk)...)
					dst = append(dst, opI32GtU, opIf)
					dst = append(dst, sleb(int64(w.typ([]byte{tI32, tI32, tI32}, nil)))...)
					kind := byte(hFillBig)
					if sub == 10 {
						kind = hCopyBig
					}
					dst = append(dst, opCall)
					dst = append(dst, leb(w.helper(helperKey{kind: kind}))...)
					dst = append(dst, opElse)
					dst = append(dst, r.b[at:r.i]...)
					if w.fuel {
						dst = w.charge(dst, scratch, 6)
					}
					dst = append(dst, opEnd)
					start = r.i
				}
			case sub == 9 || sub == 13 || sub == 16: // data.drop, elem.drop, table.size
				r.u32()
			case sub == 12: // table.init elem table
				e := r.u32()
				t := r.u32()
				call(at, helperKey{kind: hTableInit, a: e, b: t})
			case sub == 14: // table.copy dst src
				d := r.u32()
				s := r.u32()
				call(at, helperKey{kind: hTableCopy, a: d, b: s})
			case sub == 15: // table.grow
				t := r.u32()
				if w != nil && int(t) >= len(w.tableTypes) {
					return nil, fmt.Errorf("%w: table.grow of table %d", errNoMeter, t)
				}
				call(at, helperKey{kind: hTableGrow, a: t})
			case sub == 17: // table.fill
				t := r.u32()
				if w != nil && int(t) >= len(w.tableTypes) {
					return nil, fmt.Errorf("%w: table.fill of table %d", errNoMeter, t)
				}
				call(at, helperKey{kind: hTableFill, a: t})
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
	if w == nil {
		return dst, nil
	}
	flush(len(r.b))
	if !usedScratch {
		return dst, nil
	}
	// The locals with the scratch i32 appended, then the code.
	out := append(dst[:base:base], leb(groups+1)...)
	lr := &reader{b: b}
	lr.u32()
	out = append(out, b[lr.i:hdr]...)
	out = append(out, 1, tI32)
	delta := uint32(len(out)-base) - uint32(hdr)
	for i := range w.cur {
		w.cur[i].newOff += delta
	}
	return append(out, dst[base+hdr:]...), nil
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

func (r *reader) reftype() byte {
	switch c := r.byte(); c {
	case 0x70, 0x6f:
		return c
	default:
		panic(fmt.Sprintf("reference type 0x%02x", c))
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
