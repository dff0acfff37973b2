package reprise

import (
	"context"
	"errors"
	"net/http"
	"os"
	"sync/atomic"

	"github.com/reprise/reprise/sdks/go/internal/transport"
)

// Client records traces and replays them. It is safe for concurrent use. Nothing starts until the first span is
// recorded; call Close before the program exits, or what is still queued is lost: there is no automatic exit flush.
type Client struct {
	config    Config
	enabled   bool
	warn      *warner
	api       *apiClient
	transport *transport.Transport
	gate      *gate
}

// New builds a client from options and REPRISE_* environment variables (option first, then variable, then
// default). Invalid limits warn once and fall back; without an API key tracing is disabled with one warning, and
// Trace and Span just run the application's functions.
func New(opts ...Option) *Client {
	var o options
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	config, warnings := resolve(&o, os.LookupEnv)
	logger := o.logger
	if logger == nil {
		logger = defaultLogger()
	}
	c := &Client{config: config, enabled: config.APIKey != "", warn: newWarner(logger)}
	for _, w := range warnings {
		c.warn.warnOnce(w.Key, w.Message)
	}
	if !c.enabled {
		c.warn.warnOnce("no-api-key", "No API key (WithAPIKey or REPRISE_API_KEY): tracing is disabled.")
	}
	httpClient := o.httpClient
	if httpClient == nil {
		httpClient = &http.Client{}
	}
	c.api = &apiClient{config: config, http: httpClient}
	c.transport = transport.New(transport.Settings{
		URL: config.ExportURL, APIKey: config.APIKey, Protobuf: config.Mode == ModeCollector,
		Compression: config.Compression, MaxRequestBytes: config.MaxRequestBytes, Concurrency: config.ExportConcurrency,
		MaxQueueSize: config.Tuning.MaxQueueSize, MaxExportBatchSize: config.Tuning.MaxExportBatchSize,
		MaxCarriersPerRequest: config.Tuning.MaxCarriersPerRequest, MaxAttempts: config.Tuning.MaxAttempts,
		ScheduledDelay: config.Tuning.ScheduledDelay, ExportTimeout: config.Tuning.ExportTimeout,
		RequestTimeout: config.Tuning.RequestTimeout, BackoffBase: config.Tuning.BackoffBase,
		MaxBackoff: maxBackoff, ServiceName: serviceName, ScopeName: scopeName, Version: Version,
		HTTPClient: o.httpClient, WarnOnce: c.warn.warnOnce, WarnThrottled: c.warn.warnThrottled,
	})
	var plan *planSource
	if config.SimPlanEnabled {
		plan = &planSource{fetch: fetchSimPlan(c.api)}
	}
	c.gate = newGate(plan, c.transport.Submit)
	return c
}

// Config returns the resolved configuration.
func (c *Client) Config() Config { return c.config }

// Enabled reports whether the client records traces (it has an API key).
func (c *Client) Enabled() bool { return c != nil && c.enabled }

// FlushTraces exports everything this client recorded so far and waits for it to be delivered. It returns false
// when delivery failed or ctx ended first; carriers dropped because the queue was full do not make it fail. It
// never panics.
func (c *Client) FlushTraces(ctx context.Context) (ok bool) {
	if c == nil {
		return true
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	if !c.gate.drain(ctx) {
		return false
	}
	return c.transport.Flush(ctx)
}

// Close flushes, then stops the client's delivery for good; spans recorded afterwards are not sent. It returns an
// error when the final flush failed or ctx ended first. Calling it again does nothing.
func (c *Client) Close(ctx context.Context) (err error) {
	if c == nil {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			err = errors.New("reprise: close failed")
		}
	}()
	drained := c.gate.drain(ctx)
	if !c.transport.Close(ctx) || !drained {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return errors.New("reprise: some traces could not be delivered before close")
	}
	return nil
}

// Closed reports whether Close was called.
func (c *Client) Closed() bool { return c != nil && c.transport.Closed() }

var defaultClient atomic.Pointer[Client]

// SetDefault makes c the client Trace uses when it is given a nil client. Pass nil to unset it.
func SetDefault(c *Client) { defaultClient.Store(c) }

// Default returns the client set with SetDefault, or nil.
func Default() *Client { return defaultClient.Load() }

// FlushTraces flushes the default client; it returns true when none is set.
func FlushTraces(ctx context.Context) bool { return Default().FlushTraces(ctx) }
