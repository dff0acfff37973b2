package main

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	reprise "github.com/reprise/reprise/sdks/go"
)

// treeSpan is a span of the trace command (PROTOCOL.md, A span).
type treeSpan struct {
	Name         string           `json:"name"`
	Type         string           `json:"type"`
	Input        json.RawMessage  `json:"input"`
	Output       json.RawMessage  `json:"output"`
	Contexts     []map[string]any `json:"contexts"`
	Metadata     map[string]any   `json:"metadata"`
	TraceName    *string          `json:"traceName"`
	SessionID    *string          `json:"sessionId"`
	Error        *string          `json:"error"`
	SleepMs      int              `json:"sleepMs"`
	MockOnReplay bool             `json:"mockOnReplay"`
	Drop         bool             `json:"drop"`
	Background   bool             `json:"background"`
	Children     []treeSpan       `json:"children"`
}

// runTree runs tree as a trace of key (the root through Trace, children through Span) and returns its trace id.
// The span's own error does not fail the command.
func runTree(ctx context.Context, c *reprise.Client, key string, tree *treeSpan) string {
	traceID := ""
	_, _ = reprise.Trace(ctx, c, key, func(ctx context.Context) (json.RawMessage, error) {
		traceID = reprise.CurrentTrace(ctx).ID()
		return body(ctx, tree, true)
	}, spanOptions(tree, tree.Input)...)
	return traceID
}

// replayTree is the function a replay re-executes: the root receives the recorded input.
func replayTree(ctx context.Context, c *reprise.Client, key string, tree *treeSpan, input json.RawMessage) (json.RawMessage, error) {
	return reprise.Trace(ctx, c, key, func(ctx context.Context) (json.RawMessage, error) {
		return body(ctx, tree, true)
	}, spanOptions(tree, input)...)
}

func spanOptions(span *treeSpan, input json.RawMessage) []reprise.SpanOption {
	opts := []reprise.SpanOption{reprise.WithSpanName(span.Name)}
	if span.Type != "" {
		opts = append(opts, reprise.WithType(reprise.SpanType(span.Type)))
	}
	if len(input) > 0 {
		opts = append(opts, reprise.WithInput(input))
	}
	return opts
}

func body(ctx context.Context, span *treeSpan, isRoot bool) (json.RawMessage, error) {
	trace := reprise.CurrentTrace(ctx)
	if isRoot {
		if span.TraceName != nil {
			trace.SetName(*span.TraceName)
		}
		if span.SessionID != nil {
			trace.SetSessionID(*span.SessionID)
		}
	}
	if span.Metadata != nil {
		trace.MergeMetadata(span.Metadata)
	}
	for _, context := range span.Contexts {
		reprise.CurrentSpan(ctx).AddContext(context)
	}
	for i := range span.Children {
		child := &span.Children[i]
		// The span opens before a background goroutine starts, so the trace's completion waits for it.
		spanCtx, active := reprise.StartSpan(ctx, child.Name, childOptions(child)...)
		if _, served := active.ServeRecorded(); served {
			continue // a replay served the span from the original's recorded output
		}
		run := func() {
			output, err := body(spanCtx, child, false)
			active.End(output, err)
		}
		if child.Background {
			go run()
		} else {
			run()
		}
	}
	if span.SleepMs > 0 {
		time.Sleep(time.Duration(span.SleepMs) * time.Millisecond)
	}
	if span.Drop {
		trace.Drop()
	}
	if span.Error != nil {
		return nil, errors.New(*span.Error)
	}
	return span.Output, nil
}

func childOptions(span *treeSpan) []reprise.SpanOption {
	var opts []reprise.SpanOption
	if span.Type != "" {
		opts = append(opts, reprise.WithType(reprise.SpanType(span.Type)))
	}
	if len(span.Input) > 0 {
		opts = append(opts, reprise.WithInput(span.Input))
	}
	if span.MockOnReplay {
		opts = append(opts, reprise.WithMockOnReplay())
	}
	return opts
}
