package reprise

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"testing"
	"time"
)

func TestLookupFunctionAndTypedNotFound(t *testing.T) {
	f := newFakeReprise(t)
	f.handle("/api/sdk/functions/lookup", func(w http.ResponseWriter, r *http.Request) {
		var body struct{ Name string }
		_ = json.NewDecoder(r.Body).Decode(&body)
		if body.Name == "known" {
			writeJSON(w, 200, map[string]any{"id": "f-1", "name": "known", "versionNumber": 2, "prompt": "p"})
			return
		}
		writeJSON(w, 200, map[string]any{"id": nil})
	})
	c := testClient(t, f)
	fn, err := c.LookupFunction(context.Background(), "known")
	if err != nil || fn.ID != "f-1" || fn.VersionNumber != 2 {
		t.Fatalf("got %+v, %v", fn, err)
	}
	_, err = c.LookupFunction(context.Background(), "missing")
	var notFound *FunctionNotFoundError
	if !errors.As(err, &notFound) || !errors.Is(err, ErrFunctionNotFound) || notFound.URL != f.URL+"/functions" {
		t.Fatalf("got %v", err)
	}
	if err := c.RecordFunctionTrace(fn.ID, FunctionExecution{Inputs: map[string]any{"q": "2+2"}, Result: "4"}); err != nil {
		t.Fatal(err)
	}
	flush(t, c)
	got := f.received("internal_trace")
	if len(got) != 1 || got[0].Payload["functionId"] != "f-1" || got[0].Payload["result"] != "4" || path(got[0].Payload, "inputs", "q") != "2+2" {
		t.Fatalf("internal_trace carrier: %v", got)
	}
}

func TestUpdateTraceSendsOnePatchAndSurfacesRejections(t *testing.T) {
	f := newFakeReprise(t)
	var body map[string]any
	f.handle("/api/sdk/traces/t-1", func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(raw, &body)
		if r.Method != "PATCH" {
			writeJSON(w, 405, map[string]any{"error": "method"})
			return
		}
		writeJSON(w, 200, map[string]any{"ok": true})
	})
	c := testClient(t, f)
	name := "renamed"
	err := c.UpdateTrace(context.Background(), "t-1", TraceUpdate{Name: &name, MergeMetadata: map[string]any{"k": "v"}, AppendContexts: []map[string]any{{"a": 1.0}}})
	if err != nil {
		t.Fatal(err)
	}
	if body["setName"] != "renamed" || path(body, "mergeMetadata", "k") != "v" || len(body["appendContexts"].([]any)) != 1 {
		t.Fatalf("body %v", body)
	}
	err = c.UpdateTrace(context.Background(), "t-unknown", TraceUpdate{Name: &name})
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 404 || apiErr.Code != "not_found" {
		t.Fatalf("got %v", err)
	}
}

func TestSeedTraceWritesASeededTrace(t *testing.T) {
	f := newFakeReprise(t)
	c := testClient(t, f)
	id, err := c.SeedTrace(context.Background(), Seed{TraceFunctionKey: "k", Input: map[string]any{"q": 1}, Output: "a", Name: "case 1"})
	if err != nil || id == "" {
		t.Fatal(err)
	}
	done := f.received("external_trace")
	span := f.received("external_span")
	if len(done) != 1 || done[0].Payload["ingestion_type"] != "seeded" || done[0].Payload["name"] != "case 1" || done[0].Payload["id"] != id {
		t.Fatalf("completion %v", done)
	}
	if len(span) != 1 || path(span[0].Payload, "rawSpan", "span_data", "output") != "a" {
		t.Fatalf("span %v", span)
	}
}

func TestSimPlanWithholdsContent(t *testing.T) {
	f := newFakeReprise(t)
	f.handle("/api/sdk/sim-plan", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Connection") != "close" && !r.Close {
			t.Error("sim plan read without Connection: close")
		}
		writeJSON(w, 200, map[string]any{"nodes": []any{
			map[string]any{"traceFunctionKey": "k", "name": "secret", "captureContent": false},
			map[string]any{"traceFunctionKey": "k", "name": "k", "captureContent": false},
		}})
	})
	c := testClient(t, f, WithSimPlanDisabled(false))
	_, _ = Trace(context.Background(), c, "k", func(ctx context.Context) (string, error) {
		_, _ = Span(ctx, "secret", func(ctx context.Context) (string, error) { return "hidden", nil })
		_, _ = Span(ctx, "secret", func(ctx context.Context) (string, error) { return "", errors.New("failed") })
		_, _ = Span(ctx, "open", func(ctx context.Context) (string, error) { return "shown", nil })
		return "root output", nil
	}, WithInput("root input"))
	flush(t, c)
	spans := map[string]map[string]any{}
	for _, s := range f.received("external_span") {
		spans[path(s.Payload, "rawSpan", "span_data", "name").(string)+errorSuffix(s.Payload)] = s.Payload
	}
	withheld := spans["secret"]
	if withheld == nil || path(withheld, "rawSpan", "span_data", "content_off_by_simulation_plan") != true || path(withheld, "rawSpan", "span_data", "output") != nil {
		t.Errorf("content-off child: %v", withheld)
	}
	failed := spans["secret!"]
	if failed == nil || path(failed, "rawSpan", "span_data", "content_off_by_simulation_plan") != true || path(failed, "rawSpan", "span_data", "output") != nil {
		t.Errorf("content-off child with an error: %v", failed)
	}
	root := spans["k"]
	if root == nil || path(root, "rawSpan", "span_data", "input") != nil || path(root, "rawSpan", "span_data", "content_off_by_simulation_plan") != true {
		t.Errorf("content-off root: %v", root)
	}
	if path(spans["open"], "rawSpan", "span_data", "output") != "shown" {
		t.Errorf("open span lost its content")
	}
	done := f.received("external_trace")
	if len(done) != 1 || done[0].Payload["expectedSpanCount"] != float64(4) {
		t.Fatalf("expectedSpanCount must count the spans actually sent: %v", done)
	}
}

func errorSuffix(payload map[string]any) string {
	if path(payload, "rawSpan", "span_data", "error") != nil {
		return "!"
	}
	return ""
}

// replayServer adds the replay endpoints to a fake server: two recorded traces whose inputs are "q1" and "q2".
func replayServer(t *testing.T, f *fakeReprise, statusConfirms bool) (completed *bool) {
	completed = new(bool)
	f.handle("/api/sdk/replay/start", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{
			"testRunId": "run-1", "experimentId": "run-1", "testRunUrl": "/replays/run-1",
			"items": []any{
				map[string]any{"externalSpanId": "span-1", "originalTraceId": "orig-1", "originalModel": "m"},
				map[string]any{"externalSpanId": "span-2", "originalTraceId": "orig-2"},
			},
		})
	})
	for i, input := range []string{"q1", "q2"} {
		id := []string{"span-1", "span-2"}[i]
		input := input
		f.handle("/api/sdk/externalSpans/"+id, func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("view") != "replay" {
				t.Error("original span read without view=replay")
			}
			writeJSON(w, 200, map[string]any{"id": id, "externalTraceId": "orig", "rawData": map[string]any{"span_data": map[string]any{"input": input}}})
		})
	}
	f.handle("/api/sdk/replay/status", func(w http.ResponseWriter, r *http.Request) {
		var body struct{ ExpectedSpanCounts map[string]int }
		_ = json.NewDecoder(r.Body).Decode(&body)
		ids := map[string]string{}
		if statusConfirms {
			for id := range body.ExpectedSpanCounts {
				ids[id] = id
			}
		}
		writeJSON(w, 200, map[string]any{"traceIds": ids})
	})
	f.handle("/api/sdk/replay/complete", func(w http.ResponseWriter, r *http.Request) {
		*completed = true
		writeJSON(w, 200, map[string]any{"traceIds": map[string]string{}, "traceCount": 2, "tokens": map[string]any{}, "traceOutlines": map[string]any{}, "originalTraceOutlines": map[string]any{}})
	})
	return completed
}

func TestReplayRunsItemsWaitsForPersistenceAndCompletes(t *testing.T) {
	f := newFakeReprise(t)
	completed := replayServer(t, f, false)
	c := testClient(t, f)
	fn := func(ctx context.Context, input json.RawMessage) (any, error) {
		var q string
		_ = json.Unmarshal(input, &q)
		// The application's own traced function: it stands for the replay root instead of nesting under it.
		return Trace(ctx, c, "answer", func(ctx context.Context) (string, error) {
			return Span(ctx, "call-model", func(ctx context.Context) (string, error) { return "answer to " + q, nil })
		}, WithInput(q))
	}
	result, err := c.Replay(context.Background(), "answer", fn, ReplayOptions{BarrierTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if !*completed || result.TestRunID != "run-1" || result.URL != f.URL+"/replays/run-1" || len(result.Items) != 2 {
		t.Fatalf("result %+v", result)
	}
	for i, item := range result.Items {
		if item.Err != nil || item.ReplayTraceID == "" || item.Output != "answer to q"+string(rune('1'+i)) {
			t.Errorf("item %d: %+v", i, item)
		}
	}
	roots := 0
	for _, s := range f.received("external_span") {
		if s.Payload["testRunId"] != "run-1" || s.Payload["experimentId"] != "run-1" {
			t.Errorf("span not attributed to the run: %v", s.Payload)
		}
		if path(s.Payload, "rawSpan", "parent_id") == nil {
			roots++
			if path(s.Payload, "rawSpan", "input_source_span_id") == nil {
				t.Errorf("root without input_source_span_id")
			}
		}
	}
	if roots != 2 || len(f.received("external_span")) != 4 {
		t.Errorf("want 2 traces of 2 spans, got %d spans with %d roots", len(f.received("external_span")), roots)
	}
	for _, done := range f.received("external_trace") {
		if path(done.Payload, "externalTrace", "input_source_trace_id") != "orig" || done.Payload["expectedSpanCount"] != float64(2) {
			t.Errorf("completion %v", done.Payload)
		}
	}
}

func TestReplayBarrierTimeoutDoesNotComplete(t *testing.T) {
	f := newFakeReprise(t)
	completed := replayServer(t, f, false)
	f.otlp = func(w http.ResponseWriter, r *http.Request, _ []carrier) bool {
		w.WriteHeader(503) // nothing is ever persisted
		return false
	}
	c := testClient(t, f, WithTransportTuning(TransportTuning{ScheduledDelay: 20 * time.Millisecond, ExportTimeout: 200 * time.Millisecond, BackoffBase: time.Millisecond}))
	fn := func(ctx context.Context, input json.RawMessage) (any, error) { return "out", nil }
	_, err := c.Replay(context.Background(), "answer", fn, ReplayOptions{BarrierTimeout: 700 * time.Millisecond})
	var timeout *ReplayBarrierTimeoutError
	if !errors.As(err, &timeout) || len(timeout.PendingTraceIDs) != 2 {
		t.Fatalf("got %v", err)
	}
	if *completed {
		t.Fatal("the run was completed after a barrier timeout")
	}
}

func TestReplayConfirmsThroughStatusInCollectorMode(t *testing.T) {
	f := newFakeReprise(t)
	completed := replayServer(t, f, true)
	collector := newFakeReprise(t)
	collector.handle("/v1/traces", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) })
	c := testClient(t, f, WithOTelExporterEndpoint(collector.URL))
	fn := func(ctx context.Context, input json.RawMessage) (any, error) { return "out", nil }
	if _, err := c.Replay(context.Background(), "answer", fn, ReplayOptions{BarrierTimeout: 5 * time.Second}); err != nil {
		t.Fatal(err)
	}
	if !*completed || collector.otlpRequests() == 0 {
		t.Fatal("replay did not go through the Collector and replay/status")
	}
	if n := f.otlpRequests(); n != 0 {
		t.Fatalf("%d requests went to Reprise directly in Collector mode", n)
	}
}
