package reprise

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"sync"
	"time"
)

// replayAttribution marks a trace run by the replay runner.
type replayAttribution struct {
	testRunID          string
	inputSourceSpanID  string
	inputSourceTraceID string
	attempt            int
	mocks              *replayMocks
}

// completionInfo is what a trace's completion carried once handed to the transport.
type completionInfo struct {
	expectedSpanCount int
	dropped           bool
	sent              bool
}

// traceState is one running trace. Its fields are guarded by mu: spans of a trace may end on other goroutines.
type traceState struct {
	client        *Client
	id            string
	key           string
	ingestionType string
	replay        *replayAttribution
	startedAt     time.Time

	mu                sync.Mutex
	endedAt           time.Time
	name              *string
	sessionID         *string
	metadata          map[string]json.RawMessage
	contexts          []json.RawMessage
	dropped           bool
	open              int
	rootEnded         bool
	sentSpans         int
	completionStarted bool
	completion        completionInfo
	completed         chan struct{} // closed once the completion was handed to the transport (or skipped)
}

func newTraceState(c *Client, id, key, ingestionType string, replay *replayAttribution) *traceState {
	if id == "" {
		id = newUUID()
	}
	return &traceState{
		client: c, id: id, key: key, ingestionType: ingestionType, replay: replay, startedAt: time.Now(),
		metadata: map[string]json.RawMessage{}, completed: make(chan struct{}),
	}
}

// spanState is one running span; its mutable fields are guarded by mu.
type spanState struct {
	id              string
	parentID        string
	instrumentation string
	startedAt       time.Time
	replayRoot      bool

	mu           sync.Mutex
	name         string
	typ          SpanType
	functionName string
	input        json.RawMessage
	output       json.RawMessage
	errMessage   string
	hasError     bool
	prompt       *string
	contexts     []json.RawMessage
	errors       []payloadError
	endedAt      time.Time
	claimed      bool
	mocked       bool
}

func (s *spanState) setInput(v json.RawMessage, lost string) {
	s.input = v
	if lost != "" {
		s.errors = append(s.errors, degraded("input", lost))
	}
}

func (s *spanState) setOutput(v any) {
	encoded, lost := encodeValue(v)
	s.output = encoded
	if lost != "" {
		s.errors = append(s.errors, degraded("output", lost))
	}
}

// newUUID returns a random UUID v4, lowercase and hyphenated.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var out [36]byte
	hex.Encode(out[0:8], b[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], b[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], b[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], b[8:10])
	out[23] = '-'
	hex.Encode(out[24:], b[10:])
	return string(out[:])
}

// isoTime formats a timestamp as ISO-8601 UTC with microseconds.
func isoTime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000000Z")
}
