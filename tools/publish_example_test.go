package tools_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/nookdev/nook/tools"
	"github.com/nookdev/nook/vfs"
)

// objectStore is the part of an S3 client a presigning publisher needs: an
// upload and a presigned GET (s3.Client.PutObject and
// s3.PresignClient.PresignGetObject in aws-sdk-go-v2 have these shapes).
type objectStore interface {
	Put(ctx context.Context, key string, body []byte) error
	PresignGet(ctx context.Context, key string, expires time.Duration) (string, error)
}

// s3Publisher uploads the file under a prefix and returns a presigned URL.
type s3Publisher struct {
	fs     *vfs.FS
	store  objectStore
	prefix string
}

func (p *s3Publisher) Share(ctx context.Context, path string, expiresAfter time.Duration) (string, error) {
	data, err := p.fs.ReadFile(ctx, path)
	if err != nil {
		return "", err
	}
	key := p.prefix + path
	if err := p.store.Put(ctx, key, data); err != nil {
		return "", err
	}
	return p.store.PresignGet(ctx, key, expiresAfter)
}

// fakeStore stands in for the bucket: it keeps objects in memory and
// signs URLs the way a presigner does (key, expiry, an HMAC of both).
type fakeStore struct {
	objects map[string][]byte
	now     time.Time
}

func (s *fakeStore) Put(_ context.Context, key string, body []byte) error {
	s.objects[key] = body
	return nil
}

func (s *fakeStore) PresignGet(_ context.Context, key string, d time.Duration) (string, error) {
	exp := strconv.FormatInt(s.now.Add(d).Unix(), 10)
	m := hmac.New(sha256.New, []byte("secret"))
	m.Write([]byte(key + "\n" + exp))
	q := url.Values{"X-Expires": {exp}, "X-Signature": {hex.EncodeToString(m.Sum(nil))[:16]}}
	return "https://bucket.example.com" + key + "?" + q.Encode(), nil
}

// A Publisher gives a set the publish tool; an S3-style presigner is the
// usual one.
func ExamplePublisher() {
	ctx := context.Background()
	f, _ := vfs.Open(ctx, "", nil)
	defer f.Close()
	f.WriteFile(ctx, "/out/chart.svg", []byte("<svg/>"), &vfs.WriteOptions{MkdirAll: true})
	store := &fakeStore{objects: map[string][]byte{}, now: time.Unix(1767225600, 0)}
	set := tools.New(f, tools.Options{Publisher: &s3Publisher{fs: f, store: store, prefix: "/agent-42"}})
	res, _ := set.Call(ctx, "publish", json.RawMessage(`{"path":"/out/chart.svg","expiresAfterMs":600000}`))
	var out struct{ URL string }
	b, _ := json.Marshal(res.Structured)
	json.Unmarshal(b, &out)
	fmt.Println(out.URL)
	fmt.Println(string(store.objects["/agent-42/out/chart.svg"]))
	// Output:
	// https://bucket.example.com/agent-42/out/chart.svg?X-Expires=1767226200&X-Signature=fe5b617a697f39bc
	// <svg/>
}
