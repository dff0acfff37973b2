package reprise

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// DefaultServiceURL is the base URL of a local Reprise server.
const DefaultServiceURL = "http://localhost:3000"

// Limits of the request settings (docs/sdk-transport.md, "Limits").
const (
	maxRequestBytesCeiling    = 3_000_000
	defaultExportConcurrency  = 32
	maxExportConcurrency      = 64
	defaultCarriersPerRequest = 128
	maxBackoff                = 5 * time.Second
)

// Option configures a Client. Every setting falls back to its REPRISE_* environment variable, then a default.
type Option func(*options)

type options struct {
	apiKey, serviceURL, endpoint       *string
	maxRequestBytes, exportConcurrency *int
	disableCompression, disableSimPlan *bool
	logger                             Logger
	httpClient                         *http.Client
	tuning                             TransportTuning
}

// WithAPIKey sets the API key (env REPRISE_API_KEY). Without one, tracing is disabled with one warning.
func WithAPIKey(key string) Option { return func(o *options) { o.apiKey = &key } }

// WithServiceURL sets the base URL of Reprise (env REPRISE_URL, default http://localhost:3000).
func WithServiceURL(url string) Option { return func(o *options) { o.serviceURL = &url } }

// WithOTelExporterEndpoint sends carriers as OTLP/protobuf to an OpenTelemetry Collector receiver at this base URL
// (env REPRISE_OTEL_EXPORTER_ENDPOINT; /v1/traces is appended) instead of directly to Reprise. Never both.
func WithOTelExporterEndpoint(url string) Option { return func(o *options) { o.endpoint = &url } }

// WithMaxRequestBytes lowers the per-request byte target, 1 to 3,000,000 (env REPRISE_OTEL_MAX_REQUEST_BYTES).
// Invalid values warn once and fall back to 3,000,000.
func WithMaxRequestBytes(n int) Option { return func(o *options) { o.maxRequestBytes = &n } }

// WithExportConcurrency sets the requests in flight, 1 to 64, default 32 (env REPRISE_OTEL_EXPORT_CONCURRENCY).
// Invalid values warn once and fall back to 32.
func WithExportConcurrency(n int) Option { return func(o *options) { o.exportConcurrency = &n } }

// WithCompressionDisabled sends every request uncompressed (env REPRISE_DISABLE_COMPRESSION, any value).
func WithCompressionDisabled(disabled bool) Option {
	return func(o *options) { o.disableCompression = &disabled }
}

// WithSimPlanDisabled never reads the sim plan (env REPRISE_DISABLE_SIM_PLAN, any value).
func WithSimPlanDisabled(disabled bool) Option {
	return func(o *options) { o.disableSimPlan = &disabled }
}

// WithLogger sets where warnings go; a *log.Logger fits. Default: stderr with a "[reprise] " prefix.
func WithLogger(logger Logger) Option { return func(o *options) { o.logger = logger } }

// WithHTTPClient sets the HTTP client used for every request. Its Timeout should be zero or at least 30 s: the
// SDK sets its own deadlines per request.
func WithHTTPClient(client *http.Client) Option { return func(o *options) { o.httpClient = client } }

// WithTransportTuning overrides batch-processor and request tuning, mostly for tests and benchmarks. Zero fields
// keep the interface's defaults.
func WithTransportTuning(t TransportTuning) Option { return func(o *options) { o.tuning = t } }

// TransportTuning holds the batch processor's and the exporter's tuning. The zero value of a field means the
// default given in its comment.
type TransportTuning struct {
	// MaxQueueSize is the processor queue in carriers; the oldest are dropped when full. Default 8,192.
	MaxQueueSize int
	// ScheduledDelay is the scheduled export delay. Default 5 s.
	ScheduledDelay time.Duration
	// MaxExportBatchSize is the carriers per export call. Default 512 (direct) or 32 (Collector).
	MaxExportBatchSize int
	// MaxCarriersPerRequest is the carriers per HTTP request. Default 128.
	MaxCarriersPerRequest int
	// ExportTimeout is the budget of one export call, waits and retries included. Default 30 s.
	ExportTimeout time.Duration
	// RequestTimeout is the deadline of one HTTP request. Default 30 s.
	RequestTimeout time.Duration
	// MaxAttempts is the attempts per request, the first included. Default 5.
	MaxAttempts int
	// BackoffBase is the first backoff step; it doubles per attempt, capped at 5 s, with jitter. Default 100 ms.
	BackoffBase time.Duration
}

// DeliveryMode says where carriers go.
type DeliveryMode string

const (
	// ModeDirect posts OTLP/JSON to Reprise's /api/sdk/otel/v1/traces.
	ModeDirect DeliveryMode = "direct"
	// ModeCollector posts OTLP/protobuf to a Collector receiver's /v1/traces.
	ModeCollector DeliveryMode = "collector"
)

// Config is a fully resolved client configuration.
type Config struct {
	APIKey            string
	ServiceURL        string
	Mode              DeliveryMode
	ExportURL         string
	MaxRequestBytes   int
	ExportConcurrency int
	Compression       bool
	SimPlanEnabled    bool
	Tuning            TransportTuning
}

// ConfigWarning is a warning ResolveConfig wants printed once; Key identifies it.
type ConfigWarning struct {
	Key     string
	Message string
}

// ResolveConfig resolves a configuration: option, then environment variable (read through lookupEnv, for example
// os.LookupEnv), then default. It is pure: it returns the warnings instead of printing them.
func ResolveConfig(lookupEnv func(string) (string, bool), opts ...Option) (Config, []ConfigWarning) {
	var o options
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	return resolve(&o, lookupEnv)
}

func resolve(o *options, lookupEnv func(string) (string, bool)) (Config, []ConfigWarning) {
	env := func(name string) (string, bool) {
		if lookupEnv == nil {
			return "", false
		}
		return lookupEnv(name)
	}
	var warnings []ConfigWarning
	c := Config{
		APIKey:     strings.TrimSpace(firstString(o.apiKey, env, "REPRISE_API_KEY", "")),
		ServiceURL: strings.TrimRight(firstNonEmpty(o.serviceURL, env, "REPRISE_URL", DefaultServiceURL), "/"),
	}
	c.Mode, c.ExportURL = ModeDirect, c.ServiceURL+"/api/sdk/otel/v1/traces"
	if endpoint := firstNonEmpty(o.endpoint, env, "REPRISE_OTEL_EXPORTER_ENDPOINT", ""); endpoint != "" {
		c.Mode, c.ExportURL = ModeCollector, collectorURL(endpoint)
	}
	c.MaxRequestBytes = boundedInt(o.maxRequestBytes, env, "REPRISE_OTEL_MAX_REQUEST_BYTES", 1, maxRequestBytesCeiling, maxRequestBytesCeiling, &warnings)
	c.ExportConcurrency = boundedInt(o.exportConcurrency, env, "REPRISE_OTEL_EXPORT_CONCURRENCY", 1, maxExportConcurrency, defaultExportConcurrency, &warnings)
	c.Compression = !flag(o.disableCompression, env, "REPRISE_DISABLE_COMPRESSION")
	c.SimPlanEnabled = !flag(o.disableSimPlan, env, "REPRISE_DISABLE_SIM_PLAN")
	c.Tuning = withDefaults(o.tuning, c.Mode)
	return c, warnings
}

func withDefaults(t TransportTuning, mode DeliveryMode) TransportTuning {
	setInt := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	setDur := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	batch := 512
	if mode == ModeCollector {
		batch = 32
	}
	setInt(&t.MaxQueueSize, 8192)
	setDur(&t.ScheduledDelay, 5*time.Second)
	setInt(&t.MaxExportBatchSize, batch)
	setInt(&t.MaxCarriersPerRequest, defaultCarriersPerRequest)
	setDur(&t.ExportTimeout, 30*time.Second)
	setDur(&t.RequestTimeout, 30*time.Second)
	setInt(&t.MaxAttempts, 5)
	setDur(&t.BackoffBase, 100*time.Millisecond)
	return t
}

func collectorURL(endpoint string) string {
	base := strings.TrimRight(strings.TrimSpace(endpoint), "/")
	if strings.HasSuffix(base, "/v1/traces") {
		return base
	}
	return base + "/v1/traces"
}

func firstString(option *string, env func(string) (string, bool), name, fallback string) string {
	if option != nil {
		return *option
	}
	if v, ok := env(name); ok {
		return v
	}
	return fallback
}

func firstNonEmpty(option *string, env func(string) (string, bool), name, fallback string) string {
	if option != nil && strings.TrimSpace(*option) != "" {
		return strings.TrimSpace(*option)
	}
	if v, ok := env(name); ok && strings.TrimSpace(v) != "" {
		return strings.TrimSpace(v)
	}
	return fallback
}

func flag(option *bool, env func(string) (string, bool), name string) bool {
	if option != nil {
		return *option
	}
	v, ok := env(name)
	return ok && v != ""
}

var digits = regexp.MustCompile(`^\s*\d+\s*$`)

func boundedInt(option *int, env func(string) (string, bool), name string, min, max, fallback int, warnings *[]ConfigWarning) int {
	var raw string
	value := -1
	switch {
	case option != nil:
		raw, value = strconv.Itoa(*option), *option
	default:
		v, ok := env(name)
		if !ok || v == "" {
			return fallback
		}
		raw = v
		if digits.MatchString(v) {
			if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
				value = n
			}
		}
	}
	if value >= min && value <= max {
		return value
	}
	*warnings = append(*warnings, ConfigWarning{
		Key:     fmt.Sprintf("config:%s:%s", name, raw),
		Message: fmt.Sprintf("%s=%s is not an integer from %d to %d; using %d.", name, raw, min, max, fallback),
	})
	return fallback
}
