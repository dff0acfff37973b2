package reprise

import (
	"context"
	"errors"
	"net/url"
	"time"
)

// patchTimeout is the client timeout of a detached trace update.
const patchTimeout = 10 * time.Second

// TraceUpdate changes a trace after it ended. Nil and empty fields are left out; at least one must be set.
type TraceUpdate struct {
	// Name replaces the trace title.
	Name *string
	// MergeMetadata is shallow-merged into the trace metadata.
	MergeMetadata map[string]any
	// AppendContexts are appended to the trace's contexts.
	AppendContexts []map[string]any
	// SessionID replaces the session id.
	SessionID *string
}

// UpdateTrace updates a trace by its canonical id through PATCH /api/sdk/traces/{id} (docs/api/traces.md, "PATCH /api/sdk/traces/{traceId}").
// It is blocking: it returns once the server accepted the update, or an *APIError when it did not.
func (c *Client) UpdateTrace(ctx context.Context, traceID string, update TraceUpdate) error {
	body := map[string]any{}
	if update.Name != nil {
		body["setName"] = *update.Name
	}
	if update.MergeMetadata != nil {
		body["mergeMetadata"] = update.MergeMetadata
	}
	if len(update.AppendContexts) > 0 {
		body["appendContexts"] = update.AppendContexts
	}
	if update.SessionID != nil {
		body["setSessionId"] = *update.SessionID
	}
	if len(body) == 0 {
		return errors.New("reprise: UpdateTrace needs at least one change")
	}
	return c.api.call(ctx, "PATCH", "/traces/"+url.PathEscape(traceID), body, nil, callOptions{timeout: patchTimeout})
}
