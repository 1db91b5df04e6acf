package git

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	gogit "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	cfgformat "github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/storage"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/memory"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// The remote commands: clone, fetch, pull, push, ls-remote and remote,
// with git's command lines and its output, over go-git's smart HTTP
// transport through the outbound policy (net.go).

// netFor checks that the network reaches rawURL for op and returns the
// context its requests carry; a refusal is git's fatal line.
func (x *cli) netFor(op, rawURL string) (context.Context, context.CancelFunc, error) {
	ctx, cancel, err := x.c.netContext(op, rawURL)
	if err != nil {
		var ce *runtime.CallError
		if errors.As(err, &ce) {
			return nil, nil, fatalf("%s", ce.Message)
		}
		return nil, nil, err
	}
	return ctx, cancel, nil
}

// transportErr is how git reports a failed transfer.
func transportErr(u string, err error) error {
	var ce *runtime.CallError
	if errors.As(err, &ce) {
		return fatalf("%s", ce.Message)
	}
	var le *ResponseLimitError
	if errors.As(err, &le) {
		fe := fatalf("unable to access '%s/': %s", strings.TrimSuffix(u, "/"), le).(*fatalErr)
		fe.cause = le
		return fe
	}
	switch {
	case errors.Is(err, transport.ErrRepositoryNotFound):
		return fatalf("repository '%s/' not found", strings.TrimSuffix(u, "/"))
	case errors.Is(err, transport.ErrAuthenticationRequired), errors.Is(err, transport.ErrAuthorizationFailed):
		return fatalf("Authentication failed for '%s/'", strings.TrimSuffix(u, "/"))
	}
	msg := err.Error()
	if i := strings.Index(msg, ErrNetworkDenied+": "); i >= 0 {
		msg = msg[i+len(ErrNetworkDenied)+2:]
	}
	return fatalf("unable to access '%s/': %s", strings.TrimSuffix(u, "/"), msg)
}

// displayURL is the URL as git's fetch shows it: no trailing slashes or
// ".git".
func displayURL(u string) string {
	u = strings.TrimRight(u, "/")
	return strings.TrimSuffix(u, ".git")
}

// remoteOf is the remote a branch pulls from (branch.<b>.remote), or
// origin.
func (x *cli) remoteOf(branch string) string {
	if branch != "" {
		if r := x.cfg("branch." + branch + ".remote"); r != "" {
			return r
		}
	}
	return "origin"
}

// remoteConfig reads a remote's configuration.
func (x *cli) remoteConfig(name string) (*config.RemoteConfig, error) {
	cfg, err := x.r.Config()
	if err != nil {
		return nil, err
	}
	rc, ok := cfg.Remotes[name]
	if !ok || len(rc.URLs) == 0 {
		return nil, nil
	}
	return rc, nil
}

// noRemote is git's error for a remote that is neither configured nor a URL.
func noRemote(name string) error {
	return &fatalErr{code: 128, text: "fatal: '" + name + "' does not appear to be a git repository\n" +
		"fatal: Could not read from remote repository.\n\n" +
		"Please make sure you have the correct access rights\nand the repository exists.\n"}
}

// isURL reports whether s names a repository by URL rather than a remote.
func isURL(s string) bool { return strings.Contains(s, "://") }

const cloneUsage = "usage: git clone [<options>] [--] <repo> [<dir>]\n" +
	cloneOptsHelp

const cloneOptsHelp = "\n" +
	"    -v, --verbose         be more verbose\n" +
	"    -q, --quiet           be more quiet\n" +
	"    --progress            force progress reporting\n" +
	"    --reject-shallow      don't clone shallow repository\n" +
	"    -n, --no-checkout     don't create a checkout\n" +
	"    --bare                create a bare repository\n" +
	"    --mirror              create a mirror repository (implies bare)\n" +
	"    -l, --local           to clone from a local repository\n" +
	"    --no-hardlinks        don't use local hardlinks, always copy\n" +
	"    -s, --shared          setup as shared repository\n" +
	"    --recurse-submodules[=<pathspec>]\n" +
	"                          initialize submodules in the clone\n" +
	"    --recursive ...       alias of --recurse-submodules\n" +
	"    -j, --jobs <n>        number of submodules cloned in parallel\n" +
	"    --template <template-directory>\n" +
	"                          directory from which templates will be used\n" +
	"    --reference <repo>    reference repository\n" +
	"    --reference-if-able <repo>\n" +
	"                          reference repository\n" +
	"    --dissociate          use --reference only while cloning\n" +
	"    -o, --origin <name>   use <name> instead of 'origin' to track upstream\n" +
	"    -b, --branch <branch>\n" +
	"                          checkout <branch> instead of the remote's HEAD\n" +
	"    -u, --upload-pack <path>\n" +
	"                          path to git-upload-pack on the remote\n" +
	"    --depth <depth>       create a shallow clone of that depth\n" +
	"    --shallow-since <time>\n" +
	"                          create a shallow clone since a specific time\n" +
	"    --shallow-exclude <revision>\n" +
	"                          deepen history of shallow clone, excluding rev\n" +
	"    --single-branch       clone only one branch, HEAD or --branch\n" +
	"    --no-tags             don't clone any tags, and make later fetches not to follow them\n" +
	"    --shallow-submodules  any cloned submodules will be shallow\n" +
	"    --separate-git-dir <gitdir>\n" +
	"                          separate git dir from working tree\n" +
	"    -c, --config <key=value>\n" +
	"                          set config inside the new repository\n" +
	"    --server-option <server-specific>\n" +
	"                          option to transmit\n" +
	"    -4, --ipv4            use IPv4 addresses only\n" +
	"    -6, --ipv6            use IPv6 addresses only\n" +
	"    --filter <args>       object filtering\n" +
	"    --also-filter-submodules\n" +
	"                          apply partial clone filters to submodules\n" +
	"    --remote-submodules   any cloned submodules will use their remote-tracking branch\n" +
	"    --sparse              initialize sparse-checkout file to include only files at root\n" +
	"    --bundle-uri <uri>    a URI for downloading bundles before fetching from origin remote\n" +
	"\n"

var cloneOpts = []opt{
	{short: 'b', long: "branch", arg: argRequired}, {long: "depth", arg: argRequired}, {long: "single-branch"},
	{short: 'n', long: "no-checkout"}, {short: 'q', long: "quiet"}, {short: 'o', long: "origin", arg: argRequired},
	{long: "progress"}, {short: 'v', long: "verbose"}, {long: "bare"}, {long: "mirror"}, {long: "filter", arg: argRequired},
	{long: "recurse-submodules", arg: argOptional}, {long: "template", arg: argRequired}, {long: "reference", arg: argRequired},
	{short: 'l', long: "local"}, {short: 's', long: "shared"},
}

// cmdClone is git clone URL [dir]. The repository is built in a hidden
// directory beside dir and renamed into place when complete, so a failed
// clone (a refused host, a quota, a crash) leaves no half a repository.
func cmdClone(x *cli, args []string) int {
	f, err := parseOpts(args, cloneOpts, cloneUsage, false, "")
	if err != nil {
		return x.fail(err)
	}
	filter := ""
	if specs := f.all("filter"); len(specs) > 0 {
		for _, spec := range specs {
			if err := checkFilterSpec(spec); err != nil {
				return x.fail(err)
			}
		}
		if filter, err = partialSpec(specs[len(specs)-1]); err != nil {
			return x.fail(err)
		}
	}
	if o := f.refuse("bare", "mirror", "recurse-submodules", "template", "reference", "local", "shared"); o != "" {
		return x.notSupported("clone", o)
	}
	if len(f.pos) == 0 {
		x.eprintf("fatal: You must specify a repository to clone.\n\n%s", cloneUsage)
		return 129
	}
	if len(f.pos) > 2 {
		x.eprintf("fatal: Too many arguments.\n\n%s", cloneUsage)
		return 129
	}
	u := f.pos[0]
	name := ""
	if len(f.pos) == 2 {
		name = f.pos[1]
	} else {
		name = path.Base(strings.TrimRight(u, "/"))
		name = strings.TrimSuffix(name, ".git")
		if name == "" || name == "." || name == "/" {
			return x.fatal("No directory name could be guessed.\nPlease specify a directory on the command line")
		}
	}
	dest := name
	if !strings.HasPrefix(dest, "/") {
		dest = path.Join(x.cwd, dest)
	}
	root := x.c.g.opts.Root
	if dest != root && !strings.HasPrefix(dest, root+"/") {
		return x.fatal("could not create work tree dir '%s': %s is outside %s, where git works", name, dest, root)
	}
	if fi, err := x.fs().Lstat(x.ctx(), dest); err == nil {
		empty := false
		if fi.IsDir() {
			l, err := x.fs().ReadDir(x.ctx(), dest, pageOne)
			empty = err == nil && len(l.Entries) == 0
		}
		if !empty {
			return x.fatal("destination path '%s' already exists and is not an empty directory.", name)
		}
	}
	depth := 0
	if f.has("depth") {
		d, err := strconv.Atoi(f.str("depth"))
		if err != nil || d <= 0 {
			return x.fatal("depth %s is not a positive number", f.str("depth"))
		}
		depth = d
	}
	quiet := f.has("quiet")
	if !quiet {
		x.eprintf("Cloning into '%s'...\n", name)
	}
	ctx, cancel, err := x.netFor("clone", u)
	if err != nil {
		return x.fail(err)
	}
	defer cancel()
	origin := f.str("origin")
	if origin == "" {
		origin = "origin"
	}
	tmp := path.Join(path.Dir(dest), ".nook-clone-"+path.Base(dest))
	if err := x.fs().Remove(x.ctx(), tmp, &vfs.RemoveOptions{Recursive: true, Force: true}); err != nil {
		return x.fail(err)
	}
	code := x.cloneInto(ctx, tmp, u, origin, f.str("branch"), depth, f.has("single-branch") || depth > 0, f.has("no-checkout"), filter)
	if code != 0 {
		x.fs().Remove(x.ctx(), tmp, &vfs.RemoveOptions{Recursive: true, Force: true})
		return code
	}
	if fi, err := x.fs().Lstat(x.ctx(), dest); err == nil && fi.IsDir() {
		x.fs().Remove(x.ctx(), dest, nil)
	}
	if err := x.fs().MkdirAll(x.ctx(), path.Dir(dest), 0o755); err != nil {
		x.fs().Remove(x.ctx(), tmp, &vfs.RemoveOptions{Recursive: true, Force: true})
		return x.fail(err)
	}
	if err := x.fs().Rename(x.ctx(), tmp, dest); err != nil {
		x.fs().Remove(x.ctx(), tmp, &vfs.RemoveOptions{Recursive: true, Force: true})
		return x.fail(err)
	}
	x.touched[dest] = ""
	return 0
}

// cloneInto clones u into dir (a fresh directory) and checks out its
// branch with the porcelain's own index. A filter makes it a partial
// clone of origin (promisor.go).
func (x *cli) cloneInto(ctx context.Context, dir, u, origin, branch string, depth int, single, noCheckout bool, filter string) int {
	if err := x.fs().MkdirAll(x.ctx(), dir, 0o755); err != nil {
		return x.fail(err)
	}
	st, wt := x.c.storage(dir)
	// The remote's HEAD names the branch a clone checks out (and the
	// only one a single-branch clone fetches).
	adv, err := gogit.NewRemote(memory.NewStorage(), &config.RemoteConfig{Name: origin, URLs: []string{u}}).ListContext(ctx, &gogit.ListOptions{})
	if errors.Is(err, transport.ErrEmptyRemoteRepository) {
		return x.cloneEmpty(dir, u, origin)
	}
	if err != nil {
		return x.fail(transportErr(u, err))
	}
	remoteHead := ""
	for _, rr := range adv {
		if rr.Name() == plumbing.HEAD && rr.Type() == plumbing.SymbolicReference {
			remoteHead = rr.Target().Short()
		}
	}
	opts := &gogit.CloneOptions{URL: u, RemoteName: origin, NoCheckout: true, Depth: depth, SingleBranch: single, Tags: gogit.AllTags}
	if single {
		opts.Tags = gogit.TagFollowing
	}
	if branch != "" {
		opts.ReferenceName = plumbing.NewBranchReferenceName(branch)
	} else if remoteHead != "" {
		opts.ReferenceName = plumbing.NewBranchReferenceName(remoteHead)
	}
	var fr *filterReq
	if filter != "" {
		ctx, fr = withFilter(ctx, filter)
	}
	r, err := gogit.CloneContext(ctx, st, wt, opts)
	if errors.Is(err, transport.ErrEmptyRemoteRepository) {
		return x.cloneEmpty(dir, u, origin)
	}
	if err != nil {
		if branch != "" && (errors.Is(err, plumbing.ErrReferenceNotFound) || strings.Contains(err.Error(), "couldn't find remote ref")) {
			return x.fatal("Remote branch %s not found in upstream %s", branch, origin)
		}
		if x.ctx().Err() == nil && ctx.Err() == nil && !isTransport(err) {
			return x.fatal("cannot clone: %s", errText(err))
		}
		return x.fail(transportErr(u, err))
	}
	if fr != nil && !fr.applied {
		x.eprintf("warning: filtering not recognized by server, ignoring\n")
	}
	if fr != nil {
		// A server that does not take the filter sends everything; the
		// remote is still the promisor, as git's clone leaves it.
		if r, err = x.makePartial(st, wt, origin, filter); err != nil {
			return x.fail(err)
		}
	}
	x.r = &repo{Repository: r, wt: wt, root: dir}
	head, err := r.Head()
	if err != nil {
		return x.fail(err)
	}
	// origin/HEAD names the remote's default branch, as git's clone leaves it.
	if remoteHead != "" {
		def := plumbing.ReferenceName("refs/remotes/" + origin + "/" + remoteHead)
		if _, err := r.Storer.Reference(def); err == nil {
			r.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.ReferenceName("refs/remotes/"+origin+"/HEAD"), def))
		}
	}
	if noCheckout {
		return 0
	}
	to, err := x.r.commitFlat(head.Hash())
	if err != nil {
		return x.fail(err)
	}
	ix := &idx{}
	if old, err := x.r.readIndex(); err == nil {
		ix = old
	}
	if err := x.twoWay(flat{}, to, ix, true); err != nil {
		return x.fail(err)
	}
	if err := x.r.writeIndex(ix); err != nil {
		return x.fail(err)
	}
	return 0
}

// makePartial records a clone's remote as its promisor, as git's
// partial_clone_register does (core.repositoryformatversion 1,
// remote.<name>.promisor and .partialclonefilter), marks the packs it
// received as promisor packs, and reopens the repository over a
// promisorStore.
func (x *cli) makePartial(st *filesystem.Storage, wt *billyFS, origin, filter string) (*gogit.Repository, error) {
	cfg, err := st.Config()
	if err != nil {
		return nil, err
	}
	// Written into the raw section only: go-git, given version 1, adds
	// an extensions.objectformat it then refuses to open.
	cfg.Core.RepositoryFormatVersion = ""
	core := cfg.Raw.Section("core")
	core.RemoveOption("repositoryformatversion")
	core.Options = append(cfgformat.Options{{Key: "repositoryformatversion", Value: string(cfgformat.Version_1)}}, core.Options...)
	cfg.Raw.Section("remote").Subsection(origin).SetOption("promisor", "true").SetOption("partialclonefilter", filter)
	if err := st.SetConfig(cfg); err != nil {
		return nil, err
	}
	dot, _ := wt.Chroot(".git")
	if err := markPromisor(dot, nil); err != nil {
		return nil, err
	}
	return x.c.openStorage(st, wt)
}

// cloneEmpty is the clone of a repository with no commits: git warns and
// leaves a repository whose origin is set.
func (x *cli) cloneEmpty(dir, u, origin string) int {
	x.fs().Remove(x.ctx(), path.Join(dir, ".git"), &vfs.RemoveOptions{Recursive: true, Force: true})
	st, wt := x.c.storage(dir)
	r, err := gogit.InitWithOptions(st, wt, gogit.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName(DefaultBranch)})
	if err != nil {
		return x.fail(err)
	}
	if _, err := r.CreateRemote(&config.RemoteConfig{Name: origin, URLs: []string{u}}); err != nil {
		return x.fail(err)
	}
	x.eprintf("warning: You appear to have cloned an empty repository.\n")
	return 0
}

// isTransport reports whether err came from the transfer rather than the
// workspace.
func isTransport(err error) bool {
	var ce *runtime.CallError
	var le *ResponseLimitError
	return errors.As(err, &ce) || errors.As(err, &le) || strings.Contains(err.Error(), ErrNetworkDenied) ||
		errors.Is(err, transport.ErrRepositoryNotFound) || errors.Is(err, transport.ErrAuthenticationRequired) ||
		errors.Is(err, transport.ErrAuthorizationFailed) || strings.Contains(err.Error(), "dial tcp") ||
		strings.Contains(err.Error(), "connection refused")
}

// errText is a workspace error's message: the vfs error names the limit
// it hit (MaxTotalBytes, MaxFileSize, MaxEntries).
func errText(err error) string {
	for e := err; e != nil; e = errors.Unwrap(e) {
		if vfs.Code(e) != "" {
			return e.Error()
		}
	}
	return err.Error()
}

// refState is a snapshot of a repository's refs by name.
func refState(st storer.ReferenceStorer) map[string]plumbing.Hash {
	out := map[string]plumbing.Hash{}
	it, err := st.IterReferences()
	if err != nil {
		return out
	}
	it.ForEach(func(r *plumbing.Reference) error {
		if r.Type() == plumbing.HashReference {
			out[r.Name().String()] = r.Hash()
		}
		return nil
	})
	return out
}

// fetchLine is one line of fetch's or push's report.
type fetchLine struct {
	flag           byte
	summary        string
	from, to, note string
	sortKey        string
}

// refLines reports the refs that changed between before and after, as
// git's fetch does: the current branch's upstream first (the ref
// FETCH_HEAD merges), then the others by name, branches before tags.
func (x *cli) refLines(before, after map[string]plumbing.Hash, remote string) []fetchLine {
	var out []fetchLine
	branch, _ := x.head()
	merge := ""
	if x.cfg("branch."+branch+".remote") == remote {
		merge = strings.TrimPrefix(x.cfg("branch."+branch+".merge"), "refs/heads/")
	}
	for name, h := range after {
		var from string
		switch {
		case strings.HasPrefix(name, "refs/remotes/"+remote+"/"):
			from = strings.TrimPrefix(name, "refs/remotes/"+remote+"/")
			if from == "HEAD" {
				continue
			}
		case strings.HasPrefix(name, "refs/tags/"):
			from = strings.TrimPrefix(name, "refs/tags/")
		default:
			continue
		}
		short := strings.TrimPrefix(strings.TrimPrefix(name, "refs/remotes/"), "refs/tags/")
		old, had := before[name]
		l := fetchLine{from: from, to: short, sortKey: name}
		switch {
		case strings.HasPrefix(name, "refs/tags/"):
			l.sortKey = "2 refs/tags/" + from
		case from == merge:
			l.sortKey = "0"
		default:
			l.sortKey = "1 refs/heads/" + from
		}
		switch {
		case !had && strings.HasPrefix(name, "refs/tags/"):
			l.flag, l.summary = '*', "[new tag]"
		case !had:
			l.flag, l.summary = '*', "[new branch]"
		case old == h:
			continue
		case x.r.isAncestor(old, h):
			l.flag, l.summary = ' ', shortHash(old)+".."+shortHash(h)
		default:
			l.flag, l.summary, l.note = '+', shortHash(old)+"..."+shortHash(h), "  (forced update)"
		}
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].sortKey < out[j].sortKey })
	return out
}

// termColumns is the width git assumes for its output when it is not a
// terminal; a fetch line that would not fit does not widen the column.
const termColumns = 80

// printRefLines prints fetch's report: the URL once (unless shown says
// it was), then a line a ref with the remote names in a column at least
// 10 wide, widened for the names whose line fits in termColumns. It
// returns whether the URL has been shown.
func (x *cli) printRefLines(u string, lines []fetchLine, shown bool) bool {
	if len(lines) == 0 {
		return shown
	}
	if !shown {
		x.eprintf("From %s\n", displayURL(u))
	}
	w := 10
	for _, l := range lines {
		if len(l.from) > w && 21+len(l.from)+4+len(l.to) < termColumns {
			w = len(l.from)
		}
	}
	for _, l := range lines {
		x.eprintf(" %c %-17s %-*s -> %s%s\n", l.flag, l.summary, w, l.from, l.to, l.note)
	}
	return true
}

const fetchUsage = "usage: git fetch [<options>] [<repository> [<refspec>...]]\n   or: git fetch [<options>] <group>\n   or: git fetch --multiple [<options>] [(<repository> | <group>)...]\n   or: git fetch --all [<options>]\n"

var fetchOpts = []opt{
	{short: 'q', long: "quiet"}, {short: 'v', long: "verbose"}, {long: "all"}, {short: 'p', long: "prune"},
	{short: 't', long: "tags"}, {long: "depth", arg: argRequired}, {long: "progress"}, {short: 'f', long: "force"},
	{long: "unshallow"}, {long: "dry-run"}, {long: "filter", arg: argRequired}, {short: 'P', long: "prune-tags"},
}

// fetchFlags is what a fetch does beyond the remote's refspecs.
type fetchFlags struct {
	quiet, tags, force bool
	// prune is --prune (1), --no-prune (-1) or neither (0: the remote's
	// prune, else fetch.prune); pruneTags is --prune-tags the same way
	// (remote.<name>.pruneTags, fetch.pruneTags).
	prune, pruneTags int
	// dryRun reports what the fetch would do: the objects come, no ref
	// or FETCH_HEAD changes.
	dryRun bool
}

// tristate is a boolean option that may be unset: 1 given, -1 negated, 0
// neither.
func tristate(f *flags, name string) int {
	switch {
	case f.has(name):
		return 1
	case f.negated(name):
		return -1
	}
	return 0
}

// configured is a tristate option's value: the option if given, else the
// first of keys that is set, else false.
func (x *cli) configured(v int, keys ...string) bool {
	if v != 0 {
		return v > 0
	}
	for _, k := range keys {
		if b, ok := x.configBool(k); ok {
			return b
		}
	}
	return false
}

func cmdFetch(x *cli, args []string) int {
	f, err := parseOpts(args, fetchOpts, fetchUsage, false, "")
	if err != nil {
		return x.fail(err)
	}
	if f.has("filter") {
		// git's fetch --filter makes the repository a partial clone.
		return x.refuseFilter(f)
	}
	if o := f.refuse("all", "depth", "unshallow"); o != "" {
		return x.notSupported("fetch", o)
	}
	branch, _ := x.head()
	name := x.remoteOf(branch)
	if len(f.pos) > 0 {
		name = f.pos[0]
	}
	if len(f.pos) > 1 {
		return x.fatal("nook's git fetches a remote's configured refspecs only (no refspec arguments)")
	}
	_, code := x.fetchRemote(name, fetchFlags{quiet: f.has("quiet"), tags: f.has("tags"), force: f.has("force"), prune: tristate(f, "prune"),
		pruneTags: tristate(f, "prune-tags"), dryRun: f.has("dry-run")})
	return code
}

// checkFilterSpec checks a --filter value as git parses it, with git's
// errors for the ones it does not take.
func checkFilterSpec(spec string) error {
	kind, arg, _ := strings.Cut(spec, "=")
	switch {
	case spec == "blob:none", strings.HasPrefix(spec, "sparse:oid="), strings.HasPrefix(spec, "combine:"):
		return nil
	case kind == "blob:limit":
		if _, ok := parseULong(arg); ok {
			return nil
		}
	case strings.HasPrefix(spec, "tree:"):
		if _, ok := parseULong(spec[len("tree:"):]); ok {
			return nil
		}
		return fatalf("expected 'tree:<depth>'")
	case strings.HasPrefix(spec, "sparse:path="):
		return fatalf("sparse:path filters support has been dropped")
	case kind == "object:type":
		switch arg {
		case "blob", "tree", "commit", "tag":
			return nil
		}
		return fatalf("'%s' for 'object:type=<type>' is not a valid object type", arg)
	}
	return fatalf("invalid filter-spec '%s'", spec)
}

// parseULong is git's git_parse_ulong: digits with an optional k, m or g.
func parseULong(s string) (uint64, bool) {
	mult := uint64(1)
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 'k', 'K':
			mult, s = 1<<10, s[:n-1]
		case 'm', 'M':
			mult, s = 1<<20, s[:n-1]
		case 'g', 'G':
			mult, s = 1<<30, s[:n-1]
		}
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v > ^uint64(0)/mult {
		return 0, false
	}
	return v * mult, true
}

// refuseFilter is fetch --filter: a filter git would take is refused
// with the reason, one it would not gets git's error.
func (x *cli) refuseFilter(f *flags) int {
	specs := f.all("filter")
	for _, spec := range specs {
		if err := checkFilterSpec(spec); err != nil {
			return x.fail(err)
		}
	}
	return x.fatal("--filter=%s: nook's git makes a repository a partial clone only when it clones it (clone --filter=blob:none); "+
		"git's fetch --filter would turn this one into one", specs[len(specs)-1])
}

// configBool reads a boolean config value as git does; ok is false when
// the key is not set.
func (x *cli) configBool(key string) (v, ok bool) {
	switch strings.ToLower(x.cfg(key)) {
	case "":
		return false, false
	case "true", "yes", "on", "1":
		return true, true
	}
	return false, true
}

// fetchRemote fetches a configured remote's refspecs and prints git's
// report; it returns the remote's URL.
func (x *cli) fetchRemote(name string, ff fetchFlags) (string, int) {
	rc, err := x.remoteConfig(name)
	if err != nil {
		return "", x.fail(err)
	}
	if rc == nil {
		return "", x.fail(noRemote(name))
	}
	u := rc.URLs[0]
	ctx, cancel, err := x.netFor("fetch", u)
	if err != nil {
		return "", x.fail(err)
	}
	defer cancel()
	prune := x.configured(ff.prune, "remote."+name+".prune", "fetch.prune")
	if x.configured(ff.pruneTags, "remote."+name+".prunetags", "fetch.prunetags") {
		// git appends refs/tags/*:refs/tags/* to the remote's refspecs:
		// every tag is fetched, and pruned with the branches.
		rc = &config.RemoteConfig{Name: rc.Name, URLs: rc.URLs, Fetch: append(slices.Clone(rc.Fetch), tagRefSpec)}
	}
	// A dry run fetches the objects into the repository and the refs into
	// a copy of its refs, as git's does without committing its ref
	// updates.
	st := transferStorage(x.r.Storer)
	if ff.dryRun {
		overlay, err := newRefOverlay(st)
		if err != nil {
			return "", x.fail(err)
		}
		st = overlay
	}
	var pruned []fetchLine
	if prune {
		// As git does, before fetching: the remote-tracking refs whose
		// branch the remote no longer has.
		if pruned, err = staleRefs(ctx, st, x.r.wt, rc, true); err != nil {
			return "", x.fail(transportErr(u, err))
		}
	}
	var firstPass []string
	follow := ff.dryRun && !ff.tags && !slices.Contains(rc.Fetch, tagRefSpec)
	if follow {
		if firstPass, err = x.followedFirst(ctx, rc); err != nil {
			return "", x.fail(transportErr(u, err))
		}
	}
	// A partial clone's fetches from its promisor ask for the clone's
	// filter, and the packs they bring are promisor packs.
	promisor := strings.EqualFold(x.cfg("remote."+name+".promisor"), "true")
	var packs map[string]bool
	if promisor {
		if spec := x.cfg("remote." + name + ".partialclonefilter"); spec != "" {
			ctx, _ = withFilter(ctx, spec)
		}
		packs = packNames(x.r.wt.dot())
	}
	before := refState(st)
	opts := &gogit.FetchOptions{RemoteName: name, Force: ff.force, RefSpecs: rc.Fetch}
	if ff.tags {
		opts.Tags = gogit.AllTags
	}
	err = gogit.NewRemote(st, rc).FetchContext(ctx, opts)
	if err != nil && !errors.Is(err, gogit.NoErrAlreadyUpToDate) {
		if isTransport(err) {
			return "", x.fail(transportErr(u, err))
		}
		return "", x.fatal("%s", errText(err))
	}
	if promisor {
		if err := markPromisor(x.r.wt.dot(), packs); err != nil {
			return "", x.fail(err)
		}
	}
	after := refState(st)
	if !ff.quiet {
		// git's column is 10 wide for the pruned refs: it is widened
		// only once the fetch's own refs are known.
		shown := x.printRefLines(u, pruned, false)
		lines := x.refLines(before, after, name)
		if follow {
			// git's dry run reports the followed tags of its first pass
			// (with the branches), then, as it did not write them, every
			// followed tag again when it backfills the tags.
			var first, tags []fetchLine
			for _, l := range lines {
				switch {
				case l.summary != "[new tag]":
					first = append(first, l)
				case slices.Contains(firstPass, l.from):
					first = append(first, l)
					tags = append(tags, l)
				default:
					tags = append(tags, l)
				}
			}
			lines = append(first, tags...)
		}
		x.printRefLines(u, lines, shown)
	}
	if !ff.dryRun {
		x.writeFetchHead(rc, u, after)
	}
	return u, 0
}

// tagRefSpec is the refspec --prune-tags adds.
const tagRefSpec = config.RefSpec("refs/tags/*:refs/tags/*")

// followedFirst names the tags a fetch follows in its first pass, as
// git's find_non_local_tags does before it fetches: tags the repository
// lacks whose object it has or the fetch's refspecs bring.
func (x *cli) followedFirst(ctx context.Context, rc *config.RemoteConfig) ([]string, error) {
	adv, err := gogit.NewRemote(memory.NewStorage(), &config.RemoteConfig{Name: rc.Name, URLs: rc.URLs}).
		ListContext(ctx, &gogit.ListOptions{PeelingOption: gogit.AppendPeeled})
	if err != nil && !errors.Is(err, transport.ErrEmptyRemoteRepository) {
		return nil, err
	}
	wanted := map[plumbing.Hash]bool{}
	peeled := map[string]plumbing.Hash{}
	for _, r := range adv {
		if r.Type() != plumbing.HashReference {
			continue
		}
		name := r.Name().String()
		if strings.HasSuffix(name, "^{}") {
			peeled[strings.TrimSuffix(name, "^{}")] = r.Hash()
			continue
		}
		for _, spec := range rc.Fetch {
			if spec.Match(r.Name()) {
				wanted[r.Hash()] = true
			}
		}
		if _, ok := peeled[name]; !ok {
			peeled[name] = r.Hash()
		}
	}
	var out []string
	for name, h := range peeled {
		if !strings.HasPrefix(name, "refs/tags/") {
			continue
		}
		if _, err := x.r.Storer.Reference(plumbing.ReferenceName(name)); err == nil {
			continue
		}
		if wanted[h] || x.hasObject(h) {
			out = append(out, strings.TrimPrefix(name, "refs/tags/"))
		}
	}
	return out, nil
}

// refOverlay is a repository's storage with its refs copied into memory:
// what is written to it leaves the repository's objects changed and its
// refs as they were.
type refOverlay struct {
	storage.Storer
	refs memory.ReferenceStorage
}

// newRefOverlay copies st's refs into an overlay over st.
func newRefOverlay(st storage.Storer) (*refOverlay, error) {
	o := &refOverlay{Storer: st, refs: memory.ReferenceStorage{}}
	it, err := st.IterReferences()
	if err != nil {
		return nil, err
	}
	err = it.ForEach(func(r *plumbing.Reference) error { return o.refs.SetReference(r) })
	return o, err
}

// SetReference sets a ref in the overlay.
func (o *refOverlay) SetReference(r *plumbing.Reference) error { return o.refs.SetReference(r) }

// CheckAndSetReference sets a ref in the overlay if old is current.
func (o *refOverlay) CheckAndSetReference(r, old *plumbing.Reference) error {
	return o.refs.CheckAndSetReference(r, old)
}

// Reference reads a ref of the overlay.
func (o *refOverlay) Reference(n plumbing.ReferenceName) (*plumbing.Reference, error) {
	return o.refs.Reference(n)
}

// IterReferences lists the overlay's refs.
func (o *refOverlay) IterReferences() (storer.ReferenceIter, error) { return o.refs.IterReferences() }

// RemoveReference removes a ref from the overlay.
func (o *refOverlay) RemoveReference(n plumbing.ReferenceName) error {
	return o.refs.RemoveReference(n)
}

// CountLooseRefs counts the overlay's refs.
func (o *refOverlay) CountLooseRefs() (int, error) { return o.refs.CountLooseRefs() }

// PackRefs does nothing: the overlay has no files.
func (o *refOverlay) PackRefs() error { return nil }

const remotePruneUsage = "usage: git remote prune [<options>] <name>\n\n" +
	"    -n, --dry-run         dry run\n\n"

// remotePrune is git remote prune [-n] <name>...: the remote-tracking refs
// whose branch each remote no longer has are deleted (or, with -n,
// listed), as fetch --prune deletes them.
func (x *cli) remotePrune(args []string) int {
	f, err := parseOpts(args, []opt{{short: 'n', long: "dry-run"}}, remotePruneUsage, false, "")
	if err != nil {
		return x.fail(err)
	}
	if len(f.pos) == 0 {
		x.eprintf("%s", remotePruneUsage)
		return 129
	}
	for _, name := range f.pos {
		rc, err := x.remoteConfig(name)
		if err != nil {
			return x.fail(err)
		}
		if rc == nil {
			return x.fail(noRemote(name))
		}
		ctx, cancel, err := x.netFor("remote prune", rc.URLs[0])
		if err != nil {
			return x.fail(err)
		}
		lines, err := staleRefs(ctx, x.r.Storer, x.r.wt, rc, !f.has("dry-run"))
		cancel()
		if err != nil {
			return x.fail(transportErr(rc.URLs[0], err))
		}
		if len(lines) > 0 {
			x.printf("Pruning %s\nURL: %s\n", name, rc.URLs[0])
		}
		for _, l := range lines {
			if f.has("dry-run") {
				x.printf(" * [would prune] %s\n", l.to)
			} else {
				x.printf(" * [pruned] %s\n", l.to)
			}
		}
	}
	return 0
}

// staleRefs finds the refs of st that a remote's fetch refspecs map the
// remote's refs to (refs/remotes/origin/*) whose source the remote no
// longer has, and deletes them (and their reflogs in wt) when remove is
// set. Symbolic refs (origin/HEAD) are kept, as git keeps them.
func staleRefs(ctx context.Context, st storer.ReferenceStorer, wt *billyFS, rc *config.RemoteConfig, remove bool) ([]fetchLine, error) {
	adv, err := gogit.NewRemote(memory.NewStorage(), &config.RemoteConfig{Name: rc.Name, URLs: rc.URLs}).ListContext(ctx, &gogit.ListOptions{})
	if err != nil && !errors.Is(err, transport.ErrEmptyRemoteRepository) {
		return nil, err
	}
	remote := map[plumbing.ReferenceName]bool{}
	for _, r := range adv {
		remote[r.Name()] = true
	}
	var lines []fetchLine
	for _, r := range refsUnder(st, "refs/") {
		for _, spec := range rc.Fetch {
			// Reversed without its "+", which go-git's Reverse would
			// carry into the destination.
			rev := config.RefSpec(strings.TrimPrefix(string(spec), "+")).Reverse()
			if !rev.Match(r.Name()) || remote[rev.Dst(r.Name())] {
				continue
			}
			if remove {
				if err := st.RemoveReference(r.Name()); err != nil {
					return nil, err
				}
				if _, overlay := st.(*refOverlay); !overlay {
					wt.removeRaw(".git/logs/" + r.Name().String())
				}
			}
			lines = append(lines, fetchLine{flag: '-', summary: "[deleted]", from: "(none)", to: shortRefName(r.Name().String())})
			break
		}
	}
	return lines, nil
}

// writeFetchHead records what the fetch brought as .git/FETCH_HEAD: the
// current branch's upstream for merge, the other branches not.
func (x *cli) writeFetchHead(rc *config.RemoteConfig, u string, refs map[string]plumbing.Hash) {
	branch, _ := x.head()
	merge := strings.TrimPrefix(x.cfg("branch."+branch+".merge"), "refs/heads/")
	var first, rest []string
	var names []string
	pre := "refs/remotes/" + rc.Name + "/"
	for n := range refs {
		if strings.HasPrefix(n, pre) && n != pre+"HEAD" {
			names = append(names, strings.TrimPrefix(n, pre))
		}
	}
	sort.Strings(names)
	for _, b := range names {
		h := refs[pre+b]
		if b == merge && x.cfg("branch."+branch+".remote") == rc.Name {
			first = append(first, fmt.Sprintf("%s\t\tbranch '%s' of %s\n", h, b, displayURL(u)))
		} else {
			rest = append(rest, fmt.Sprintf("%s\tnot-for-merge\tbranch '%s' of %s\n", h, b, displayURL(u)))
		}
	}
	x.r.wt.writeRaw(".git/FETCH_HEAD", []byte(strings.Join(append(first, rest...), "")))
}

const pullUsage = "usage: git pull [<options>] [<repository> [<refspec>...]]\n"

var pullOpts = []opt{
	{short: 'q', long: "quiet"}, {short: 'v', long: "verbose"}, {short: 'r', long: "rebase", arg: argOptional},
	{long: "ff"}, {long: "ff-only"}, {long: "commit"}, {long: "edit"}, {long: "stat"}, {short: 'n', key: "no-stat"},
	{long: "autostash"}, {long: "all"}, {long: "tags"}, {long: "depth", arg: argRequired}, {long: "squash"},
	{short: 'p', long: "prune"},
}

func cmdPull(x *cli, args []string) int {
	f, err := parseOpts(args, pullOpts, pullUsage, false, "")
	if err != nil {
		return x.fail(err)
	}
	if o := f.refuse("autostash", "all", "depth", "squash"); o != "" {
		return x.notSupported("pull", o)
	}
	branch, head := x.head()
	if x.mergeInProgress() {
		x.eprintf("error: Pulling is not possible because you have unmerged files.\nhint: Fix them up in the work tree, and then use 'git add/rm <file>'\nhint: as appropriate to mark resolution and make a commit.\nfatal: Exiting because of an unresolved conflict.\n")
		return 128
	}
	name := x.remoteOf(branch)
	merge := strings.TrimPrefix(x.cfg("branch."+branch+".merge"), "refs/heads/")
	explicit := false
	if len(f.pos) > 0 {
		name = f.pos[0]
		merge = ""
		if len(f.pos) > 1 {
			merge, explicit = strings.TrimPrefix(f.pos[1], "refs/heads/"), true
		}
		if len(f.pos) > 2 {
			return x.fatal("nook's git pulls one branch at a time")
		}
	}
	u, code := x.fetchRemote(name, fetchFlags{quiet: f.has("quiet"), tags: f.has("tags"), prune: tristate(f, "prune")})
	if code != 0 {
		return code
	}
	if merge == "" {
		if len(f.pos) > 0 {
			x.eprintf("You asked to pull from the remote '%s', but did not specify\na branch. Because this is not the default configured remote\nfor your current branch, you must specify a branch on the command line.\n", name)
			return 1
		}
		x.eprintf("%s", "There is no tracking information for the current branch.\n"+
			"Please specify which branch you want to merge with.\n"+
			"See git-pull(1) for details.\n\n    git pull <remote> <branch>\n\n"+
			"If you wish to set tracking information for this branch you can do so with:\n\n"+
			"    git branch --set-upstream-to="+name+"/<branch> "+branch+"\n\n")
		return 1
	}
	ref, err := x.r.Storer.Reference(plumbing.ReferenceName("refs/remotes/" + name + "/" + merge))
	if err != nil {
		return x.fatal("couldn't find remote ref %s", merge)
	}
	theirs := ref.Hash()
	if explicit && !f.has("quiet") {
		lines := x.err.String()
		if !strings.Contains(lines, "From ") {
			x.eprintf("From %s\n", displayURL(u))
		}
		x.eprintf(" * %-17s %-10s -> FETCH_HEAD\n", "branch", merge)
	}
	rebase := f.has("rebase") && f.str("rebase") != "false"
	if !f.has("rebase") && !f.negated("rebase") {
		rebase = x.cfg("pull.rebase") == "true"
	}
	if head.IsZero() {
		return x.fatal("nook's git cannot pull into an unborn branch")
	}
	if x.r.isAncestor(theirs, head) {
		if rebase {
			x.printf("Current branch %s is up to date.\n", branch)
			return 0
		}
		x.printf("Already up to date.\n")
		return 0
	}
	ff := x.r.isAncestor(head, theirs)
	if rebase {
		return cmdRebase(x, []string{theirs.String()})
	}
	ffOnly := f.has("ff-only") || x.cfg("pull.ff") == "only"
	if !ff && ffOnly {
		return x.fatal("Not possible to fast-forward, aborting.")
	}
	if !ff && !f.has("rebase") && !f.negated("rebase") && !f.has("ff") && !f.negated("ff") && x.cfg("pull.rebase") == "" && x.cfg("pull.ff") == "" {
		x.eprintf("hint: You have divergent branches and need to specify how to reconcile them.\n" +
			"hint: You can do so by running one of the following commands sometime before\n" +
			"hint: your next pull:\n" +
			"hint: \n" +
			"hint:   git config pull.rebase false  # merge\n" +
			"hint:   git config pull.rebase true   # rebase\n" +
			"hint:   git config pull.ff only       # fast-forward only\n" +
			"hint: \n" +
			"hint: You can replace \"git config\" with \"git config --global\" to set a default\n" +
			"hint: preference for all repositories. You can also pass --rebase, --no-rebase,\n" +
			"hint: or --ff-only on the command line to override the configured default per\n" +
			"hint: invocation.\n")
		return x.fatal("Need to specify how to reconcile divergent branches.")
	}
	margs := []string{"-m", "Merge branch '" + merge + "' of " + displayURL(u)}
	if f.has("quiet") {
		margs = append(margs, "-q")
	}
	if f.has("no-stat") {
		margs = append(margs, "--no-stat")
	}
	if f.negated("ff") {
		margs = append(margs, "--no-ff")
	}
	return cmdMerge(x, append(margs, theirs.String()))
}

const pushUsage = "usage: git push [<options>] [<repository> [<refspec>...]]\n"

var pushOpts = []opt{
	{short: 'q', long: "quiet"}, {short: 'v', long: "verbose"}, {short: 'f', long: "force"}, {short: 'u', long: "set-upstream"},
	{short: 'd', long: "delete"}, {long: "tags"}, {long: "all"}, {long: "dry-run", short: 'n'}, {long: "force-with-lease", arg: argOptional},
	{long: "porcelain"}, {long: "progress"}, {long: "mirror"}, {long: "follow-tags"},
}

// pushUpdate is one ref a push sends.
type pushUpdate struct {
	src, dst  string // src "" deletes dst; a commit's hash when it is no ref
	shown     string // the source as git's report names it (HEAD, main, main~1)
	local     plumbing.Hash
	old       plumbing.Hash
	force     bool
	rejected  string // "fetch first", "non-fast-forward", "stale info"
	upToDate  bool
	forcedMsg bool
	sym       bool // src is a symbolic ref (push --mirror of origin/HEAD)
}

func cmdPush(x *cli, args []string) int {
	f, err := parseOpts(args, pushOpts, pushUsage, false, "")
	if err != nil {
		return x.fail(err)
	}
	leases, err := x.parseLeases(f)
	if err != nil {
		return x.fail(err)
	}
	all, mirror := f.has("all"), f.has("mirror")
	if f.has("delete") && (f.has("tags") || all || mirror) {
		return x.fatal("options '--delete' and '--all/--mirror/--tags' cannot be used together")
	}
	if f.has("delete") && len(f.pos) < 2 {
		return x.fatal("--delete doesn't make sense without any refs")
	}
	for _, m := range []struct {
		on   bool
		name string
	}{{all, "--all"}, {mirror, "--mirror"}} {
		switch {
		case m.on && f.has("tags"):
			return x.fatal("options '%s' and '--tags' cannot be used together", m.name)
		case m.on && len(f.pos) >= 2:
			return x.fatal("%s can't be combined with refspecs", m.name)
		}
	}
	if all && mirror {
		return x.fatal("options '--all' and '--mirror' cannot be used together")
	}
	branch, _ := x.head()
	name := x.remoteOf(branch)
	if len(f.pos) > 0 {
		name = f.pos[0]
	}
	rc, err := x.remoteConfig(name)
	if err != nil {
		return x.fail(err)
	}
	if rc == nil {
		return x.fail(noRemote(name))
	}
	u := rc.URLs[0]
	specs := f.pos
	if len(specs) > 0 {
		specs = specs[1:]
	}
	var ups []*pushUpdate
	if f.has("tags") {
		// refs/tags/*, in the order of the local refs, after the
		// command line's refspecs (git matches explicit ones first).
		for _, r := range x.refs("refs/tags/") {
			ups = append(ups, &pushUpdate{force: f.has("force"), src: r.Name().String(), dst: r.Name().String(), local: r.Hash(), shown: shortRefName(r.Name().String())})
		}
	}
	switch {
	case all:
		// Every local branch to the branch of its name (refs/heads/*).
		for _, r := range x.refs("refs/heads/") {
			ups = append(ups, &pushUpdate{force: f.has("force"), src: r.Name().String(), dst: r.Name().String(), local: r.Hash(), shown: shortRefName(r.Name().String())})
		}
	case mirror:
		// Every local ref under refs/ (symbolic ones by their value),
		// forced (+refs/*:refs/*); the remote's others are deleted below.
		for _, r := range x.mirrorRefs() {
			ups = append(ups, &pushUpdate{force: true, src: r.ref.Name().String(), dst: r.ref.Name().String(), local: r.ref.Hash(),
				shown: shortRefName(r.ref.Name().String()), sym: r.sym})
		}
	}
	if len(specs) == 0 && !f.has("tags") && !all && !mirror {
		if branch == "" {
			return x.fatal("You are not currently on a branch.\nTo push the history leading to the current (detached HEAD)\nstate now, use\n\n    git push %s HEAD:<name-of-remote-branch>\n", name)
		}
		up := strings.TrimPrefix(x.cfg("branch."+branch+".merge"), "refs/heads/")
		if up == "" && !f.has("set-upstream") {
			x.eprintf("fatal: The current branch %s has no upstream branch.\n"+
				"To push the current branch and set the remote as upstream, use\n\n"+
				"    git push --set-upstream %s %s\n\n"+
				"To have this happen automatically for branches without a tracking\n"+
				"upstream, see 'push.autoSetupRemote' in 'git help config'.\n\n", branch, name, branch)
			return 128
		}
		if up == "" {
			up = branch
		}
		specs = []string{branch + ":" + up}
	}
	var explicit []*pushUpdate
	for _, s := range specs {
		p := &pushUpdate{force: f.has("force")}
		if strings.HasPrefix(s, "+") {
			p.force, s = true, s[1:]
		}
		src, dst, has := strings.Cut(s, ":")
		if f.has("delete") {
			src, dst, has = "", s, true
		}
		if !has {
			dst = src
		}
		if src != "" {
			ref, h, err := x.pushSource(src, branch)
			if err != nil {
				x.eprintf("error: %v\nerror: failed to push some refs to '%s'\n", err, u)
				return 1
			}
			p.src, p.local, p.shown = ref, h, src
			if strings.HasPrefix(ref, "refs/") && src != "HEAD" {
				p.shown = shortRefName(ref)
			}
		}
		if dst == "HEAD" {
			dst = branch
		}
		p.dst = dst
		explicit = append(explicit, p)
	}
	ups = append(explicit, ups...)
	ctx, cancel, err := x.netFor("push", u)
	if err != nil {
		return x.fail(err)
	}
	defer cancel()
	remote := gogit.NewRemote(transferStorage(x.r.Storer), rc)
	adv, err := remote.ListContext(ctx, &gogit.ListOptions{})
	if err != nil {
		if errors.Is(err, transport.ErrEmptyRemoteRepository) {
			adv = nil
		} else {
			return x.fail(transportErr(u, err))
		}
	}
	remoteRefs := map[string]plumbing.Hash{}
	for _, r := range adv {
		if r.Type() == plumbing.HashReference {
			remoteRefs[r.Name().String()] = r.Hash()
		}
	}
	if mirror {
		for _, r := range adv {
			name := r.Name().String()
			if r.Type() == plumbing.HashReference && strings.HasPrefix(name, "refs/") &&
				!slices.ContainsFunc(ups, func(p *pushUpdate) bool { return p.dst == name }) {
				ups = append(ups, &pushUpdate{force: true, dst: name})
			}
		}
	}
	// A destination that is not a full name is the remote ref it names
	// (git's rules: refs/heads/ and refs/tags/ before the others), or,
	// when the remote has none, a new ref of the source's kind.
	for _, p := range ups {
		if strings.HasPrefix(p.dst, "refs/") {
			continue
		}
		full, err := matchRemoteRef(p.dst, remoteRefs)
		if err != nil {
			x.eprintf("error: %v\nerror: failed to push some refs to '%s'\n", err, u)
			return 1
		}
		switch {
		case full != "":
			p.dst = full
		case p.src == "":
			x.eprintf("error: unable to delete '%s': remote ref does not exist\nerror: failed to push some refs to '%s'\n", p.dst, u)
			return 1
		case strings.HasPrefix(p.src, "refs/tags/"):
			p.dst = "refs/tags/" + p.dst
		case strings.HasPrefix(p.src, "refs/heads/"):
			p.dst = "refs/heads/" + p.dst
		default:
			x.eprintf("error: The destination you provided is not a full refname (i.e.,\n"+
				"starting with \"refs/\"). We tried to guess what you meant by:\n\n"+
				"- Looking for a ref that matches '%s' on the remote side.\n"+
				"- Checking if the <src> being pushed ('%s')\n"+
				"  is a ref in \"refs/{heads,tags}/\". If so we add a corresponding\n"+
				"  refs/{heads,tags}/ prefix on the remote side.\n\n"+
				"Neither worked, so we gave up. You must fully qualify the ref.\n"+
				"hint: The <src> part of the refspec is a commit object.\n"+
				"hint: Did you mean to create a new branch by pushing to\n"+
				"hint: '%s:refs/heads/%s'?\n"+
				"error: failed to push some refs to '%s'\n", p.dst, p.shown, p.shown, p.dst, u)
			return 1
		}
	}
	if f.has("follow-tags") || !f.negated("follow-tags") && x.cfg("push.followtags") == "true" {
		ups = append(ups, x.followTags(ups, remoteRefs, f.has("force"))...)
	}
	var send []config.RefSpec
	rejected, changed := false, false
	for _, p := range ups {
		old, had := remoteRefs[p.dst]
		p.old = old
		if p.src == "" && !had {
			x.eprintf("error: unable to delete '%s': remote ref does not exist\nerror: failed to push some refs to '%s'\n", p.dst, u)
			return 1
		}
		if p.src != "" && had && old == p.local {
			p.upToDate = true
			continue
		}
		// git's set_ref_status_for_push: a lease that does not hold
		// rejects, one that holds forces; without one, the
		// fast-forward rules.
		force, reason := p.force, ""
		if expect, ok := x.leaseFor(leases, rc, p.dst); ok {
			if expect != old {
				reason = "stale info"
			} else {
				force = true
			}
		}
		if reason == "" && p.src != "" && had {
			switch {
			case strings.HasPrefix(p.dst, "refs/tags/"):
				reason = "already exists"
			case !x.hasObject(old):
				reason = "fetch first"
			case !x.isCommit(old) || !x.isCommit(p.local):
				reason = "needs force"
			case !x.r.isAncestor(old, p.local):
				reason = "non-fast-forward"
			}
		}
		if !force && reason != "" {
			p.rejected = reason
			rejected = true
			continue
		}
		src := p.src
		if p.sym {
			src = p.local.String() // go-git pushes no symbolic ref
		}
		switch {
		case p.src == "":
			send = append(send, config.RefSpec(":"+p.dst))
		case force:
			p.forcedMsg = reason != ""
			send = append(send, config.RefSpec("+"+src+":"+p.dst))
		default:
			send = append(send, config.RefSpec(src+":"+p.dst))
		}
		changed = true
	}
	dryRun := f.has("dry-run")
	if len(send) > 0 && !dryRun {
		err := remote.PushContext(ctx, &gogit.PushOptions{RemoteName: name, RefSpecs: send})
		if err != nil && !errors.Is(err, gogit.NoErrAlreadyUpToDate) && x.pushLanded(ctx, remote, ups) {
			// A push repeated after a crash can race the first one's
			// update on the server (its ref lock); the refs are where
			// this push puts them, so it is done.
			err = nil
		}
		if err != nil && !errors.Is(err, gogit.NoErrAlreadyUpToDate) {
			if isTransport(err) {
				return x.fail(transportErr(u, err))
			}
			return x.fatal("%s", errText(err))
		}
	}
	// The remote-tracking refs follow what the remote now has (up to
	// date ones too: a push repeated after a crash finds its refs there).
	for _, p := range ups {
		if p.rejected != "" || !strings.HasPrefix(p.dst, "refs/heads/") || dryRun {
			continue
		}
		track := plumbing.ReferenceName("refs/remotes/" + name + "/" + strings.TrimPrefix(p.dst, "refs/heads/"))
		if p.src == "" {
			x.r.Storer.RemoveReference(track)
		} else {
			x.r.Storer.SetReference(plumbing.NewHashReference(track, p.local))
		}
	}
	porcelain := f.has("porcelain")
	if !changed && !rejected && !porcelain {
		if !f.has("quiet") {
			x.eprintf("Everything up-to-date\n")
		}
		return x.setUpstreams(f, name, ups, 0)
	}
	x.pushReport(u, ups, porcelain, f.has("quiet"))
	if rejected {
		x.eprintf("error: failed to push some refs to '%s'\n", u)
		// One hint, for the first of git's reasons (push.c's order): the
		// current branch behind, another branch behind, a tag that
		// exists, work the remote has that this repository has not.
		reasons := map[string]bool{}
		for _, p := range ups {
			r := p.rejected
			if r == "non-fast-forward" && (branch == "" || p.dst != "refs/heads/"+branch) {
				r = "non-fast-forward other"
			}
			reasons[r] = true
		}
		switch {
		case reasons["non-fast-forward"]:
			x.eprintf("hint: Updates were rejected because the tip of your current branch is behind\n" +
				"hint: its remote counterpart. Integrate the remote changes (e.g.\n" +
				"hint: 'git pull ...') before pushing again.\n" +
				"hint: See the 'Note about fast-forwards' in 'git push --help' for details.\n")
		case reasons["non-fast-forward other"]:
			x.eprintf("hint: Updates were rejected because a pushed branch tip is behind its remote\n" +
				"hint: counterpart. Check out this branch and integrate the remote changes\n" +
				"hint: (e.g. 'git pull ...') before pushing again.\n" +
				"hint: See the 'Note about fast-forwards' in 'git push --help' for details.\n")
		case reasons["already exists"]:
			x.eprintf("hint: Updates were rejected because the tag already exists in the remote.\n")
		case reasons["fetch first"]:
			x.eprintf("hint: Updates were rejected because the remote contains work that you do\n" +
				"hint: not have locally. This is usually caused by another repository pushing\n" +
				"hint: to the same ref. You may want to first integrate the remote changes\n" +
				"hint: (e.g., 'git pull ...') before pushing again.\n" +
				"hint: See the 'Note about fast-forwards' in 'git push --help' for details.\n")
		}
		return 1
	}
	return x.setUpstreams(f, name, ups, 0)
}

// setUpstreams is push -u: each pushed branch tracks its remote branch.
func (x *cli) setUpstreams(f *flags, remote string, ups []*pushUpdate, code int) int {
	if !f.has("set-upstream") {
		return code
	}
	cfg, err := x.r.Config()
	if err != nil {
		return x.fail(err)
	}
	for _, p := range ups {
		if p.rejected != "" || !strings.HasPrefix(p.src, "refs/heads/") || !strings.HasPrefix(p.dst, "refs/heads/") {
			continue
		}
		b := strings.TrimPrefix(p.src, "refs/heads/")
		if f.has("dry-run") {
			x.printf("Would set upstream of '%s' to '%s' of '%s'\n", b, strings.TrimPrefix(p.dst, "refs/heads/"), remote)
			continue
		}
		cfg.Branches[b] = &config.Branch{Name: b, Remote: remote, Merge: plumbing.ReferenceName(p.dst)}
		x.printf("branch '%s' set up to track '%s/%s'.\n", b, remote, strings.TrimPrefix(p.dst, "refs/heads/"))
	}
	if f.has("dry-run") {
		return code
	}
	if err := x.r.SetConfig(cfg); err != nil {
		return x.fail(err)
	}
	return code
}

const lsRemoteUsage = "usage: git ls-remote [--heads] [--tags] [--refs] [--upload-pack=<exec>]\n" +
	"                     [-q | --quiet] [--exit-code] [--get-url]\n" +
	"                     [--symref] [<repository> [<refs>...]]\n"

var lsRemoteOpts = []opt{
	{short: 'q', long: "quiet"}, {short: 'h', long: "heads"}, {short: 't', long: "tags"}, {long: "refs"},
	{long: "get-url"}, {long: "exit-code"}, {long: "symref"},
}

// cmdLsRemote lists a remote's refs, in or out of a repository.
func cmdLsRemote(x *cli, args []string) int {
	f, err := parseOpts(args, lsRemoteOpts, lsRemoteUsage, false, "")
	if err != nil {
		return x.fail(err)
	}
	if o := f.refuse("symref"); o != "" {
		return x.notSupported("ls-remote", o)
	}
	if err := x.openRepo(); err != nil {
		x.r = nil
	}
	u, named := "", len(f.pos) > 0
	var pats []string
	if named {
		u, pats = f.pos[0], f.pos[1:]
	}
	if !isURL(u) {
		name := u
		if name == "" {
			if x.r == nil {
				return x.fatal("No remote configured to list refs from.")
			}
			b, _ := x.head()
			name = x.remoteOf(b)
		}
		if x.r == nil {
			return x.fail(noRemote(name))
		}
		rc, err := x.remoteConfig(name)
		if err != nil {
			return x.fail(err)
		}
		if rc == nil {
			return x.fail(noRemote(name))
		}
		u = rc.URLs[0]
	}
	if f.has("get-url") {
		x.printf("%s\n", u)
		return 0
	}
	ctx, cancel, err := x.netFor("ls-remote", u)
	if err != nil {
		return x.fail(err)
	}
	defer cancel()
	refs, err := gogit.NewRemote(memory.NewStorage(), &config.RemoteConfig{Name: "origin", URLs: []string{u}}).ListContext(ctx, &gogit.ListOptions{PeelingOption: gogit.AppendPeeled})
	if err != nil && !errors.Is(err, transport.ErrEmptyRemoteRepository) {
		return x.fail(transportErr(u, err))
	}
	if !named && !f.has("quiet") {
		x.eprintf("From %s\n", u)
	}
	byName := map[string]plumbing.Hash{}
	var names []string
	for _, r := range refs {
		h := r.Hash()
		if r.Type() == plumbing.SymbolicReference {
			continue
		}
		byName[r.Name().String()] = h
		names = append(names, r.Name().String())
	}
	for _, r := range refs {
		if r.Type() == plumbing.SymbolicReference && r.Name() == plumbing.HEAD {
			if h, ok := byName[r.Target().String()]; ok {
				byName["HEAD"] = h
				names = append(names, "HEAD")
			}
		}
	}
	sort.Slice(names, func(i, j int) bool {
		if (names[i] == "HEAD") != (names[j] == "HEAD") {
			return names[i] == "HEAD"
		}
		return names[i] < names[j]
	})
	n := 0
	for _, name := range names {
		if f.has("heads") || f.has("tags") {
			ok := (f.has("heads") && strings.HasPrefix(name, "refs/heads/")) || (f.has("tags") && strings.HasPrefix(name, "refs/tags/"))
			if !ok {
				continue
			}
		}
		if f.has("refs") && strings.HasSuffix(name, "^{}") {
			continue
		}
		if f.has("refs") && name == "HEAD" {
			continue
		}
		if len(pats) > 0 && !tailMatch(pats, name) {
			continue
		}
		n++
		if !f.has("quiet") {
			x.printf("%s\t%s\n", byName[name], name)
		}
	}
	if n == 0 && f.has("exit-code") {
		return 2
	}
	return 0
}

// tailMatch is ls-remote's pattern test: a pattern matches the end of a
// ref name at a "/" boundary.
func tailMatch(pats []string, name string) bool {
	for _, p := range pats {
		if name == p || strings.HasSuffix(name, "/"+p) {
			return true
		}
		if ok, _ := path.Match("*/"+p, name); ok || func() bool { ok, _ := path.Match(p, name); return ok }() {
			return true
		}
	}
	return false
}

const remoteUsage = "usage: git remote [-v | --verbose]\n" +
	"   or: git remote add [-t <branch>] [-m <master>] [-f] [--tags | --no-tags] [--mirror=<fetch|push>] <name> <url>\n" +
	"   or: git remote rename [--[no-]progress] <old> <new>\n" +
	"   or: git remote remove <name>\n" +
	"   or: git remote set-head <name> (-a | --auto | -d | --delete | <branch>)\n" +
	"   or: git remote [-v | --verbose] show [-n] <name>\n" +
	"   or: git remote prune [-n | --dry-run] <name>\n" +
	"   or: git remote [-v | --verbose] update [-p | --prune] [(<group> | <remote>)...]\n" +
	"   or: git remote set-branches [--add] <name> <branch>...\n" +
	"   or: git remote get-url [--push] [--all] <name>\n" +
	"   or: git remote set-url [--push] <name> <newurl> [<oldurl>]\n" +
	"   or: git remote set-url --add <name> <newurl>\n" +
	"   or: git remote set-url --delete <name> <url>\n" +
	"\n" +
	"    -v, --verbose         be verbose; must be placed before a subcommand\n" +
	"\n"

// cmdRemote manages the configured remotes.
func cmdRemote(x *cli, args []string) int {
	verbose := false
	for len(args) > 0 && (args[0] == "-v" || args[0] == "--verbose") {
		verbose, args = true, args[1:]
	}
	cfg, err := x.r.Config()
	if err != nil {
		return x.fail(err)
	}
	if len(args) == 0 {
		names := make([]string, 0, len(cfg.Remotes))
		for n := range cfg.Remotes {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if !verbose {
				x.printf("%s\n", n)
				continue
			}
			rc := cfg.Remotes[n]
			for _, u := range rc.URLs {
				x.printf("%s\t%s (fetch)\n", n, u)
			}
			for _, u := range rc.URLs {
				x.printf("%s\t%s (push)\n", n, u)
			}
		}
		return 0
	}
	sub, rest := args[0], args[1:]
	usage := func(u string) int {
		x.eprintf("%s", u)
		return 129
	}
	validName := func(n string) bool {
		return n != "" && !strings.ContainsAny(n, " ~^:?*[\\") && !strings.HasPrefix(n, "-") && !strings.Contains(n, "..")
	}
	switch sub {
	case "add":
		if len(rest) != 2 {
			return usage("usage: git remote add [<options>] <name> <url>\n\n" +
				"    -f, --fetch           fetch the remote branches\n" +
				"    --tags                import all tags and associated objects when fetching\n" +
				"                          or do not fetch any tag at all (--no-tags)\n" +
				"    -t, --track <branch>  branch(es) to track\n" +
				"    -m, --master <branch>\n" +
				"                          master branch\n" +
				"    --mirror[=(push|fetch)]\n" +
				"                          set up remote as a mirror to push to or fetch from\n\n")
		}
		n, u := rest[0], rest[1]
		if _, ok := cfg.Remotes[n]; ok {
			x.eprintf("error: remote %s already exists.\n", n)
			return 3
		}
		if !validName(n) {
			return x.fatal("'%s' is not a valid remote name", n)
		}
		if strings.Contains(u, "@") && isURL(u) {
			if pu, err := parseCredURL(u); err == nil && pu {
				return x.fatal("credentials in a URL are not accepted by nook's git; the embedder supplies them")
			}
		}
		cfg.Remotes[n] = &config.RemoteConfig{Name: n, URLs: []string{u},
			Fetch: []config.RefSpec{config.RefSpec("+refs/heads/*:refs/remotes/" + n + "/*")}}
	case "remove", "rm":
		if len(rest) != 1 {
			return usage("usage: git remote remove <name>\n\n")
		}
		n := rest[0]
		if _, ok := cfg.Remotes[n]; !ok {
			x.eprintf("error: No such remote: '%s'\n", n)
			return 2
		}
		delete(cfg.Remotes, n)
		for _, b := range cfg.Branches {
			if b.Remote == n {
				b.Remote, b.Merge = "", ""
			}
		}
		for bn, b := range cfg.Branches {
			if b.Remote == "" && b.Merge == "" && b.Rebase == "" && b.Description == "" {
				delete(cfg.Branches, bn)
				cfg.Raw.RemoveSubsection("branch", bn)
			}
		}
		cfg.Raw.RemoveSubsection("remote", n)
		x.moveRemoteRefs(n, "")
	case "rename":
		if len(rest) != 2 {
			return usage("usage: git remote rename [--[no-]progress] <old> <new>\n\n    --[no-]progress       force progress reporting\n\n")
		}
		old, n := rest[0], rest[1]
		rc, ok := cfg.Remotes[old]
		if !ok {
			x.eprintf("error: No such remote: '%s'\n", old)
			return 2
		}
		if _, ok := cfg.Remotes[n]; ok {
			x.eprintf("error: remote %s already exists.\n", n)
			return 3
		}
		if !validName(n) {
			return x.fatal("'%s' is not a valid remote name", n)
		}
		delete(cfg.Remotes, old)
		cfg.Raw.RemoveSubsection("remote", old)
		rc.Name = n
		for i, s := range rc.Fetch {
			rc.Fetch[i] = config.RefSpec(strings.Replace(string(s), ":refs/remotes/"+old+"/", ":refs/remotes/"+n+"/", 1))
		}
		cfg.Remotes[n] = rc
		for _, b := range cfg.Branches {
			if b.Remote == old {
				b.Remote = n
			}
		}
		x.moveRemoteRefs(old, n)
	case "get-url":
		push, all := false, false
		for len(rest) > 0 && strings.HasPrefix(rest[0], "--") {
			push, all = push || rest[0] == "--push", all || rest[0] == "--all"
			rest = rest[1:]
		}
		if len(rest) != 1 {
			return usage("usage: git remote get-url [--push] [--all] <name>\n\n" +
				"    --push                query push URLs rather than fetch URLs\n" +
				"    --all                 return all URLs\n\n")
		}
		rc, ok := cfg.Remotes[rest[0]]
		if !ok {
			x.eprintf("error: No such remote '%s'\n", rest[0])
			return 2
		}
		for i, u := range rc.URLs {
			if i == 0 || all {
				x.printf("%s\n", u)
			}
		}
		return 0
	case "set-url":
		if len(rest) > 0 && strings.HasPrefix(rest[0], "--") {
			return x.notSupported("remote set-url", strings.TrimPrefix(rest[0], "--"))
		}
		if len(rest) != 2 {
			return usage("usage: git remote set-url [--push] <name> <newurl> [<oldurl>]\n" +
				"   or: git remote set-url --add <name> <newurl>\n" +
				"   or: git remote set-url --delete <name> <url>\n\n" +
				"    --push                manipulate push URLs\n" +
				"    --add                 add URL\n" +
				"    --delete              delete URLs\n\n")
		}
		rc, ok := cfg.Remotes[rest[0]]
		if !ok {
			x.eprintf("error: No such remote '%s'\n", rest[0])
			return 2
		}
		if pu, err := parseCredURL(rest[1]); err == nil && pu {
			return x.fatal("credentials in a URL are not accepted by nook's git; the embedder supplies them")
		}
		rc.URLs = []string{rest[1]}
	case "prune":
		return x.remotePrune(rest)
	case "show", "update", "set-head", "set-branches":
		return x.fatal("'git remote %s' is not supported by nook's git", sub)
	default:
		x.eprintf("error: unknown subcommand: `%s'\n%s", sub, remoteUsage)
		return 129
	}
	if err := x.r.SetConfig(cfg); err != nil {
		return x.fail(err)
	}
	return 0
}

// moveRemoteRefs renames refs/remotes/<old>/* to <new> (deletes them when
// new is "").
func (x *cli) moveRemoteRefs(old, n string) {
	pre := "refs/remotes/" + old + "/"
	it, err := x.r.Storer.IterReferences()
	if err != nil {
		return
	}
	var refs []*plumbing.Reference
	it.ForEach(func(r *plumbing.Reference) error {
		if strings.HasPrefix(r.Name().String(), pre) {
			refs = append(refs, r)
		}
		return nil
	})
	for _, r := range refs {
		x.r.Storer.RemoveReference(r.Name())
		if n == "" {
			continue
		}
		name := plumbing.ReferenceName("refs/remotes/" + n + "/" + strings.TrimPrefix(r.Name().String(), pre))
		if r.Type() == plumbing.SymbolicReference {
			t := r.Target().String()
			if strings.HasPrefix(t, pre) {
				t = "refs/remotes/" + n + "/" + strings.TrimPrefix(t, pre)
			}
			x.r.Storer.SetReference(plumbing.NewSymbolicReference(name, plumbing.ReferenceName(t)))
		} else {
			x.r.Storer.SetReference(plumbing.NewHashReference(name, r.Hash()))
		}
	}
}

// upstream is the branch a local branch tracks (branch.<b>.remote and
// .merge): its short name ("origin/main"), its commit, and whether it is
// configured at all; gone is a configured upstream whose ref is missing.
func (x *cli) upstream(branch string) (name string, h plumbing.Hash, gone, ok bool) {
	if branch == "" {
		return "", plumbing.ZeroHash, false, false
	}
	remote, merge := x.cfg("branch."+branch+".remote"), x.cfg("branch."+branch+".merge")
	if remote == "" || merge == "" {
		return "", plumbing.ZeroHash, false, false
	}
	ref := plumbing.ReferenceName(merge)
	if remote != "." {
		ref = plumbing.ReferenceName("refs/remotes/" + remote + "/" + strings.TrimPrefix(merge, "refs/heads/"))
	}
	name = ref.Short()
	r, err := x.r.Storer.Reference(ref)
	if err != nil {
		return name, plumbing.ZeroHash, true, true
	}
	return name, r.Hash(), false, true
}

// aheadBehind counts the commits of a not in b, and of b not in a, as
// git does: walking both histories newest first (ties in the order
// reached) and stopping once every commit left to walk is reachable from
// both.
func (x *cli) aheadBehind(a, b plumbing.Hash) (ahead, behind int) {
	if a == b {
		return 0, 0
	}
	const fromA, fromB = 1, 2
	flags := map[plumbing.Hash]int{}
	q := &commitQueue{}
	seq := 0
	expanded := map[plumbing.Hash][]plumbing.Hash{} // popped commits and their parents
	add := func(h plumbing.Hash, f int) {
		// A commit already walked passes new flags on to every ancestor
		// walked so far at once (git's marking of uninteresting parents).
		stack := []plumbing.Hash{h}
		for len(stack) > 0 {
			h := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			old := flags[h]
			if old|f == old {
				continue
			}
			flags[h] = old | f
			if parents, ok := expanded[h]; ok {
				stack = append(stack, parents...)
				continue
			}
			if old != 0 {
				continue // queued: it passes its flags on when walked
			}
			if c, err := x.r.CommitObject(h); err == nil {
				seq++
				heap.Push(q, queued{c, seq})
			}
		}
	}
	add(a, fromA)
	add(b, fromB)
	for q.Len() > 0 {
		stale := true
		for _, e := range *q {
			if flags[e.c.Hash] != fromA|fromB {
				stale = false
				break
			}
		}
		if stale {
			break
		}
		c := heap.Pop(q).(queued).c
		var parents []plumbing.Hash
		if !x.shallow()[c.Hash] {
			parents = c.ParentHashes
		}
		expanded[c.Hash] = parents
		for _, p := range parents {
			add(p, flags[c.Hash])
		}
	}
	for _, f := range flags {
		switch f {
		case fromA:
			ahead++
		case fromB:
			behind++
		}
	}
	return ahead, behind
}

type queued struct {
	c   *object.Commit
	seq int
}

// commitQueue is a heap of commits, newest (committer time) first, ties
// first in first out.
type commitQueue []queued

func (q commitQueue) Len() int { return len(q) }
func (q commitQueue) Less(i, j int) bool {
	ti, tj := q[i].c.Committer.When, q[j].c.Committer.When
	if !ti.Equal(tj) {
		return ti.After(tj)
	}
	return q[i].seq < q[j].seq
}
func (q commitQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *commitQueue) Push(v any)   { *q = append(*q, v.(queued)) }
func (q *commitQueue) Pop() any {
	old := *q
	c := old[len(old)-1]
	*q = old[:len(old)-1]
	return c
}

// trackingLong is status's paragraph about the branch's upstream ("" when
// it has none).
func (x *cli) trackingLong(branch string, head plumbing.Hash) string {
	up, h, gone, ok := x.upstream(branch)
	if !ok || head.IsZero() {
		return ""
	}
	if gone {
		return "Your branch is based on '" + up + "', but the upstream is gone.\n  (use \"git branch --unset-upstream\" to fixup)\n\n"
	}
	commits := func(n int) string {
		if n == 1 {
			return "1 commit"
		}
		return strconv.Itoa(n) + " commits"
	}
	a, b := x.aheadBehind(head, h)
	switch {
	case a == 0 && b == 0:
		return "Your branch is up to date with '" + up + "'.\n\n"
	case b == 0:
		return "Your branch is ahead of '" + up + "' by " + commits(a) + ".\n  (use \"git push\" to publish your local commits)\n\n"
	case a == 0:
		return "Your branch is behind '" + up + "' by " + commits(b) + ", and can be fast-forwarded.\n  (use \"git pull\" to update your local branch)\n\n"
	}
	return fmt.Sprintf("Your branch and '%s' have diverged,\nand have %d and %d different commits each, respectively.\n  (use \"git pull\" to merge the remote branch into yours)\n\n", up, a, b)
}

// trackingShort is the upstream part of status -sb's "## branch" line
// and branch -v's bracket: "origin/main" and "ahead 1, behind 2" (or
// "gone"); ok is false without an upstream.
func (x *cli) trackingShort(branch string, head plumbing.Hash) (up, counts string, ok bool) {
	up, h, gone, ok := x.upstream(branch)
	if !ok {
		return "", "", false
	}
	if gone {
		return up, "gone", true
	}
	a, b := x.aheadBehind(head, h)
	var parts []string
	if a > 0 {
		parts = append(parts, "ahead "+strconv.Itoa(a))
	}
	if b > 0 {
		parts = append(parts, "behind "+strconv.Itoa(b))
	}
	return up, strings.Join(parts, ", "), true
}

// remoteHeads are the symbolic refs under refs/remotes (origin/HEAD).
func (x *cli) remoteHeads() []*plumbing.Reference {
	it, err := x.r.Storer.IterReferences()
	if err != nil {
		return nil
	}
	var out []*plumbing.Reference
	it.ForEach(func(r *plumbing.Reference) error {
		if r.Type() == plumbing.SymbolicReference && r.Name().IsRemote() {
			out = append(out, r)
		}
		return nil
	})
	return out
}

// shallow is the set of a shallow clone's boundary commits (.git/shallow).
func (x *cli) shallow() map[plumbing.Hash]bool {
	if x.shallowSet == nil {
		x.shallowSet = map[plumbing.Hash]bool{}
		if data, ok := x.r.wt.readRaw(".git/shallow"); ok {
			for _, l := range strings.Fields(string(data)) {
				x.shallowSet[plumbing.NewHash(l)] = true
			}
		}
	}
	return x.shallowSet
}

// pushLanded reports whether the remote's refs are now what a push of
// ups sets them to.
func (x *cli) pushLanded(ctx context.Context, remote *gogit.Remote, ups []*pushUpdate) bool {
	time.Sleep(100 * time.Millisecond)
	adv, err := remote.ListContext(ctx, &gogit.ListOptions{})
	if err != nil {
		return false
	}
	now := map[string]plumbing.Hash{}
	for _, r := range adv {
		now[r.Name().String()] = r.Hash()
	}
	for _, p := range ups {
		if p.rejected != "" || p.upToDate {
			continue
		}
		if h, ok := now[p.dst]; (p.src == "") == ok || ok && h != p.local {
			return false
		}
	}
	return true
}

// followTags is push --follow-tags: the annotated tags the remote lacks
// whose commit the remote's refs reach once pushed (git's
// add_missing_tags: a pushed ref's new value, every other ref's present
// one, a deleted ref's present one too).
func (x *cli) followTags(ups []*pushUpdate, remoteRefs map[string]plumbing.Hash, force bool) []*pushUpdate {
	ends := maps.Clone(remoteRefs)
	for _, p := range ups {
		if p.src != "" {
			ends[p.dst] = p.local
		}
	}
	var tips []plumbing.Hash
	for _, h := range ends {
		if c, err := x.peelCommit(h); err == nil {
			if _, err := x.r.CommitObject(c); err == nil {
				tips = append(tips, c)
			}
		}
	}
	var out []*pushUpdate
	for _, r := range x.refs("refs/tags/") {
		name := r.Name().String()
		if _, had := remoteRefs[name]; had || slices.ContainsFunc(ups, func(p *pushUpdate) bool { return p.dst == name }) {
			continue
		}
		if _, err := x.r.TagObject(r.Hash()); err != nil {
			continue // lightweight tags do not follow
		}
		c, err := x.peelCommit(r.Hash())
		if err != nil {
			continue
		}
		if slices.ContainsFunc(tips, func(t plumbing.Hash) bool { return t == c || x.r.isAncestor(c, t) }) {
			out = append(out, &pushUpdate{force: force, src: name, dst: name, local: r.Hash(), shown: shortRefName(name)})
		}
	}
	return out
}

// matchRefName finds the ref a short name means among names, as git's
// push matches a refspec's side (count_refspec_match): refs/<s>,
// refs/tags/<s>, refs/heads/<s>, refs/remotes/<s> and
// refs/remotes/<s>/HEAD; a match under refs/heads or refs/tags (or
// refs/<s>) is strong and wins over the others. It returns "" when
// nothing matches and n > 1 when the name is ambiguous.
func matchRefName(short string, has func(string) bool) (name string, n int) {
	var strong, weak []string
	for _, c := range []string{"refs/" + short, "refs/tags/" + short, "refs/heads/" + short, "refs/remotes/" + short, "refs/remotes/" + short + "/HEAD"} {
		if !has(c) {
			continue
		}
		if c == "refs/"+short || strings.HasPrefix(c, "refs/heads/") || strings.HasPrefix(c, "refs/tags/") {
			strong = append(strong, c)
		} else {
			weak = append(weak, c)
		}
	}
	if len(strong) == 0 {
		strong = weak
	}
	if len(strong) == 0 {
		return "", 0
	}
	return strong[0], len(strong)
}

// matchRemoteRef is the remote ref a push's short destination names ("" if
// none), or git's error when it names more than one.
func matchRemoteRef(short string, refs map[string]plumbing.Hash) (string, error) {
	name, n := matchRefName(short, func(c string) bool { _, ok := refs[c]; return ok })
	if n > 1 {
		return "", fmt.Errorf("dst refspec %s matches more than one", short)
	}
	return name, nil
}

// pushSource is the local ref a push's source names and its value (a tag
// object for an annotated tag, not the commit it points at).
func (x *cli) pushSource(src, branch string) (string, plumbing.Hash, error) {
	if src == "HEAD" {
		h, err := x.rev("HEAD")
		if err != nil {
			return "", h, fmt.Errorf("src refspec %s does not match any", src)
		}
		if branch == "" {
			return h.String(), h, nil
		}
		return "refs/heads/" + branch, h, nil
	}
	name := src
	if !strings.HasPrefix(src, "refs/") {
		var n int
		name, n = matchRefName(src, func(c string) bool {
			_, err := x.r.Storer.Reference(plumbing.ReferenceName(c))
			return err == nil
		})
		if n > 1 {
			return "", plumbing.ZeroHash, fmt.Errorf("src refspec %s matches more than one", src)
		}
	}
	if ref, err := x.r.Storer.Reference(plumbing.ReferenceName(name)); err == nil && name != "" {
		return name, ref.Hash(), nil
	}
	// A revision (main~1, a hash) pushes its commit.
	if h, err := x.rev(src); err == nil {
		return h.String(), h, nil
	}
	return "", plumbing.ZeroHash, fmt.Errorf("src refspec %s does not match any", src)
}

// shortRefName is a ref's name as git's reports show it.
func shortRefName(name string) string {
	for _, p := range []string{"refs/heads/", "refs/tags/", "refs/remotes/"} {
		if strings.HasPrefix(name, p) {
			return name[len(p):]
		}
	}
	return name
}

// pushReport prints push's table as git's transport_print_push_status
// does: the refs the remote had in its order (by name), then the new ones
// in the order they were matched, accepted before rejected. --porcelain
// prints it on stdout with full names, tab-separated, the up-to-date refs
// first and "Done" last; without it the table goes to stderr and
// up-to-date refs are not shown.
func (x *cli) pushReport(u string, ups []*pushUpdate, porcelain, quiet bool) {
	out := x.eprintf
	if porcelain {
		out = x.printf
	}
	rejected := slices.ContainsFunc(ups, func(p *pushUpdate) bool { return p.rejected != "" })
	if !quiet || rejected || porcelain {
		out("To %s\n", u)
	}
	order := slices.Clone(ups)
	rank := func(p *pushUpdate) int {
		switch {
		case p.upToDate:
			return 0
		case p.rejected == "":
			return 1
		}
		return 2
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if rank(a) != rank(b) {
			return rank(a) < rank(b)
		}
		if a.old.IsZero() != b.old.IsZero() {
			return !a.old.IsZero()
		}
		return !a.old.IsZero() && a.dst < b.dst
	})
	for _, p := range order {
		if p.upToDate && !porcelain || quiet && p.rejected == "" && !porcelain {
			continue
		}
		var flag byte
		var summary, msg string
		switch {
		case p.upToDate:
			flag, summary = '=', "[up to date]"
		case p.rejected != "":
			flag, summary, msg = '!', "[rejected]", p.rejected
		case p.src == "":
			flag, summary = '-', "[deleted]"
		case p.old.IsZero() && strings.HasPrefix(p.dst, "refs/tags/"):
			flag, summary = '*', "[new tag]"
		case p.old.IsZero() && strings.HasPrefix(p.dst, "refs/heads/"):
			flag, summary = '*', "[new branch]"
		case p.old.IsZero():
			flag, summary = '*', "[new reference]"
		case p.forcedMsg:
			flag, summary, msg = '+', shortHash(p.old)+"..."+shortHash(p.local), "forced update"
		default:
			flag, summary = ' ', shortHash(p.old)+".."+shortHash(p.local)
		}
		if msg != "" {
			msg = " (" + msg + ")"
		}
		switch {
		case porcelain && p.src == "":
			out("%c\t:%s\t%s%s\n", flag, p.dst, summary, msg)
		case porcelain:
			from := p.src
			if !strings.HasPrefix(from, "refs/") {
				from = p.shown
			}
			out("%c\t%s:%s\t%s%s\n", flag, from, p.dst, summary, msg)
		case p.src == "":
			out(" %c %-17s %s%s\n", flag, summary, shortRefName(p.dst), msg)
		default:
			out(" %c %-17s %s -> %s%s\n", flag, summary, p.shown, shortRefName(p.dst), msg)
		}
	}
	if porcelain {
		out("Done\n")
	}
}

// mirrorRef is a local ref push --mirror sends, a symbolic one by its
// value.
type mirrorRef struct {
	ref *plumbing.Reference
	sym bool
}

// mirrorRefs are the local refs under refs/, by name, with symbolic refs
// (refs/remotes/origin/HEAD) resolved, as git's push --mirror lists them.
func (x *cli) mirrorRefs() []mirrorRef {
	it, err := x.r.Storer.IterReferences()
	if err != nil {
		return nil
	}
	var out []mirrorRef
	it.ForEach(func(r *plumbing.Reference) error {
		if !strings.HasPrefix(r.Name().String(), "refs/") {
			return nil
		}
		if r.Type() == plumbing.HashReference {
			out = append(out, mirrorRef{ref: r})
		} else if t, err := storer.ResolveReference(x.r.Storer, r.Name()); err == nil {
			out = append(out, mirrorRef{ref: plumbing.NewHashReference(r.Name(), t.Hash()), sym: true})
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].ref.Name() < out[j].ref.Name() })
	return out
}

// pushLease is one --force-with-lease: the remote ref it is for ("" for
// every ref pushed), and the value the remote must have (tracking: the
// remote-tracking ref's; a zero hash: no ref at all).
type pushLease struct {
	ref      string
	tracking bool
	expect   plumbing.Hash
}

// parseLeases reads push's --force-with-lease[=<ref>[:<expect>]] options
// in order, --no-force-with-lease dropping the ones before, as git's
// parse_push_cas_option does; an expected value that names no object is
// git's error.
func (x *cli) parseLeases(f *flags) ([]pushLease, error) {
	var out []pushLease
	for _, v := range f.vals["force-with-lease"] {
		switch {
		case v == "\x00no":
			out = nil
		case v == "":
			out = append(out, pushLease{tracking: true})
		default:
			ref, expect, has := strings.Cut(v, ":")
			l := pushLease{ref: ref, tracking: !has}
			if has && expect != "" {
				h, err := x.revAny(expect)
				if err != nil {
					return nil, &fatalErr{code: 129, text: "error: cannot parse expected object name '" + expect + "'\n"}
				}
				l.expect = h
			}
			out = append(out, l)
		}
	}
	return out, nil
}

// leaseFor is the value the remote's ref dst must have for the push to
// go ahead (git's apply_cas): an explicit lease for a ref whose name
// matches dst first, else a bare --force-with-lease's. A tracking lease
// expects the remote-tracking ref the remote's fetch refspecs map dst to,
// or no ref when there is none. ok is false when no lease covers dst.
func (x *cli) leaseFor(leases []pushLease, rc *config.RemoteConfig, dst string) (plumbing.Hash, bool) {
	pick := -1
	for i, l := range leases {
		if l.ref != "" && refNameMatches(l.ref, dst) {
			pick = i
			break
		}
	}
	if pick < 0 {
		pick = slices.IndexFunc(leases, func(l pushLease) bool { return l.ref == "" })
	}
	if pick < 0 {
		return plumbing.ZeroHash, false
	}
	if !leases[pick].tracking {
		return leases[pick].expect, true
	}
	for _, spec := range rc.Fetch {
		if spec.Match(plumbing.ReferenceName(dst)) {
			if r, err := x.r.Storer.Reference(spec.Dst(plumbing.ReferenceName(dst))); err == nil {
				return r.Hash(), true
			}
			break
		}
	}
	return plumbing.ZeroHash, true
}

// refNameMatches is git's refname_match: short names full by one of the
// rev-parse rules (itself, refs/, refs/tags/, refs/heads/, refs/remotes/,
// refs/remotes/<short>/HEAD).
func refNameMatches(short, full string) bool {
	for _, c := range []string{short, "refs/" + short, "refs/tags/" + short, "refs/heads/" + short,
		"refs/remotes/" + short, "refs/remotes/" + short + "/HEAD"} {
		if c == full {
			return true
		}
	}
	return false
}

// hasObject reports whether the repository has object h.
func (x *cli) hasObject(h plumbing.Hash) bool {
	return x.r.Storer.HasEncodedObject(h) == nil
}

// isCommit reports whether h is (or peels to) a commit the repository has.
func (x *cli) isCommit(h plumbing.Hash) bool {
	c, err := x.peelCommit(h)
	if err != nil {
		return false
	}
	_, err = x.r.CommitObject(c)
	return err == nil
}
