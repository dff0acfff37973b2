"""Configuration: constructor argument, then ``REPRISE_*`` environment variable, then default. One tested
:func:`resolve_config` that returns the warnings instead of printing them."""

from __future__ import annotations

import dataclasses
import os
import re
from dataclasses import dataclass, field
from typing import Any, List, Mapping, Optional, Tuple

#: Default base URL of a local Reprise server.
DEFAULT_SERVICE_URL = "http://localhost:3000"
#: SDK wire target per OTLP request (interface limits).
MAX_REQUEST_BYTES = 3_000_000
#: Default and ceiling of concurrent OTLP requests.
DEFAULT_EXPORT_CONCURRENCY = 32
MAX_EXPORT_CONCURRENCY = 64


@dataclass(frozen=True)
class TransportTuning:
    """Batch-processor and request tuning. The defaults are the interface's values; tests shorten them."""

    #: Processor queue size in carriers; the oldest are dropped when full.
    max_queue_size: int = 8_192
    #: Seconds between scheduled exports.
    scheduled_delay: float = 5.0
    #: Carriers per export call: 512 direct, 32 with a Collector (set by the delivery mode when left None).
    max_export_batch_size: Optional[int] = None
    #: Carriers per HTTP request.
    max_carriers_per_request: int = 128
    #: Budget of one export call in seconds, waits and retries included.
    export_timeout: float = 30.0
    #: Deadline of one HTTP request in seconds.
    request_timeout: float = 30.0
    #: Attempts per request, the first included.
    max_attempts: int = 5
    #: First backoff step in seconds; doubles per attempt, capped at 5 s, with jitter.
    backoff_base: float = 0.1


@dataclass(frozen=True)
class DeliveryMode:
    """Direct OTLP/JSON to Reprise, or OTLP/protobuf to a Collector receiver. Never both."""

    kind: str  # "direct" | "collector"
    url: str
    encoding: str  # "json" | "protobuf"


@dataclass(frozen=True)
class ConfigWarning:
    """A warning to emit once, keyed so that repeated clients do not repeat it."""

    key: str
    message: str


@dataclass(frozen=True)
class ResolvedConfig:
    """Fully resolved client configuration."""

    api_key: str
    service_url: str
    mode: DeliveryMode
    max_request_bytes: int
    export_concurrency: int
    compression: bool
    sim_plan_enabled: bool
    tuning: TransportTuning = field(default_factory=TransportTuning)


def resolve_config(
    api_key: Optional[str] = None,
    service_url: Optional[str] = None,
    otel_exporter_endpoint: Optional[str] = None,
    max_request_bytes: Any = None,
    export_concurrency: Any = None,
    disable_compression: Optional[bool] = None,
    disable_sim_plan: Optional[bool] = None,
    transport: Optional[Mapping[str, Any]] = None,
    env: Optional[Mapping[str, str]] = None,
) -> Tuple[ResolvedConfig, List[ConfigWarning]]:
    """Resolves every setting: argument, then environment variable, then default. Pure: warnings are returned."""
    env = os.environ if env is None else env
    warnings: List[ConfigWarning] = []
    url = _strip_slash(_first(service_url, _non_empty(env.get("REPRISE_URL")), DEFAULT_SERVICE_URL))
    endpoint = _first(otel_exporter_endpoint, _non_empty(env.get("REPRISE_OTEL_EXPORTER_ENDPOINT")))
    mode = _resolve_mode(url, endpoint)
    request_bytes = _bounded_int(
        _first(max_request_bytes, env.get("REPRISE_OTEL_MAX_REQUEST_BYTES")),
        "REPRISE_OTEL_MAX_REQUEST_BYTES", 1, MAX_REQUEST_BYTES, MAX_REQUEST_BYTES, warnings,
    )
    concurrency = _bounded_int(
        _first(export_concurrency, env.get("REPRISE_OTEL_EXPORT_CONCURRENCY")),
        "REPRISE_OTEL_EXPORT_CONCURRENCY", 1, MAX_EXPORT_CONCURRENCY, DEFAULT_EXPORT_CONCURRENCY, warnings,
    )
    compression_off = disable_compression if disable_compression is not None else _is_set(env.get("REPRISE_DISABLE_COMPRESSION"))
    sim_plan_off = disable_sim_plan if disable_sim_plan is not None else _is_set(env.get("REPRISE_DISABLE_SIM_PLAN"))
    tuning = TransportTuning(**{k: v for k, v in dict(transport or {}).items() if v is not None})
    if tuning.max_export_batch_size is None:
        tuning = dataclasses.replace(tuning, max_export_batch_size=32 if mode.kind == "collector" else 512)
    config = ResolvedConfig(
        api_key=(_first(api_key, env.get("REPRISE_API_KEY"), "") or "").strip(),
        service_url=url,
        mode=mode,
        max_request_bytes=request_bytes,
        export_concurrency=concurrency,
        compression=not compression_off,
        sim_plan_enabled=not sim_plan_off,
        tuning=tuning,
    )
    return config, warnings


def _resolve_mode(service_url: str, endpoint: Optional[str]) -> DeliveryMode:
    if endpoint is None:
        return DeliveryMode("direct", f"{service_url}/api/sdk/otel/v1/traces", "json")
    base = _strip_slash(endpoint)
    url = base if base.endswith("/v1/traces") else f"{base}/v1/traces"
    return DeliveryMode("collector", url, "protobuf")


_INT = re.compile(r"^\s*\d+\s*$")


def _bounded_int(raw: Any, name: str, low: int, high: int, fallback: int, warnings: List[ConfigWarning]) -> int:
    if raw is None or raw == "":
        return fallback
    if isinstance(raw, bool):
        value: Optional[int] = None
    elif isinstance(raw, int):
        value = raw
    elif isinstance(raw, str) and _INT.match(raw):
        value = int(raw)
    else:
        value = None
    if value is not None and low <= value <= high:
        return value
    warnings.append(ConfigWarning(
        f"config:{name}:{raw}", f"{name}={raw} is not an integer from {low} to {high}; using {fallback}."
    ))
    return fallback


def _first(*values: Any) -> Any:
    for value in values:
        if value is not None:
            return value
    return None


def _non_empty(value: Optional[str]) -> Optional[str]:
    return None if value is None or value.strip() == "" else value.strip()


def _is_set(value: Optional[str]) -> bool:
    return value is not None and value != ""


def _strip_slash(url: str) -> str:
    return url.rstrip("/")
