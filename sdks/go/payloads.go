package reprise

import (
	"encoding/json"
	"time"

	"github.com/reprise/reprise/sdks/go/internal/transport"
)

// Identity of this SDK on the wire.
const (
	// Version is the SDK version, sent as sdkVersion and in the OTLP resource.
	Version       = "0.1.0"
	sdkOriginName = "reprise.sdk.go"
	sdkSource     = "go-sdk-function"
	serviceName   = "reprise-go-sdk"
	scopeName     = "reprise"
)

type spanPayload struct {
	ID               string         `json:"id"`
	TraceID          string         `json:"traceId"`
	Type             string         `json:"type"`
	Source           string         `json:"source"`
	SourceTraceID    string         `json:"sourceTraceId"`
	TraceFunctionKey string         `json:"traceFunctionKey"`
	SDKVersion       string         `json:"sdkVersion"`
	TestRunID        string         `json:"testRunId,omitempty"`
	ExperimentID     string         `json:"experimentId,omitempty"`
	Mocked           bool           `json:"mocked,omitempty"`
	MockTarget       string         `json:"mockTarget,omitempty"`
	MockSource       string         `json:"mockSource,omitempty"`
	Errors           []payloadError `json:"errors,omitempty"`
	RawSpan          rawSpan        `json:"rawSpan"`
}

type rawSpan struct {
	ID                string     `json:"id"`
	TraceID           string     `json:"trace_id"`
	ParentID          string     `json:"parent_id,omitempty"` // roots leave it out
	StartedAt         string     `json:"started_at"`
	EndedAt           string     `json:"ended_at"`
	InputSourceSpanID string     `json:"input_source_span_id,omitempty"`
	SpanOrigin        spanOrigin `json:"span_origin"`
	SpanData          spanData   `json:"span_data"`
}

type spanOrigin struct {
	Name            string          `json:"name"`
	Version         string          `json:"version"`
	Instrumentation instrumentation `json:"instrumentation"`
}

type instrumentation struct {
	Name string `json:"name"`
}

type spanData struct {
	Name         string            `json:"name"`
	Type         SpanType          `json:"type"`
	FunctionName string            `json:"function_name,omitempty"`
	Input        json.RawMessage   `json:"input,omitempty"`
	Output       json.RawMessage   `json:"output,omitempty"`
	Error        string            `json:"error,omitempty"`
	ErrorSource  string            `json:"error_source,omitempty"`
	Contexts     []json.RawMessage `json:"contexts,omitempty"`
	Prompt       *string           `json:"prompt,omitempty"`
	ContentOff   bool              `json:"content_off_by_simulation_plan,omitempty"`
}

// buildSpanCarrier builds the external_span carrier of a finished span. With contentOff, the sim plan withholds
// input, output and prompt and the span is flagged content_off_by_simulation_plan.
func buildSpanCarrier(t *traceState, s *spanState, contentOff bool) *transport.Carrier {
	s.mu.Lock()
	data := spanData{Name: s.name, Type: s.typ, FunctionName: s.functionName, Contexts: s.contexts}
	if contentOff {
		data.ContentOff = true
	} else {
		data.Input, data.Output, data.Prompt = s.input, s.output, s.prompt
	}
	if s.hasError {
		data.Error, data.ErrorSource = s.errMessage, "code"
	}
	payload := spanPayload{
		ID: s.id, TraceID: t.id, Type: "sdk-function", Source: sdkSource, SourceTraceID: t.id,
		TraceFunctionKey: t.key, SDKVersion: Version, Errors: s.errors,
		RawSpan: rawSpan{
			ID: s.id, TraceID: t.id, ParentID: s.parentID, StartedAt: isoTime(s.startedAt), EndedAt: isoTime(s.endedAt),
			SpanOrigin: spanOrigin{Name: sdkOriginName, Version: Version, Instrumentation: instrumentation{Name: s.instrumentation}},
			SpanData:   data,
		},
	}
	if t.replay != nil {
		payload.TestRunID, payload.ExperimentID = t.replay.testRunID, t.replay.testRunID
		payload.RawSpan.InputSourceSpanID = t.replay.inputSourceSpanID
	}
	if s.mocked {
		payload.Mocked, payload.MockTarget, payload.MockSource = true, "output", "recorded"
	}
	name := s.name
	start, end, isError := s.startedAt, s.endedAt, s.hasError
	encoded, err := marshalJSON(payload)
	s.mu.Unlock()
	if err != nil {
		return nil
	}
	return &transport.Carrier{
		Operation: transport.OpExternalSpan, Payload: encoded, TraceID: t.id, SpanID: s.id,
		Name: carrierName(name, t.key, transport.OpExternalSpan), Start: start, End: end, IsError: isError,
	}
}

type tracePayload struct {
	ID                string        `json:"id"`
	Type              string        `json:"type"`
	Source            string        `json:"source"`
	TraceFunctionKey  string        `json:"traceFunctionKey"`
	Completed         bool          `json:"completed"`
	SDKVersion        string        `json:"sdkVersion"`
	IngestionType     string        `json:"ingestion_type"`
	TestRunID         string        `json:"testRunId,omitempty"`
	ExperimentID      string        `json:"experimentId,omitempty"`
	Name              *string       `json:"name,omitempty"`
	SessionID         *string       `json:"sessionId,omitempty"`
	Dropped           bool          `json:"dropped,omitempty"`
	ExpectedSpanCount *int          `json:"expectedSpanCount,omitempty"`
	ExternalTrace     externalTrace `json:"externalTrace"`
}

type externalTrace struct {
	ID                 string                     `json:"id"`
	StartedAt          string                     `json:"started_at"`
	EndedAt            string                     `json:"ended_at"`
	WorkflowName       string                     `json:"workflow_name"`
	IngestionType      string                     `json:"ingestion_type"`
	Name               *string                    `json:"name,omitempty"`
	Metadata           map[string]json.RawMessage `json:"metadata,omitempty"`
	Contexts           []json.RawMessage          `json:"contexts,omitempty"`
	InputSourceTraceID string                     `json:"input_source_trace_id,omitempty"`
	ReplayAttempt      *int                       `json:"replay_attempt,omitempty"`
}

// buildCompletionCarrier builds the external_trace completion carrier; expectedSpanCount is the number of span
// carriers actually submitted for the trace. Callers hold t.mu.
func buildCompletionCarrier(t *traceState) *transport.Carrier {
	ended := t.endedAt
	if ended.IsZero() {
		ended = time.Now()
	}
	external := externalTrace{
		ID: t.id, StartedAt: isoTime(t.startedAt), EndedAt: isoTime(ended), WorkflowName: t.key,
		IngestionType: t.ingestionType, Name: t.name, Metadata: t.metadata, Contexts: t.contexts,
	}
	payload := tracePayload{
		ID: t.id, Type: "sdk-function", Source: sdkSource, TraceFunctionKey: t.key, Completed: true,
		SDKVersion: Version, IngestionType: t.ingestionType, Name: t.name, SessionID: t.sessionID,
		ExternalTrace: external,
	}
	if t.replay != nil {
		payload.TestRunID, payload.ExperimentID = t.replay.testRunID, t.replay.testRunID
		attempt := t.replay.attempt
		payload.ExternalTrace.InputSourceTraceID, payload.ExternalTrace.ReplayAttempt = t.replay.inputSourceTraceID, &attempt
	}
	if t.dropped {
		payload.Dropped = true
	} else {
		count := t.sentSpans
		payload.ExpectedSpanCount = &count
	}
	encoded, err := marshalJSON(payload)
	if err != nil {
		return nil
	}
	return &transport.Carrier{
		Operation: transport.OpExternalTrace, Payload: encoded, TraceID: t.id,
		Name: carrierName("", t.key, transport.OpExternalTrace), Start: t.startedAt, End: ended,
	}
}

// carrierName is the span name, else the trace function key, else reprise.<operation>.
func carrierName(spanName, key, operation string) string {
	switch {
	case spanName != "":
		return spanName
	case key != "":
		return key
	default:
		return "reprise." + operation
	}
}
