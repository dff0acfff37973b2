package transport

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reprise/reprise/sdks/go/internal/otlp"
)

type received struct {
	gzipped  bool
	wireSize int
	payloads []string
}

// server records OTLP/JSON requests and answers through respond (nil: 200 {}).
type server struct {
	*httptest.Server
	mu       sync.Mutex
	requests []received
	respond  func(n int, w http.ResponseWriter) bool
	calls    atomic.Int32
}

func newServer(t *testing.T, respond func(n int, w http.ResponseWriter) bool) *server {
	s := &server{respond: respond}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(s.calls.Add(1))
		body, _ := io.ReadAll(r.Body)
		rec := received{gzipped: r.Header.Get("Content-Encoding") == "gzip", wireSize: len(body)}
		if rec.gzipped {
			zr, _ := gzip.NewReader(bytes.NewReader(body))
			body, _ = io.ReadAll(zr)
		}
		if s.respond != nil && !s.respond(n, w) {
			return
		}
		var req struct {
			ResourceSpans []struct {
				ScopeSpans []struct {
					Spans []struct {
						Attributes []struct {
							Key   string
							Value struct{ StringValue string }
						}
					}
				}
			}
		}
		if err := json.Unmarshal(body, &req); err != nil {
			t.Errorf("undecodable request: %v", err)
		}
		for _, span := range req.ResourceSpans[0].ScopeSpans[0].Spans {
			rec.payloads = append(rec.payloads, span.Attributes[1].Value.StringValue)
		}
		s.mu.Lock()
		s.requests = append(s.requests, rec)
		s.mu.Unlock()
		w.Write([]byte(`{}`))
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) all() []received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]received(nil), s.requests...)
}

type warnings struct {
	mu    sync.Mutex
	lines []string
}

func (w *warnings) add(_, message string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.lines = append(w.lines, message)
}

func settings(url string, w *warnings) Settings {
	return Settings{
		URL: url, APIKey: "rp_test", Compression: true, MaxRequestBytes: 3_000_000, Concurrency: 4,
		MaxQueueSize: 8192, MaxExportBatchSize: 512, MaxCarriersPerRequest: 8, MaxAttempts: 5,
		ScheduledDelay: time.Hour, ExportTimeout: 5 * time.Second, RequestTimeout: 5 * time.Second,
		BackoffBase: time.Millisecond, MaxBackoff: 20 * time.Millisecond,
		ServiceName: "reprise-go-sdk", ScopeName: "reprise", Version: "0.0.0",
		WarnOnce: w.add, WarnThrottled: w.add,
	}
}

func carrier(i int, payload string) *Carrier {
	return &Carrier{Operation: OpExternalSpan, Payload: []byte(payload), TraceID: fmt.Sprintf("t%d", i), SpanID: fmt.Sprintf("s%d", i), Name: "n", Start: time.Now(), End: time.Now()}
}

func spanPayload(data string) string {
	b, _ := json.Marshal(map[string]any{"rawSpan": map[string]any{"id": "s", "span_data": map[string]any{"name": "n", "input": data, "output": "small"}}})
	return string(b)
}

func flushOK(t *testing.T, tr *Transport) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return tr.Flush(ctx)
}

func TestPacksByCountAndExactSize(t *testing.T) {
	srv := newServer(t, nil)
	w := &warnings{}
	s := settings(srv.URL, w)
	s.Compression = false
	s.MaxRequestBytes = 20_000
	tr := New(s)
	for i := 0; i < 20; i++ {
		tr.Submit(carrier(i, spanPayload(strings.Repeat("x", 4000))))
	}
	if !flushOK(t, tr) {
		t.Fatal("flush failed")
	}
	total := 0
	for _, r := range srv.all() {
		if r.wireSize > s.MaxRequestBytes {
			t.Errorf("request of %d bytes over the %d target", r.wireSize, s.MaxRequestBytes)
		}
		if len(r.payloads) > 8 {
			t.Errorf("%d carriers in one request", len(r.payloads))
		}
		total += len(r.payloads)
	}
	if total != 20 || len(srv.all()) < 5 {
		t.Fatalf("got %d carriers in %d requests", total, len(srv.all()))
	}
}

func TestRequestSizeIsExact(t *testing.T) {
	codec := otlp.NewJSONCodec(otlp.Resource{ServiceName: "s", Version: "v", ScopeName: "x"})
	parts := [][]byte{codec.EncodeCarrier(otlp.Span{Name: "a", Payload: `{"a":1}`}), codec.EncodeCarrier(otlp.Span{Name: "b", Payload: `{"b":"\u00e9<>"}`})}
	body := codec.Assemble(parts)
	if len(body) != codec.RequestSize(len(parts[0])+len(parts[1]), 2) {
		t.Fatalf("RequestSize %d != assembled %d", codec.RequestSize(len(parts[0])+len(parts[1]), 2), len(body))
	}
	if !json.Valid(body) {
		t.Fatal("assembled request is not JSON")
	}
}

func TestGzipFromThresholdOnlyWhenSmaller(t *testing.T) {
	if _, gz := maybeGzip(bytes.Repeat([]byte("a"), GzipThreshold-1), true); gz {
		t.Error("gzipped below the threshold")
	}
	if _, gz := maybeGzip(bytes.Repeat([]byte("a"), GzipThreshold), true); !gz {
		t.Error("not gzipped at the threshold")
	}
	if _, gz := maybeGzip(bytes.Repeat([]byte("a"), 20_000), false); gz {
		t.Error("gzipped with compression disabled")
	}
}

func TestRetriesTransientStatusesAndHonoursRetryAfter(t *testing.T) {
	var first time.Time
	var second time.Time
	srv := newServer(t, func(n int, w http.ResponseWriter) bool {
		switch n {
		case 1:
			first = time.Now()
			w.Header().Set("Retry-After", "0.3")
			w.WriteHeader(503)
			return false
		case 2:
			second = time.Now()
			w.WriteHeader(500)
			return false
		}
		return true
	})
	tr := New(settings(srv.URL, &warnings{}))
	tr.Submit(carrier(1, spanPayload("x")))
	if !flushOK(t, tr) {
		t.Fatal("flush failed despite a final success")
	}
	if wait := second.Sub(first); wait < 300*time.Millisecond {
		t.Errorf("Retry-After 0.3 not honoured: retried after %v", wait)
	}
	if srv.calls.Load() != 3 {
		t.Errorf("%d attempts, want 3", srv.calls.Load())
	}
}

func TestDoesNotRetry413OrPartialRejection(t *testing.T) {
	for _, respond := range []func(w http.ResponseWriter){
		func(w http.ResponseWriter) { w.WriteHeader(413) },
		func(w http.ResponseWriter) {
			w.Write([]byte(`{"partialSuccess":{"rejectedSpans":"1","errorMessage":"bad"}}`))
		},
		func(w http.ResponseWriter) { w.Write([]byte(`{"error":"no"}`)) },
	} {
		respond := respond
		srv := newServer(t, func(n int, w http.ResponseWriter) bool { respond(w); return false })
		w := &warnings{}
		tr := New(settings(srv.URL, w))
		tr.Submit(carrier(1, spanPayload("x")))
		if flushOK(t, tr) {
			t.Error("flush reported success for a rejected request")
		}
		if srv.calls.Load() != 1 {
			t.Errorf("rejected request attempted %d times", srv.calls.Load())
		}
		if len(w.lines) == 0 {
			t.Error("no warning for a delivery failure")
		}
	}
}

func TestRetryAfterBeyondBudgetGivesUp(t *testing.T) {
	srv := newServer(t, func(n int, w http.ResponseWriter) bool {
		w.Header().Set("Retry-After", "60")
		w.WriteHeader(429)
		return false
	})
	tr := New(settings(srv.URL, &warnings{}))
	tr.Submit(carrier(1, spanPayload("x")))
	started := time.Now()
	if flushOK(t, tr) {
		t.Fatal("flush succeeded")
	}
	if time.Since(started) > 2*time.Second || srv.calls.Load() != 1 {
		t.Errorf("waited %v over %d attempts for a Retry-After beyond the budget", time.Since(started), srv.calls.Load())
	}
}

func TestQueueDropsOldestAndFlushStillSucceeds(t *testing.T) {
	srv := newServer(t, nil)
	s := settings(srv.URL, &warnings{})
	s.MaxQueueSize = 10
	s.MaxExportBatchSize = 1000 // no early export: the queue alone decides
	tr := New(s)
	for i := 0; i < 15; i++ {
		tr.Submit(carrier(i, fmt.Sprintf(`{"n":%d}`, i)))
	}
	if tr.Dropped() != 5 {
		t.Errorf("dropped %d, want 5", tr.Dropped())
	}
	if !flushOK(t, tr) {
		t.Fatal("flush failed")
	}
	var got []string
	for _, r := range srv.all() {
		got = append(got, r.payloads...)
	}
	sort.Strings(got)
	if len(got) != 10 || strings.Join(got, "") != `{"n":10}{"n":11}{"n":12}{"n":13}{"n":14}{"n":5}{"n":6}{"n":7}{"n":8}{"n":9}` {
		t.Fatalf("kept %v; want the newest ten", got)
	}
}

func TestScheduledExportWithoutFlush(t *testing.T) {
	srv := newServer(t, nil)
	s := settings(srv.URL, &warnings{})
	s.ScheduledDelay = 50 * time.Millisecond
	tr := New(s)
	tr.Submit(carrier(1, `{}`))
	deadline := time.Now().Add(3 * time.Second)
	for len(srv.all()) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if len(srv.all()) != 1 {
		t.Fatal("nothing exported on schedule")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	tr.Close(ctx)
	if tr.Submit(carrier(2, `{}`)) {
		t.Error("submission accepted after Close")
	}
}

func TestOversizedCarrierGoesAloneGzippedOrTrimmed(t *testing.T) {
	srv := newServer(t, nil)
	w := &warnings{}
	s := settings(srv.URL, w)
	s.MaxRequestBytes = 100_000
	tr := New(s)
	tr.Submit(carrier(1, spanPayload(strings.Repeat("a", 300_000)))) // compresses under the target: intact
	rng := rand.New(rand.NewSource(1))
	random := make([]byte, 300_000)
	for i := range random {
		random[i] = "abcdefghijklmnopqrstuvwxyz0123456789"[rng.Intn(36)]
	}
	tr.Submit(carrier(2, spanPayload(string(random)))) // does not compress enough: trimmed
	tr.Submit(carrier(3, spanPayload("small")))
	if !flushOK(t, tr) {
		t.Fatal("flush failed")
	}
	var intact, trimmed bool
	for _, r := range srv.all() {
		if r.wireSize > s.MaxRequestBytes {
			t.Errorf("request of %d bytes on the wire", r.wireSize)
		}
		for _, p := range r.payloads {
			switch {
			case strings.Contains(p, strings.Repeat("a", 300_000)):
				intact = r.gzipped && len(r.payloads) == 1
			case strings.Contains(p, "too_large_"):
				trimmed = strings.Contains(p, `"step":"payload_budget"`) && strings.Contains(p, `"output":"small"`)
			}
		}
	}
	if !intact || !trimmed {
		t.Fatalf("intact=%v trimmed=%v", intact, trimmed)
	}
	if len(w.lines) != 1 || !strings.Contains(w.lines[0], "too_large") {
		t.Errorf("want one trim warning, got %v", w.lines)
	}
}

func TestAcknowledgmentsCountUniqueSpans(t *testing.T) {
	srv := newServer(t, nil)
	tr := New(settings(srv.URL, &warnings{}))
	tr.Acks.Watch("t1")
	tr.Submit(&Carrier{Operation: OpExternalSpan, Payload: []byte(`{}`), TraceID: "t1", SpanID: "a"})
	tr.Submit(&Carrier{Operation: OpExternalSpan, Payload: []byte(`{}`), TraceID: "t1", SpanID: "a"})
	tr.Submit(&Carrier{Operation: OpExternalTrace, Payload: []byte(`{}`), TraceID: "t1"})
	flushOK(t, tr)
	if _, ok := tr.Acks.Confirmed("t1", 2); ok {
		t.Error("a retried span counted twice")
	}
	if _, ok := tr.Acks.Confirmed("t1", 1); !ok {
		t.Error("acknowledged trace not confirmed")
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	cases := map[string]time.Duration{
		"1": time.Second, "0.25": 250 * time.Millisecond, "Thu, 01 Jan 2026 00:00:03 GMT": 3 * time.Second,
		"": -1, "soon": -1, "-1": -1, "NaN": -1,
	}
	for in, want := range cases {
		if got := ParseRetryAfter(in, now); got != want {
			t.Errorf("ParseRetryAfter(%q) = %v, want %v", in, got, want)
		}
	}
}
