package reprise

import (
	"encoding/json"
	"fmt"

	"github.com/reprise/reprise/sdks/go/internal/transport"
)

// payloadError is an entry of a payload's `errors` list (docs/api/ingestion.md, "Span payload").
type payloadError struct {
	Source string `json:"source"`
	Step   string `json:"step,omitempty"`
	Error  string `json:"error"`
}

// encodeValue encodes a value as plain JSON with encoding/json, the Go SDK's value encoding. What encoding/json
// cannot encode (channels, functions, cycles, NaN, a MarshalJSON that fails or panics) is coerced to its fmt
// string, and the Go type is returned in lost so the span can say its capture was degraded.
func encodeValue(v any) (encoded json.RawMessage, lost string) {
	defer func() {
		if r := recover(); r != nil {
			encoded, lost = quoteString(fmt.Sprintf("<unserializable: %T>", v)), fmt.Sprintf("%T", v)
		}
	}()
	if b, err := marshalJSON(v); err == nil {
		return b, ""
	}
	return quoteString(fmt.Sprintf("%+v", v)), fmt.Sprintf("%T", v)
}

// marshalJSON is json.Marshal without HTML escaping.
func marshalJSON(v any) ([]byte, error) { return transport.MarshalNoEscape(v) }

func quoteString(s string) json.RawMessage {
	b, _ := marshalJSON(s)
	return b
}

func degraded(field, lost string) payloadError {
	return payloadError{
		Source: "sdk",
		Step:   "serialization_degraded",
		Error:  fmt.Sprintf("non-replayable: could not faithfully capture %s: %s", field, lost),
	}
}
