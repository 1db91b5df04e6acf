package tools

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nookdev/nook/runtime"
)

// DefaultExecMaxModulesBytes bounds the part of the exec tool's
// description that lists the host modules (ExecOptions.MaxModulesBytes).
const DefaultExecMaxModulesBytes = 2 << 10

// execModules is the host-module part of the exec description, after a
// blank line (empty when code can import no module).
func execModules(rt *runtime.Runtime, infos []runtime.BackendInfo, max int) string {
	if max <= 0 {
		max = DefaultExecMaxModulesBytes
	}
	if d := modulesDescription(rt.Modules(), infos, max); d != "" {
		return "\n" + strings.TrimSuffix(d, "\n")
	}
	return ""
}

// modulesDescription is the part of the exec description that lists the
// host modules code can import, with their functions, in at most max
// bytes: past it, function lists are cut (with their count) and then
// modules are only named; code can still list everything from ws:modules
// when the runtime has it.
func modulesDescription(mods []runtime.ModuleInfo, infos []runtime.BackendInfo, max int) string {
	hasLister := false
	shown := mods[:0:0]
	for _, m := range mods {
		if m.Name == runtime.ModulesModuleName {
			hasLister = true
			continue
		}
		shown = append(shown, m)
	}
	if len(shown) == 0 {
		return ""
	}
	callable, shell := false, false
	for _, in := range infos {
		if in.Callable {
			callable = true
		} else {
			shell = true
		}
	}
	var b strings.Builder
	b.WriteString("Host modules code can import")
	if callable {
		b.WriteString(` (import { f } from "ws:name"; each function returns a promise)`)
	}
	b.WriteString(":\n")
	head := b.Len()

	line := func(m runtime.ModuleInfo, maxFuncs int) string {
		names := make([]string, len(m.Funcs))
		for i, f := range m.Funcs {
			names[i] = f.Name
		}
		var l strings.Builder
		l.WriteString("- " + m.Name + ": ")
		if m.Summary != "" {
			l.WriteString(strings.TrimSuffix(strings.TrimSpace(m.Summary), ".") + ". Functions: ")
		}
		if maxFuncs >= 0 && len(names) > maxFuncs {
			l.WriteString(strings.Join(names[:maxFuncs], ", "))
			fmt.Fprintf(&l, ", … (%d functions in all)", len(names))
		} else {
			l.WriteString(strings.Join(names, ", "))
		}
		l.WriteByte('\n')
		return l.String()
	}
	var trailer strings.Builder
	if shell && slices.ContainsFunc(shown, func(m runtime.ModuleInfo) bool {
		return m.Name == "ws:git" && slices.ContainsFunc(m.Funcs, func(f runtime.FuncInfo) bool { return f.Name == "run" })
	}) {
		trailer.WriteString("In the shell, the git command runs ws:git (git status, git commit -am MSG, git log --oneline).\n")
	}
	if hasLister {
		if callable {
			trailer.WriteString(`List every module with its functions' TypeScript signatures at run time: (await import("ws:modules")).list().` + "\n")
		} else {
			trailer.WriteString("ws:modules lists every module with its functions' signatures.\n")
		}
	}
	budget := max - head - trailer.Len()

	// Whole lines when they fit; then lists cut to an equal share; then
	// the modules past the budget by name only.
	for _, maxFuncs := range []int{-1, 12, 6, 3} {
		var lines strings.Builder
		for _, m := range shown {
			lines.WriteString(line(m, maxFuncs))
		}
		if lines.Len() <= budget {
			b.WriteString(lines.String())
			b.WriteString(trailer.String())
			return b.String()
		}
	}
	used := 0
	for i, m := range shown {
		l := line(m, 3)
		if used+len(l) > budget-40 {
			names := make([]string, 0, len(shown)-i)
			for _, r := range shown[i:] {
				names = append(names, r.Name)
			}
			more := fmt.Sprintf("- and %d more: ", len(names))
			room := budget - used - 1 - len(more) - len(", …")
			for j, n := range names {
				if j > 0 && len(n)+2 > room {
					more += ", …"
					break
				}
				if j > 0 {
					more += ", "
					room -= 2
				}
				more += n
				room -= len(n)
			}
			b.WriteString(more + "\n")
			break
		}
		b.WriteString(l)
		used += len(l)
	}
	b.WriteString(trailer.String())
	return b.String()
}
