package reprise

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"time"
)

// replayTimeout is the client timeout of replay calls (docs/sdk-transport.md, "Limits").
const replayTimeout = 30 * time.Second

type itemRun struct {
	item  ReplayItem
	trace *traceState
}

// Replay re-executes recorded traces of traceFunctionKey through fn and reports what changed: it starts a run,
// runs fn for each item under a new trace attributed to the run (errors of fn are reported on the item), then
// waits until every replayed trace is confirmed persisted (the persistence barrier: Reprise's acknowledgments of
// the OTLP requests, else replay/status polling), and only then completes the run, which triggers grading.
//
// When the barrier times out, Replay returns a *ReplayBarrierTimeoutError and does NOT complete the run, so
// nothing half-stored is graded (docs/sdk-transport.md, rule 11).
func (c *Client) Replay(ctx context.Context, traceFunctionKey string, fn ReplayFunc, opts ReplayOptions) (*ReplayResult, error) {
	if c == nil || !c.enabled {
		return nil, ErrNoAPIKey
	}
	if c.Closed() {
		return nil, ErrClosed
	}
	if err := validateReplayOptions(opts); err != nil {
		return nil, err
	}
	var start startResponse
	if err := c.api.call(ctx, "POST", "/replay/start", startBody(traceFunctionKey, opts), &start, callOptions{timeout: replayTimeout}); err != nil {
		return nil, err
	}
	testRunID := firstOf(start.ExperimentID, start.TestRunID)
	if testRunID == "" {
		return nil, &APIError{Message: "replay/start answered without a run id"}
	}
	runs := c.runItems(ctx, traceFunctionKey, fn, testRunID, start.Items, opts.Concurrency)
	defer func() {
		for _, run := range runs {
			if run.item.ReplayTraceID != "" {
				c.transport.Acks.Unwatch(run.item.ReplayTraceID)
			}
		}
	}()
	timeout := opts.BarrierTimeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	barrierCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	confirmed, err := c.barrier(barrierCtx, testRunID, runs, timeout, opts.PollInterval)
	if err != nil {
		return nil, err
	}
	var complete completeResponse
	body := map[string]string{"testRunId": testRunID, "experimentId": testRunID}
	if err := c.api.call(ctx, "POST", "/replay/complete", body, &complete, callOptions{timeout: replayTimeout}); err != nil {
		return nil, err
	}
	return c.replayResult(testRunID, firstOf(start.ExperimentURL, start.TestRunURL), runs, confirmed, complete), nil
}

func validateReplayOptions(o ReplayOptions) error {
	switch {
	case o.Limit != 0 && (o.Limit < 1 || o.Limit > 5000):
		return errors.New("reprise: replay limit must be from 1 to 5,000")
	case len(o.TraceIDs) > 100:
		return errors.New("reprise: replay takes at most 100 trace ids")
	case len(o.DatasetIDs) > 50:
		return errors.New("reprise: replay takes at most 50 dataset ids")
	case len(o.GraderIDs) > 100:
		return errors.New("reprise: replay takes at most 100 grader ids")
	case o.Concurrency < 0:
		return errors.New("reprise: replay concurrency must be positive")
	}
	return nil
}

func startBody(key string, o ReplayOptions) map[string]any {
	body := map[string]any{"traceFunctionKey": key}
	if len(o.TraceIDs) > 0 {
		body["traceIds"] = o.TraceIDs
	}
	if len(o.DatasetIDs) > 0 {
		body["datasetIds"] = o.DatasetIDs
	}
	if len(o.TraceIDs) == 0 && len(o.DatasetIDs) == 0 {
		limit := o.Limit
		if limit == 0 {
			limit = 5
		}
		body["limit"] = limit
	}
	if len(o.GraderIDs) > 0 {
		body["graderIds"] = o.GraderIDs
	}
	if o.Name != "" {
		body["name"] = o.Name
	}
	return body
}

// runItems runs the items with bounded concurrency, in order of the results.
func (c *Client) runItems(ctx context.Context, key string, fn ReplayFunc, testRunID string, items []startItem, concurrency int) []*itemRun {
	if concurrency <= 0 {
		concurrency = 10
	}
	runs := make([]*itemRun, len(items))
	slots := make(chan struct{}, concurrency)
	var wg sync.WaitGroup
	for i := range items {
		wg.Add(1)
		slots <- struct{}{}
		go func(i int) {
			defer wg.Done()
			defer func() { <-slots }()
			runs[i] = c.runItem(ctx, key, fn, testRunID, items[i])
		}(i)
	}
	wg.Wait()
	return runs
}

func (c *Client) runItem(ctx context.Context, key string, fn ReplayFunc, testRunID string, item startItem) *itemRun {
	run := &itemRun{item: ReplayItem{
		OriginalSpanID:  firstOf(item.ExternalSpanID, item.OriginalSpanID, item.SourceSpanID),
		OriginalTraceID: firstOf(item.OriginalTraceID, item.SourceTraceID),
		Original: OriginalRun{
			DurationMs: firstPtr(item.OriginalDurationMs, item.DurationMs),
			Tokens:     firstPtr(item.OriginalTokens, item.Tokens),
			Model:      firstPtr(item.OriginalModel, item.Model),
		},
	}}
	var original struct {
		ID              string `json:"id"`
		ExternalTraceID string `json:"externalTraceId"`
		RawData         struct {
			SpanData struct {
				Input json.RawMessage `json:"input"`
			} `json:"span_data"`
		} `json:"rawData"`
	}
	path := "/externalSpans/" + url.PathEscape(run.item.OriginalSpanID) + "?view=replay"
	if err := c.api.call(ctx, "GET", path, nil, &original, callOptions{timeout: replayTimeout}); err != nil {
		run.item.Err = fmt.Errorf("could not load the original input: %w", err)
		return run
	}
	input := original.RawData.SpanData.Input
	if len(input) == 0 {
		input = json.RawMessage("null")
	}
	run.item.Input = input
	pending := &pendingReplay{traceID: newUUID(), attribution: replayAttribution{
		testRunID:          testRunID,
		inputSourceSpanID:  firstOf(original.ID, run.item.OriginalSpanID),
		inputSourceTraceID: firstOf(original.ExternalTraceID, run.item.OriginalTraceID),
		mocks:              c.fetchReplayMocks(ctx, run.item.OriginalSpanID),
	}}
	run.item.ReplayTraceID = pending.traceID
	c.transport.Acks.Watch(pending.traceID)
	started := time.Now()
	run.item.Output, run.item.Err = c.invokeReplay(ctx, key, fn, input, pending)
	run.item.Duration = time.Since(started)
	run.trace = pending.trace
	if run.trace == nil && run.item.Err == nil {
		run.item.Err = errors.New("the replayed function was not recorded")
	}
	return run
}

// invokeReplay records fn as the root span of the pending replay trace.
func (c *Client) invokeReplay(ctx context.Context, key string, fn ReplayFunc, input json.RawMessage, pending *pendingReplay) (output any, err error) {
	config := newSpanConfig(key, SpanTypeFunction, nil)
	config.input, config.hasInput = input, true
	spanCtx, active := c.begin(withFrame(ctx, &frame{pending: pending}), runSpec{
		config: config, instrumentation: "trace", root: &rootSpec{key: key, ingestionType: "captured"},
	})
	if active == nil {
		return nil, errors.New("the replayed function could not be recorded")
	}
	active.span.replayRoot = true
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
			active.end(nil, err)
		}
	}()
	output, err = fn(spanCtx, input)
	active.end(output, err)
	return output, err
}
