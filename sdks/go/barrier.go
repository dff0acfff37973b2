package reprise

import (
	"context"
	"time"
)

// barrier waits until every replayed trace is final with enough spans persisted (docs/sdk-transport.md, rule 11):
// each trace's completion must have been handed to the transport (its children included), the transport is
// flushed, then each trace is confirmed by Reprise's acknowledgments (completion acknowledged and at least the
// expected number of unique span ids; direct mode only) or else by polling replay/status with
// expectedSpanCounts. It returns local → server trace ids.
func (c *Client) barrier(ctx context.Context, testRunID string, runs []*itemRun, timeout, interval time.Duration) (map[string]string, error) {
	if interval <= 0 {
		interval = 100 * time.Millisecond
	}
	expected := map[string]int{}
	var late []string
	for _, run := range runs {
		if run == nil || run.trace == nil {
			continue
		}
		t := run.trace
		select {
		case <-t.completed:
			t.mu.Lock()
			info := t.completion
			t.mu.Unlock()
			if info.sent && !info.dropped {
				expected[t.id] = info.expectedSpanCount
			}
		case <-ctx.Done():
			late = append(late, t.id)
		}
	}
	if len(late) > 0 {
		return nil, &ReplayBarrierTimeoutError{TestRunID: testRunID, PendingTraceIDs: late, Timeout: timeout.String()}
	}
	// The flush result alone does not fail the replay: persistence is what the barrier checks next.
	c.FlushTraces(ctx)
	confirmed := map[string]string{}
	for {
		if c.config.Mode == ModeDirect {
			for id, count := range expected {
				if server, ok := c.transport.Acks.Confirmed(id, count); ok {
					confirmed[id] = firstOf(server, id)
					delete(expected, id)
				}
			}
		}
		if len(expected) == 0 {
			return confirmed, nil
		}
		c.confirmFromStatus(ctx, testRunID, expected, confirmed)
		if len(expected) == 0 {
			return confirmed, nil
		}
		select {
		case <-ctx.Done():
			pending := make([]string, 0, len(expected))
			for id := range expected {
				pending = append(pending, id)
			}
			return nil, &ReplayBarrierTimeoutError{TestRunID: testRunID, PendingTraceIDs: pending, Timeout: timeout.String()}
		case <-time.After(interval):
		}
	}
}

// confirmFromStatus asks replay/status which pending traces are final with enough spans persisted. An unreachable
// or older endpoint leaves local acknowledgments as the only proof.
func (c *Client) confirmFromStatus(ctx context.Context, testRunID string, expected map[string]int, confirmed map[string]string) {
	var status struct {
		TraceIDs any `json:"traceIds"`
	}
	body := map[string]any{"testRunId": testRunID, "experimentId": testRunID, "expectedSpanCounts": expected}
	if err := c.api.call(ctx, "POST", "/replay/status", body, &status, callOptions{timeout: replayTimeout}); err != nil {
		return
	}
	persisted := map[string]string{}
	switch ids := status.TraceIDs.(type) {
	case map[string]any:
		for local, server := range ids {
			if s, ok := server.(string); ok {
				persisted[local] = s
			}
		}
	case []any: // older servers answered a list
		for _, id := range ids {
			if s, ok := id.(string); ok {
				persisted[s] = s
			}
		}
	}
	for id := range expected {
		if server, ok := persisted[id]; ok {
			confirmed[id] = server
			delete(expected, id)
		}
	}
}
