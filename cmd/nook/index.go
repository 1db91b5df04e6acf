package main

import (
	"flag"
	"fmt"

	"github.com/nookdev/nook/vfs"
)

// The trigram index command: status, on, off, rebuild, check.

func init() { register(cmdIndex) }

var cmdIndex = &command{
	name: "index", reads: true, group: "Workspace", synopsis: "[status|on|off|rebuild|check]",
	summary: "show, switch, rebuild or check the workspace's trigram index",
	help: `grep takes its candidate files from a trigram index of the workspace's
content, which writes keep: new chunks are indexed in blocks of 256, in
transactions of their own just after the writes that store them; files not
yet indexed are scanned, so results are the same with and without it.

  status   what the index holds (the default)
  on, off  keep and use the index, or not; off also deletes it
  rebuild  index every stored chunk again, dropping removed ones
  check    verify the index against the stored content; exit status 1
           when something is wrong, each problem on a line`,
	run: runIndex,
}

func runIndex(a *app, fl *flag.FlagSet, args []string) error {
	f, err := a.parseOpen(fl, args, 0, 1)
	if err != nil {
		return err
	}
	sub := "status"
	if fl.NArg() > 0 {
		sub = fl.Arg(0)
	}
	var st *vfs.IndexStatus
	switch sub {
	case "status":
		st, err = f.IndexStatus(a.ctx)
	case "on", "off":
		if err = f.SetIndex(a.ctx, sub == "on"); err == nil {
			st, err = f.IndexStatus(a.ctx)
		}
	case "rebuild":
		st, err = f.RebuildIndex(a.ctx)
	case "check":
		return indexCheck(a, f)
	default:
		return a.usagef("index: unknown subcommand %q (want status, on, off, rebuild or check)", sub)
	}
	if err != nil {
		return err
	}
	out := map[string]any{"enabled": st.Enabled, "indexed": st.Indexed, "unindexed": st.Unindexed,
		"blocks": st.Blocks, "dead": st.Dead, "rows": st.Rows, "bytes": st.Bytes}
	return a.emit(out, func() error {
		state := "on"
		if !st.Enabled {
			state = "off"
		}
		a.printf("trigram index: %s\n", state)
		a.printf("chunks:   %d indexed, %d not yet (scanned by grep)\n", st.Indexed, st.Unindexed)
		a.printf("blocks:   %d, with %d documents of removed chunks\n", st.Blocks, st.Dead)
		a.printf("postings: %d rows, %s\n", st.Rows, humanBytes(st.Bytes))
		return nil
	})
}

func indexCheck(a *app, f *vfs.FS) error {
	probs, err := f.IndexCheck(a.ctx)
	if err != nil {
		return err
	}
	type jsonProblem struct {
		Block int64  `json:"block"`
		Doc   int64  `json:"doc"`
		Text  string `json:"text"`
	}
	list := make([]jsonProblem, len(probs))
	for i, p := range probs {
		list[i] = jsonProblem{p.Block, p.Doc, p.Text}
	}
	err = a.emit(map[string]any{"problems": list}, func() error {
		for _, p := range probs {
			if p.Doc >= 0 {
				a.printf("block %d, document %d: %s\n", p.Block, p.Doc, p.Text)
			} else {
				a.printf("block %d: %s\n", p.Block, p.Text)
			}
		}
		if len(probs) == 0 {
			a.printf("trigram index: sound\n")
		}
		return nil
	})
	if err == nil && len(probs) > 0 {
		err = &vfs.PathError{Op: "index check", Code: vfs.EIO, Text: fmt.Sprintf("%d problems in the trigram index", len(probs))}
	}
	return err
}
