// Package reprise is the Go SDK of Reprise: it records executions of LLM and agent applications as traces,
// replays them through new code, and lets Reprise judge the results.
//
// Call Close before your program exits. The Go SDK has no automatic exit flush: spans still queued when the
// process ends are lost.
//
//	client := reprise.New() // REPRISE_API_KEY, REPRISE_URL, ...
//	defer client.Close(context.Background())
//
//	answer, err := reprise.Trace(ctx, client, "answer-question", func(ctx context.Context) (string, error) {
//		reprise.CurrentTrace(ctx).MergeMetadata(map[string]any{"tenant": "acme"})
//		return reprise.Span(ctx, "call-model", func(ctx context.Context) (string, error) {
//			reprise.CurrentSpan(ctx).AddContext(map[string]any{"model": "m", "inputTokens": 12, "outputTokens": 3})
//			return callModel(ctx, question)
//		}, reprise.WithType(reprise.SpanTypeLLM))
//	}, reprise.WithInput(question))
//
// Tracing flows through context.Context: pass ctx on, including to goroutines started inside a span; the trace
// completes once every span started inside it has ended. Tracing never panics into the application and never
// changes what the wrapped function returns.
package reprise
