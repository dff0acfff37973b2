import type { RepriseLogger } from "./logger.js";

/** Default base URL of a local Reprise server. */
export const DEFAULT_SERVICE_URL = "http://localhost:3000";
/** SDK wire target per OTLP request (docs/sdk-transport.md, rule 3). */
export const MAX_REQUEST_BYTES = 3_000_000;
/** Default and ceiling of concurrent OTLP requests (docs/sdk-transport.md, rule 3). */
export const DEFAULT_EXPORT_CONCURRENCY = 32;
const MAX_EXPORT_CONCURRENCY = 64;

/** Options accepted by `new Reprise(...)`. Every field falls back to its environment variable, then a default. */
export interface RepriseOptions {
  /** API key (`rp_…`). Env `REPRISE_API_KEY`. Without one, tracing is disabled with one warning. */
  apiKey?: string;
  /** Base URL of the Reprise server. Env `REPRISE_URL`, default `http://localhost:3000`. */
  serviceUrl?: string;
  /**
   * Base URL of an OpenTelemetry Collector receiver. Env `REPRISE_OTEL_EXPORTER_ENDPOINT`. When set, carriers go
   * there as OTLP protobuf (`/v1/traces` appended) and never directly to Reprise.
   */
  otelExporterEndpoint?: string;
  /** Lowers the per-request byte target (1..3,000,000). Env `REPRISE_OTEL_MAX_REQUEST_BYTES`. */
  maxRequestBytes?: number;
  /** Concurrent OTLP requests (1..64, default 32). Env `REPRISE_OTEL_EXPORT_CONCURRENCY`. */
  exportConcurrency?: number;
  /** Send every request uncompressed. Env `REPRISE_DISABLE_COMPRESSION` (any non-empty value). */
  disableCompression?: boolean;
  /** Never read the sim plan. Env `REPRISE_DISABLE_SIM_PLAN` (any non-empty value). */
  disableSimPlan?: boolean;
  /** Where warnings go; stderr by default. */
  logger?: RepriseLogger;
  /** Transport tuning, mostly for tests and benchmarks. Defaults follow the interface's limits. */
  transport?: Partial<TransportTuning>;
}

/** Batch-processor and request tuning. The defaults are the interface's values; tests shorten them. */
export interface TransportTuning {
  /** Processor queue size in carriers; the oldest are dropped when full. Default 8,192. */
  maxQueueSize: number;
  /** Scheduled export delay. Default 5,000 ms. */
  scheduledDelayMillis: number;
  /** Carriers per export call. Default 512 (direct) or 32 (Collector). */
  maxExportBatchSize: number;
  /** Carriers per HTTP request. Default 128 (the TypeScript value named by the interface). */
  maxCarriersPerRequest: number;
  /** Budget of one export call, waits and retries included. Default 30,000 ms. */
  exportTimeoutMillis: number;
  /** Deadline of one HTTP request. Default 30,000 ms. */
  requestTimeoutMillis: number;
  /** Attempts per request, the first included. Default 5. */
  maxAttempts: number;
  /** First backoff step; doubles per attempt, capped at 5 s, with jitter. Default 100 ms. */
  backoffBaseMillis: number;
}

/** Delivery mode: direct OTLP/JSON to Reprise, or OTLP/protobuf to a Collector. Never both. */
export type DeliveryMode =
  | { kind: "direct"; url: string; encoding: "json" }
  | { kind: "collector"; url: string; encoding: "protobuf" };

/** Fully resolved configuration. */
export interface ResolvedConfig {
  apiKey: string;
  serviceUrl: string;
  mode: DeliveryMode;
  maxRequestBytes: number;
  exportConcurrency: number;
  compression: boolean;
  simPlanEnabled: boolean;
  tuning: TransportTuning;
}

/** A warning `resolveConfig` wants emitted once, keyed so repeated clients do not repeat it. */
export interface ConfigWarning {
  key: string;
  message: string;
}

type Env = Record<string, string | undefined>;

/**
 * Resolves the client configuration: constructor option, then environment variable, then default
 * (sdks/typescript/README.md, "Configuration"). Pure: it returns the warnings instead of printing them.
 */
export function resolveConfig(
  options: RepriseOptions = {},
  env: Env = process.env,
): { config: ResolvedConfig; warnings: ConfigWarning[] } {
  const warnings: ConfigWarning[] = [];
  const serviceUrl = stripTrailingSlash(options.serviceUrl ?? nonEmpty(env.REPRISE_URL) ?? DEFAULT_SERVICE_URL);
  const endpoint = options.otelExporterEndpoint ?? nonEmpty(env.REPRISE_OTEL_EXPORTER_ENDPOINT);
  const mode = resolveMode(serviceUrl, endpoint);
  const maxRequestBytes = boundedInt(
    options.maxRequestBytes ?? env.REPRISE_OTEL_MAX_REQUEST_BYTES,
    { name: "REPRISE_OTEL_MAX_REQUEST_BYTES", min: 1, max: MAX_REQUEST_BYTES, fallback: MAX_REQUEST_BYTES },
    warnings,
  );
  const exportConcurrency = boundedInt(
    options.exportConcurrency ?? env.REPRISE_OTEL_EXPORT_CONCURRENCY,
    { name: "REPRISE_OTEL_EXPORT_CONCURRENCY", min: 1, max: MAX_EXPORT_CONCURRENCY, fallback: DEFAULT_EXPORT_CONCURRENCY },
    warnings,
  );
  const config: ResolvedConfig = {
    apiKey: (options.apiKey ?? env.REPRISE_API_KEY ?? "").trim(),
    serviceUrl,
    mode,
    maxRequestBytes,
    exportConcurrency,
    compression: !(options.disableCompression ?? isSet(env.REPRISE_DISABLE_COMPRESSION)),
    simPlanEnabled: !(options.disableSimPlan ?? isSet(env.REPRISE_DISABLE_SIM_PLAN)),
    tuning: { ...defaultTuning(mode), ...definedOnly(options.transport ?? {}) },
  };
  return { config, warnings };
}

/** The interface's transport defaults for a delivery mode. */
export function defaultTuning(mode: DeliveryMode): TransportTuning {
  return {
    maxQueueSize: 8_192,
    scheduledDelayMillis: 5_000,
    maxExportBatchSize: mode.kind === "collector" ? 32 : 512,
    maxCarriersPerRequest: 128,
    exportTimeoutMillis: 30_000,
    requestTimeoutMillis: 30_000,
    maxAttempts: 5,
    backoffBaseMillis: 100,
  };
}

function resolveMode(serviceUrl: string, endpoint: string | undefined): DeliveryMode {
  if (endpoint === undefined) {
    return { kind: "direct", url: `${serviceUrl}/api/sdk/otel/v1/traces`, encoding: "json" };
  }
  const base = stripTrailingSlash(endpoint);
  const url = base.endsWith("/v1/traces") ? base : `${base}/v1/traces`;
  return { kind: "collector", url, encoding: "protobuf" };
}

interface IntRule {
  name: string;
  min: number;
  max: number;
  fallback: number;
}

function boundedInt(raw: unknown, rule: IntRule, warnings: ConfigWarning[]): number {
  if (raw === undefined || raw === "") return rule.fallback;
  const value = typeof raw === "number" ? raw : /^\s*\d+\s*$/.test(String(raw)) ? Number(raw) : Number.NaN;
  if (Number.isInteger(value) && value >= rule.min && value <= rule.max) return value;
  warnings.push({
    key: `config:${rule.name}:${String(raw)}`,
    message: `${rule.name}=${String(raw)} is not an integer from ${rule.min} to ${rule.max}; using ${rule.fallback}.`,
  });
  return rule.fallback;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

function isSet(value: string | undefined): boolean {
  return value !== undefined && value !== "";
}

function stripTrailingSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
