package reprise

import (
	"strings"
	"sync"
)

// pendingReplay is the trace the runner asks the next root to become.
type pendingReplay struct {
	mu          sync.Mutex
	traceID     string
	attribution replayAttribution
	consumed    bool
	trace       *traceState
}

func (p *pendingReplay) take() *pendingReplay {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.consumed {
		return nil
	}
	p.consumed = true
	return p
}

func (p *pendingReplay) started(t *traceState) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.trace = t
}

type startItem struct {
	ExternalSpanID     string      `json:"externalSpanId"`
	OriginalSpanID     string      `json:"originalSpanId"`
	SourceSpanID       string      `json:"sourceSpanId"`
	OriginalTraceID    string      `json:"originalTraceId"`
	SourceTraceID      string      `json:"sourceTraceId"`
	OriginalDurationMs *int64      `json:"originalDurationMs"`
	DurationMs         *int64      `json:"durationMs"`
	OriginalTokens     *TokenUsage `json:"originalTokens"`
	Tokens             *TokenUsage `json:"tokens"`
	OriginalModel      *string     `json:"originalModel"`
	Model              *string     `json:"model"`
}

type startResponse struct {
	TestRunID     string      `json:"testRunId"`
	ExperimentID  string      `json:"experimentId"`
	TestRunURL    string      `json:"testRunUrl"`
	ExperimentURL string      `json:"experimentUrl"`
	Items         []startItem `json:"items"`
}

type completeResponse struct {
	TraceIDs              map[string]string        `json:"traceIds"`
	Tokens                map[string]*TokenUsage   `json:"tokens"`
	TraceCount            *int                     `json:"traceCount"`
	TraceOutlines         map[string]*TraceOutline `json:"traceOutlines"`
	OriginalTraceOutlines map[string]*TraceOutline `json:"originalTraceOutlines"`
}

func firstOf(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

func firstPtr[T any](values ...*T) *T {
	for _, v := range values {
		if v != nil {
			return v
		}
	}
	return nil
}

func (c *Client) replayResult(testRunID, runURL string, runs []*itemRun, confirmed map[string]string, complete completeResponse) *ReplayResult {
	result := &ReplayResult{TestRunID: testRunID, URL: absoluteURL(c.config.ServiceURL, runURL)}
	if complete.TraceCount != nil {
		result.TraceCount = *complete.TraceCount
	} else {
		result.TraceCount = len(complete.TraceIDs)
	}
	for _, run := range runs {
		item := run.item
		item.Original.Outline = complete.OriginalTraceOutlines[item.OriginalTraceID]
		if item.ReplayTraceID != "" {
			item.ServerTraceID = firstOf(complete.TraceIDs[item.ReplayTraceID], confirmed[item.ReplayTraceID], item.ReplayTraceID)
			item.Tokens = complete.Tokens[item.ServerTraceID]
			item.Outline = complete.TraceOutlines[item.ServerTraceID]
		}
		result.Items = append(result.Items, item)
	}
	return result
}

func absoluteURL(base, path string) string {
	if path == "" || strings.HasPrefix(path, "http://") || strings.HasPrefix(path, "https://") {
		return path
	}
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	return base + path
}
