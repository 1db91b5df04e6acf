package telemetry

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// The metrics are kept by a small registry of our own and written in the
// Prometheus text exposition format (version 0.0.4), which every scraper
// reads: a handful of counters, histograms and gauges do not need a
// metrics SDK and its dependencies (see the README's "Operating nook").

// TextContentType is the Content-Type of the Prometheus text format.
const TextContentType = "text/plain; version=0.0.4; charset=utf-8"

// MaxSeries bounds the label sets of one metric: past it, new label sets
// are counted under the label values "other", so that a metric cannot
// grow without bound whatever its labels' values.
const MaxSeries = 1000

// Registry holds metrics and writes them in the Prometheus text format.
// It is safe for concurrent use.
type Registry struct {
	mu      sync.Mutex
	metrics []metric
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{} }

type metric interface {
	name() string
	write(w *bufio.Writer)
}

func (r *Registry) add(m metric) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, o := range r.metrics {
		if o.name() == m.name() {
			panic("telemetry: metric " + m.name() + " registered twice")
		}
	}
	r.metrics = append(r.metrics, m)
}

// WriteText writes every metric, in the order registered.
func (r *Registry) WriteText(w io.Writer) error {
	r.mu.Lock()
	ms := slices.Clone(r.metrics)
	r.mu.Unlock()
	bw := bufio.NewWriter(w)
	for _, m := range ms {
		m.write(bw)
	}
	return bw.Flush()
}

// Handler serves the metrics to GET (and HEAD) requests.
func (r *Registry) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method != http.MethodGet && req.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", TextContentType)
		w.Header().Set("Cache-Control", "no-store")
		r.WriteText(w)
	})
}

// family is what every metric has: a name, help, labels and its series.
type family[S any] struct {
	fname, help, kind string
	labels            []string
	mu                sync.RWMutex
	series            map[string]*S
	order             []string
	newS              func() *S
}

func (f *family[S]) name() string { return f.fname }

// get returns the series of the label values vals (len(vals) ==
// len(labels)), made on first use.
func (f *family[S]) get(vals []string) *S {
	if len(vals) != len(f.labels) {
		panic(fmt.Sprintf("telemetry: %s takes %d label values, got %d", f.fname, len(f.labels), len(vals)))
	}
	key := strings.Join(vals, "\xff")
	f.mu.RLock()
	s := f.series[key]
	f.mu.RUnlock()
	if s != nil {
		return s
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if s = f.series[key]; s != nil {
		return s
	}
	if len(f.series) >= MaxSeries {
		other := make([]string, len(vals))
		for i := range other {
			other[i] = "other"
		}
		key = strings.Join(other, "\xff")
		if s = f.series[key]; s != nil {
			return s
		}
	}
	s = f.newS()
	f.series[key] = s
	f.order = append(f.order, key)
	return s
}

func (f *family[S]) header(w *bufio.Writer) {
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n", f.fname, escapeHelp(f.help), f.fname, f.kind)
}

// each calls fn on every series in the order made, with its label pairs
// written as `a="x",b="y"`.
func (f *family[S]) each(fn func(labels string, s *S)) {
	f.mu.RLock()
	keys := slices.Clone(f.order)
	ss := make([]*S, len(keys))
	for i, k := range keys {
		ss[i] = f.series[k]
	}
	f.mu.RUnlock()
	for i, k := range keys {
		var vals []string
		if len(f.labels) > 0 {
			vals = strings.Split(k, "\xff")
		}
		fn(labelPairs(f.labels, vals), ss[i])
	}
}

func labelPairs(names, vals []string) string {
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(n)
		b.WriteString(`="`)
		b.WriteString(escapeLabel(vals[i]))
		b.WriteByte('"')
	}
	return b.String()
}

func escapeLabel(s string) string {
	return strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`).Replace(s)
}

func escapeHelp(s string) string {
	return strings.NewReplacer(`\`, `\\`, "\n", `\n`).Replace(s)
}

func formatFloat(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func braced(labels string) string {
	if labels == "" {
		return ""
	}
	return "{" + labels + "}"
}

// Counter is a counter with labels.
type Counter struct{ family[atomic.Uint64] }

// NewCounter registers a counter; name should end in _total.
func (r *Registry) NewCounter(name, help string, labels ...string) *Counter {
	c := &Counter{family[atomic.Uint64]{fname: name, help: help, kind: "counter", labels: labels,
		series: map[string]*atomic.Uint64{}, newS: func() *atomic.Uint64 { return new(atomic.Uint64) }}}
	if len(labels) == 0 {
		c.get(nil)
	}
	r.add(c)
	return c
}

// Inc adds one to the series of the label values vals.
func (c *Counter) Inc(vals ...string) { c.get(vals).Add(1) }

// Value is the count of the series of vals (0 if it has none).
func (c *Counter) Value(vals ...string) uint64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if s := c.series[strings.Join(vals, "\xff")]; s != nil {
		return s.Load()
	}
	return 0
}

func (c *Counter) write(w *bufio.Writer) {
	c.header(w)
	c.each(func(l string, s *atomic.Uint64) {
		fmt.Fprintf(w, "%s%s %d\n", c.fname, braced(l), s.Load())
	})
}

// Histogram is a histogram with labels, of seconds or any other unit.
type Histogram struct {
	family[histSeries]
	bounds []float64
}

type histSeries struct {
	mu     sync.Mutex
	counts []uint64 // per bucket, not cumulative; the last is +Inf
	sum    float64
	n      uint64
}

// DefaultDurationBuckets are the upper bounds, in seconds, of duration
// histograms: 1 ms to 5 minutes.
var DefaultDurationBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 300}

// NewHistogram registers a histogram with the bucket upper bounds given
// (ascending).
func (r *Registry) NewHistogram(name, help string, bounds []float64, labels ...string) *Histogram {
	h := &Histogram{bounds: bounds}
	h.family = family[histSeries]{fname: name, help: help, kind: "histogram", labels: labels,
		series: map[string]*histSeries{}, newS: func() *histSeries { return &histSeries{counts: make([]uint64, len(bounds)+1)} }}
	r.add(h)
	return h
}

// Observe records v in the series of vals.
func (h *Histogram) Observe(v float64, vals ...string) {
	s := h.get(vals)
	i, _ := slices.BinarySearch(h.bounds, v)
	s.mu.Lock()
	s.counts[i]++
	s.sum += v
	s.n++
	s.mu.Unlock()
}

// Count is the number of observations of the series of vals.
func (h *Histogram) Count(vals ...string) uint64 {
	h.mu.RLock()
	s := h.series[strings.Join(vals, "\xff")]
	h.mu.RUnlock()
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

func (h *Histogram) write(w *bufio.Writer) {
	h.header(w)
	h.each(func(l string, s *histSeries) {
		s.mu.Lock()
		counts, sum, n := slices.Clone(s.counts), s.sum, s.n
		s.mu.Unlock()
		sep := ""
		if l != "" {
			sep = ","
		}
		var cum uint64
		for i, b := range h.bounds {
			cum += counts[i]
			fmt.Fprintf(w, "%s_bucket{%s%sle=\"%s\"} %d\n", h.fname, l, sep, formatFloat(b), cum)
		}
		fmt.Fprintf(w, "%s_bucket{%s%sle=\"+Inf\"} %d\n", h.fname, l, sep, n)
		fmt.Fprintf(w, "%s_sum%s %s\n", h.fname, braced(l), formatFloat(sum))
		fmt.Fprintf(w, "%s_count%s %d\n", h.fname, braced(l), n)
	})
}

// Gauge is a gauge read when the metrics are written: fn returns its
// series, each a value and its label values.
type Gauge struct {
	fname, help string
	labels      []string
	fn          func() []Sample
	kind        string // "gauge", or "counter" for NewCounterFunc
}

// Sample is one series of a gauge.
type Sample struct {
	Labels []string
	Value  float64
}

// NewGauge registers a gauge whose series fn reports at each scrape; fn
// must be cheap (scrapes come every few seconds) and safe for concurrent
// use.
func (r *Registry) NewGauge(name, help string, fn func() []Sample, labels ...string) *Gauge {
	g := &Gauge{fname: name, help: help, labels: labels, fn: fn, kind: "gauge"}
	r.add(g)
	return g
}

// NewCounterFunc registers a counter kept elsewhere (a total that only
// grows, such as a pool's starts), read by fn at each scrape as
// NewGauge's series are; it is exposed as a counter.
func (r *Registry) NewCounterFunc(name, help string, fn func() []Sample, labels ...string) *Gauge {
	g := &Gauge{fname: name, help: help, labels: labels, fn: fn, kind: "counter"}
	r.add(g)
	return g
}

func (g *Gauge) name() string { return g.fname }

func (g *Gauge) write(w *bufio.Writer) {
	samples := g.fn()
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n", g.fname, escapeHelp(g.help), g.fname, g.kind)
	for _, s := range samples {
		if len(s.Labels) != len(g.labels) {
			continue
		}
		fmt.Fprintf(w, "%s%s %s\n", g.fname, braced(labelPairs(g.labels, s.Labels)), formatFloat(s.Value))
	}
}
