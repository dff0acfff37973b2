package reprise

import (
	"errors"
	"fmt"
)

// ErrNoAPIKey is returned by blocking calls when no API key was configured.
var ErrNoAPIKey = errors.New("reprise: no API key: use WithAPIKey or set REPRISE_API_KEY")

// ErrClosed is returned by calls that need the transport after Close.
var ErrClosed = errors.New("reprise: the client is closed")

// ErrFunctionNotFound matches a *FunctionNotFoundError with errors.Is.
var ErrFunctionNotFound = errors.New("reprise: function not found")

// APIError is a rejection of a blocking call: a non-2xx answer, a 2xx body with an `error`, or a network failure
// (Status 0).
type APIError struct {
	// Status is the HTTP status, 0 for network errors and timeouts.
	Status int
	// Code is the server's snake_case error code, when it sent one.
	Code string
	// URL is where the problem can be fixed, when the server named one.
	URL string
	// Message describes the failure.
	Message string
}

func (e *APIError) Error() string { return "reprise: " + e.Message }

// FunctionNotFoundError is returned by LookupFunction when the server knows no function of that name.
type FunctionNotFoundError struct {
	Name string
	// URL is where functions are managed in the console.
	URL string
}

func (e *FunctionNotFoundError) Error() string {
	return fmt.Sprintf("reprise: function %q not found; create it at %s", e.Name, e.URL)
}

// Is makes errors.Is(err, ErrFunctionNotFound) true.
func (e *FunctionNotFoundError) Is(target error) bool { return target == ErrFunctionNotFound }

// ReplayBarrierTimeoutError says the replayed traces were not all confirmed persisted in time; the run was NOT
// completed, so nothing half-stored is graded (docs/sdk-transport.md, rule 11).
type ReplayBarrierTimeoutError struct {
	TestRunID string
	// PendingTraceIDs are the replay trace ids not confirmed in time.
	PendingTraceIDs []string
	Timeout         string
}

func (e *ReplayBarrierTimeoutError) Error() string {
	return fmt.Sprintf("reprise: replay %s: %d trace(s) were not confirmed persisted within %s; the run was not completed",
		e.TestRunID, len(e.PendingTraceIDs), e.Timeout)
}
