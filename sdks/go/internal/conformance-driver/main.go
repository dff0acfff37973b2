// Command conformance-driver is the Go SDK's conformance driver: JSON lines on stdin and stdout
// (sdks/conformance/PROTOCOL.md). It builds one client from the environment alone, on the first command that
// needs it.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"

	reprise "github.com/reprise/reprise/sdks/go"
)

type request struct {
	ID  json.RawMessage `json:"id"`
	Cmd string          `json:"cmd"`
}

type answer struct {
	ID     json.RawMessage `json:"id"`
	OK     bool            `json:"ok"`
	Result any             `json:"result"`
	Error  map[string]any  `json:"error,omitempty"`
}

var (
	clientOnce sync.Once
	client     *reprise.Client
)

// sdk returns the one client, built from the environment on first use.
func sdk() *reprise.Client {
	clientOnce.Do(func() { client = reprise.New() })
	return client
}

func main() {
	out := bufio.NewWriter(os.Stdout)
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<20), 256<<20)
	// Commands run one at a time, in order: a command sees everything the previous ones recorded.
	for scanner.Scan() {
		line := scanner.Bytes()
		if len(line) == 0 {
			continue
		}
		a := handle(line)
		encoded, err := json.Marshal(a)
		if err != nil {
			encoded, _ = json.Marshal(answer{ID: a.ID, Error: map[string]any{"type": "other", "message": err.Error()}})
		}
		out.Write(encoded)
		out.WriteByte('\n')
		out.Flush()
	}
}

func handle(line []byte) (a answer) {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		return answer{ID: json.RawMessage("null"), Error: map[string]any{"type": "other", "message": err.Error()}}
	}
	a.ID = req.ID
	defer func() {
		if r := recover(); r != nil {
			a.OK, a.Result, a.Error = false, nil, map[string]any{"type": "other", "message": fmt.Sprint("driver panic: ", r)}
		}
	}()
	var generic map[string]any
	if err := json.Unmarshal(line, &generic); err != nil {
		return answer{ID: req.ID, Error: map[string]any{"type": "other", "message": err.Error()}}
	}
	expanded, _ := json.Marshal(expandValues(generic))
	command, ok := commands[req.Cmd]
	if !ok {
		return answer{ID: req.ID, Error: map[string]any{"type": "other", "message": "unknown command " + req.Cmd}}
	}
	result, err := command(expanded)
	if err != nil {
		return answer{ID: req.ID, Error: toError(err)}
	}
	return answer{ID: req.ID, OK: true, Result: result}
}

func toError(err error) map[string]any {
	var notFound *reprise.FunctionNotFoundError
	var barrier *reprise.ReplayBarrierTimeoutError
	var apiErr *reprise.APIError
	switch {
	case errors.As(err, &notFound):
		return map[string]any{"type": "function_not_found", "message": err.Error()}
	case errors.As(err, &barrier):
		return map[string]any{"type": "replay_barrier_timeout", "message": err.Error(), "pendingTraceIds": barrier.PendingTraceIDs}
	case errors.As(err, &apiErr):
		return map[string]any{"type": "api_error", "message": err.Error(), "status": apiErr.Status}
	case errors.Is(err, reprise.ErrNoAPIKey):
		return map[string]any{"type": "config_error", "message": err.Error()}
	case errors.Is(err, reprise.ErrClosed):
		return map[string]any{"type": "closed", "message": err.Error()}
	default:
		return map[string]any{"type": "other", "message": err.Error()}
	}
}

// expandValues expands {"$repeat": s, "count": n} anywhere in a value (PROTOCOL.md, Values).
func expandValues(value any) any {
	switch v := value.(type) {
	case []any:
		out := make([]any, len(v))
		for i, item := range v {
			out[i] = expandValues(item)
		}
		return out
	case map[string]any:
		if s, ok := v["$repeat"].(string); ok && len(v) == 2 {
			if n, ok := v["count"].(float64); ok {
				return repeat(s, int(n))
			}
		}
		out := make(map[string]any, len(v))
		for k, item := range v {
			out[k] = expandValues(item)
		}
		return out
	default:
		return value
	}
}

func repeat(s string, n int) string {
	if n <= 0 {
		return ""
	}
	b := make([]byte, 0, len(s)*n)
	for i := 0; i < n; i++ {
		b = append(b, s...)
	}
	return string(b)
}

func background() context.Context { return context.Background() }
