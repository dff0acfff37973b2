package reprise

import (
	"context"
	"encoding/json"
	"time"
)

// ReplayFunc is the code a replay re-executes for each recorded trace: it receives the original root span's
// recorded input as JSON and returns the new output. The runner records it as the root span of a new trace of the
// replayed trace function; when it calls Trace for that same trace function, that call stands for the root.
type ReplayFunc func(ctx context.Context, input json.RawMessage) (any, error)

// ReplayOptions select the traces to replay; use one of Limit, TraceIDs or DatasetIDs.
type ReplayOptions struct {
	// Limit replays the most recent N traces (1 to 5,000, default 5) when no ids are given.
	Limit int
	// TraceIDs replays these original traces (at most 100).
	TraceIDs []string
	// DatasetIDs replays the union of these datasets' traces (at most 50).
	DatasetIDs []string
	// GraderIDs attaches graders to the run (at most 100).
	GraderIDs []string
	// Name is the run's display name.
	Name string
	// Concurrency is how many items run at once; default 10.
	Concurrency int
	// BarrierTimeout is how long to wait for every replayed trace to be persisted; default 30 s.
	BarrierTimeout time.Duration
	// PollInterval is the replay/status polling interval; default 100 ms.
	PollInterval time.Duration
}

// TokenUsage is token usage as Reprise reports it.
type TokenUsage struct {
	Input  *int64 `json:"input"`
	Output *int64 `json:"output"`
	Cached *int64 `json:"cached"`
	Total  *int64 `json:"total"`
}

// TraceOutline is a trace's span tree without inputs or outputs.
type TraceOutline struct {
	TraceID          string        `json:"traceId"`
	Name             *string       `json:"name"`
	Status           string        `json:"status"`
	TraceFunctionKey *string       `json:"traceFunctionKey"`
	DurationMs       *int64        `json:"durationMs"`
	SpanCount        int           `json:"spanCount"`
	Spans            []OutlineSpan `json:"spans"`
}

// OutlineSpan is one span of a TraceOutline.
type OutlineSpan struct {
	SpanID           string         `json:"spanId"`
	Name             string         `json:"name"`
	Type             string         `json:"type"`
	TraceFunctionKey *string        `json:"traceFunctionKey"`
	DurationMs       *int64         `json:"durationMs"`
	Tokens           *TokenUsage    `json:"tokens"`
	Model            *string        `json:"model"`
	Errors           []payloadError `json:"errors"`
	Mocked           bool           `json:"mocked"`
	Children         []OutlineSpan  `json:"children"`
}

// OriginalRun is what Reprise knows of the original trace of a replay item.
type OriginalRun struct {
	DurationMs *int64
	Tokens     *TokenUsage
	Model      *string
	Outline    *TraceOutline
}

// ReplayItem is the result of one replayed trace.
type ReplayItem struct {
	OriginalTraceID string
	OriginalSpanID  string
	// ReplayTraceID is the SDK-generated id of the replay trace ("" when the item could not run).
	ReplayTraceID string
	// ServerTraceID is the persisted id of the replay trace (equal to ReplayTraceID on Reprise).
	ServerTraceID string
	// Input is the recorded input the function received.
	Input  json.RawMessage
	Output any
	// Err is the function's error, or why the item could not run.
	Err      error
	Duration time.Duration
	Tokens   *TokenUsage
	Outline  *TraceOutline
	Original OriginalRun
}

// ReplayResult is the result of Replay.
type ReplayResult struct {
	TestRunID string
	// URL is the run in the console, when the server named one.
	URL string
	// TraceCount is how many traces the server persisted for the run.
	TraceCount int
	Items      []ReplayItem
}
