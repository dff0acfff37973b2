package otlp

import (
	"encoding/binary"
	"math"
)

// ProtobufCodec is OTLP/protobuf for Collector mode. Each carrier is encoded as a whole one-span
// ExportTraceServiceRequest; concatenated protobuf messages merge and repeated fields append, so a request is the
// plain concatenation of its carriers (one resource_spans entry per carrier) and its size is their sum.
type ProtobufCodec struct {
	resource []byte // encoded Resource message
	scope    []byte // encoded InstrumentationScope message
}

// Field numbers of opentelemetry/proto/trace/v1/trace.proto and common/v1/common.proto.
const (
	fieldRequestResourceSpans = 1 // ExportTraceServiceRequest.resource_spans
	fieldResourceSpansRes     = 1 // ResourceSpans.resource
	fieldResourceSpansScope   = 2 // ResourceSpans.scope_spans
	fieldResourceAttributes   = 1 // Resource.attributes
	fieldScopeSpansScope      = 1 // ScopeSpans.scope
	fieldScopeSpansSpans      = 2 // ScopeSpans.spans
	fieldScopeName            = 1 // InstrumentationScope.name
	fieldScopeVersion         = 2 // InstrumentationScope.version
	fieldSpanTraceID          = 1
	fieldSpanSpanID           = 2
	fieldSpanName             = 5
	fieldSpanKind             = 6
	fieldSpanStart            = 7 // fixed64
	fieldSpanEnd              = 8 // fixed64
	fieldSpanAttributes       = 9
	fieldSpanStatus           = 15
	fieldSpanFlags            = 16 // fixed32
	fieldStatusCode           = 3
	fieldKeyValueKey          = 1
	fieldKeyValueValue        = 2
	fieldAnyValueString       = 1
	spanKindInternal          = 1
	statusCodeError           = 2
	traceFlagSampled          = 1
	wireVarint                = 0
	wireFixed64               = 1
	wireBytes                 = 2
	wireFixed32               = 5
)

// NewProtobufCodec returns the OTLP/protobuf codec for a resource.
func NewProtobufCodec(r Resource) *ProtobufCodec {
	var resource []byte
	resource = appendMessage(resource, fieldResourceAttributes, stringKeyValue("service.name", r.ServiceName))
	resource = appendMessage(resource, fieldResourceAttributes, stringKeyValue("service.version", r.Version))
	var scope []byte
	scope = appendString(scope, fieldScopeName, r.ScopeName)
	scope = appendString(scope, fieldScopeVersion, r.Version)
	return &ProtobufCodec{resource: resource, scope: scope}
}

// ContentType implements Codec.
func (c *ProtobufCodec) ContentType() string { return "application/x-protobuf" }

// EncodeCarrier implements Codec.
func (c *ProtobufCodec) EncodeCarrier(s Span) []byte {
	traceID, spanID := randomIDs()
	start, end := unixNano(s.Start), unixNano(s.End)
	if end < start {
		end = start
	}
	span := make([]byte, 0, len(s.Payload)+256)
	span = appendBytes(span, fieldSpanTraceID, traceID[:])
	span = appendBytes(span, fieldSpanSpanID, spanID[:])
	span = appendString(span, fieldSpanName, s.Name)
	span = appendTag(span, fieldSpanKind, wireVarint)
	span = binary.AppendUvarint(span, spanKindInternal)
	span = appendTag(span, fieldSpanStart, wireFixed64)
	span = binary.LittleEndian.AppendUint64(span, start)
	span = appendTag(span, fieldSpanEnd, wireFixed64)
	span = binary.LittleEndian.AppendUint64(span, end)
	span = appendMessage(span, fieldSpanAttributes, stringKeyValue(OperationAttribute, s.Operation))
	span = appendMessage(span, fieldSpanAttributes, stringKeyValue(PayloadAttribute, s.Payload))
	if s.IsError {
		status := appendTag(nil, fieldStatusCode, wireVarint)
		status = binary.AppendUvarint(status, statusCodeError)
		span = appendMessage(span, fieldSpanStatus, status)
	}
	span = appendTag(span, fieldSpanFlags, wireFixed32)
	span = binary.LittleEndian.AppendUint32(span, traceFlagSampled)

	scopeSpans := appendMessage(nil, fieldScopeSpansScope, c.scope)
	scopeSpans = appendMessage(scopeSpans, fieldScopeSpansSpans, span)
	resourceSpans := appendMessage(nil, fieldResourceSpansRes, c.resource)
	resourceSpans = appendMessage(resourceSpans, fieldResourceSpansScope, scopeSpans)
	return appendMessage(nil, fieldRequestResourceSpans, resourceSpans)
}

// RequestSize implements Codec.
func (c *ProtobufCodec) RequestSize(carrierBytes, _ int) int { return carrierBytes }

// Assemble implements Codec.
func (c *ProtobufCodec) Assemble(carriers [][]byte) []byte {
	size := 0
	for _, carrier := range carriers {
		size += len(carrier)
	}
	out := make([]byte, 0, size)
	for _, carrier := range carriers {
		out = append(out, carrier...)
	}
	return out
}

// ReadResponse implements Codec: ExportTraceServiceResponse.partial_success {rejected_spans = 1, error_message = 2}.
// An empty or undecodable body is a full success (Collectors may answer with an empty body).
func (c *ProtobufCodec) ReadResponse(body []byte) Response {
	var r Response
	partial, ok := findBytesField(body, 1)
	if !ok {
		return r
	}
	_ = walkFields(partial, func(field int, wire int, value uint64, data []byte) {
		switch {
		case field == 1 && wire == wireVarint && value <= math.MaxInt64:
			r.RejectedSpans = int64(value)
		case field == 2 && wire == wireBytes:
			r.ErrorMessage = string(data)
		}
	})
	return r
}

func stringKeyValue(key, value string) []byte {
	anyValue := appendString(nil, fieldAnyValueString, value)
	kv := appendString(nil, fieldKeyValueKey, key)
	return appendMessage(kv, fieldKeyValueValue, anyValue)
}

func appendTag(b []byte, field, wire int) []byte {
	return binary.AppendUvarint(b, uint64(field)<<3|uint64(wire))
}

func appendBytes(b []byte, field int, value []byte) []byte {
	b = appendTag(b, field, wireBytes)
	b = binary.AppendUvarint(b, uint64(len(value)))
	return append(b, value...)
}

func appendString(b []byte, field int, value string) []byte {
	b = appendTag(b, field, wireBytes)
	b = binary.AppendUvarint(b, uint64(len(value)))
	return append(b, value...)
}

func appendMessage(b []byte, field int, message []byte) []byte {
	return appendBytes(b, field, message)
}

// findBytesField returns the last length-delimited occurrence of a field (protobuf merge semantics for messages
// are close enough for a response holding one partial_success).
func findBytesField(message []byte, field int) ([]byte, bool) {
	var found []byte
	ok := false
	_ = walkFields(message, func(f int, wire int, _ uint64, data []byte) {
		if f == field && wire == wireBytes {
			found, ok = data, true
		}
	})
	return found, ok
}

// walkFields calls visit for each field of a protobuf message; it stops at the first malformed field.
func walkFields(message []byte, visit func(field, wire int, value uint64, data []byte)) error {
	for len(message) > 0 {
		tag, n := binary.Uvarint(message)
		if n <= 0 {
			return errMalformed
		}
		message = message[n:]
		field, wire := int(tag>>3), int(tag&7)
		switch wire {
		case wireVarint:
			v, m := binary.Uvarint(message)
			if m <= 0 {
				return errMalformed
			}
			visit(field, wire, v, nil)
			message = message[m:]
		case wireFixed64:
			if len(message) < 8 {
				return errMalformed
			}
			visit(field, wire, binary.LittleEndian.Uint64(message), nil)
			message = message[8:]
		case wireFixed32:
			if len(message) < 4 {
				return errMalformed
			}
			visit(field, wire, uint64(binary.LittleEndian.Uint32(message)), nil)
			message = message[4:]
		case wireBytes:
			length, m := binary.Uvarint(message)
			if m <= 0 || uint64(len(message)-m) < length {
				return errMalformed
			}
			visit(field, wire, 0, message[m:m+int(length)])
			message = message[m+int(length):]
		default:
			return errMalformed
		}
	}
	return nil
}

type malformedError struct{}

func (malformedError) Error() string { return "malformed protobuf" }

var errMalformed error = malformedError{}
