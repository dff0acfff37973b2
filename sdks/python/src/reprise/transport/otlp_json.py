"""OTLP/JSON envelope for direct mode, written by hand: one ``resourceSpans`` entry, one ``scopeSpans`` entry and
the carriers as its spans. Each carrier is encoded once; a request is the constant prefix, the encoded carriers
joined by commas, and the constant suffix, so its exact size is known before it is built (transport rule 3)."""

from __future__ import annotations

import json
from typing import Any, Dict, List

from .._http import parse_json_body
from .._version import SDK_SCOPE_NAME, SDK_SERVICE_NAME, SDK_VERSION
from .carrier import OPERATION_ATTRIBUTE, PAYLOAD_ATTRIBUTE, Carrier
from .types import ResponseSummary


def _string_attr(key: str, value: str) -> Dict[str, Any]:
    return {"key": key, "value": {"stringValue": value}}


def _compact(value: Any, ascii_only: bool = False) -> str:
    return json.dumps(value, ensure_ascii=ascii_only, separators=(",", ":"))


_RESOURCE = {"attributes": [_string_attr("service.name", SDK_SERVICE_NAME), _string_attr("service.version", SDK_VERSION)]}
_SCOPE = {"name": SDK_SCOPE_NAME, "version": SDK_VERSION}
PREFIX = ('{"resourceSpans":[{"resource":' + _compact(_RESOURCE) + ',"scopeSpans":[{"scope":' + _compact(_SCOPE) + ',"spans":[').encode()
SUFFIX = b"]}]}]}"


class JsonEnvelope:
    """OTLP/JSON codec of direct mode."""

    content_type = "application/json"

    def encode_carrier(self, carrier: Carrier) -> bytes:
        span = {
            "traceId": carrier.otel_trace_id.hex(),
            "spanId": carrier.otel_span_id.hex(),
            "name": carrier.name,
            "kind": 1,
            "startTimeUnixNano": str(carrier.start_ns),
            "endTimeUnixNano": str(carrier.end_ns),
            "attributes": [
                _string_attr(OPERATION_ATTRIBUTE, carrier.operation),
                _string_attr(PAYLOAD_ATTRIBUTE, carrier.payload_text()),
            ],
            "droppedAttributesCount": 0,
            "droppedEventsCount": 0,
            "droppedLinksCount": 0,
            "status": {"code": 2 if carrier.is_error else 0},
            "flags": 1,
        }
        try:
            return _compact(span).encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate from undecodable input travels as its JSON escape
            return _compact(span, ascii_only=True).encode("ascii")

    def request_size(self, carrier_bytes: int, count: int) -> int:
        return len(PREFIX) + len(SUFFIX) + carrier_bytes + max(0, count - 1)

    def assemble(self, carriers: List[bytes]) -> bytes:
        return PREFIX + b",".join(carriers) + SUFFIX

    def read_response(self, body: bytes) -> ResponseSummary:
        return summarize_json_response(parse_json_body(body))


def summarize_json_response(body: Any) -> ResponseSummary:
    """Reads ``{}``, ``{partialSuccess}``, a 2xx ``{error}`` and Reprise's ``traceIds`` map."""
    if not isinstance(body, dict):
        return ResponseSummary()
    partial = body.get("partialSuccess") if isinstance(body.get("partialSuccess"), dict) else {}
    try:
        rejected = int(partial.get("rejectedSpans") or 0)
    except (TypeError, ValueError):
        rejected = 0
    ids = body.get("traceIds")
    trace_ids = {str(k): v for k, v in ids.items() if isinstance(v, str)} if isinstance(ids, dict) else None
    message = partial.get("errorMessage")
    return ResponseSummary(
        error=body["error"] if isinstance(body.get("error"), str) else None,
        rejected_spans=rejected,
        error_message=message if isinstance(message, str) else None,
        trace_ids=trace_ids,
    )
