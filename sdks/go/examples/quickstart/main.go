// Command quickstart records one trace with the Go SDK: a root, a child "plan" (type function) and a child
// "call-model" (type llm) whose contexts carry the model and token usage. It flushes, closes, and prints
// {"traceId": "<canonical trace id>"} as its last line of stdout.
//
//	REPRISE_API_KEY=rp_… REPRISE_URL=http://localhost:3000 REPRISE_EXAMPLE_TRACE_FUNCTION=answer-question \
//	  go run ./examples/quickstart
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	reprise "github.com/reprise/reprise/sdks/go"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

func run() error {
	traceFunction := os.Getenv("REPRISE_EXAMPLE_TRACE_FUNCTION")
	if traceFunction == "" {
		traceFunction = "go-quickstart"
	}
	client := reprise.New() // REPRISE_API_KEY, REPRISE_URL and the other REPRISE_* settings
	if !client.Enabled() {
		return fmt.Errorf("set REPRISE_API_KEY")
	}
	// No automatic flush at exit in Go: Close delivers what is queued.
	defer client.Close(context.Background())

	ctx := context.Background()
	question := "What is Reprise?"
	var traceID string
	answer, err := reprise.Trace(ctx, client, traceFunction, func(ctx context.Context) (string, error) {
		traceID = reprise.CurrentTrace(ctx).ID()
		steps, err := reprise.Span(ctx, "plan", func(ctx context.Context) ([]string, error) {
			return []string{"look up the product", "answer in one sentence"}, nil
		}, reprise.WithType(reprise.SpanTypeFunction), reprise.WithInput(question))
		if err != nil {
			return "", err
		}
		return reprise.Span(ctx, "call-model", func(ctx context.Context) (string, error) {
			// Tokens and model live in span contexts; Reprise derives usage from them.
			reprise.CurrentSpan(ctx).AddContext(map[string]any{"model": "example-model", "inputTokens": 12, "outputTokens": 3})
			return "Reprise records, replays and judges LLM applications (" + strings.Join(steps, ", ") + ").", nil
		}, reprise.WithType(reprise.SpanTypeLLM), reprise.WithInput(question, steps))
	}, reprise.WithInput(question))
	if err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, answer)

	flushCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if !client.FlushTraces(flushCtx) {
		return fmt.Errorf("the trace could not be delivered to %s", client.Config().ServiceURL)
	}
	if err := client.Close(flushCtx); err != nil {
		return err
	}
	id, _ := json.Marshal(traceID)
	fmt.Printf("{\"traceId\": %s}\n", id) // the last line of stdout, exactly as documented
	return nil
}
