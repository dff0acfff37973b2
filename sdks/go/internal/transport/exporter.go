package transport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/reprise/reprise/sdks/go/internal/otlp"
)

// exporter turns one batch into size-bounded requests, sends up to Concurrency of them at once, gzips, retries
// through one shared throttle and trims oversized carriers (docs/sdk-transport.md, rule 3-9).
type exporter struct {
	settings Settings
	codec    otlp.Codec
	client   *http.Client
	acks     *AckTracker
	throttle throttle
	slots    chan struct{}
}

type prepared struct {
	carrier *Carrier
	bytes   []byte
}

type plannedRequest struct {
	carriers []*Carrier
	raw      []byte // body before compression; nil when body is already final
	body     []byte
	gzipped  bool
}

func newExporter(s Settings, acks *AckTracker) *exporter {
	var codec otlp.Codec
	resource := otlp.Resource{ServiceName: s.ServiceName, Version: s.Version, ScopeName: s.ScopeName}
	if s.Protobuf {
		codec = otlp.NewProtobufCodec(resource)
	} else {
		codec = otlp.NewJSONCodec(resource)
	}
	client := s.HTTPClient
	if client == nil {
		client = &http.Client{Transport: &http.Transport{
			Proxy:               http.ProxyFromEnvironment,
			MaxIdleConnsPerHost: s.Concurrency,
			IdleConnTimeout:     90 * time.Second,
		}}
	}
	return &exporter{settings: s, codec: codec, client: client, acks: acks, slots: make(chan struct{}, s.Concurrency)}
}

// export delivers one batch within the export budget. It returns an error when any request failed.
func (e *exporter) export(ctx context.Context, batch []*Carrier) error {
	deadline := time.Now().Add(e.settings.ExportTimeout)
	requests := e.plan(batch)
	results := make([]deliveryResult, len(requests))
	var wg sync.WaitGroup
	for i := range requests {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					results[i] = deliveryResult{message: fmt.Sprintf("internal error: %v", r)}
				}
			}()
			results[i] = e.send(ctx, requests[i], deadline)
		}(i)
	}
	wg.Wait()
	failedCount := 0
	var first deliveryResult
	for _, r := range results {
		if !r.delivered {
			if failedCount == 0 {
				first = r
			}
			failedCount++
		}
	}
	if failedCount == 0 {
		return nil
	}
	err := fmt.Errorf("could not deliver %d of %d request(s) to %s: %s", failedCount, len(requests), e.settings.URL, first.message)
	key := "delivery:network"
	if first.status != 0 {
		key = fmt.Sprintf("delivery:%d", first.status)
	}
	e.settings.WarnThrottled(key, err.Error())
	return err
}

func (e *exporter) plan(batch []*Carrier) []plannedRequest {
	var normal, oversized []prepared
	for _, c := range batch {
		p := prepared{carrier: c, bytes: e.encode(c)}
		if e.codec.RequestSize(len(p.bytes), 1) > e.settings.MaxRequestBytes {
			oversized = append(oversized, p)
		} else {
			normal = append(normal, p)
		}
	}
	sizes := make([]int, len(normal))
	for i, p := range normal {
		sizes[i] = len(p.bytes)
	}
	var requests []plannedRequest
	for _, group := range packCarriers(sizes, e.settings.MaxCarriersPerRequest, e.settings.MaxRequestBytes, e.codec.RequestSize) {
		carriers := make([]*Carrier, len(group))
		parts := make([][]byte, len(group))
		for j, index := range group {
			carriers[j], parts[j] = normal[index].carrier, normal[index].bytes
		}
		requests = append(requests, plannedRequest{carriers: carriers, raw: e.codec.Assemble(parts)})
	}
	for _, p := range oversized {
		requests = append(requests, e.planOversized(p))
	}
	return requests
}

// planOversized sends a carrier over the packing target alone: intact when it gzips under the target and stays
// under the decompressed ceiling, else trimmed to the fallback budget (transport rules 5 and 7).
func (e *exporter) planOversized(p prepared) plannedRequest {
	if EscapedBytes(p.carrier.Payload) > PerSpanBudget {
		p = e.trim(p, PerSpanBudget)
	}
	raw := e.codec.Assemble([][]byte{p.bytes})
	if e.settings.Compression && len(raw) <= DecompressedCeiling {
		if body, gzipped := maybeGzip(raw, true); gzipped && len(body) <= e.settings.MaxRequestBytes {
			return plannedRequest{carriers: []*Carrier{p.carrier}, body: body, gzipped: true}
		}
	}
	p = e.trim(p, e.fallbackBudget(p))
	return plannedRequest{carriers: []*Carrier{p.carrier}, raw: e.codec.Assemble([][]byte{p.bytes})}
}

// fallbackBudget is the fallback trim budget, lowered when a smaller request target leaves less room.
func (e *exporter) fallbackBudget(p prepared) int {
	envelope := e.codec.RequestSize(0, 1)
	nonPayload := len(p.bytes) - EscapedBytes(p.carrier.Payload)
	budget := e.settings.MaxRequestBytes - envelope - nonPayload
	if budget > FallbackBudget {
		budget = FallbackBudget
	}
	if budget < 0 {
		budget = 0
	}
	return budget
}

func (e *exporter) trim(p prepared, budget int) prepared {
	payload, trimmed := trimPayload(p.carrier.Payload, p.carrier.Operation, budget)
	if len(trimmed) == 0 {
		return p
	}
	e.settings.WarnOnce("payload_budget", fmt.Sprintf("A %s payload exceeded the carrier budget; oversized fields "+
		"were replaced with <unserializable: too_large_N_bytes> (recorded under errors, step payload_budget).",
		p.carrier.Operation))
	copy := *p.carrier
	copy.Payload = payload
	return prepared{carrier: &copy, bytes: e.encode(&copy)}
}

func (e *exporter) encode(c *Carrier) []byte {
	return e.codec.EncodeCarrier(otlp.Span{
		Name: c.Name, Start: c.Start, End: c.End, Operation: c.Operation, Payload: string(c.Payload), IsError: c.IsError,
	})
}

func (e *exporter) send(ctx context.Context, request plannedRequest, deadline time.Time) deliveryResult {
	select {
	case e.slots <- struct{}{}:
	case <-ctx.Done():
		return deliveryResult{message: "canceled"}
	}
	defer func() { <-e.slots }()
	body, gzipped := request.body, request.gzipped
	if request.raw != nil {
		body, gzipped = maybeGzip(request.raw, e.settings.Compression)
	}
	policy := retryPolicy{
		maxAttempts: e.settings.MaxAttempts, backoffBase: e.settings.BackoffBase,
		maxBackoff: e.settings.MaxBackoff, requestTimeout: e.settings.RequestTimeout,
	}
	result := sendWithRetry(ctx, deadline, policy, &e.throttle, func(ctx context.Context, timeout time.Duration) attemptResult {
		return e.attempt(ctx, body, gzipped, timeout)
	})
	if result.delivered && !e.settings.Protobuf {
		// A Collector's acceptance does not prove persistence; only Reprise's own answer does.
		e.acks.record(request.carriers, otlp.ReadJSONResponse(result.body).TraceIDs)
	}
	return result
}

// attempt makes one HTTP exchange and classifies it.
func (e *exporter) attempt(ctx context.Context, body []byte, gzipped bool, timeout time.Duration) attemptResult {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.settings.URL, bytes.NewReader(body))
	if err != nil {
		return attemptResult{kind: attemptRejected, message: err.Error(), retryAfter: -1}
	}
	req.Header.Set("Authorization", "Bearer "+e.settings.APIKey)
	req.Header.Set("Content-Type", e.codec.ContentType())
	if gzipped {
		req.Header.Set("Content-Encoding", "gzip")
	}
	resp, err := e.client.Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return attemptResult{kind: attemptRetryable, message: fmt.Sprintf("timed out after %v", timeout), retryAfter: -1}
		}
		return attemptResult{kind: attemptRetryable, message: "network error: " + err.Error(), retryAfter: -1}
	}
	defer resp.Body.Close()
	responseBody, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return attemptResult{kind: attemptRetryable, status: resp.StatusCode, message: "network error: " + err.Error(), retryAfter: -1}
	}
	return e.classify(resp, responseBody)
}

func (e *exporter) classify(resp *http.Response, body []byte) attemptResult {
	status := resp.StatusCode
	if status >= 200 && status < 300 {
		summary := e.readResponse(resp, body)
		if summary.Error != "" {
			return attemptResult{kind: attemptRejected, status: status, message: "rejected: " + summary.Error, retryAfter: -1}
		}
		if summary.RejectedSpans > 0 {
			reason := summary.ErrorMessage
			if reason == "" {
				reason = "no reason given"
			}
			return attemptResult{kind: attemptRejected, status: status, retryAfter: -1,
				message: fmt.Sprintf("%d carrier(s) rejected: %s", summary.RejectedSpans, reason)}
		}
		return attemptResult{kind: attemptOK, status: status, body: body, retryAfter: -1}
	}
	message := fmt.Sprintf("HTTP %d", status)
	if len(body) > 0 {
		excerpt := body
		if len(excerpt) > 500 {
			excerpt = excerpt[:500]
		}
		message += ": " + string(excerpt)
	}
	if retryableStatuses[status] {
		return attemptResult{kind: attemptRetryable, status: status, message: message,
			retryAfter: ParseRetryAfter(resp.Header.Get("Retry-After"), time.Now())}
	}
	return attemptResult{kind: attemptRejected, status: status, message: message, retryAfter: -1}
}

// readResponse reads a 2xx body in the encoding the server answered in (a Collector may answer JSON to protobuf).
func (e *exporter) readResponse(resp *http.Response, body []byte) otlp.Response {
	if strings.Contains(resp.Header.Get("Content-Type"), "json") {
		return otlp.ReadJSONResponse(body)
	}
	return e.codec.ReadResponse(body)
}
