package reprise

import (
	"context"
	"encoding/json"
)

// TraceHandle is the trace active in a context. Every method is a no-op on a nil handle (outside a trace), so
// instrumented code runs the same with tracing off. Changes after the trace completed are ignored with a warning;
// use Client.UpdateTrace for those.
type TraceHandle struct{ trace *traceState }

// SpanHandle is the span active in a context; its methods are no-ops on a nil handle.
type SpanHandle struct{ span *spanState }

// CurrentTrace returns the trace active in ctx, or nil outside a trace.
func CurrentTrace(ctx context.Context) *TraceHandle {
	if f := frameFrom(ctx); f != nil && f.trace != nil {
		return &TraceHandle{trace: f.trace}
	}
	return nil
}

// CurrentSpan returns the span active in ctx, or nil outside a span.
func CurrentSpan(ctx context.Context) *SpanHandle {
	if f := frameFrom(ctx); f != nil && f.span != nil {
		return &SpanHandle{span: f.span}
	}
	return nil
}

// ID is the canonical trace id (a UUID), or "" outside a trace.
func (h *TraceHandle) ID() string {
	if h == nil {
		return ""
	}
	return h.trace.id
}

// SetName sets the trace title shown in the console and matched by trace search.
func (h *TraceHandle) SetName(name string) *TraceHandle {
	return h.update(func(t *traceState) { t.name = &name })
}

// SetSessionID groups the trace under a user session.
func (h *TraceHandle) SetSessionID(sessionID string) *TraceHandle {
	return h.update(func(t *traceState) { t.sessionID = &sessionID })
}

// MergeMetadata shallow-merges keys into the trace metadata; matching keys are replaced. Values are encoded now.
func (h *TraceHandle) MergeMetadata(metadata map[string]any) *TraceHandle {
	encoded := make(map[string]json.RawMessage, len(metadata))
	for k, v := range metadata {
		encoded[k], _ = encodeValue(v)
	}
	return h.update(func(t *traceState) {
		for k, v := range encoded {
			t.metadata[k] = v
		}
	})
}

// AddContext appends one context object to the trace's contexts.
func (h *TraceHandle) AddContext(context map[string]any) *TraceHandle {
	encoded, _ := encodeValue(context)
	return h.update(func(t *traceState) { t.contexts = append(t.contexts, encoded) })
}

// Drop drops the trace: spans that end from now on are not sent, and the completion tells the server to scrub
// what it already received.
func (h *TraceHandle) Drop() *TraceHandle {
	return h.update(func(t *traceState) { t.dropped = true })
}

func (h *TraceHandle) update(change func(t *traceState)) *TraceHandle {
	if h == nil {
		return h
	}
	t := h.trace
	t.mu.Lock()
	late := t.completionStarted
	if !late {
		change(t)
	}
	t.mu.Unlock()
	if late {
		t.client.warn.warnOnce("trace-after-completion", "A trace was changed after it completed; use UpdateTrace for late updates.")
	}
	return h
}

// ID is the span id, or "" outside a span.
func (h *SpanHandle) ID() string {
	if h == nil {
		return ""
	}
	return h.span.id
}

// AddContext appends one context object to the span. Token usage and model go here, for example
// {"model": "m", "inputTokens": 12, "outputTokens": 3}: Reprise derives tokens and model from span contexts.
func (h *SpanHandle) AddContext(context map[string]any) *SpanHandle {
	if h == nil {
		return h
	}
	encoded, _ := encodeValue(context)
	h.span.mu.Lock()
	h.span.contexts = append(h.span.contexts, encoded)
	h.span.mu.Unlock()
	return h
}

// SetPrompt records the prompt the span sent.
func (h *SpanHandle) SetPrompt(prompt string) *SpanHandle {
	if h == nil {
		return h
	}
	h.span.mu.Lock()
	h.span.prompt = &prompt
	h.span.mu.Unlock()
	return h
}
