package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nookdev/nook/fleet"
)

// The operators' fleet command: nook fleet.

var cmdFleet = &command{
	name: "fleet", group: "Model tools", synopsis: "status|drain NODE|move WORKSPACE NODE --nats-url URL [--run-wait D] [--json]",
	summary: "inspect a fleet of nook nodes",
	help: `Looks at a fleet of "nook node" processes through its NATS cluster, as an
observer: it joins nothing and owns nothing. --nats-url is the client URL of
any member's NATS server (a node prints it as it starts; default
$NOOK_NATS_URL). Subcommands:

  status              the nodes (live: a heartbeat within the lease TTL;
                      the time since their last one; how far their copy of
                      the workspace log lags behind its leader, in
                      operations), the workspaces each owns (lease epoch,
                      time since its last renewal, the log entries a
                      takeover would read, the log sequence of the latest
                      snapshot, whether runs are in flight), and the
                      workspaces with runs in flight that nobody owns yet
                      (their owner died; a survivor takes them over within
                      the lease TTL); a draining node shows "draining"
                      as LIVE
  drain NODE          NODE gives its workspaces up and takes none from
                      then on: each is handed over to the first live node
                      of its rendezvous ranking. Calls wait meanwhile, and
                      none acknowledged is lost; runs in progress get
                      --run-wait (default 30s) to finish, and those still in
                      flight then are resumed by the new owner by their
                      policy (replay, restart or fail). Prints what moved
  move WORKSPACE NODE the same handover for one workspace, to NODE (a
                      workspace nobody owns is placed there)

Flags come after the subcommand: "nook fleet status --json".`,
	run: runFleet,
}

func runFleet(a *app, fl *flag.FlagSet, args []string) error {
	if len(args) == 0 {
		return a.usagef("fleet: missing subcommand (status, drain, move)")
	}
	sub, args := subcommand(args)
	switch sub {
	case "":
		return a.parse(fl, args, 0, 0) // "nook fleet -h" and stray flags
	case "status":
		return fleetStatus(a, fl, args)
	case "drain":
		return fleetDrain(a, fl, args)
	case "move":
		return fleetMove(a, fl, args)
	}
	return a.usagef("fleet: unknown subcommand %q (want status, drain or move)", sub)
}

// fleetHandoverTimeout bounds nook fleet drain and move beyond their run
// wait (the restores of the workspaces on their new owners).
const fleetHandoverTimeout = 2 * time.Minute

// fleetFlags adds the flags of drain and move and parses them.
func fleetFlags(a *app, fl *flag.FlagSet, args []string, sub string, nargs int) (url string, runWait time.Duration, err error) {
	u := fl.String("nats-url", os.Getenv("NOOK_NATS_URL"), "the fleet's NATS client `URL` (any member's)")
	rw := fl.Duration("run-wait", fleet.DefaultRunWait, "let runs in progress finish for up to `D` before handing them over")
	if err := a.parse(fl, args, nargs, nargs); err != nil {
		return "", 0, err
	}
	if *u == "" {
		return "", 0, a.usagef("fleet %s: --nats-url is required (or $NOOK_NATS_URL)", sub)
	}
	if *rw <= 0 || *rw > fleet.MaxRunWait {
		return "", 0, a.usagef("fleet %s: --run-wait %v: want more than 0 and at most %v", sub, *rw, fleet.MaxRunWait)
	}
	return *u, *rw, nil
}

// The JSON of a handover (nook fleet move, and each of nook fleet drain).
type fleetHandoverJSON struct {
	Workspace string `json:"workspace"`
	From      string `json:"from"` // "" when nobody owned it
	To        string `json:"to"`
	Epoch     uint64 `json:"epoch"`
	Runs      int    `json:"runs"` // runs in flight handed over
}

type fleetDrainJSON struct {
	Node  string              `json:"node"`
	Moved []fleetHandoverJSON `json:"moved"`
}

func handoverJSON(h fleet.Handover) fleetHandoverJSON {
	return fleetHandoverJSON{Workspace: h.Workspace, From: h.From, To: h.To, Epoch: h.Epoch, Runs: h.Runs}
}

func fleetDrain(a *app, fl *flag.FlagSet, args []string) error {
	url, runWait, err := fleetFlags(a, fl, args, "drain", 1)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(a.ctx, runWait+fleetHandoverTimeout)
	defer cancel()
	rep, err := fleet.DrainVia(ctx, url, fl.Arg(0), runWait)
	if err != nil {
		return err
	}
	out := fleetDrainJSON{Node: rep.Node, Moved: []fleetHandoverJSON{}}
	for _, h := range rep.Moved {
		out.Moved = append(out.Moved, handoverJSON(h))
	}
	return a.emit(out, func() error {
		if len(rep.Moved) > 0 {
			tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "WORKSPACE\tFROM\tTO\tEPOCH\tRUNS HANDED OVER")
			for _, h := range rep.Moved {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\n", h.Workspace, h.From, h.To, h.Epoch, h.Runs)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
		}
		a.printf("drained %s: %s moved; it takes no workspace until it restarts\n", rep.Node, plural(len(rep.Moved), "workspace"))
		return nil
	})
}

func fleetMove(a *app, fl *flag.FlagSet, args []string) error {
	url, runWait, err := fleetFlags(a, fl, args, "move", 2)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(a.ctx, runWait+fleetHandoverTimeout)
	defer cancel()
	h, err := fleet.MoveVia(ctx, url, fl.Arg(0), fl.Arg(1), runWait)
	if err != nil {
		return err
	}
	return a.emit(handoverJSON(h), func() error {
		switch h.From {
		case h.To:
			a.printf("%s is on %s already (epoch %d)\n", h.Workspace, h.To, h.Epoch)
		case "":
			a.printf("placed %s on %s (epoch %d): nobody owned it\n", h.Workspace, h.To, h.Epoch)
		default:
			a.printf("moved %s from %s to %s (epoch %d, %s handed over)\n", h.Workspace, h.From, h.To, h.Epoch, plural(h.Runs, "run"))
		}
		return nil
	})
}

// fleetStatusTimeout bounds the reads of nook fleet status.
const fleetStatusTimeout = 30 * time.Second

func fleetStatus(a *app, fl *flag.FlagSet, args []string) error {
	url := fl.String("nats-url", os.Getenv("NOOK_NATS_URL"), "the fleet's NATS client `URL` (any member's)")
	if err := a.parse(fl, args, 0, 0); err != nil {
		return err
	}
	if *url == "" {
		return a.usagef("fleet status: --nats-url is required (or $NOOK_NATS_URL)")
	}
	ctx, cancel := context.WithTimeout(a.ctx, fleetStatusTimeout)
	defer cancel()
	st, err := fleet.Inspect(ctx, *url)
	if err != nil {
		return err
	}
	out := fleetStatusJSONOf(st)
	return a.emit(out, func() error {
		leader := st.LogLeader
		if leader == "" {
			leader = "none (not replicated)"
		}
		live := 0
		for _, n := range out.Nodes {
			if n.Live {
				live++
			}
		}
		a.printf("fleet: %d nodes live of %d, lease TTL %s, log leader %s\n", live, len(out.Nodes), st.LeaseTTL, leader)
		tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "NODE\tLIVE\tHEARTBEAT\tLOG LAG\tWORKSPACES")
		for i, n := range out.Nodes {
			beat, lag := "-", "-"
			if n.Live {
				beat = durationString(st.Nodes[i].Heartbeat) + " ago"
			}
			switch {
			case n.Name == st.LogLeader:
				lag = "leader"
			case n.LogLag != nil:
				lag = fmt.Sprint(*n.LogLag)
			}
			live := yesNo(n.Live)
			if n.Draining {
				live = "draining"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\n", n.Name, live, beat, lag, len(n.Workspaces))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		rows := 0
		tw = tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
		for _, n := range st.Nodes {
			for _, w := range n.Workspaces {
				if rows == 0 {
					a.printf("\n")
					fmt.Fprintln(tw, "WORKSPACE\tOWNER\tEPOCH\tRENEWED\tLOG\tSNAPSHOT\tRUNS")
				}
				rows++
				fmt.Fprintf(tw, "%s\t%s\t%d\t%s ago\t%d\t%d\t%s\n", w.Name, w.Node, w.Epoch, durationString(w.Renewed),
					w.LogEntries, w.SnapshotSeq, yesNo(w.Runs))
			}
		}
		for _, w := range st.Unowned {
			if rows == 0 {
				a.printf("\n")
				fmt.Fprintln(tw, "WORKSPACE\tOWNER\tEPOCH\tRENEWED\tLOG\tSNAPSHOT\tRUNS")
			}
			rows++
			fmt.Fprintf(tw, "%s\t-\t-\t-\t%d\t%d\t%s\n", w.Name, w.LogEntries, w.SnapshotSeq, yesNo(w.Runs))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if len(st.Unowned) > 0 {
			names := make([]string, len(st.Unowned))
			for i, w := range st.Unowned {
				names[i] = w.Name
			}
			a.printf("unowned with runs in flight (their owner died): %s\n", strings.Join(names, " "))
		}
		return nil
	})
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// The JSON of nook fleet status.
type fleetStatusJSON struct {
	LeaseTTLMs int64                `json:"leaseTtlMs"`
	LogLeader  string               `json:"logLeader"`
	Nodes      []fleetNodeJSON      `json:"nodes"`
	Unowned    []fleetWorkspaceJSON `json:"unowned"`
	Replicas   []fleetReplicaJSON   `json:"replicas"`
}

type fleetNodeJSON struct {
	Name        string               `json:"name"`
	Live        bool                 `json:"live"`
	Draining    bool                 `json:"draining"`    // it gives its workspaces up and takes none
	HeartbeatMs *int64               `json:"heartbeatMs"` // since the last heartbeat; null when not live
	LogLeader   bool                 `json:"logLeader"`
	LogLag      *uint64              `json:"logLag"` // null for the leader and for a node whose server holds no replica
	Workspaces  []fleetWorkspaceJSON `json:"workspaces"`
}

type fleetWorkspaceJSON struct {
	Name        string `json:"name"`
	Owner       string `json:"owner,omitempty"`
	Epoch       uint64 `json:"epoch,omitempty"`
	RenewedMs   *int64 `json:"renewedMs,omitempty"` // since the lease's last renewal
	LogEntries  uint64 `json:"logEntries"`
	SnapshotSeq uint64 `json:"snapshotSeq"`
	Runs        bool   `json:"runs"`
}

type fleetReplicaJSON struct {
	Server   string `json:"server"`
	Current  bool   `json:"current"`
	Offline  bool   `json:"offline"`
	Lag      uint64 `json:"lag"`
	ActiveMs int64  `json:"activeMs"`
}

func fleetStatusJSONOf(st *fleet.Status) fleetStatusJSON {
	ms := func(d time.Duration) *int64 { v := d.Milliseconds(); return &v }
	ws := func(w fleet.WorkspaceStatus) fleetWorkspaceJSON {
		j := fleetWorkspaceJSON{Name: w.Name, Owner: w.Node, Epoch: w.Epoch, LogEntries: w.LogEntries, SnapshotSeq: w.SnapshotSeq, Runs: w.Runs}
		if w.Node != "" {
			j.RenewedMs = ms(w.Renewed)
		}
		return j
	}
	out := fleetStatusJSON{LeaseTTLMs: st.LeaseTTL.Milliseconds(), LogLeader: st.LogLeader,
		Nodes: []fleetNodeJSON{}, Unowned: []fleetWorkspaceJSON{}, Replicas: []fleetReplicaJSON{}}
	lag := map[string]uint64{}
	for _, r := range st.Replicas {
		lag[r.Server] = r.Lag
		out.Replicas = append(out.Replicas, fleetReplicaJSON{Server: r.Server, Current: r.Current, Offline: r.Offline, Lag: r.Lag, ActiveMs: r.Active.Milliseconds()})
	}
	for _, n := range st.Nodes {
		j := fleetNodeJSON{Name: n.Name, Live: n.Live, Draining: n.Draining, LogLeader: n.Name == st.LogLeader, Workspaces: []fleetWorkspaceJSON{}}
		if n.Live {
			j.HeartbeatMs = ms(n.Heartbeat)
		}
		if l, ok := lag[n.Name]; ok {
			j.LogLag = &l
		}
		for _, w := range n.Workspaces {
			j.Workspaces = append(j.Workspaces, ws(w))
		}
		out.Nodes = append(out.Nodes, j)
	}
	for _, w := range st.Unowned {
		out.Unowned = append(out.Unowned, ws(w))
	}
	return out
}

// plural renders a count of things: "1 run", "2 runs".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
