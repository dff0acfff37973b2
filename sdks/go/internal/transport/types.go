// Package transport delivers carriers to Reprise or to an OpenTelemetry Collector: a bounded batch processor that
// drops the oldest carriers when full, and an exporter that packs, compresses, trims and retries (docs/sdk-transport.md,
// the client transport rules).
package transport

import (
	"net/http"
	"time"
)

// Carrier operations (docs/sdk-transport.md, rule 1).
const (
	OpExternalSpan  = "external_span"
	OpExternalTrace = "external_trace"
	OpInternalTrace = "internal_trace"
)

// Carrier is one payload wrapped in its own carrier span.
type Carrier struct {
	Operation string
	// Payload is the JSON text of the payload.
	Payload []byte
	// TraceID is the SDK trace id the payload belongs to; SpanID the SDK span id of span carriers.
	TraceID string
	SpanID  string
	// Name is the carrier span name: the span name, else the trace function key, else reprise.<operation>.
	Name    string
	Start   time.Time
	End     time.Time
	IsError bool
}

// Settings configure a Transport. Zero values are not defaults: the caller resolves every field.
type Settings struct {
	URL         string
	APIKey      string
	Protobuf    bool // Collector mode: OTLP/protobuf, and acknowledgments do not prove persistence
	Compression bool

	MaxRequestBytes       int
	Concurrency           int
	MaxQueueSize          int
	MaxExportBatchSize    int
	MaxCarriersPerRequest int
	MaxAttempts           int
	ScheduledDelay        time.Duration
	ExportTimeout         time.Duration
	RequestTimeout        time.Duration
	BackoffBase           time.Duration
	MaxBackoff            time.Duration

	ServiceName string
	ScopeName   string
	Version     string

	// HTTPClient sends the requests; nil means a client of the transport's own.
	HTTPClient *http.Client
	// WarnOnce prints a warning the first time its key is seen.
	WarnOnce func(key, message string)
	// WarnThrottled prints a repeating warning at most once per interval and key.
	WarnThrottled func(key, message string)
}
