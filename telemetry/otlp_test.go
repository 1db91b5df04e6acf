package telemetry

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/nookdev/nook/tools"
)

// Tracing is off unless the OTEL_* environment names an endpoint (or the
// otlp exporter); it refuses what it cannot do, and exports over
// OTLP/HTTP to the endpoint named.
func TestTracingFromEnv(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	ctx := context.Background()
	for _, e := range [][]string{nil, {"OTEL_SERVICE_NAME", "x"},
		{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1", "OTEL_SDK_DISABLED", "true"},
		{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1", "OTEL_TRACES_EXPORTER", "none"}} {
		if tp, _, err := tracingFrom(ctx, env(e...)); tp != nil || err != nil {
			t.Errorf("env %q: tracing %v, %v; want off", e, tp, err)
		}
	}
	for _, c := range []struct {
		env []string
		msg string
	}{
		{[]string{"OTEL_TRACES_EXPORTER", "zipkin"}, `OTEL_TRACES_EXPORTER="zipkin": nook exports traces with otlp only (or none)`},
		{[]string{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1", "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"}, `OTEL_EXPORTER_OTLP_PROTOCOL="grpc": nook exports traces over http/protobuf only`},
	} {
		if _, _, err := tracingFrom(ctx, env(c.env...)); err == nil || err.Error() != c.msg {
			t.Errorf("env %q: %v, want %q", c.env, err, c.msg)
		}
	}

	var mu sync.Mutex
	var got []string
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, r.Method+" "+r.URL.Path+" "+r.Header.Get("Content-Type")+" "+string(b))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer collector.Close()
	// The exporter reads its own variables from the process environment.
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", collector.URL+"/v1/traces")
	tp, shutdown, err := TracingFromEnv(ctx)
	if err != nil || tp == nil {
		t.Fatalf("with an endpoint: %v, %v", tp, err)
	}
	tel := New(Options{TracerProvider: tp})
	_, done := tel.ToolCall(ctx, tools.ToolCall{Tool: "read"})
	done(&tools.Result{}, nil)
	if err := shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || !strings.HasPrefix(got[0], "POST /v1/traces application/x-protobuf ") ||
		!strings.Contains(got[0], "execute_tool read") || !strings.Contains(got[0], DefaultServiceName) {
		t.Errorf("the collector got %q", got)
	}
}
