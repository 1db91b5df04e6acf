package runtime

import "time"

// SetLeaseTiming shortens the lease timing for a test; the returned
// function restores it. Runtimes created meanwhile use the new timing.
func SetLeaseTiming(ttl, renew, retry time.Duration) (restore func()) {
	t, r, y := leaseTTL, leaseRenew, leaseRetry
	leaseTTL, leaseRenew, leaseRetry = ttl, renew, retry
	return func() { leaseTTL, leaseRenew, leaseRetry = t, r, y }
}
