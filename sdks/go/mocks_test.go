package reprise

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"
)

func TestReplayServesMarkedSpansFromTheRecording(t *testing.T) {
	f := newFakeReprise(t)
	replayServer(t, f, false)
	for _, id := range []string{"span-1", "span-2"} {
		f.handle("/api/sdk/replay/spanTree/"+id, func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, map[string]any{"root": map[string]any{"spanName": "answer", "children": []any{
				map[string]any{"spanName": "call-model", "output": map[string]any{"text": "recorded"}},
				map[string]any{"spanName": "call-model"}, // the second call recorded no output
			}}})
		})
	}
	c := testClient(t, f)
	type reply struct{ Text string }
	calls := 0
	callModel := func(ctx context.Context) (reply, error) {
		return Span(ctx, "call-model", func(ctx context.Context) (reply, error) {
			calls++
			return reply{Text: "live"}, nil
		}, WithType(SpanTypeLLM), WithMockOnReplay())
	}
	fn := func(ctx context.Context, input json.RawMessage) (any, error) {
		first, _ := callModel(ctx)
		second, _ := callModel(ctx)
		return first.Text + "+" + second.Text, nil
	}
	result, err := c.Replay(context.Background(), "answer", fn, ReplayOptions{BarrierTimeout: 5 * time.Second, Concurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, item := range result.Items {
		if item.Output != "recorded+live" {
			t.Errorf("output %v, want the first call served from the recording", item.Output)
		}
	}
	if calls != 2 {
		t.Errorf("the model ran %d times, want once per item", calls)
	}
	mocked := 0
	for _, s := range f.received("external_span") {
		if s.Payload["mocked"] == true {
			mocked++
			if s.Payload["mockSource"] != "recorded" || s.Payload["mockTarget"] != "output" || path(s.Payload, "rawSpan", "span_data", "output", "Text") != "recorded" {
				t.Errorf("mocked span %v", s.Payload)
			}
		}
	}
	if mocked != 2 {
		t.Errorf("%d mocked spans, want 2", mocked)
	}
	// Outside a replay the option does nothing.
	out, _ := Trace(context.Background(), c, "answer", func(ctx context.Context) (reply, error) { return callModel(ctx) })
	if out.Text != "live" {
		t.Errorf("outside a replay got %v", out)
	}
}
