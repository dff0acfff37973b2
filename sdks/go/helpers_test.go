package reprise

import (
	"context"
	"fmt"
	"testing"
	"time"
)

func sprintf(format string, v ...any) string { return fmt.Sprintf(format, v...) }

func contextWithTimeout(t *testing.T, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func flush(t *testing.T, c *Client) {
	t.Helper()
	if !c.FlushTraces(contextWithTimeout(t, 10*time.Second)) {
		t.Fatal("FlushTraces returned false")
	}
}

// path reads a nested value of a decoded payload, e.g. path(p, "rawSpan", "span_data", "name").
func path(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}
