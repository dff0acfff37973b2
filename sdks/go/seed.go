package reprise

import (
	"context"
	"errors"
)

// Seed is a case written as a `seeded` trace, for example a hand-written input and its expected output.
type Seed struct {
	TraceFunctionKey string
	// Input is what the function would receive; it is recorded as given.
	Input any
	// Output is the expected or recorded output.
	Output any
	// Name is the trace title.
	Name string
	// SpanName names the root span; default the trace function key.
	SpanName  string
	Type      SpanType
	Metadata  map[string]any
	Contexts  []map[string]any
	SessionID string
}

// SeedTrace records a seeded trace from a case, flushes it, and returns its canonical id. The error is non-nil
// when the client has no API key or the trace could not be delivered.
func (c *Client) SeedTrace(ctx context.Context, seed Seed) (string, error) {
	if c == nil || !c.enabled {
		return "", ErrNoAPIKey
	}
	if c.Closed() {
		return "", ErrClosed
	}
	name := seed.SpanName
	if name == "" {
		name = seed.TraceFunctionKey
	}
	typ := seed.Type
	if typ == "" {
		typ = SpanTypeFunction
	}
	config := newSpanConfig(name, typ, []SpanOption{WithInput(seed.Input)})
	spanCtx, active := c.begin(context.Background(), runSpec{
		config: config, instrumentation: "trace", root: &rootSpec{key: seed.TraceFunctionKey, ingestionType: "seeded"},
	})
	if active == nil {
		return "", errors.New("reprise: the seeded trace could not be recorded")
	}
	trace := CurrentTrace(spanCtx)
	if seed.Name != "" {
		trace.SetName(seed.Name)
	}
	if seed.Metadata != nil {
		trace.MergeMetadata(seed.Metadata)
	}
	for _, context := range seed.Contexts {
		trace.AddContext(context)
	}
	if seed.SessionID != "" {
		trace.SetSessionID(seed.SessionID)
	}
	active.end(seed.Output, nil)
	if !c.FlushTraces(ctx) {
		return trace.ID(), errors.New("reprise: the seeded trace could not be delivered")
	}
	return trace.ID(), nil
}
