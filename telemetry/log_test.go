package telemetry_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"go.opentelemetry.io/otel/trace"

	"github.com/nookdev/nook/telemetry"
)

// A record logged in a span's context carries its ids, through WithAttrs
// and WithGroup too; one logged without a span has none.
func TestLogHandler(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(telemetry.LogHandler(slog.NewJSONHandler(&buf, nil))).With("server", "nook")
	tid, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	sid, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	ctx := trace.ContextWithSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid}))
	log.InfoContext(ctx, "in a span", "n", 1)
	log.Info("no span")
	log.WithGroup("g").InfoContext(ctx, "grouped")
	var lines []map[string]any
	for _, b := range bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n")) {
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		lines = append(lines, m)
	}
	if len(lines) != 3 {
		t.Fatalf("%d lines: %s", len(lines), buf.String())
	}
	if lines[0]["trace_id"] != tid.String() || lines[0]["span_id"] != sid.String() || lines[0]["server"] != "nook" || lines[0]["n"] != 1.0 {
		t.Errorf("line in a span: %v", lines[0])
	}
	if _, ok := lines[1]["trace_id"]; ok {
		t.Errorf("line without a span has a trace id: %v", lines[1])
	}
	if g, _ := lines[2]["g"].(map[string]any); g["trace_id"] != tid.String() {
		t.Errorf("grouped line: %v", lines[2])
	}
}
