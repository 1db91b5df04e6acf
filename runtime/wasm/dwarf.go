package wasm

import (
	"debug/dwarf"
	"encoding/binary"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Source lines of a trap. DWARF addresses a wasm module's code by its
// offset in the code section, and the rewrite (meter.go) moves code: with
// the module's own DWARF, wazero would name the lines of whatever code now
// sits at the old offsets. So the rewrite takes the module's .debug_*
// sections out, keeps them here with a map from new offsets to old ones
// (offsetMap), and gives wazero a DWARF of one line that covers all the
// code (fakeDWARF): wazero then prints, for every frame of a trap's stack
// trace, "0x<new offset>: " and that line. traceLines replaces each such
// line with the frame's lines at the old offset, looked up in the module's
// own DWARF: the line, and the call sites it was inlined into.

// fakeFile is the file name of the one-line DWARF given to wazero.
const fakeFile = "nook-rewritten"

// span maps rewritten code at newOff on to the module's code at oldOff
// (offsets in the code section's content).
type span struct{ newOff, oldOff uint32 }

// debugInfo is a rewritten module's own DWARF and offset map.
type debugInfo struct {
	sections map[string][]byte
	spans    []span // sorted by newOff

	once sync.Once
	data *dwarf.Data
	mu   sync.Mutex // debug/dwarf readers are not safe for concurrent use
}

// old maps an offset of the rewritten code to the module's own.
func (d *debugInfo) old(off uint32) uint32 {
	i := sort.Search(len(d.spans), func(i int) bool { return d.spans[i].newOff > off }) - 1
	if i < 0 {
		return off
	}
	return d.spans[i].oldOff + (off - d.spans[i].newOff)
}

func (d *debugInfo) dwarf() *dwarf.Data {
	d.once.Do(func() {
		s := d.sections
		d.data, _ = dwarf.New(s[".debug_abbrev"], nil, nil, s[".debug_info"], s[".debug_line"], nil, s[".debug_ranges"], s[".debug_str"])
	})
	return d.data
}

// lines returns the source lines of the module's code at offset off: the
// line itself, then each call site it was inlined into, innermost first.
func (d *debugInfo) lines(off uint64) []string {
	data := d.dwarf()
	if data == nil {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	contains := func(e *dwarf.Entry) bool {
		rs, err := data.Ranges(e)
		if err != nil {
			return false
		}
		for _, r := range rs {
			if r[0] <= off && off < r[1] {
				return true
			}
		}
		return false
	}
	r := data.Reader()
	var cu *dwarf.Entry
	var inlined []*dwarf.Entry // outermost first
	for {
		e, err := r.Next()
		if err != nil || e == nil {
			break
		}
		if e.Tag == dwarf.TagCompileUnit {
			if cu != nil {
				break // past the unit that holds off
			}
			if !contains(e) {
				r.SkipChildren()
				continue
			}
			cu = e
			continue
		}
		if cu != nil && e.Tag == dwarf.TagInlinedSubroutine && contains(e) {
			inlined = append(inlined, e)
		}
	}
	if cu == nil {
		return nil
	}
	lr, err := data.LineReader(cu)
	if err != nil || lr == nil {
		return nil
	}
	// The row of the greatest address at or below off, within a sequence
	// (rows are not always in address order).
	var best dwarf.LineEntry
	found := false
	var le dwarf.LineEntry
	for lr.Next(&le) == nil {
		if le.EndSequence || le.Address > off {
			continue
		}
		if !found || le.Address > best.Address || le.Address == best.Address {
			best, found = le, true
		}
	}
	if !found || best.File == nil {
		return nil
	}
	where := func(file string, line, col int64) string {
		if col > 0 {
			return fmt.Sprintf("%s:%d:%d", file, line, col)
		}
		return fmt.Sprintf("%s:%d", file, line)
	}
	mark := func(s string, more bool) string {
		if more {
			return s + " (inlined)"
		}
		return s
	}
	out := []string{mark(where(best.File.Name, int64(best.Line), int64(best.Column)), len(inlined) > 0)}
	files := lr.Files()
	for i := len(inlined) - 1; i >= 0; i-- {
		fi, _ := inlined[i].Val(dwarf.AttrCallFile).(int64)
		line, _ := inlined[i].Val(dwarf.AttrCallLine).(int64)
		col, _ := inlined[i].Val(dwarf.AttrCallColumn).(int64)
		if fi < 0 || fi >= int64(len(files)) || files[fi] == nil {
			break
		}
		out = append(out, mark(where(files[fi].Name, line, col), i > 0))
	}
	return out
}

// fakeLine matches a source line wazero prints with the fake DWARF.
var fakeLine = regexp.MustCompile(`^(\s*)0x([0-9a-f]+): ` + fakeFile + `:\d+(:\d+)?$`)

// traceLines rewrites the source lines of a trap's stack trace in msg.
func (d *debugInfo) traceLines(msg string) string {
	if !strings.Contains(msg, fakeFile) {
		return msg
	}
	in := strings.Split(msg, "\n")
	out := make([]string, 0, len(in))
	for _, l := range in {
		m := fakeLine.FindStringSubmatch(l)
		if m == nil {
			out = append(out, l)
			continue
		}
		n, err := strconv.ParseUint(m[2], 16, 32)
		if err != nil {
			continue
		}
		old := d.old(uint32(n))
		prefix := fmt.Sprintf("%#x: ", old)
		for k, s := range d.lines(uint64(old)) {
			if k > 0 {
				prefix = strings.Repeat(" ", len(prefix))
			}
			out = append(out, m[1]+prefix+s)
		}
	}
	return strings.Join(out, "\n")
}

// fakeDWARF returns the sections of a DWARF with one compilation unit
// covering every address of a code section and one line (fakeFile, line 1).
func fakeDWARF() map[string][]byte {
	return dwarfSections("nook", []dwarfRow{{addr: 1, file: fakeFile, line: 1}}, 0xfffffff0) // (0xffffffff is a tombstone)
}

// dwarfRow is one row of a line table.
type dwarfRow struct {
	addr uint32
	file string
	line int
}

// dwarfSections encodes a DWARF 4 compilation unit named name covering
// [1, end) with the line table rows (in address order).
func dwarfSections(name string, rows []dwarfRow, end uint32) map[string][]byte {
	le := binary.LittleEndian
	// .debug_abbrev: 1 = compile_unit, no children: name (string),
	// stmt_list (sec_offset), low_pc (addr), high_pc (data4).
	abbrev := []byte{1, 0x11, 0, 0x03, 0x08, 0x10, 0x17, 0x11, 0x01, 0x12, 0x06, 0, 0, 0}
	// .debug_info.
	die := []byte{1}
	die = append(append(die, name...), 0)
	// The unit starts at 1: wazero takes an address 0 for a tombstone (a
	// dropped function's), and a code section's first body is never there.
	die = le.AppendUint32(die, 0)     // stmt_list
	die = le.AppendUint32(die, 1)     // low_pc
	die = le.AppendUint32(die, end-1) // high_pc: the length
	info := le.AppendUint16(nil, 4)
	info = le.AppendUint32(info, 0) // abbrev offset
	info = append(info, 4)          // address size
	info = append(info, die...)
	info = append(le.AppendUint32(nil, uint32(len(info))), info...)
	// .debug_line: the files, then the rows.
	var files []string
	fileIdx := map[string]int{}
	for _, r := range rows {
		if fileIdx[r.file] == 0 {
			files = append(files, r.file)
			fileIdx[r.file] = len(files)
		}
	}
	hdr := []byte{1, 1, 1, 0xfb, 14, 13, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1, 0} // .. opcode lengths, no dirs
	for _, f := range files {
		hdr = append(append(hdr, f...), 0, 0, 0, 0)
	}
	hdr = append(hdr, 0)
	var prog []byte
	setAddr := func(a uint32) { prog = le.AppendUint32(append(prog, 0, 5, 2), a) }
	line, file := 1, 1
	for _, r := range rows {
		setAddr(r.addr)
		if f := fileIdx[r.file]; f != file {
			prog = append(prog, 4, byte(f)) // set_file
			file = f
		}
		if r.line != line {
			prog = append(prog, 3)
			prog = append(prog, sleb(int64(r.line-line))...)
			line = r.line
		}
		prog = append(prog, 1) // copy
	}
	setAddr(end)
	prog = append(prog, 0, 1, 1) // end_sequence
	lt := le.AppendUint16(nil, 4)
	lt = le.AppendUint32(lt, uint32(len(hdr)))
	lt = append(append(lt, hdr...), prog...)
	lt = append(le.AppendUint32(nil, uint32(len(lt))), lt...)
	return map[string][]byte{".debug_abbrev": abbrev, ".debug_info": info, ".debug_line": lt}
}
