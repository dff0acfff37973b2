package reprise

import (
	"context"
	"encoding/json"
	"net/url"
	"sync"
)

// replayMocks holds the recorded outputs of one original trace (GET /api/sdk/replay/spanTree/{id}) for spans
// marked WithMockOnReplay: the n-th span named X of the replayed trace is served the output of the n-th span named
// X of the original, in start order. Every child span counts, mocked or not.
type replayMocks struct {
	recorded map[string][]json.RawMessage // nil entry: that occurrence recorded no output

	mu   sync.Mutex
	seen map[string]int
}

type spanTreeNode struct {
	SpanName string          `json:"spanName"`
	Output   json.RawMessage `json:"output"`
	Children []spanTreeNode  `json:"children"`
}

// fetchReplayMocks reads the original's span tree; without it every span runs.
func (c *Client) fetchReplayMocks(ctx context.Context, originalSpanID string) *replayMocks {
	var tree struct {
		Root *spanTreeNode `json:"root"`
	}
	path := "/replay/spanTree/" + url.PathEscape(originalSpanID)
	if err := c.api.call(ctx, "GET", path, nil, &tree, callOptions{timeout: replayTimeout}); err != nil || tree.Root == nil {
		return nil
	}
	m := &replayMocks{recorded: map[string][]json.RawMessage{}, seen: map[string]int{}}
	var walk func(n *spanTreeNode)
	walk = func(n *spanTreeNode) { // depth first, children in start order, as the spans started
		m.recorded[n.SpanName] = append(m.recorded[n.SpanName], n.Output)
		for i := range n.Children {
			walk(&n.Children[i])
		}
	}
	for i := range tree.Root.Children { // the root is the replayed function itself, never served
		walk(&tree.Root.Children[i])
	}
	return m
}

// next counts one more span named name and returns that occurrence's recorded output, or nil.
func (m *replayMocks) next(name string) json.RawMessage {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	index := m.seen[name]
	m.seen[name] = index + 1
	m.mu.Unlock()
	if outputs := m.recorded[name]; index < len(outputs) {
		return outputs[index]
	}
	return nil
}

// WithMockOnReplay serves the span from the original's recorded output during a replay instead of running the
// function (for example a call to a paid model); the span is sent with mocked: true. The recorded JSON is decoded
// into the function's result type; when it does not decode, or the original recorded no output, the function runs.
// Outside a replay the option does nothing.
func WithMockOnReplay() SpanOption { return func(c *spanConfig) { c.mockOnReplay = true } }

// servedFromRecording returns the recorded output of a span marked WithMockOnReplay, decoded into T, and ends the
// span with it; ok is false when the function must run.
func servedFromRecording[T any](active *activeSpan) (value T, ok bool) {
	if active == nil || !active.mockOnReplay || active.recorded == nil {
		return value, false
	}
	if json.Unmarshal(active.recorded, &value) != nil {
		return value, false
	}
	active.span.mu.Lock()
	active.span.mocked = true
	active.span.mu.Unlock()
	active.end(value, nil)
	return value, true
}

// ServeRecorded is WithMockOnReplay for spans opened with StartSpan: during a replay it ends the span with the
// original's recorded output and returns that output as JSON, and the caller skips the work. ok is false when
// the work must run (not a replay, not marked, or nothing recorded).
func (s *ActiveSpan) ServeRecorded() (output json.RawMessage, ok bool) {
	if s == nil || s.active == nil || !s.active.mockOnReplay || s.active.recorded == nil {
		return nil, false
	}
	s.once.Do(func() { output, ok = servedFromRecording[json.RawMessage](s.active) })
	return output, ok
}
