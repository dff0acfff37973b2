package reprise

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"testing"
	"time"
)

// TestContractAgainstARealReprise records traces into a running Reprise, reads them back and replays them. It is
// skipped unless both variables are set (test/system/go-sdk.system.test.ts sets them):
//
//	REPRISE_CONTRACT_URL=http://localhost:3000 REPRISE_CONTRACT_API_KEY=rp_… go test -run Contract .
func TestContractAgainstARealReprise(t *testing.T) {
	base, key := os.Getenv("REPRISE_CONTRACT_URL"), os.Getenv("REPRISE_CONTRACT_API_KEY")
	if base == "" || key == "" {
		t.Skip("set REPRISE_CONTRACT_URL and REPRISE_CONTRACT_API_KEY to run against a real Reprise")
	}
	c := New(WithAPIKey(key), WithServiceURL(base))
	defer c.Close(context.Background())
	traceFunction := fmt.Sprintf("go-contract-%s", newUUID())
	var ids []string
	lookups := 0
	// The application's traced function; replay calls it again, and its Trace stands for the replay root.
	answer := func(ctx context.Context, question string) (string, error) {
		return Trace(ctx, c, traceFunction, func(ctx context.Context) (string, error) {
			ids = append(ids, CurrentTrace(ctx).ID())
			// Served from the recording during the replay: it must not run again.
			facts, err := Span(ctx, "lookup", func(ctx context.Context) (string, error) {
				lookups++
				return "facts about " + question, nil
			}, WithType(SpanTypeFunction), WithMockOnReplay())
			if err != nil {
				return "", err
			}
			return Span(ctx, "call-model", func(ctx context.Context) (string, error) {
				CurrentSpan(ctx).AddContext(map[string]any{"model": "contract-model", "inputTokens": 7, "outputTokens": 3})
				return "answer from " + facts, nil
			}, WithType(SpanTypeLLM))
		}, WithInput(question))
	}
	for i := 0; i < 3; i++ {
		if _, err := answer(context.Background(), fmt.Sprintf("question %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	ids = ids[:3:3]
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if !c.FlushTraces(ctx) {
		t.Fatal("FlushTraces returned false")
	}
	var read struct {
		Trace struct {
			Status    string `json:"status"`
			SpanCount int    `json:"spanCount"`
			Model     string `json:"model"`
		} `json:"trace"`
	}
	getJSON(t, base, key, "/api/sdk/traces/"+url.PathEscape(ids[0]), &read)
	if read.Trace.Status != "completed" || read.Trace.SpanCount != 3 || read.Trace.Model != "contract-model" {
		t.Fatalf("trace read back as %+v", read.Trace)
	}
	result, err := c.Replay(ctx, traceFunction, func(ctx context.Context, input json.RawMessage) (any, error) {
		var question string
		if err := json.Unmarshal(input, &question); err != nil {
			return nil, err
		}
		return answer(ctx, question)
	}, ReplayOptions{TraceIDs: ids, Concurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(result.Items) != 3 || result.TraceCount != 3 {
		t.Fatalf("replay result %+v", result)
	}
	if lookups != 3 {
		t.Errorf("the mocked lookup ran %d times in all, want 3 (recording only)", lookups)
	}
	for _, item := range result.Items {
		if item.Output != "answer from facts about "+string(item.Input[1:len(item.Input)-1]) {
			t.Errorf("replayed output %v for input %s", item.Output, item.Input)
		}
		if item.Outline != nil && !outlineHasMocked(item.Outline.Spans, "lookup") {
			t.Errorf("outline without the mocked lookup: %+v", item.Outline)
		}
		if item.Err != nil || item.Outline == nil || item.Outline.SpanCount != 3 || item.Tokens == nil ||
			item.Tokens.Total == nil || *item.Tokens.Total != 10 || item.Original.Outline == nil {
			t.Errorf("item %+v (outline %+v)", item, item.Outline)
		}
	}
}

func getJSON(t *testing.T, base, key, path string, out any) {
	t.Helper()
	req, _ := http.NewRequest("GET", base+path, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d", path, resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		t.Fatal(err)
	}
}

func outlineHasMocked(spans []OutlineSpan, name string) bool {
	for _, s := range spans {
		if (s.Name == name && s.Mocked) || outlineHasMocked(s.Children, name) {
			return true
		}
	}
	return false
}
