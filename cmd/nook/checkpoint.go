package main

import (
	"flag"
	"fmt"
	"text/tabwriter"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// The checkpoint commands: checkpoint, checkpoints, restore, diff, fork,
// undo (registered in command.go, in the order "nook help" lists them).

var cmdCheckpoint = &command{
	name: "checkpoint", group: "Workspace", synopsis: "NAME | --delete NAME",
	summary: "record the whole tree under a name, or delete a checkpoint",
	help: `Records the tree as it is now (every name, its mode, times and content) as
checkpoint NAME, which "nook restore" puts back and "nook diff" compares.
Content is shared by hash and only what changed since the previous
checkpoint is written, so frequent checkpoints are cheap. A checkpoint takes
no revision and changes no file. With --delete, deletes checkpoint NAME and
releases what only it kept (for gc).`,
	run: runCheckpoint,
}

type checkpointJSON struct {
	Name    string `json:"name"`
	Rev     int64  `json:"rev"`
	Time    string `json:"time"`
	Entries int64  `json:"entries"`
	Bytes   int64  `json:"bytes"`
}

func checkpointJSONOf(c *vfs.Checkpoint) checkpointJSON {
	return checkpointJSON{Name: c.Name, Rev: c.Rev, Time: nanoTime(c.Time), Entries: c.Entries, Bytes: c.Bytes}
}

func runCheckpoint(a *app, fl *flag.FlagSet, args []string) error {
	del := fl.Bool("delete", false, "delete checkpoint NAME")
	f, err := a.parseOpen(fl, args, 1, 1)
	if err != nil {
		return err
	}
	name := fl.Arg(0)
	if *del {
		if err := f.DeleteCheckpoint(a.ctx, name); err != nil {
			return err
		}
		return a.emit(map[string]any{"deleted": name}, func() error {
			a.printf("deleted checkpoint %s\n", shown(name))
			return nil
		})
	}
	ck, st, err := f.CheckpointStats(a.ctx, name)
	if err != nil {
		return err
	}
	out := struct {
		checkpointJSON
		Written struct {
			Nodes   int64 `json:"nodes"`
			Entries int64 `json:"entries"`
			Full    bool  `json:"full"`
		} `json:"written"`
	}{checkpointJSON: checkpointJSONOf(ck)}
	out.Written.Nodes, out.Written.Entries, out.Written.Full = st.Nodes, st.Dirents, st.Full
	return a.emit(out, func() error {
		a.printf("checkpoint %s at revision %d: %d entries, %s (wrote %d nodes, %d entries)\n",
			shown(ck.Name), ck.Rev, ck.Entries, humanBytes(ck.Bytes), st.Nodes, st.Dirents)
		return nil
	})
}

var cmdCheckpoints = &command{
	name: "checkpoints", reads: true, group: "Workspace", synopsis: "",
	summary: "list the checkpoints",
	help: `Lists the checkpoints, oldest first: name, the revision whose tree it
records, when it was taken, its names (the root included) and the bytes of
its files. Runs started with "nook exec --checkpoint" have two:
run:ID:before and run:ID:after.`,
	run: runCheckpoints,
}

func runCheckpoints(a *app, fl *flag.FlagSet, args []string) error {
	f, err := a.parseOpen(fl, args, 0, 0)
	if err != nil {
		return err
	}
	cks, err := f.Checkpoints(a.ctx)
	if err != nil {
		return err
	}
	out := []checkpointJSON{}
	for i := range cks {
		out = append(out, checkpointJSONOf(&cks[i]))
	}
	return a.emit(map[string]any{"checkpoints": out}, func() error {
		if len(cks) == 0 {
			a.printf("no checkpoints\n")
			return nil
		}
		tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tREV\tTIME\tENTRIES\tSIZE")
		for _, c := range cks {
			fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t%s\n", shown(c.Name), c.Rev, c.Time.Local().Format("2006-01-02 15:04:05"), c.Entries, humanBytes(c.Bytes))
		}
		return tw.Flush()
	})
}

var cmdRestore = &command{
	name: "restore", group: "Workspace", synopsis: "[--force] NAME [PATH]",
	summary: "put the tree (or PATH) back as a checkpoint recorded it",
	help: `Puts the whole tree, or only the tree at PATH, back as checkpoint NAME
recorded it: content, modes, times, symlinks and hard links, in one
revision whose change-feed entries say what changed. Names equal to the
checkpoint's are not touched. While a run of any process is in flight the
restore is refused (EBUSY); --force restores anyway.`,
	run: runRestore,
}

func runRestore(a *app, fl *flag.FlagSet, args []string) error {
	force := fl.Bool("force", false, "restore even while runs are in flight")
	if _, err := a.parseOpen(fl, args, 1, 2); err != nil {
		return err
	}
	name, path := fl.Arg(0), ""
	if fl.NArg() == 2 {
		path = wsPath(fl.Arg(1))
	}
	st, err := a.ws.Runtime().Restore(a.ctx, name, runtime.RestoreOptions{Path: path, Force: *force})
	if err != nil {
		return err
	}
	return a.emit(map[string]any{"checkpoint": name, "rev": st.Rev, "removed": st.Removed, "created": st.Created, "updated": st.Updated, "compared": st.Compared},
		func() error {
			if st.Rev == 0 {
				a.printf("nothing to restore: the tree equals checkpoint %s\n", shown(name))
				return nil
			}
			a.printf("restored %s at revision %d: %d removed, %d created, %d updated\n", shown(name), st.Rev, st.Removed, st.Created, st.Updated)
			return nil
		})
}

var cmdDiff = &command{
	name: "diff", reads: true, group: "Workspace", synopsis: "[--patch] [--path PATH] A [B]",
	summary: "compare two checkpoints, or a checkpoint and the tree",
	help: `Lists how tree B differs from tree A, one name a line: "A PATH" added,
"M PATH" modified (what differs in brackets: content, mode, times),
"D PATH" deleted, "R OLD -> NEW" renamed. A and B are checkpoint names,
or @N for the checkpoint that records revision N; B defaults to the tree
as it is now. --patch adds a unified diff of each changed text file.`,
	run: runDiff,
}

type diffJSON struct {
	Op      string    `json:"op"`
	Path    bytesText `json:"path"`
	OldPath bytesText `json:"oldPath,omitempty"`
	Type    string    `json:"type"`
	Content bool      `json:"content,omitempty"`
	Mode    bool      `json:"mode,omitempty"`
	Times   bool      `json:"times,omitempty"`
	Patch   string    `json:"patch,omitempty"`
}

func runDiff(a *app, fl *flag.FlagSet, args []string) error {
	patch := fl.Bool("patch", false, "add a unified diff of each changed text file")
	under := fl.String("path", "", "compare only the tree at `PATH`")
	f, err := a.parseOpen(fl, args, 1, 2)
	if err != nil {
		return err
	}
	o := &vfs.DiffOptions{Text: *patch}
	if *under != "" {
		o.Path = wsPath(*under)
	}
	from, to := fl.Arg(0), fl.Arg(1)
	ds, err := f.Diff(a.ctx, from, to, o)
	if err != nil {
		return err
	}
	out := []diffJSON{}
	for _, d := range ds {
		out = append(out, diffJSON{Op: string(d.Op), Path: bytesText(d.Path), OldPath: bytesText(d.OldPath), Type: d.Kind.String(),
			Content: d.Content, Mode: d.Mode, Times: d.Times, Patch: d.Patch})
	}
	return a.emit(map[string]any{"from": from, "to": to, "changes": out}, func() error {
		for _, d := range ds {
			a.printf("%s\n", diffLine(d))
			if d.Patch != "" {
				a.printf("%s", d.Patch)
			}
		}
		return nil
	})
}

// diffLine renders one difference as "M /path (content, mode)".
func diffLine(d vfs.DiffEntry) string {
	var what []string
	for _, w := range []struct {
		on   bool
		name string
	}{{d.Content, "content"}, {d.Mode, "mode"}, {d.Times, "times"}} {
		if w.on {
			what = append(what, w.name)
		}
	}
	detail := ""
	if len(what) > 0 && d.Op != vfs.DiffAdded && d.Op != vfs.DiffDeleted {
		detail = " ("
		for i, w := range what {
			if i > 0 {
				detail += ", "
			}
			detail += w
		}
		detail += ")"
	}
	switch d.Op {
	case vfs.DiffAdded:
		return "A " + shown(d.Path)
	case vfs.DiffDeleted:
		return "D " + shown(d.Path)
	case vfs.DiffRenamed:
		return "R " + shown(d.OldPath) + " -> " + shown(d.Path) + detail
	}
	return "M " + shown(d.Path) + detail
}

var cmdUndo = &command{
	name: "undo", group: "Runs", synopsis: "[--force] ID",
	summary: "revert what one run (or undo) changed in the files",
	help: `Reverts exactly what run ID changed: the files its backend reported, or
every path that differs between the checkpoints taken before and after
it. The run must have been started with "nook exec --checkpoint". When a
file it changed was changed again since, nothing is reverted and the
conflicting paths are listed (ESTALE). Content, modes, times, symlinks
and hard links come back exactly, in one revision. An undo has an id of
its own: "nook undo" of that id puts back what it reverted. While other
runs are in flight the undo is refused (EBUSY); --force undoes anyway.`,
	run: runUndo,
}

func runUndo(a *app, fl *flag.FlagSet, args []string) error {
	force := fl.Bool("force", false, "undo even while other runs are in flight")
	if _, err := a.parseOpen(fl, args, 1, 1); err != nil {
		return err
	}
	u, err := a.ws.Runtime().Undo(a.ctx, fl.Arg(0), runtime.UndoOptions{Force: *force})
	if err != nil {
		return err
	}
	return a.emit(u, func() error {
		a.printf("undid %s: %d paths (%d removed, %d created, %d updated) at revision %d\n",
			u.Run, len(u.Paths), u.Removed, u.Created, u.Updated, u.Rev)
		a.printf("to take it back: nook undo %s\n", u.ID)
		return nil
	})
}

var cmdFork = &command{
	name: "fork", group: "Workspace", synopsis: "[--force] NAME NEWDB",
	summary: "copy the workspace at a checkpoint into a new workspace file",
	help: `Writes a new workspace database NEWDB (which must not exist) whose files
are exactly checkpoint NAME's, to diverge from this one: "nook --db NEWDB"
then works on the fork. The fork keeps every checkpoint, so "nook diff"
in either compares against the same names, and the records of finished
runs. It is a full copy of the database file (writes wait for it). A fork
interrupted by a crash leaves NEWDB.partial, which nook refuses to open and
the next fork to NEWDB replaces. While a run of any process is in flight
the fork is refused (EBUSY); --force forks anyway.`,
	run: runFork,
}

func runFork(a *app, fl *flag.FlagSet, args []string) error {
	force := fl.Bool("force", false, "fork even while runs are in flight")
	if _, err := a.parseOpen(fl, args, 2, 2); err != nil {
		return err
	}
	st, err := a.ws.Runtime().Fork(a.ctx, fl.Arg(0), fl.Arg(1), runtime.ForkOptions{Force: *force})
	if err != nil {
		return err
	}
	return a.emit(map[string]any{"checkpoint": fl.Arg(0), "path": st.Path, "bytes": st.Bytes, "rev": st.Restore.Rev},
		func() error {
			a.printf("forked checkpoint %s into %s (%s)\n", shown(fl.Arg(0)), st.Path, humanBytes(st.Bytes))
			return nil
		})
}
