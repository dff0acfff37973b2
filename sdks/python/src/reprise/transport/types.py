"""Small value types shared by the transport modules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Optional


@dataclass
class ResponseSummary:
    """What an OTLP response said."""

    error: Optional[str] = None
    rejected_spans: int = 0
    error_message: Optional[str] = None
    #: ``{sourceTraceId: serverTraceId}`` from Reprise's JSON responses.
    trace_ids: Optional[Dict[str, str]] = None
