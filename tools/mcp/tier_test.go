package mcp_test

// With NOOK_TEST_ISOLATION=process every runtime of these tests runs its
// programs in worker processes (the test binary is its own worker).
import _ "github.com/nookdev/nook/internal/tiertest"
