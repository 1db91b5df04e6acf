package telemetry

import (
	"context"
	"fmt"
	"os"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// DefaultServiceName is the service.name of nook's spans unless
// OTEL_SERVICE_NAME (or service.name in OTEL_RESOURCE_ATTRIBUTES) says
// otherwise.
const DefaultServiceName = "nook"

// TracingFromEnv returns the tracer provider the standard OpenTelemetry
// environment variables ask for, exporting spans over OTLP/HTTP
// (protobuf), or nil when they ask for none. Tracing is off unless one of
// these is set:
//
//	OTEL_EXPORTER_OTLP_TRACES_ENDPOINT  the traces URL, e.g. http://collector:4318/v1/traces
//	OTEL_EXPORTER_OTLP_ENDPOINT         the base URL; /v1/traces is added
//	OTEL_TRACES_EXPORTER=otlp           export to the default, http://localhost:4318
//
// and none of OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none. The
// exporter reads the rest itself (OTEL_EXPORTER_OTLP_HEADERS,
// OTEL_EXPORTER_OTLP_TIMEOUT, OTEL_EXPORTER_OTLP_INSECURE, ...), as does the
// sampler (OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG) and the resource
// (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES). OTEL_EXPORTER_OTLP_PROTOCOL,
// if set, must be http/protobuf: nook does not carry the gRPC exporter.
//
// shutdown flushes the spans still buffered and stops the exporter; call
// it before the process exits.
func TracingFromEnv(ctx context.Context) (tp *sdktrace.TracerProvider, shutdown func(context.Context) error, err error) {
	return tracingFrom(ctx, os.Getenv)
}

func tracingFrom(ctx context.Context, getenv func(string) string) (*sdktrace.TracerProvider, func(context.Context) error, error) {
	exporter := strings.TrimSpace(getenv("OTEL_TRACES_EXPORTER"))
	on := getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || exporter == "otlp"
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") || exporter == "none" {
		return nil, nil, nil
	}
	if exporter != "" && exporter != "otlp" {
		return nil, nil, fmt.Errorf("OTEL_TRACES_EXPORTER=%q: nook exports traces with otlp only (or none)", exporter)
	}
	if !on {
		return nil, nil, nil
	}
	for _, k := range []string{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"} {
		if p := strings.TrimSpace(getenv(k)); p != "" && p != "http/protobuf" {
			return nil, nil, fmt.Errorf("%s=%q: nook exports traces over http/protobuf only", k, p)
		}
		if getenv(k) != "" {
			break
		}
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("the OTLP trace exporter: %w", err)
	}
	res, err := resource.Merge(
		resource.NewSchemaless(attribute.String("service.name", DefaultServiceName)),
		resource.Environment())
	if err != nil {
		res = resource.NewSchemaless(attribute.String("service.name", DefaultServiceName))
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	return tp, tp.Shutdown, nil
}
