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
	name: "fleet", group: "Model tools", synopsis: "status --nats-url URL [--json]",
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
                      the lease TTL)

Flags come after the subcommand: "nook fleet status --json".`,
	run: runFleet,
}

func runFleet(a *app, fl *flag.FlagSet, args []string) error {
	if len(args) == 0 {
		return a.usagef("fleet: missing subcommand (status)")
	}
	sub, args := subcommand(args)
	switch sub {
	case "":
		return a.parse(fl, args, 0, 0) // "nook fleet -h" and stray flags
	case "status":
		return fleetStatus(a, fl, args)
	}
	return a.usagef("fleet: unknown subcommand %q (want status)", sub)
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
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\n", n.Name, yesNo(n.Live), beat, lag, len(n.Workspaces))
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
		j := fleetNodeJSON{Name: n.Name, Live: n.Live, LogLeader: n.Name == st.LogLeader, Workspaces: []fleetWorkspaceJSON{}}
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
