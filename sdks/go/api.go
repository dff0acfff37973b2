package reprise

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// apiClient calls Reprise's blocking JSON endpoints under /api/sdk/. Non-2xx answers, 2xx bodies with a string
// `error`, network errors and timeouts become *APIError (docs/sdk-transport.md, "Responses").
type apiClient struct {
	config Config
	http   *http.Client
}

type callOptions struct {
	timeout time.Duration
	headers map[string]string
}

// call sends a request and decodes the JSON answer into out (when non-nil).
func (a *apiClient) call(ctx context.Context, method, path string, body, out any, opts callOptions) error {
	status, raw, err := a.do(ctx, method, path, body, opts)
	if err != nil {
		return err
	}
	if out != nil && len(bytes.TrimSpace(raw)) > 0 {
		if err := json.Unmarshal(raw, out); err != nil {
			return &APIError{Status: status, Message: fmt.Sprintf("%s %s: unreadable answer: %v", method, path, err)}
		}
	}
	return nil
}

func (a *apiClient) do(ctx context.Context, method, path string, body any, opts callOptions) (int, []byte, error) {
	if a.config.APIKey == "" {
		return 0, nil, ErrNoAPIKey
	}
	if opts.timeout <= 0 {
		opts.timeout = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, opts.timeout)
	defer cancel()
	url := a.config.ServiceURL + "/api/sdk" + path
	var reader io.Reader
	gzipped := false
	if body != nil {
		encoded, err := json.Marshal(body)
		if err != nil {
			return 0, nil, fmt.Errorf("reprise: encoding the %s %s body: %w", method, path, err)
		}
		encoded, gzipped = gzipBody(encoded, a.config.Compression)
		reader = bytes.NewReader(encoded)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, reader)
	if err != nil {
		return 0, nil, &APIError{Message: fmt.Sprintf("%s %s: %v", method, url, err)}
	}
	req.Header.Set("Authorization", "Bearer "+a.config.APIKey)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
		if gzipped {
			req.Header.Set("Content-Encoding", "gzip")
		}
	}
	for k, v := range opts.headers {
		req.Header.Set(k, v)
	}
	if opts.headers["Connection"] == "close" {
		req.Close = true
	}
	resp, err := a.http.Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return 0, nil, &APIError{Message: fmt.Sprintf("%s %s timed out after %v", method, url, opts.timeout)}
		}
		return 0, nil, &APIError{Message: fmt.Sprintf("%s %s failed: %v", method, url, err)}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return resp.StatusCode, nil, &APIError{Status: resp.StatusCode, Message: fmt.Sprintf("%s %s: reading the answer: %v", method, url, err)}
	}
	var envelope struct {
		Error json.RawMessage `json:"error"`
		Code  string          `json:"code"`
		URL   string          `json:"url"`
	}
	_ = json.Unmarshal(raw, &envelope)
	var reason string
	hasError := json.Unmarshal(envelope.Error, &reason) == nil
	if resp.StatusCode >= 200 && resp.StatusCode < 300 && !hasError {
		return resp.StatusCode, raw, nil
	}
	if !hasError {
		reason = string(raw)
		if len(reason) > 500 {
			reason = reason[:500]
		}
	}
	apiErr := &APIError{Status: resp.StatusCode, Code: envelope.Code}
	apiErr.Message = fmt.Sprintf("%s %s answered %d: %s", method, url, resp.StatusCode, reason)
	if envelope.URL != "" {
		apiErr.URL = a.config.ServiceURL + envelope.URL
		apiErr.Message += " Configure it at: " + apiErr.URL
	}
	return resp.StatusCode, raw, apiErr
}

// gzipBody gzips bodies of 8,192 bytes or more when that makes them smaller (docs/sdk-transport.md, rule 4).
func gzipBody(body []byte, enabled bool) ([]byte, bool) {
	if !enabled || len(body) < 8192 {
		return body, false
	}
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write(body); err != nil || w.Close() != nil || b.Len() >= len(body) {
		return body, false
	}
	return b.Bytes(), true
}
