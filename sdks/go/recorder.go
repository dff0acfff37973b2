package reprise

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/reprise/reprise/sdks/go/internal/transport"
)

// runSpec says how to record one call.
type runSpec struct {
	config          spanConfig
	instrumentation string
	// root is set for Trace: the trace to start when none is active. Nil for Span.
	root *rootSpec
}

type rootSpec struct {
	key           string
	ingestionType string
}

// activeSpan is a span being recorded; a claimed one stands for the replay runner's root and ends with it.
type activeSpan struct {
	trace   *traceState
	span    *spanState
	claimed bool
	// recorded is the original's output for this span during a replay (see WithMockOnReplay).
	recorded     json.RawMessage
	mockOnReplay bool
}

// begin opens a span in ctx's trace, or a new trace for a root spec. It returns a nil span when the call is not to
// be recorded (no trace for a Span, tracing disabled, or an internal failure: the function then runs untraced).
func (c *Client) begin(ctx context.Context, spec runSpec) (_ context.Context, active *activeSpan) {
	defer func() {
		if r := recover(); r != nil {
			c.warn.warnThrottled("internal", fmt.Sprintf("Tracing failed internally and was skipped: %v", r))
			active = nil
		}
	}()
	f := frameFrom(ctx)
	var t *traceState
	parentID := ""
	if f != nil && f.trace != nil {
		t = f.trace
		if f.span != nil {
			parentID = f.span.id
		}
		if spec.root != nil && f.span != nil && f.span.replayRoot && t.key == spec.root.key && f.span.claim(spec.config) {
			return ctx, &activeSpan{trace: t, span: f.span, claimed: true}
		}
	}
	if t == nil {
		if spec.root == nil || c == nil || !c.enabled {
			return ctx, nil
		}
		t = c.startTrace(f, spec.root)
	}
	s := &spanState{
		id: newUUID(), parentID: parentID, instrumentation: spec.instrumentation, startedAt: time.Now(),
		name: spec.config.name, typ: spec.config.typ, functionName: spec.config.functionName,
	}
	if spec.config.hasInput {
		s.setInput(spec.config.input, spec.config.inputLost)
	}
	t.mu.Lock()
	t.open++
	t.mu.Unlock()
	active = &activeSpan{trace: t, span: s, mockOnReplay: spec.config.mockOnReplay}
	if parentID != "" && t.replay != nil {
		active.recorded = t.replay.mocks.next(s.name)
	}
	return withFrame(ctx, &frame{trace: t, span: s}), active
}

// startTrace starts a trace, taking the id and attribution of a pending replay when the runner set one.
func (c *Client) startTrace(f *frame, root *rootSpec) *traceState {
	if f != nil && f.pending != nil {
		if pending := f.pending.take(); pending != nil {
			t := newTraceState(c, pending.traceID, root.key, root.ingestionType, &pending.attribution)
			pending.started(t)
			return t
		}
	}
	return newTraceState(c, "", root.key, root.ingestionType, nil)
}

// claim lets the first Trace of the replayed trace function inside the runner's root stand for that root: its
// name, type and input replace the runner's, and no extra level is recorded.
func (s *spanState) claim(cfg spanConfig) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.claimed {
		return false
	}
	s.claimed = true
	s.name, s.typ, s.functionName = cfg.name, cfg.typ, cfg.functionName
	if cfg.hasInput {
		s.input = cfg.input
	}
	return true
}

// end records the outcome, submits the span and, when it was the last open span of a finished root, the trace
// completion. SDK failures are logged, never raised.
func (a *activeSpan) end(output any, err error) {
	if a == nil || a.claimed {
		return
	}
	t, s := a.trace, a.span
	c := t.client
	defer func() {
		if r := recover(); r != nil {
			c.warn.warnThrottled("internal", fmt.Sprintf("Tracing failed internally and was skipped: %v", r))
		}
		c.spanEnded(t, s)
	}()
	s.mu.Lock()
	s.endedAt = time.Now()
	if err != nil {
		s.hasError, s.errMessage = true, err.Error()
	} else {
		s.setOutput(output)
	}
	hasError := s.hasError
	name := s.name
	s.mu.Unlock()
	t.mu.Lock()
	dropped := t.dropped
	t.mu.Unlock()
	if dropped {
		return
	}
	c.gate.submitSpan(&spanSubmission{
		build:            func(contentOff bool) *transport.Carrier { return buildSpanCarrier(t, s, contentOff) },
		traceFunctionKey: t.key,
		spanName:         name,
		isRoot:           s.parentID == "",
		hasError:         hasError,
		sent: func(sent bool) {
			if sent {
				t.mu.Lock()
				t.sentSpans++
				t.mu.Unlock()
			}
		},
	})
}

// spanEnded counts the span out and sends the completion once the root ended and no span of the trace is still
// running (docs/sdk-transport.md, "Completion"): a background child keeps the completion back.
func (c *Client) spanEnded(t *traceState, s *spanState) {
	t.mu.Lock()
	t.open--
	if s.parentID == "" {
		t.rootEnded = true
	}
	ready := t.rootEnded && t.open <= 0 && !t.completionStarted
	if ready {
		t.completionStarted = true
		t.endedAt = time.Now()
	}
	t.mu.Unlock()
	if ready {
		c.complete(t)
	}
}

// complete submits the completion once every span submitted before it was decided by the sim plan gate, so its
// expectedSpanCount is the number of span carriers actually submitted.
func (c *Client) complete(t *traceState) {
	finished := false
	finish := func(sent bool) {
		if finished {
			return
		}
		finished = true
		t.mu.Lock()
		t.completion.sent = sent
		t.mu.Unlock()
		close(t.completed)
	}
	run := func() {
		defer func() {
			if r := recover(); r != nil {
				c.warn.warnThrottled("internal", fmt.Sprintf("Tracing failed internally and was skipped: %v", r))
				finish(false)
			}
		}()
		t.mu.Lock()
		carrier := buildCompletionCarrier(t)
		t.completion = completionInfo{expectedSpanCount: t.sentSpans, dropped: t.dropped}
		t.mu.Unlock()
		finish(carrier != nil && c.transport.Submit(carrier))
	}
	c.gate.afterPending(run)
}
