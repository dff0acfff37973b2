"""A carrier: one payload wrapped in its own OpenTelemetry span (client transport rule 1)."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any, Dict, Optional

#: Carrier span attribute naming the operation.
OPERATION_ATTRIBUTE = "reprise.operation"
#: Carrier span attribute holding the JSON-encoded payload.
PAYLOAD_ATTRIBUTE = "reprise.payload"

EXTERNAL_SPAN = "external_span"
EXTERNAL_TRACE = "external_trace"
INTERNAL_TRACE = "internal_trace"


@dataclass
class Carrier:
    """One payload to deliver. ``trace_id``/``span_id`` are the SDK's ids (for acknowledgments); the carrier's
    own OpenTelemetry ids are random and unrelated, as the server ignores them."""

    operation: str
    payload: Dict[str, Any]
    trace_id: str
    name: str
    start_ns: int
    end_ns: int
    span_id: Optional[str] = None
    is_error: bool = False
    otel_trace_id: bytes = field(default_factory=lambda: random.getrandbits(128).to_bytes(16, "big"))
    otel_span_id: bytes = field(default_factory=lambda: random.getrandbits(64).to_bytes(8, "big"))
    _payload_text: Optional[str] = None

    def payload_text(self) -> str:
        """The payload as compact JSON text, computed once."""
        if self._payload_text is None:
            self._payload_text = dumps(self.payload)
        return self._payload_text

    def with_payload(self, payload: Dict[str, Any]) -> "Carrier":
        """A copy carrying a replaced (trimmed) payload, same ids and times."""
        return Carrier(
            self.operation, payload, self.trace_id, self.name, self.start_ns, self.end_ns, self.span_id,
            self.is_error, self.otel_trace_id, self.otel_span_id,
        )


def dumps(value: Any) -> str:
    """Compact JSON; non-finite floats never reach here (the value encoder replaced them)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=str)

