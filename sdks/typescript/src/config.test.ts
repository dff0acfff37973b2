import { describe, expect, it } from "vitest";
import { resolveConfig } from "./config.js";

describe("resolveConfig", () => {
  it("uses defaults when nothing is set", () => {
    const { config, warnings } = resolveConfig({}, {});
    expect(config.apiKey).toBe("");
    expect(config.serviceUrl).toBe("http://localhost:3000");
    expect(config.mode).toEqual({
      kind: "direct",
      url: "http://localhost:3000/api/sdk/otel/v1/traces",
      encoding: "json",
    });
    expect(config.maxRequestBytes).toBe(3_000_000);
    expect(config.exportConcurrency).toBe(32);
    expect(config.compression).toBe(true);
    expect(config.simPlanEnabled).toBe(true);
    expect(config.tuning.maxQueueSize).toBe(8_192);
    expect(config.tuning.maxExportBatchSize).toBe(512);
    expect(config.tuning.scheduledDelayMillis).toBe(5_000);
    expect(warnings).toEqual([]);
  });

  it("reads environment variables", () => {
    const { config } = resolveConfig(
      {},
      {
        REPRISE_API_KEY: "rp_env",
        REPRISE_URL: "https://reprise.example/",
        REPRISE_OTEL_MAX_REQUEST_BYTES: "100000",
        REPRISE_OTEL_EXPORT_CONCURRENCY: "4",
        REPRISE_DISABLE_COMPRESSION: "1",
        REPRISE_DISABLE_SIM_PLAN: "yes",
      },
    );
    expect(config.apiKey).toBe("rp_env");
    expect(config.serviceUrl).toBe("https://reprise.example");
    expect(config.maxRequestBytes).toBe(100_000);
    expect(config.exportConcurrency).toBe(4);
    expect(config.compression).toBe(false);
    expect(config.simPlanEnabled).toBe(false);
  });

  it("prefers constructor options over environment variables", () => {
    const { config } = resolveConfig(
      { apiKey: "rp_opt", serviceUrl: "http://127.0.0.1:9", exportConcurrency: 2, disableCompression: false },
      { REPRISE_API_KEY: "rp_env", REPRISE_URL: "http://env", REPRISE_DISABLE_COMPRESSION: "1" },
    );
    expect(config.apiKey).toBe("rp_opt");
    expect(config.serviceUrl).toBe("http://127.0.0.1:9");
    expect(config.exportConcurrency).toBe(2);
    expect(config.compression).toBe(true);
  });

  it.each(["0", "-5", "3000001", "abc", "1.5"])("falls back to 3,000,000 with a warning for bytes=%s", (raw) => {
    const { config, warnings } = resolveConfig({}, { REPRISE_OTEL_MAX_REQUEST_BYTES: raw });
    expect(config.maxRequestBytes).toBe(3_000_000);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain("REPRISE_OTEL_MAX_REQUEST_BYTES");
  });

  it.each(["0", "65", "x"])("falls back to 32 with a warning for concurrency=%s", (raw) => {
    const { config, warnings } = resolveConfig({}, { REPRISE_OTEL_EXPORT_CONCURRENCY: raw });
    expect(config.exportConcurrency).toBe(32);
    expect(warnings).toHaveLength(1);
  });

  it("accepts the limits' edges", () => {
    const low = resolveConfig({}, { REPRISE_OTEL_MAX_REQUEST_BYTES: "1", REPRISE_OTEL_EXPORT_CONCURRENCY: "64" });
    expect(low.config.maxRequestBytes).toBe(1);
    expect(low.config.exportConcurrency).toBe(64);
    expect(low.warnings).toEqual([]);
  });

  it("switches to Collector mode, protobuf, /v1/traces appended once", () => {
    const { config } = resolveConfig({}, { REPRISE_OTEL_EXPORTER_ENDPOINT: "http://collector:4318/" });
    expect(config.mode).toEqual({ kind: "collector", url: "http://collector:4318/v1/traces", encoding: "protobuf" });
    expect(config.tuning.maxExportBatchSize).toBe(32);
    const already = resolveConfig({ otelExporterEndpoint: "http://c/v1/traces" }, {});
    expect(already.config.mode.url).toBe("http://c/v1/traces");
  });

  it("treats an empty DISABLE variable as unset", () => {
    const { config } = resolveConfig({}, { REPRISE_DISABLE_COMPRESSION: "", REPRISE_DISABLE_SIM_PLAN: "" });
    expect(config.compression).toBe(true);
    expect(config.simPlanEnabled).toBe(true);
  });

  it("lets transport tuning override defaults", () => {
    const { config } = resolveConfig({ transport: { scheduledDelayMillis: 50, maxQueueSize: undefined } }, {});
    expect(config.tuning.scheduledDelayMillis).toBe(50);
    expect(config.tuning.maxQueueSize).toBe(8_192);
  });
});
