package wasm

// DWARFRow and DWARFSections let the tests build a module's DWARF.
type DWARFRow = dwarfRow

// DWARFSections encodes a DWARF compilation unit (see dwarfSections).
func DWARFSections(name string, rows []DWARFRow, end uint32, file string, lines []int, addrs []uint32) map[string][]byte {
	for i := range lines {
		rows = append(rows, dwarfRow{addr: addrs[i], file: file, line: lines[i]})
	}
	return dwarfSections(name, rows, end)
}
