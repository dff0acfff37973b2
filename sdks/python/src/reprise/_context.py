"""The SDK's own context, in :mod:`contextvars`, independent of any OpenTelemetry context of the application.
asyncio tasks inherit it; a thread does when started through ``contextvars.copy_context().run``."""

from __future__ import annotations

import contextvars
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional

if TYPE_CHECKING:
    from ._state import SpanState, TraceState


@dataclass
class PendingReplay:
    """A trace the replay runner asks the next root to become."""

    trace_id: str
    attribution: Any
    on_trace: Callable[["TraceState"], None]
    consumed: bool = False


@dataclass(frozen=True)
class Frame:
    trace: Optional["TraceState"] = None
    span: Optional["SpanState"] = None
    pending_replay: Optional[PendingReplay] = None


current_frame: "contextvars.ContextVar[Optional[Frame]]" = contextvars.ContextVar("reprise_frame", default=None)
