package reprise

import (
	"strings"
	"testing"
	"time"
)

func envOf(vars map[string]string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	}
}

func TestResolveConfigDefaults(t *testing.T) {
	c, warnings := ResolveConfig(envOf(nil))
	if len(warnings) != 0 || c.APIKey != "" || c.ServiceURL != DefaultServiceURL || c.Mode != ModeDirect ||
		c.ExportURL != DefaultServiceURL+"/api/sdk/otel/v1/traces" || c.MaxRequestBytes != 3_000_000 ||
		c.ExportConcurrency != 32 || !c.Compression || !c.SimPlanEnabled {
		t.Fatalf("defaults wrong: %+v %v", c, warnings)
	}
	want := TransportTuning{MaxQueueSize: 8192, ScheduledDelay: 5 * time.Second, MaxExportBatchSize: 512, MaxCarriersPerRequest: 128,
		ExportTimeout: 30 * time.Second, RequestTimeout: 30 * time.Second, MaxAttempts: 5, BackoffBase: 100 * time.Millisecond}
	if c.Tuning != want {
		t.Fatalf("tuning %+v, want %+v", c.Tuning, want)
	}
}

func TestResolveConfigOptionThenEnvironment(t *testing.T) {
	env := envOf(map[string]string{
		"REPRISE_API_KEY": " rp_env ", "REPRISE_URL": "http://env:1/", "REPRISE_OTEL_MAX_REQUEST_BYTES": "1000",
		"REPRISE_OTEL_EXPORT_CONCURRENCY": "4", "REPRISE_DISABLE_COMPRESSION": "1", "REPRISE_DISABLE_SIM_PLAN": "yes",
	})
	c, _ := ResolveConfig(env)
	if c.APIKey != "rp_env" || c.ServiceURL != "http://env:1" || c.MaxRequestBytes != 1000 || c.ExportConcurrency != 4 ||
		c.Compression || c.SimPlanEnabled {
		t.Fatalf("environment not read: %+v", c)
	}
	c, _ = ResolveConfig(env, WithAPIKey("rp_opt"), WithServiceURL("http://opt:2"), WithMaxRequestBytes(2000),
		WithExportConcurrency(2), WithCompressionDisabled(false), WithSimPlanDisabled(false))
	if c.APIKey != "rp_opt" || c.ServiceURL != "http://opt:2" || c.MaxRequestBytes != 2000 || c.ExportConcurrency != 2 ||
		!c.Compression || !c.SimPlanEnabled {
		t.Fatalf("options do not win: %+v", c)
	}
}

func TestResolveConfigCollectorMode(t *testing.T) {
	for endpoint, want := range map[string]string{
		"http://collector:4318":            "http://collector:4318/v1/traces",
		"http://collector:4318/":           "http://collector:4318/v1/traces",
		"http://collector:4318/v1/traces":  "http://collector:4318/v1/traces",
		"http://collector:4318/v1/traces/": "http://collector:4318/v1/traces",
	} {
		c, _ := ResolveConfig(envOf(map[string]string{"REPRISE_OTEL_EXPORTER_ENDPOINT": endpoint}))
		if c.Mode != ModeCollector || c.ExportURL != want || c.Tuning.MaxExportBatchSize != 32 {
			t.Errorf("%s: %+v", endpoint, c)
		}
	}
}

func TestResolveConfigInvalidLimitsWarnAndFallBack(t *testing.T) {
	for _, bad := range []string{"0", "-5", "3000001", "abc", "1.5", "1e3"} {
		c, warnings := ResolveConfig(envOf(map[string]string{"REPRISE_OTEL_MAX_REQUEST_BYTES": bad, "REPRISE_OTEL_EXPORT_CONCURRENCY": bad}))
		if c.MaxRequestBytes != 3_000_000 || c.ExportConcurrency != 32 || len(warnings) != 2 {
			t.Errorf("%q: %+v %v", bad, c, warnings)
		}
		if !strings.Contains(warnings[0].Message, "REPRISE_OTEL_MAX_REQUEST_BYTES="+bad) {
			t.Errorf("warning does not name the setting: %v", warnings[0])
		}
	}
	c, warnings := ResolveConfig(envOf(nil), WithExportConcurrency(65))
	if c.ExportConcurrency != 32 || len(warnings) != 1 {
		t.Errorf("option out of range accepted: %+v", c)
	}
}

func TestInvalidSettingWarnsOncePerClient(t *testing.T) {
	t.Setenv("REPRISE_OTEL_EXPORT_CONCURRENCY", "500")
	logger := &testLogger{t: t}
	New(WithAPIKey("rp_x"), WithLogger(logger))
	if lines := logger.all(); len(lines) != 1 || !strings.Contains(lines[0], "REPRISE_OTEL_EXPORT_CONCURRENCY=500") {
		t.Fatalf("got %v", lines)
	}
}
