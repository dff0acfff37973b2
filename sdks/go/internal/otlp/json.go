package otlp

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"strconv"
)

// JSONCodec is OTLP/JSON with one resourceSpans and one scopeSpans entry per request, the shape the existing SDKs
// send. The envelope before and after the spans is constant, so a request is prefix + spans joined by commas +
// suffix, and its size is known exactly before it is assembled.
type JSONCodec struct {
	prefix []byte
	suffix []byte
}

// NewJSONCodec returns the OTLP/JSON codec for a resource.
func NewJSONCodec(r Resource) *JSONCodec {
	var b bytes.Buffer
	b.WriteString(`{"resourceSpans":[{"resource":{"attributes":[`)
	writeStringAttribute(&b, "service.name", r.ServiceName)
	b.WriteByte(',')
	writeStringAttribute(&b, "service.version", r.Version)
	b.WriteString(`]},"scopeSpans":[{"scope":{"name":`)
	b.Write(QuoteJSON(r.ScopeName))
	b.WriteString(`,"version":`)
	b.Write(QuoteJSON(r.Version))
	b.WriteString(`},"spans":[`)
	return &JSONCodec{prefix: b.Bytes(), suffix: []byte(`]}]}]}`)}
}

// ContentType implements Codec.
func (c *JSONCodec) ContentType() string { return "application/json" }

// EncodeCarrier implements Codec: the span object of one carrier.
func (c *JSONCodec) EncodeCarrier(s Span) []byte {
	traceID, spanID := randomIDs()
	var b bytes.Buffer
	b.Grow(len(s.Payload) + len(s.Payload)/8 + 512)
	b.WriteString(`{"traceId":"`)
	b.WriteString(hex.EncodeToString(traceID[:]))
	b.WriteString(`","spanId":"`)
	b.WriteString(hex.EncodeToString(spanID[:]))
	b.WriteString(`","name":`)
	b.Write(QuoteJSON(s.Name))
	b.WriteString(`,"kind":1,"startTimeUnixNano":"`)
	start, end := unixNano(s.Start), unixNano(s.End)
	if end < start {
		end = start
	}
	b.WriteString(strconv.FormatUint(start, 10))
	b.WriteString(`","endTimeUnixNano":"`)
	b.WriteString(strconv.FormatUint(end, 10))
	b.WriteString(`","attributes":[`)
	writeStringAttribute(&b, OperationAttribute, s.Operation)
	b.WriteByte(',')
	writeStringAttribute(&b, PayloadAttribute, s.Payload)
	b.WriteString(`],"droppedAttributesCount":0,"droppedEventsCount":0,"droppedLinksCount":0,"status":{"code":`)
	if s.IsError {
		b.WriteByte('2')
	} else {
		b.WriteByte('0')
	}
	b.WriteString(`},"flags":1}`)
	return b.Bytes()
}

// RequestSize implements Codec.
func (c *JSONCodec) RequestSize(carrierBytes, count int) int {
	commas := count - 1
	if commas < 0 {
		commas = 0
	}
	return len(c.prefix) + len(c.suffix) + carrierBytes + commas
}

// Assemble implements Codec.
func (c *JSONCodec) Assemble(carriers [][]byte) []byte {
	size := 0
	for _, carrier := range carriers {
		size += len(carrier)
	}
	out := make([]byte, 0, c.RequestSize(size, len(carriers)))
	out = append(out, c.prefix...)
	for i, carrier := range carriers {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, carrier...)
	}
	return append(out, c.suffix...)
}

// ReadResponse implements Codec: `{}`, `{partialSuccess}`, a 2xx `{error}` and Reprise's `traceIds` map.
func (c *JSONCodec) ReadResponse(body []byte) Response {
	return ReadJSONResponse(body)
}

// ReadJSONResponse reads an OTLP/JSON export response; an empty or unreadable body is a full success.
func ReadJSONResponse(body []byte) Response {
	var raw struct {
		Error          json.RawMessage `json:"error"`
		PartialSuccess *struct {
			RejectedSpans json.RawMessage `json:"rejectedSpans"`
			ErrorMessage  string          `json:"errorMessage"`
		} `json:"partialSuccess"`
		TraceIDs map[string]json.RawMessage `json:"traceIds"`
	}
	if len(bytes.TrimSpace(body)) == 0 || json.Unmarshal(body, &raw) != nil {
		return Response{}
	}
	var r Response
	var message string
	if json.Unmarshal(raw.Error, &message) == nil {
		r.Error = message
	}
	if p := raw.PartialSuccess; p != nil {
		r.RejectedSpans = readCount(p.RejectedSpans)
		r.ErrorMessage = p.ErrorMessage
	}
	for source, value := range raw.TraceIDs {
		var server string
		if json.Unmarshal(value, &server) == nil {
			if r.TraceIDs == nil {
				r.TraceIDs = make(map[string]string, len(raw.TraceIDs))
			}
			r.TraceIDs[source] = server
		}
	}
	return r
}

// readCount reads rejectedSpans, which servers send as a number or a decimal string.
func readCount(raw json.RawMessage) int64 {
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		if v, err := n.Int64(); err == nil {
			return v
		}
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if v, err := strconv.ParseInt(s, 10, 64); err == nil {
			return v
		}
	}
	return 0
}

func writeStringAttribute(b *bytes.Buffer, key, value string) {
	b.WriteString(`{"key":`)
	b.Write(QuoteJSON(key))
	b.WriteString(`,"value":{"stringValue":`)
	b.Write(QuoteJSON(value))
	b.WriteString(`}}`)
}

// QuoteJSON encodes s as a JSON string without HTML escaping, so sizes measured on it are the sizes sent.
func QuoteJSON(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	out := b.Bytes()
	return out[:len(out)-1] // Encode appends a newline
}
