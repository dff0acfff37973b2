package otlp

import (
	"encoding/json"
	"testing"
	"time"
)

var resource = Resource{ServiceName: "reprise-go-sdk", Version: "1.2.3", ScopeName: "reprise"}

// fields decodes one protobuf message into field number → values (raw bytes for length-delimited fields).
func fields(t *testing.T, message []byte) map[int][]any {
	t.Helper()
	out := map[int][]any{}
	if err := walkFields(message, func(field, wire int, value uint64, data []byte) {
		if wire == wireBytes {
			out[field] = append(out[field], data)
		} else {
			out[field] = append(out[field], value)
		}
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestProtobufCarrierIsAnExportTraceServiceRequest(t *testing.T) {
	codec := NewProtobufCodec(resource)
	start := time.Unix(1_700_000_000, 5)
	one := codec.EncodeCarrier(Span{Name: "call-model", Start: start, End: start.Add(time.Second), Operation: "external_span", Payload: `{"a":1}`, IsError: true})
	two := codec.EncodeCarrier(Span{Name: "k", Operation: "external_trace", Payload: `{}`})
	request := fields(t, codec.Assemble([][]byte{one, two}))
	if len(request[1]) != 2 {
		t.Fatalf("want 2 resource_spans, got %d", len(request[1]))
	}
	resourceSpans := fields(t, request[1][0].([]byte))
	res := fields(t, resourceSpans[1][0].([]byte))
	name := fields(t, res[1][0].([]byte))
	if string(name[1][0].([]byte)) != "service.name" || string(fields(t, name[2][0].([]byte))[1][0].([]byte)) != "reprise-go-sdk" {
		t.Errorf("resource attribute wrong")
	}
	scopeSpans := fields(t, resourceSpans[2][0].([]byte))
	scope := fields(t, scopeSpans[1][0].([]byte))
	if string(scope[1][0].([]byte)) != "reprise" || string(scope[2][0].([]byte)) != "1.2.3" {
		t.Errorf("scope wrong")
	}
	span := fields(t, scopeSpans[2][0].([]byte))
	if len(span[1][0].([]byte)) != 16 || len(span[2][0].([]byte)) != 8 || string(span[5][0].([]byte)) != "call-model" {
		t.Errorf("span ids or name wrong")
	}
	if span[6][0].(uint64) != 1 || span[7][0].(uint64) != uint64(start.UnixNano()) || span[16][0].(uint64) != 1 {
		t.Errorf("kind, start or flags wrong: %v", span)
	}
	op, payload := fields(t, span[9][0].([]byte)), fields(t, span[9][1].([]byte))
	if string(op[1][0].([]byte)) != OperationAttribute || string(fields(t, op[2][0].([]byte))[1][0].([]byte)) != "external_span" {
		t.Errorf("operation attribute wrong")
	}
	if string(fields(t, payload[2][0].([]byte))[1][0].([]byte)) != `{"a":1}` {
		t.Errorf("payload attribute wrong")
	}
	if fields(t, span[15][0].([]byte))[3][0].(uint64) != 2 {
		t.Errorf("status not ERROR")
	}
}

func TestProtobufResponse(t *testing.T) {
	partial := appendTag(nil, 1, wireVarint)
	partial = append(partial, 3)
	partial = appendString(partial, 2, "bad carrier")
	body := appendMessage(nil, 1, partial)
	r := NewProtobufCodec(resource).ReadResponse(body)
	if r.RejectedSpans != 3 || r.ErrorMessage != "bad carrier" {
		t.Fatalf("got %+v", r)
	}
	if r := NewProtobufCodec(resource).ReadResponse(nil); r.RejectedSpans != 0 {
		t.Fatal("empty body is not a success")
	}
}

func TestJSONEnvelopeAndResponse(t *testing.T) {
	codec := NewJSONCodec(resource)
	body := codec.Assemble([][]byte{codec.EncodeCarrier(Span{Name: "n", Operation: "external_span", Payload: `{"x":"<&>"}`})})
	var decoded struct {
		ResourceSpans []struct {
			ScopeSpans []struct {
				Spans []struct {
					TraceID    string `json:"traceId"`
					SpanID     string `json:"spanId"`
					Kind       int    `json:"kind"`
					Attributes []struct {
						Key   string
						Value struct{ StringValue string }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(body, &decoded); err != nil {
		t.Fatal(err)
	}
	span := decoded.ResourceSpans[0].ScopeSpans[0].Spans[0]
	if len(span.TraceID) != 32 || len(span.SpanID) != 16 || span.Kind != 1 || span.Attributes[1].Value.StringValue != `{"x":"<&>"}` {
		t.Fatalf("span wrong: %+v", span)
	}
	r := ReadJSONResponse([]byte(`{"partialSuccess":{"rejectedSpans":"2"},"traceIds":{"a":"b"}}`))
	if r.RejectedSpans != 2 || r.TraceIDs["a"] != "b" {
		t.Fatalf("got %+v", r)
	}
}
