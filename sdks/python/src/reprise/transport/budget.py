"""Packing carriers into requests (transport rule 3) and trimming oversized payloads (rules 5 to 7)."""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

from ..encoding import unserializable
from .carrier import EXTERNAL_SPAN, EXTERNAL_TRACE, INTERNAL_TRACE, dumps

#: Per-span carrier budget when the single-span request compresses under the wire target.
PER_SPAN_BUDGET = 7_800_000
#: Fallback trim budget of an oversized carrier.
FALLBACK_BUDGET = 2_800_000
#: The server's decompressed request ceiling.
DECOMPRESSED_CEILING = 8_000_000

#: Keys that identify a span or trace and are never trimmed.
STRUCTURAL = frozenset({
    "name", "type", "function_name", "error_source", "variant", "content_off_by_simulation_plan",
    "id", "started_at", "ended_at", "workflow_name", "ingestion_type", "input_source_trace_id", "replay_attempt",
})
#: A trimmed value's companion description goes with it.
_COMPANION = {"input": ("input_meta", "input_serialized"), "output": ("output_meta", "output_serialized")}
_COMPANIONS = frozenset(name for names in _COMPANION.values() for name in names)


def pack(sizes: Sequence[int], max_carriers: int, max_bytes: int, request_size: Callable[[int, int], int]) -> List[List[int]]:
    """Greedily packs carriers, in order, into groups bounded by count and exact request size. A carrier that
    alone exceeds the limit gets its own group."""
    groups: List[List[int]] = []
    current: List[int] = []
    total = 0
    for index, size in enumerate(sizes):
        fits = len(current) < max_carriers and request_size(total + size, len(current) + 1) <= max_bytes
        if not fits and current:
            groups.append(current)
            current, total = [], 0
        current.append(index)
        total += size
    if current:
        groups.append(current)
    return groups


def escaped_bytes(text: str) -> int:
    """Size of a payload once re-escaped into the carrier's string attribute (rule 7)."""
    return len(json.dumps(text, ensure_ascii=False).encode("utf-8", "surrogatepass")) - 2


class TrimResult(NamedTuple):
    payload: Dict[str, Any]
    trimmed: List[Tuple[str, int]]


class _Candidate(NamedTuple):
    container: Dict[str, Any]
    key: str
    path: str
    escaped: int
    raw: int


def trim_payload(payload: Dict[str, Any], operation: str, budget: int) -> TrimResult:
    """Replaces the largest non-structural fields with ``<unserializable: too_large_N_bytes>``, largest first,
    until the escaped payload fits ``budget``, and records the trim in ``errors`` under step ``payload_budget``.
    The payload is modified in place."""
    total = escaped_bytes(dumps(payload))
    trimmed: List[Tuple[str, int]] = []
    candidates = sorted(_candidates(payload, operation), key=lambda c: c.escaped, reverse=True)
    for candidate in candidates:
        if total <= budget:
            break
        if candidate.key not in candidate.container:
            continue  # already removed as a companion
        placeholder = unserializable(f"too_large_{candidate.raw}_bytes")
        candidate.container[candidate.key] = placeholder
        total -= candidate.escaped - escaped_bytes(dumps(placeholder))
        for companion in _COMPANION.get(candidate.key, ()):
            if companion in candidate.container:
                total -= escaped_bytes(dumps(candidate.container.pop(companion))) + len(companion) + 4
        trimmed.append((candidate.path, candidate.raw))
    if trimmed:
        errors = payload.get("errors") if isinstance(payload.get("errors"), list) else []
        fields = ", ".join(f"{path} ({size} bytes)" for path, size in trimmed)
        errors.append({
            "source": "sdk",
            "step": "payload_budget",
            "error": f"trimmed oversized field(s) to fit the {budget}-byte carrier budget: {fields}",
        })
        payload["errors"] = errors
    return TrimResult(payload, trimmed)


def _candidates(payload: Dict[str, Any], operation: str) -> List[_Candidate]:
    if operation == EXTERNAL_SPAN:
        raw_span = payload.get("rawSpan") if isinstance(payload.get("rawSpan"), dict) else {}
        container: Optional[Dict[str, Any]] = raw_span.get("span_data") if isinstance(raw_span.get("span_data"), dict) else None
        prefix = "rawSpan.span_data"
        allowed = None
    elif operation == EXTERNAL_TRACE:
        container = payload.get("externalTrace") if isinstance(payload.get("externalTrace"), dict) else None
        prefix = "externalTrace"
        allowed = None
    elif operation == INTERNAL_TRACE:
        container, prefix, allowed = payload, "", {"result", "inputs", "rawCollector"}
    else:
        return []
    if container is None:
        return []
    out = []
    for key, value in container.items():
        if key in STRUCTURAL or key in _COMPANIONS or (allowed is not None and key not in allowed):
            continue
        text = dumps(value)
        out.append(_Candidate(container, key, f"{prefix}.{key}" if prefix else key, escaped_bytes(text),
                              len(text.encode("utf-8", "surrogatepass"))))
    return out
