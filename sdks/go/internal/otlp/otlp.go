// Package otlp encodes carrier spans as OTLP ExportTraceServiceRequest messages, in JSON for direct delivery to
// Reprise and in protobuf for an OpenTelemetry Collector, and reads the export responses. It is written by hand so
// the SDK needs nothing beyond the standard library, and so every carrier is encoded exactly once: requests are
// assembled from already-encoded pieces whose total size is known before the request is built.
package otlp

import (
	"crypto/rand"
	"time"
)

// Carrier attribute keys (docs/sdk-transport.md, rule 1).
const (
	OperationAttribute = "reprise.operation"
	PayloadAttribute   = "reprise.payload"
)

// Span is one carrier span: a name, times and the two carrier attributes.
type Span struct {
	Name      string
	Start     time.Time
	End       time.Time
	Operation string
	// Payload is the JSON text of the carrier payload.
	Payload string
	// IsError sets the span status to ERROR (a failure of the user's code, not an SDK capture note).
	IsError bool
}

// Resource describes the sender: the resource's service.name/service.version and the instrumentation scope.
type Resource struct {
	ServiceName string
	Version     string
	ScopeName   string
}

// Response is what an export response says.
type Response struct {
	// Error is a string `error` in a 2xx JSON body: a rejection that is never retried.
	Error string
	// RejectedSpans comes from partialSuccess; a non-zero count fails the request without retry.
	RejectedSpans int64
	ErrorMessage  string
	// TraceIDs is Reprise's {sourceTraceId: serverTraceId} map (JSON responses only).
	TraceIDs map[string]string
}

// Codec encodes carriers and assembles requests for one wire encoding.
type Codec interface {
	// ContentType is the request's Content-Type.
	ContentType() string
	// EncodeCarrier encodes one carrier.
	EncodeCarrier(span Span) []byte
	// RequestSize is the exact size of a request holding count carriers whose encodings total carrierBytes.
	RequestSize(carrierBytes, count int) int
	// Assemble builds a request body from encoded carriers.
	Assemble(carriers [][]byte) []byte
	// ReadResponse reads a 2xx response body.
	ReadResponse(body []byte) Response
}

// randomIDs returns a random 16-byte OTel trace id and 8-byte span id. Carriers are independent roots whose ids
// the server ignores; it reads the ids inside the payload.
func randomIDs() (traceID [16]byte, spanID [8]byte) {
	_, _ = rand.Read(traceID[:])
	_, _ = rand.Read(spanID[:])
	return traceID, spanID
}

func unixNano(t time.Time) uint64 {
	if t.IsZero() {
		t = time.Now()
	}
	n := t.UnixNano()
	if n < 0 {
		return 0
	}
	return uint64(n)
}
