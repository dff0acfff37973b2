package reprise

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

func TestTraceRecordsRootChildrenAndCompletion(t *testing.T) {
	f := newFakeReprise(t)
	c := testClient(t, f)
	ctx := context.Background()
	var traceID, rootSpanID string
	out, err := Trace(ctx, c, "answer-question", func(ctx context.Context) (string, error) {
		traceID, rootSpanID = CurrentTrace(ctx).ID(), CurrentSpan(ctx).ID()
		CurrentTrace(ctx).SetName("title").SetSessionID("s-1").MergeMetadata(map[string]any{"tenant": "acme"}).AddContext(map[string]any{"region": "eu"})
		return Span(ctx, "call-model", func(ctx context.Context) (string, error) {
			CurrentSpan(ctx).AddContext(map[string]any{"model": "m", "inputTokens": 12, "outputTokens": 3}).SetPrompt("p")
			return "4", nil
		}, WithType(SpanTypeLLM), WithInput("What is 2+2?"))
	}, WithInput("What is 2+2?", 7))
	if out != "4" || err != nil {
		t.Fatalf("Trace returned %q, %v", out, err)
	}
	flush(t, c)

	spans := f.received("external_span")
	if len(spans) != 2 {
		t.Fatalf("got %d span carriers, want 2", len(spans))
	}
	child, root := spans[0].Payload, spans[1].Payload
	if path(root, "rawSpan", "id") != rootSpanID || path(root, "rawSpan", "parent_id") != nil {
		t.Errorf("root rawSpan ids wrong: %v", root["rawSpan"])
	}
	if path(child, "rawSpan", "parent_id") != rootSpanID || path(child, "sourceTraceId") != traceID {
		t.Errorf("child not parented to the root: %v", child["rawSpan"])
	}
	if path(root, "rawSpan", "span_data", "type") != "function" || path(child, "rawSpan", "span_data", "type") != "llm" {
		t.Errorf("span types wrong")
	}
	if in, ok := path(root, "rawSpan", "span_data", "input").([]any); !ok || len(in) != 2 || in[0] != "What is 2+2?" {
		t.Errorf("root input = %v, want the two arguments", path(root, "rawSpan", "span_data", "input"))
	}
	if path(child, "rawSpan", "span_data", "input") != "What is 2+2?" || path(child, "rawSpan", "span_data", "output") != "4" {
		t.Errorf("child input/output wrong: %v", path(child, "rawSpan", "span_data"))
	}
	contexts, _ := path(child, "rawSpan", "span_data", "contexts").([]any)
	if len(contexts) != 1 || path(contexts[0], "model") != "m" || path(child, "rawSpan", "span_data", "prompt") != "p" {
		t.Errorf("child contexts/prompt wrong: %v", path(child, "rawSpan", "span_data"))
	}
	origin := path(root, "rawSpan", "span_origin")
	if path(origin, "name") != "reprise.sdk.go" || path(origin, "instrumentation", "name") != "trace" ||
		path(child, "rawSpan", "span_origin", "instrumentation", "name") != "span" {
		t.Errorf("span_origin wrong: %v", origin)
	}
	if root["source"] != "go-sdk-function" || root["sdkVersion"] != Version || root["traceFunctionKey"] != "answer-question" {
		t.Errorf("common fields wrong: %v", root)
	}

	completions := f.received("external_trace")
	if len(completions) != 1 {
		t.Fatalf("got %d completions, want 1", len(completions))
	}
	done := completions[0].Payload
	if done["id"] != traceID || done["expectedSpanCount"] != float64(2) || done["completed"] != true ||
		done["name"] != "title" || done["sessionId"] != "s-1" || done["ingestion_type"] != "captured" {
		t.Errorf("completion wrong: %v", done)
	}
	if path(done, "externalTrace", "metadata", "tenant") != "acme" || path(done, "externalTrace", "workflow_name") != "answer-question" {
		t.Errorf("externalTrace wrong: %v", done["externalTrace"])
	}
}

func TestErrorsAndPanicsPassThroughUnchanged(t *testing.T) {
	f := newFakeReprise(t)
	c := testClient(t, f)
	boom := errors.New("boom")
	_, err := Trace(context.Background(), c, "k", func(ctx context.Context) (int, error) { return 0, boom })
	if err != boom {
		t.Fatalf("error changed: %v", err)
	}
	func() {
		defer func() {
			if r := recover(); r != "app panic" {
				t.Errorf("panic value changed: %v", r)
			}
		}()
		_, _ = Trace(context.Background(), c, "k", func(ctx context.Context) (int, error) { panic("app panic") })
	}()
	flush(t, c)
	spans := f.received("external_span")
	if len(spans) != 2 {
		t.Fatalf("got %d spans", len(spans))
	}
	if path(spans[0].Payload, "rawSpan", "span_data", "error") != "boom" || spans[0].Status != 2 {
		t.Errorf("error not recorded: %v", spans[0].Payload)
	}
	if path(spans[1].Payload, "rawSpan", "span_data", "error") != "panic" {
		t.Errorf("panic not recorded: %v", spans[1].Payload)
	}
}

func TestCompletionWaitsForBackgroundChildren(t *testing.T) {
	f := newFakeReprise(t)
	c := testClient(t, f)
	release := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	_, _ = Trace(context.Background(), c, "k", func(ctx context.Context) (any, error) {
		_, span := StartSpan(ctx, "background")
		go func() {
			defer wg.Done()
			<-release
			span.End("late", nil)
		}()
		return "root done", nil
	})
	flush(t, c)
	if n := len(f.received("external_trace")); n != 0 {
		t.Fatalf("completion sent while a child was running (%d)", n)
	}
	close(release)
	wg.Wait()
	flush(t, c)
	completions := f.received("external_trace")
	if len(completions) != 1 || completions[0].Payload["expectedSpanCount"] != float64(2) {
		t.Fatalf("completion after the child: %v", completions)
	}
}

func TestDropSendsNoFurtherSpans(t *testing.T) {
	f := newFakeReprise(t)
	c := testClient(t, f)
	_, _ = Trace(context.Background(), c, "k", func(ctx context.Context) (any, error) {
		_, _ = Span(ctx, "before", func(ctx context.Context) (any, error) { return nil, nil })
		CurrentTrace(ctx).Drop()
		_, _ = Span(ctx, "after", func(ctx context.Context) (any, error) { return nil, nil })
		return nil, nil
	})
	flush(t, c)
	if n := len(f.received("external_span")); n != 1 {
		t.Errorf("got %d spans, want only the one before the drop", n)
	}
	completions := f.received("external_trace")
	if len(completions) != 1 || completions[0].Payload["dropped"] != true || completions[0].Payload["expectedSpanCount"] != nil {
		t.Fatalf("completion not marked dropped: %v", completions)
	}
}

func TestWithoutAPIKeyFunctionsRunUntraced(t *testing.T) {
	logger := &testLogger{t: t}
	c := New(WithAPIKey(""), WithLogger(logger))
	t.Setenv("REPRISE_API_KEY", "")
	out, err := Trace(context.Background(), c, "k", func(ctx context.Context) (int, error) {
		if CurrentTrace(ctx) != nil {
			t.Error("a trace is active without an API key")
		}
		CurrentTrace(ctx).SetName("no-op") // nil handles are safe
		return 42, nil
	})
	if out != 42 || err != nil {
		t.Fatalf("got %d, %v", out, err)
	}
	if _, err := c.LookupFunction(context.Background(), "f"); !errors.Is(err, ErrNoAPIKey) {
		t.Errorf("blocking call without a key: %v", err)
	}
	if lines := logger.all(); len(lines) != 1 {
		t.Errorf("want one warning, got %v", lines)
	}
}

func TestSpanOutsideTraceJustRuns(t *testing.T) {
	out, err := Span(context.Background(), "free", func(ctx context.Context) (string, error) { return "ok", nil })
	if out != "ok" || err != nil {
		t.Fatal("Span outside a trace changed the result")
	}
}

func TestDefaultClientIsUsedForNilClient(t *testing.T) {
	f := newFakeReprise(t)
	c := testClient(t, f)
	SetDefault(c)
	defer SetDefault(nil)
	_, _ = Trace(context.Background(), nil, "k", func(ctx context.Context) (int, error) { return 1, nil })
	if !FlushTraces(contextWithTimeout(t, 5*time.Second)) || len(f.received("external_span")) != 1 {
		t.Fatal("the default client did not record the trace")
	}
}

func TestUnencodableValuesAreCoercedAndFlagged(t *testing.T) {
	f := newFakeReprise(t)
	c := testClient(t, f)
	_, _ = Trace(context.Background(), c, "k", func(ctx context.Context) (chan int, error) { return make(chan int), nil })
	flush(t, c)
	span := f.received("external_span")[0].Payload
	if _, ok := path(span, "rawSpan", "span_data", "output").(string); !ok {
		t.Errorf("output not coerced to a string: %v", path(span, "rawSpan", "span_data", "output"))
	}
	errs, _ := span["errors"].([]any)
	if len(errs) != 1 || path(errs[0], "step") != "serialization_degraded" {
		t.Errorf("degraded capture not recorded: %v", span["errors"])
	}
}

func TestChangesAfterCompletionWarnOnce(t *testing.T) {
	f := newFakeReprise(t)
	logger := &testLogger{t: t}
	c := testClient(t, f, WithLogger(logger))
	var handle *TraceHandle
	_, _ = Trace(context.Background(), c, "k", func(ctx context.Context) (int, error) {
		handle = CurrentTrace(ctx)
		return 1, nil
	})
	handle.SetName("late").SetName("later")
	if lines := logger.all(); len(lines) != 1 {
		t.Errorf("want one warning, got %v", lines)
	}
}

func TestSubmissionsAfterCloseAreRejected(t *testing.T) {
	f := newFakeReprise(t)
	c := testClient(t, f)
	_, _ = Trace(context.Background(), c, "k", func(ctx context.Context) (int, error) { return 1, nil })
	if err := c.Close(contextWithTimeout(t, 5*time.Second)); err != nil {
		t.Fatal(err)
	}
	out, _ := Trace(context.Background(), c, "k", func(ctx context.Context) (int, error) { return 2, nil })
	if out != 2 {
		t.Fatal("the function did not run after close")
	}
	if _, err := c.SeedTrace(context.Background(), Seed{TraceFunctionKey: "k"}); !errors.Is(err, ErrClosed) {
		t.Errorf("SeedTrace after close: %v", err)
	}
	time.Sleep(100 * time.Millisecond)
	if n := len(f.received("external_span")); n != 1 {
		t.Errorf("got %d spans; spans after close must not be sent", n)
	}
}
