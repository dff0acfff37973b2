package reprise

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// carrier is a carrier as the fake server received it.
type carrier struct {
	Operation string
	Payload   map[string]any
	Name      string
	Status    float64
}

// fakeReprise is a local HTTP server that speaks the ingestion side of the protocol and records every carrier.
type fakeReprise struct {
	*httptest.Server
	mu       sync.Mutex
	carriers []carrier
	requests []*http.Request
	bodies   [][]byte
	// handlers answer other /api/sdk paths; the OTLP path answers {} unless otlp is set.
	handlers map[string]http.HandlerFunc
	otlp     func(w http.ResponseWriter, r *http.Request, carriers []carrier) bool
}

func newFakeReprise(t *testing.T) *fakeReprise {
	t.Helper()
	f := &fakeReprise{handlers: map[string]http.HandlerFunc{}}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeReprise) handle(path string, h http.HandlerFunc) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.handlers[path] = h
}

func (f *fakeReprise) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if r.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			http.Error(w, "bad gzip", 400)
			return
		}
		body, _ = io.ReadAll(zr)
	}
	f.mu.Lock()
	f.requests = append(f.requests, r)
	f.bodies = append(f.bodies, body)
	handler := f.handlers[r.URL.Path]
	otlp := f.otlp
	f.mu.Unlock()
	if r.URL.Path == "/api/sdk/otel/v1/traces" {
		received := decodeOTLPJSON(body)
		if otlp != nil && !otlp(w, r, received) {
			return
		}
		f.mu.Lock()
		f.carriers = append(f.carriers, received...)
		f.mu.Unlock()
		ids := map[string]string{}
		for _, c := range received {
			if id, ok := c.Payload["sourceTraceId"].(string); ok {
				ids[id] = id
			}
			if id, ok := c.Payload["id"].(string); ok && c.Operation == "external_trace" {
				ids[id] = id
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"traceIds": ids})
		return
	}
	if handler != nil {
		r.Body = io.NopCloser(bytes.NewReader(body))
		handler(w, r)
		return
	}
	if r.URL.Path == "/api/sdk/sim-plan" {
		writeJSON(w, 200, map[string]any{"nodes": []any{}})
		return
	}
	writeJSON(w, 404, map[string]any{"error": "not found", "code": "not_found"})
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

func decodeOTLPJSON(body []byte) []carrier {
	var request struct {
		ResourceSpans []struct {
			ScopeSpans []struct {
				Spans []struct {
					Name       string `json:"name"`
					Attributes []struct {
						Key   string `json:"key"`
						Value struct {
							StringValue string `json:"stringValue"`
						} `json:"value"`
					} `json:"attributes"`
					Status struct {
						Code float64 `json:"code"`
					} `json:"status"`
				} `json:"spans"`
			} `json:"scopeSpans"`
		} `json:"resourceSpans"`
	}
	if json.Unmarshal(body, &request) != nil {
		return nil
	}
	var out []carrier
	for _, rs := range request.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			for _, span := range ss.Spans {
				c := carrier{Name: span.Name, Status: span.Status.Code}
				for _, a := range span.Attributes {
					switch a.Key {
					case "reprise.operation":
						c.Operation = a.Value.StringValue
					case "reprise.payload":
						_ = json.Unmarshal([]byte(a.Value.StringValue), &c.Payload)
					}
				}
				out = append(out, c)
			}
		}
	}
	return out
}

// received returns the carriers of one operation.
func (f *fakeReprise) received(operation string) []carrier {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []carrier
	for _, c := range f.carriers {
		if c.Operation == operation {
			out = append(out, c)
		}
	}
	return out
}

func (f *fakeReprise) otlpRequests() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, r := range f.requests {
		if strings.HasSuffix(r.URL.Path, "/v1/traces") {
			n++
		}
	}
	return n
}

// testClient returns a client of the fake server with a short schedule and no sim plan.
func testClient(t *testing.T, f *fakeReprise, opts ...Option) *Client {
	t.Helper()
	base := []Option{
		WithAPIKey("rp_test"), WithServiceURL(f.URL), WithSimPlanDisabled(true), WithLogger(&testLogger{t: t}),
		WithTransportTuning(TransportTuning{ScheduledDelay: 50 * time.Millisecond, BackoffBase: 5 * time.Millisecond}),
	}
	c := New(append(base, opts...)...)
	t.Cleanup(func() { _ = c.Close(contextWithTimeout(t, 5*time.Second)) })
	return c
}

type testLogger struct {
	t     *testing.T
	mu    sync.Mutex
	lines []string
}

func (l *testLogger) Printf(format string, v ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, strings.TrimSpace(sprintf(format, v...)))
}

func (l *testLogger) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.lines...)
}
