package main

import (
	"flag"
	"fmt"
	"reflect"
	"runtime"
	"runtime/debug"
	"unicode"

	"github.com/nookdev/nook/vfs"
)

// The workspace commands: changes, usage, gc, version.

var cmdChanges = &command{
	name: "changes", reads: true, group: "Workspace", synopsis: "[--since REV] [--limit N] [--follow]",
	summary: "list the change feed",
	help: `Lists the changes made after revision REV (default 0: all that are kept), one
per line: "REV OP TYPE PATH", and "REV rename TYPE OLD -> NEW" for renames.
Every committed mutation bumps the revision by one; the feed keeps the last
MaxChanges entries (gc prunes older ones; asking for changes that were pruned
is an EINVAL error, as is a REV after the current one). With --follow, nook keeps printing new changes as they are
committed (by any process) until interrupted; with --json each change is then
one JSON line.`,
	run: runChanges,
}

type changeJSON struct {
	Seq     int64     `json:"seq"`
	Rev     int64     `json:"rev"`
	Op      string    `json:"op"`
	Path    bytesText `json:"path"`
	OldPath bytesText `json:"oldPath,omitempty"`
	Type    string    `json:"type"`
	Time    string    `json:"time"`
}

func changeJSONOf(c vfs.Change) changeJSON {
	return changeJSON{Seq: c.Seq, Rev: c.Rev, Op: string(c.Op), Path: bytesText(c.Path), OldPath: bytesText(c.OldPath), Type: c.Kind.String(), Time: nanoTime(c.Time)}
}

func changeLine(c vfs.Change) string {
	switch c.Op {
	case vfs.OpRename:
		return fmt.Sprintf("%d %s %s %s -> %s", c.Rev, c.Op, c.Kind, shown(c.OldPath), shown(c.Path))
	case vfs.OpLink:
		// A new name for the file OldPath names.
		return fmt.Sprintf("%d %s %s %s (to %s)", c.Rev, c.Op, c.Kind, shown(c.Path), shown(c.OldPath))
	}
	return fmt.Sprintf("%d %s %s %s", c.Rev, c.Op, c.Kind, shown(c.Path))
}

func runChanges(a *app, fl *flag.FlagSet, args []string) error {
	since := fl.Int64("since", 0, "list changes after revision `REV`")
	limit := fl.Int("limit", 0, "list at most `N` changes (0: all)")
	follow := fl.Bool("follow", false, "keep listing new changes until interrupted")
	if err := a.parse(fl, args, 0, 0); err != nil {
		return err
	}
	if *since < 0 || *limit < 0 {
		return a.usagef("changes: --since and --limit must not be negative")
	}
	f, err := a.workspace()
	if err != nil {
		return err
	}
	rev, err := f.Rev(a.ctx)
	if err != nil {
		return err
	}
	if *since > rev {
		return &vfs.PathError{Op: "changes", Code: vfs.EINVAL,
			Text: fmt.Sprintf("revision %d is in the future: the workspace is at revision %d", *since, rev)}
	}
	if *follow {
		for c := range f.Watch(a.ctx, *since) {
			if a.json {
				if err := a.writeJSON(changeJSONOf(c)); err != nil {
					return err
				}
			} else {
				a.printf("%s\n", changeLine(c))
			}
		}
		return nil // interrupted: a normal end for --follow
	}
	var cs []vfs.Change
	for *limit == 0 || len(cs) < *limit {
		var page []vfs.Change
		if len(cs) == 0 {
			page, err = f.Changes(a.ctx, *since, f.Limits().MaxPage)
		} else {
			page, err = f.ChangesAfter(a.ctx, cs[len(cs)-1].Seq, f.Limits().MaxPage)
		}
		if err != nil {
			return err
		}
		if len(page) == 0 {
			break
		}
		cs = append(cs, page...)
	}
	if *limit > 0 && len(cs) > *limit {
		cs = cs[:*limit]
	}
	if len(cs) > 0 {
		rev = max(rev, cs[len(cs)-1].Rev)
	}
	out := struct {
		Rev     int64        `json:"rev"`
		Changes []changeJSON `json:"changes"`
	}{Rev: rev, Changes: []changeJSON{}}
	for _, c := range cs {
		out.Changes = append(out.Changes, changeJSONOf(c))
	}
	return a.emit(out, func() error {
		for _, c := range cs {
			a.printf("%s\n", changeLine(c))
		}
		return nil
	})
}

var cmdUsage = &command{
	name: "usage", reads: true, group: "Workspace", synopsis: "",
	summary: "show the workspace's size and limits",
	run:     runUsage,
}

func runUsage(a *app, fl *flag.FlagSet, args []string) error {
	f, err := a.parseOpen(fl, args, 0, 0)
	if err != nil {
		return err
	}
	u, err := f.Usage(a.ctx)
	if err != nil {
		return err
	}
	rev, err := f.Rev(a.ctx)
	if err != nil {
		return err
	}
	lim := f.Limits()
	out := struct {
		Database string         `json:"database"`
		Rev      int64          `json:"rev"`
		Usage    map[string]any `json:"usage"`
		Limits   map[string]any `json:"limits"`
	}{a.ws.Path(), rev, camelFields(u), camelFields(lim)}
	return a.emit(out, func() error {
		a.printf("database: %s\n", a.ws.Path())
		a.printf("revision: %d\n", rev)
		a.printf("files:    %s of %s (MaxTotalBytes)\n", humanBytes(u.Bytes), humanBytes(lim.MaxTotalBytes))
		a.printf("entries:  %d of %d (MaxEntries)\n", u.Entries, lim.MaxEntries)
		a.printf("stored:   %s of unique content\n", humanBytes(u.Stored))
		return nil
	})
}

var cmdGC = &command{
	name: "gc", reads: true, group: "Workspace", synopsis: "",
	summary: "reclaim unreferenced storage and prune the change feed",
	run:     runGC,
}

func runGC(a *app, fl *flag.FlagSet, args []string) error {
	f, err := a.parseOpen(fl, args, 0, 0)
	if err != nil {
		return err
	}
	st, err := f.GC(a.ctx)
	if err != nil {
		return err
	}
	out := map[string]any{"blobs": st.Blobs, "bytes": st.Bytes, "orphans": st.Orphans, "changes": st.Changes, "vacuumed": st.Vacuumed}
	return a.emit(out, func() error {
		a.printf("removed %d unreferenced chunks (%s), %d orphaned files; pruned %d change entries\n",
			st.Blobs, humanBytes(st.Bytes), st.Orphans, st.Changes)
		if st.Vacuumed {
			a.printf("returned free pages to the OS\n")
		}
		return nil
	})
}

var cmdVersion = &command{
	name: "version", group: "Workspace", synopsis: "",
	summary: "print the version of nook",
	run:     runVersion,
}

// version is set at link time (-ldflags "-X main.version=v1.2.3"); otherwise
// the module version from the build information is used.
var version = ""

func runVersion(a *app, fl *flag.FlagSet, args []string) error {
	if err := a.parse(fl, args, 0, 0); err != nil {
		return err
	}
	v := nookVersion()
	iso := a.isolationText()
	return a.emit(map[string]any{"version": v, "go": runtime.Version(), "schema": vfs.SchemaVersion, "isolation": iso}, func() error {
		a.printf("nook %s (%s, vfs schema %d)\nisolation: %s\n", v, runtime.Version(), vfs.SchemaVersion, iso)
		return nil
	})
}

// camelFields returns the exported fields of the struct v keyed by their
// names in lower camel case ("MaxFileSize" → "maxFileSize"), the keys of
// every --json document, for vfs structs that carry no JSON tags.
func camelFields(v any) map[string]any {
	rv := reflect.ValueOf(v)
	out := map[string]any{}
	for i := range rv.NumField() {
		f := rv.Type().Field(i)
		if f.IsExported() {
			out[lowerCamel(f.Name)] = rv.Field(i).Interface()
		}
	}
	return out
}

// lowerCamel lowers the leading capitals of a Go name, keeping the one
// that starts the next word: "Bytes" → "bytes", "IDs" → "ids", "URLPath" →
// "urlPath".
func lowerCamel(name string) string {
	r := []rune(name)
	for i := 0; i < len(r) && unicode.IsUpper(r[i]); i++ {
		if i > 0 && i+1 < len(r) && unicode.IsLower(r[i+1]) && r[i+1] != 's' {
			break
		}
		r[i] = unicode.ToLower(r[i])
	}
	return string(r)
}

// nookVersion is the version of this build: the link-time version, else
// the module version, else "devel-<commit>" or "devel".
func nookVersion() string {
	v := version
	if bi, ok := debug.ReadBuildInfo(); ok && v == "" {
		v = bi.Main.Version
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 && (v == "" || v == "(devel)") {
				v = "devel-" + s.Value[:12]
			}
		}
	}
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	return v
}

// humanBytes renders n as "1.5 MiB".
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
