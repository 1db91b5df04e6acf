package runtime

import (
	"context"
	"crypto/rand"
)

func cryptoRandom(p []byte) { rand.Read(p) }

// fetch performs one HTTP request under the outbound policy.
func fetch(ctx context.Context, o *Outbound, l Limits, args map[string]any) (any, error) {
	if o == nil {
		return nil, &CallError{Code: "ERR_FETCH_DENIED", Message: "fetch is not available: the workspace has no outbound network policy"}
	}
	return nil, &CallError{Code: "ENOSYS", Message: "fetch: not implemented yet"}
}
