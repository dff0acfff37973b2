package transport

import "sync"

// AckState is what the server acknowledged of one watched trace.
type AckState struct {
	// SpanIDs holds the unique SDK span ids whose carriers were acknowledged.
	SpanIDs         map[string]struct{}
	CompletionAcked bool
	ServerTraceID   string
}

// AckTracker records which carriers of watched traces Reprise acknowledged. The OTLP endpoint answers only after
// every accepted carrier persisted, so an acknowledgment is the replay barrier's proof (docs/sdk-transport.md,
// rule 11). Only watched traces are recorded, so ordinary traffic costs nothing here.
type AckTracker struct {
	mu      sync.Mutex
	watched map[string]*AckState
}

// Watch starts recording acknowledgments for a trace id.
func (t *AckTracker) Watch(traceID string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.watched == nil {
		t.watched = make(map[string]*AckState)
	}
	if _, ok := t.watched[traceID]; !ok {
		t.watched[traceID] = &AckState{SpanIDs: make(map[string]struct{})}
	}
}

// Unwatch stops recording a trace id.
func (t *AckTracker) Unwatch(traceID string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.watched, traceID)
}

// Confirmed reports whether a watched trace's completion and at least expected unique spans were acknowledged,
// with the server trace id when the server named one.
func (t *AckTracker) Confirmed(traceID string, expected int) (serverTraceID string, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	state := t.watched[traceID]
	if state == nil || !state.CompletionAcked || len(state.SpanIDs) < expected {
		return "", false
	}
	return state.ServerTraceID, true
}

func (t *AckTracker) record(carriers []*Carrier, serverTraceIDs map[string]string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.watched) == 0 {
		return
	}
	for _, c := range carriers {
		state := t.watched[c.TraceID]
		if state == nil {
			continue
		}
		if c.Operation == OpExternalTrace {
			state.CompletionAcked = true
		} else if c.SpanID != "" {
			state.SpanIDs[c.SpanID] = struct{}{}
		}
		if id, ok := serverTraceIDs[c.TraceID]; ok {
			state.ServerTraceID = id
		}
	}
}
