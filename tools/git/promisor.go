package git

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	cfgformat "github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/capability"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/sideband"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/client"
	"github.com/go-git/go-git/v5/storage"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/nookdev/nook/vfs"
)

// Partial clones (clone --filter=blob:none, blob:limit=<n>), as git makes
// them: the server leaves the blobs out of the pack, the remote is
// recorded as a promisor (remote.<name>.promisor, .partialclonefilter,
// core.repositoryformatversion 1, a .promisor file beside each pack it
// sent), and a blob a command needs later is fetched from it then. go-git
// has the request's filter line but never sets it, and fetches nothing on
// demand: the module's transport adds the filter (filterSession), and
// promisorStore fetches a missing blob when it is read.

// DefaultMaxLazyFetches is the default of Options.MaxLazyFetches: the
// fetches of left-out objects one command may make.
const DefaultMaxLazyFetches = 64

// LazyFetchLimitError is the error of a command in a partial clone that
// needs more fetches of left-out objects than Options.MaxLazyFetches. It
// wraps vfs.EFBIG and its message names the limit.
type LazyFetchLimitError struct {
	Max int // the limit's value
}

func (e *LazyFetchLimitError) Error() string {
	return fmt.Sprintf("the command needs more than MaxLazyFetches (%d) fetches of objects the partial clone left out", e.Max)
}

// Unwrap returns the POSIX code of the error, EFBIG.
func (e *LazyFetchLimitError) Unwrap() error { return vfs.EFBIG }

// filterKey carries a *filterReq in a transfer's context.
type filterKey struct{}

// filterReq is the filter a fetch asks the server for; applied says the
// server took it (it advertised "filter").
type filterReq struct {
	spec    string
	applied bool
}

// withFilter is ctx asking for a pack filtered by spec.
func withFilter(ctx context.Context, spec string) (context.Context, *filterReq) {
	f := &filterReq{spec: spec}
	return context.WithValue(ctx, filterKey{}, f), f
}

// filterTransport is the http(s) transport whose upload-pack sessions
// add the context's filter to their request.
type filterTransport struct{ transport.Transport }

func (t filterTransport) NewUploadPackSession(ep *transport.Endpoint, auth transport.AuthMethod) (transport.UploadPackSession, error) {
	s, err := t.Transport.NewUploadPackSession(ep, auth)
	if err != nil {
		return nil, err
	}
	return &filterSession{UploadPackSession: s}, nil
}

// filterSession remembers whether the server advertised "filter" and
// sets the request's filter when it did.
type filterSession struct {
	transport.UploadPackSession
	filter bool
}

func (s *filterSession) AdvertisedReferences() (*packp.AdvRefs, error) {
	return s.AdvertisedReferencesContext(context.Background())
}

func (s *filterSession) AdvertisedReferencesContext(ctx context.Context) (*packp.AdvRefs, error) {
	ar, err := s.UploadPackSession.AdvertisedReferencesContext(ctx)
	if err == nil {
		s.filter = ar.Capabilities.Supports(capability.Filter)
	}
	return ar, err
}

func (s *filterSession) UploadPack(ctx context.Context, req *packp.UploadPackRequest) (*packp.UploadPackResponse, error) {
	if f, _ := ctx.Value(filterKey{}).(*filterReq); f != nil && s.filter {
		req.Filter = packp.Filter(f.spec)
		req.Capabilities.Set(capability.Filter)
		f.applied = true
	}
	return s.UploadPackSession.UploadPack(ctx, req)
}

// partialSpec is a clone's --filter as git records it
// (remote.<name>.partialclonefilter: blob:limit's size in bytes), or
// git's error for one nook's partial clone does not make.
func partialSpec(spec string) (string, error) {
	if err := checkFilterSpec(spec); err != nil {
		return "", err
	}
	if spec == "blob:none" {
		return spec, nil
	}
	if n, ok := strings.CutPrefix(spec, "blob:limit="); ok {
		v, _ := parseULong(n)
		return fmt.Sprintf("blob:limit=%d", v), nil
	}
	return "", fatalf("--filter=%s: nook's git makes partial clones that leave out blobs only (blob:none, blob:limit=<n>): "+
		"a command fetches a missing blob when it reads one, and nothing fetches missing trees or commits", spec)
}

// promisorStore is a partial clone's storage: a blob it lacks is fetched
// from the promisor remote when read, at most max times a command.
type promisorStore struct {
	*filesystem.Storage
	dot     billy.Filesystem // .git
	url     string
	net     func(op, url string) (context.Context, context.CancelFunc, error)
	max     int
	fetches int
	// failed is the first fetch that failed: a command that went on
	// without the object still fails.
	failed error
}

// Config reads the repository's config. A partial clone's
// core.repositoryformatversion is 1 (git's), which go-git would write
// back with an extensions.objectformat it then refuses: the version
// stays in the raw section only, where go-git keeps it as read.
func (s *promisorStore) Config() (*config.Config, error) {
	cfg, err := s.Storage.Config()
	if err == nil && cfg.Core.RepositoryFormatVersion == cfgformat.Version_1 && !cfg.Raw.HasSection("extensions") {
		cfg.Core.RepositoryFormatVersion = ""
	}
	return cfg, err
}

// EncodedObject reads an object, fetching it from the promisor remote
// when the repository does not have it.
func (s *promisorStore) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	o, err := s.Storage.EncodedObject(t, h)
	if !errors.Is(err, plumbing.ErrObjectNotFound) || (t != plumbing.BlobObject && t != plumbing.AnyObject) {
		return o, err
	}
	if err := s.fetch([]plumbing.Hash{h}); err != nil {
		if s.failed == nil {
			s.failed = err
		}
		return nil, err
	}
	return s.Storage.EncodedObject(t, h)
}

// prefetch fetches, in one request, those of hs the repository lacks
// (the blobs a checkout writes), as git does before it checks out.
func (s *promisorStore) prefetch(hs []plumbing.Hash) error {
	var missing []plumbing.Hash
	seen := map[plumbing.Hash]bool{}
	for _, h := range hs {
		if !seen[h] && s.Storage.HasEncodedObject(h) != nil {
			missing = append(missing, h)
		}
		seen[h] = true
	}
	if len(missing) == 0 {
		return nil
	}
	err := s.fetch(missing)
	if err != nil && s.failed == nil {
		s.failed = err
	}
	return err
}

// fetch asks the promisor remote for the objects hs (wants, no haves, no
// filter) and stores the pack it sends as a promisor pack.
func (s *promisorStore) fetch(hs []plumbing.Hash) error {
	if s.fetches >= s.max {
		return &LazyFetchLimitError{Max: s.max}
	}
	s.fetches++
	ctx, cancel, err := s.net("fetch", s.url)
	if err != nil {
		return err
	}
	defer cancel()
	ep, err := transport.NewEndpoint(s.url)
	if err != nil {
		return err
	}
	cl, err := client.NewClient(ep)
	if err != nil {
		return err
	}
	sess, err := cl.NewUploadPackSession(ep, nil)
	if err != nil {
		return err
	}
	defer sess.Close()
	ar, err := sess.AdvertisedReferencesContext(ctx)
	if err != nil {
		return err
	}
	req := packp.NewUploadPackRequestFromCapabilities(ar.Capabilities)
	req.Wants = hs
	resp, err := sess.UploadPack(ctx, req)
	if err != nil {
		return err
	}
	defer resp.Close()
	var r io.Reader = resp
	switch {
	case req.Capabilities.Supports(capability.Sideband64k):
		r = sideband.NewDemuxer(sideband.Sideband64k, resp)
	case req.Capabilities.Supports(capability.Sideband):
		r = sideband.NewDemuxer(sideband.Sideband, resp)
	}
	before := packNames(s.dot)
	if err := packfile.UpdateObjectStorage(s.Storage, r); err != nil {
		return err
	}
	return markPromisor(s.dot, before)
}

// packNames lists the packs in .git/objects/pack.
func packNames(dot billy.Filesystem) map[string]bool {
	out := map[string]bool{}
	l, _ := dot.ReadDir("objects/pack")
	for _, fi := range l {
		if strings.HasSuffix(fi.Name(), ".pack") {
			out[strings.TrimSuffix(fi.Name(), ".pack")] = true
		}
	}
	return out
}

// markPromisor writes the .promisor file beside each pack not in before:
// git takes what such a pack's objects point to and the repository lacks
// as the promisor remote's to send, not as corruption.
func markPromisor(dot billy.Filesystem, before map[string]bool) error {
	for name := range packNames(dot) {
		if before[name] {
			continue
		}
		f, err := dot.Create("objects/pack/" + name + ".promisor")
		if err != nil {
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	return nil
}

// dot is the repository's .git directory.
func (b *billyFS) dot() billy.Filesystem {
	d, _ := b.Chroot(".git")
	return d
}

// transferStorage is the storage go-git's fetch and push work on: a
// partial clone's without the fetching of missing objects, since go-git
// probes for the objects a transfer is about to bring (getWants reads
// each wanted commit) and a lazy fetch of one would bring its whole
// history unfiltered.
func transferStorage(s storage.Storer) storage.Storer {
	if ps, ok := s.(*promisorStore); ok {
		return ps.Storage
	}
	return s
}
