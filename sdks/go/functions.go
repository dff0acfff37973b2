package reprise

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/reprise/reprise/sdks/go/internal/transport"
)

// Function is a stored function, as functions/lookup returns it.
type Function struct {
	ID            string          `json:"id"`
	Name          string          `json:"name,omitempty"`
	VersionID     string          `json:"versionId,omitempty"`
	VersionNumber int             `json:"versionNumber,omitempty"`
	Prompt        string          `json:"prompt,omitempty"`
	Providers     json.RawMessage `json:"providers,omitempty"`
}

// LookupFunction looks a function up by name. It returns a *FunctionNotFoundError (errors.Is(err,
// ErrFunctionNotFound)) when the server answers {"id": null}, and an *APIError when the call fails.
func (c *Client) LookupFunction(ctx context.Context, name string) (*Function, error) {
	if c == nil || !c.enabled {
		return nil, ErrNoAPIKey
	}
	var body struct {
		Function
		ID *string `json:"id"`
	}
	if err := c.api.call(ctx, "POST", "/functions/lookup", map[string]string{"name": name}, &body, callOptions{}); err != nil {
		return nil, err
	}
	if body.ID == nil || *body.ID == "" {
		return nil, &FunctionNotFoundError{Name: name, URL: c.config.ServiceURL + "/functions"}
	}
	fn := body.Function
	fn.ID = *body.ID
	return &fn, nil
}

// FunctionExecution is one execution of a stored function.
type FunctionExecution struct {
	// Inputs are the named arguments; left out when empty.
	Inputs map[string]any
	// Result is the execution's result; a string is sent as is, anything else as JSON.
	Result any
}

// RecordFunctionTrace records an execution of a stored function (an internal_trace carrier), delivered in the
// background like spans. It returns ErrClosed after Close and ErrNoAPIKey without a key.
func (c *Client) RecordFunctionTrace(functionID string, execution FunctionExecution) error {
	if c == nil || !c.enabled {
		return ErrNoAPIKey
	}
	if functionID == "" {
		return errors.New("reprise: RecordFunctionTrace needs a function id")
	}
	payload := map[string]any{"functionId": functionID, "source": "go-sdk", "sdkVersion": Version}
	result, _ := encodeValue(execution.Result)
	payload["result"] = result
	if len(execution.Inputs) > 0 {
		inputs, _ := encodeValue(execution.Inputs)
		payload["inputs"] = inputs
	}
	encoded, err := marshalJSON(payload)
	if err != nil {
		return fmt.Errorf("reprise: encoding the function trace: %w", err)
	}
	now := time.Now()
	carrier := &transport.Carrier{
		Operation: transport.OpInternalTrace, Payload: encoded, TraceID: newUUID(),
		Name: carrierName("", "", transport.OpInternalTrace), Start: now, End: now,
	}
	if !c.transport.Submit(carrier) {
		return ErrClosed
	}
	return nil
}
