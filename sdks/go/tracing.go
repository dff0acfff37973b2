package reprise

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
)

// SpanType is the kind of a span (docs/replay.md, "Complete"). Anything else is recorded as custom.
type SpanType string

// Span types.
const (
	SpanTypeLLM       SpanType = "llm"
	SpanTypeAgent     SpanType = "agent"
	SpanTypeFunction  SpanType = "function"
	SpanTypeGuardrail SpanType = "guardrail"
	SpanTypeHandoff   SpanType = "handoff"
	SpanTypeCustom    SpanType = "custom"
)

func validSpanType(t SpanType) bool {
	switch t {
	case SpanTypeLLM, SpanTypeAgent, SpanTypeFunction, SpanTypeGuardrail, SpanTypeHandoff, SpanTypeCustom:
		return true
	}
	return false
}

// SpanOption configures one recorded call.
type SpanOption func(*spanConfig)

type spanConfig struct {
	name         string
	typ          SpanType
	functionName string
	input        json.RawMessage
	inputLost    string
	hasInput     bool
	mockOnReplay bool
}

// WithType sets the span type. Trace's root defaults to function, Span to custom; invalid types become custom.
func WithType(t SpanType) SpanOption { return func(c *spanConfig) { c.typ = t } }

// WithSpanName names Trace's root span (default: the trace function key). The trace function key stays the same.
func WithSpanName(name string) SpanOption { return func(c *spanConfig) { c.name = name } }

// WithFunctionName records the Go function the span wraps.
func WithFunctionName(name string) SpanOption { return func(c *spanConfig) { c.functionName = name } }

// WithInput records the span's input: one argument as given, several as a JSON array. Replay hands the recorded
// input back to the function as JSON. Values encoding/json cannot encode are recorded as strings, and the span
// notes that its capture was degraded.
func WithInput(args ...any) SpanOption {
	return func(c *spanConfig) {
		var value any = args
		if len(args) == 1 {
			value = args[0]
		}
		c.input, c.inputLost = encodeValue(value)
		c.hasInput = true
	}
}

func newSpanConfig(name string, typ SpanType, opts []SpanOption) spanConfig {
	c := spanConfig{name: name, typ: typ}
	for _, opt := range opts {
		if opt != nil {
			opt(&c)
		}
	}
	if !validSpanType(c.typ) {
		c.typ = SpanTypeCustom
	}
	return c
}

// Trace runs fn as a trace of traceFunctionKey and returns fn's result and error unchanged. Called inside another
// trace it records a child span of that trace instead. A nil client means the default client (SetDefault); with
// no client, or without an API key, fn just runs.
//
// The root span's output is fn's result (its error when it fails); record the input with WithInput. Spans and the
// completion are delivered in the background: nothing on fn's path waits for the network.
func Trace[T any](ctx context.Context, c *Client, traceFunctionKey string, fn func(context.Context) (T, error), opts ...SpanOption) (T, error) {
	if c == nil {
		c = Default()
	}
	if c == nil || !c.enabled {
		f := frameFrom(ctx)
		if f == nil || f.trace == nil {
			return fn(ctx)
		}
		c = f.trace.client // a child of the active trace is recorded by that trace's client
	}
	config := newSpanConfig(traceFunctionKey, SpanTypeFunction, opts)
	spanCtx, active := c.begin(ctx, runSpec{config: config, instrumentation: "trace", root: &rootSpec{key: traceFunctionKey, ingestionType: "captured"}})
	if active == nil {
		return fn(ctx)
	}
	return runActive(spanCtx, active, fn)
}

// Span runs fn as a child span named name of the trace active in ctx, and returns fn's result and error unchanged.
// Outside a trace it just runs fn. Pass ctx on to fn's callees, including goroutines started inside: the trace
// completes only when every span started inside it has ended.
func Span[T any](ctx context.Context, name string, fn func(context.Context) (T, error), opts ...SpanOption) (T, error) {
	f := frameFrom(ctx)
	if f == nil || f.trace == nil {
		return fn(ctx)
	}
	config := newSpanConfig(name, SpanTypeCustom, opts)
	spanCtx, active := f.trace.client.begin(ctx, runSpec{config: config, instrumentation: "span"})
	if active == nil {
		return fn(ctx)
	}
	if value, ok := servedFromRecording[T](active); ok {
		return value, nil
	}
	return runActive(spanCtx, active, fn)
}

// errPanicked is recorded on a span whose function panicked; the panic itself goes on unchanged.
var errPanicked = errors.New("panic")

func runActive[T any](ctx context.Context, active *activeSpan, fn func(context.Context) (T, error)) (T, error) {
	returned := false
	defer func() {
		if !returned {
			active.end(nil, errPanicked) // the panic keeps unwinding: it is the application's
		}
	}()
	result, err := fn(ctx)
	returned = true
	active.end(result, err)
	return result, err
}

// ActiveSpan is a span opened with StartTrace or StartSpan. End must be called exactly once; a nil *ActiveSpan
// (nothing recorded) is safe to end.
type ActiveSpan struct {
	active *activeSpan
	once   sync.Once
}

// StartTrace opens the root span of a trace of traceFunctionKey (a child span when ctx is inside a trace) and
// returns the context to run the traced work in. Prefer Trace; use this when the work cannot be one function.
func StartTrace(ctx context.Context, c *Client, traceFunctionKey string, opts ...SpanOption) (context.Context, *ActiveSpan) {
	if c == nil {
		c = Default()
	}
	if c == nil || !c.enabled {
		f := frameFrom(ctx)
		if f == nil || f.trace == nil {
			return ctx, nil
		}
		c = f.trace.client
	}
	config := newSpanConfig(traceFunctionKey, SpanTypeFunction, opts)
	spanCtx, active := c.begin(ctx, runSpec{config: config, instrumentation: "trace", root: &rootSpec{key: traceFunctionKey, ingestionType: "captured"}})
	if active == nil {
		return ctx, nil
	}
	return spanCtx, &ActiveSpan{active: active}
}

// StartSpan opens a child span of the trace active in ctx (nil outside a trace). It is the way to record work
// that outlives its parent: open the span before starting the goroutine, end it inside, and the trace's
// completion waits for it.
//
//	spanCtx, span := reprise.StartSpan(ctx, "index", reprise.WithType(reprise.SpanTypeFunction))
//	go func() { n, err := index(spanCtx); span.End(n, err) }()
func StartSpan(ctx context.Context, name string, opts ...SpanOption) (context.Context, *ActiveSpan) {
	f := frameFrom(ctx)
	if f == nil || f.trace == nil {
		return ctx, nil
	}
	config := newSpanConfig(name, SpanTypeCustom, opts)
	spanCtx, active := f.trace.client.begin(ctx, runSpec{config: config, instrumentation: "span"})
	if active == nil {
		return ctx, nil
	}
	return spanCtx, &ActiveSpan{active: active}
}

// End records the span's output (or err) and ends it. Later calls do nothing.
func (s *ActiveSpan) End(output any, err error) {
	if s == nil {
		return
	}
	s.once.Do(func() { s.active.end(output, err) })
}
