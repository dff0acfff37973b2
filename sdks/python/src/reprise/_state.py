"""Mutable state of running spans and traces."""

from __future__ import annotations

import random
import threading
import time
import uuid
from dataclasses import dataclass
from typing import Any, Dict, List, Optional

from .encoding import EncodedValue, encode_value

SPAN_TYPES = frozenset({"llm", "agent", "function", "guardrail", "handoff", "custom"})


def to_span_type(value: Any) -> str:
    """A valid span type; anything else is ``custom``."""
    return value if isinstance(value, str) and value in SPAN_TYPES else "custom"


def new_id() -> str:
    """A random UUID v4. The ``random`` module (reseeded in a forked child) is much cheaper than ``os.urandom``
    on the application's path, and ids need uniqueness, not secrecy."""
    return str(uuid.UUID(int=random.getrandbits(128), version=4))


def now_ns() -> int:
    return time.time_ns()


_second_cache = (-1, "")


def iso(ns: int) -> str:
    """ISO-8601 UTC with microseconds and ``Z``; the formatted second is cached (spans cluster in time)."""
    global _second_cache
    seconds, rest = divmod(ns, 1_000_000_000)
    cached_second, prefix = _second_cache
    if cached_second != seconds:
        prefix = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds))
        _second_cache = (seconds, prefix)
    return f"{prefix}.{rest // 1000:06d}Z"


@dataclass
class ReplayAttribution:
    """Replay attribution carried by a trace run by the replay runner."""

    test_run_id: str
    input_source_span_id: str
    input_source_trace_id: str
    attempt: int = 0
    #: Recorded outputs of the original trace, for spans marked ``mock_on_replay``.
    mocks: Any = None


@dataclass
class CompletionInfo:
    trace_id: str
    expected_span_count: int
    dropped: bool
    sent: bool


class SpanState:
    """One running span."""

    def __init__(self, name: str, type_: str, instrumentation: str, parent_id: Optional[str],
                 function_name: Optional[str]) -> None:
        self.id = new_id()
        self.name = name
        self.type = type_
        self.instrumentation = instrumentation
        self.parent_id = parent_id
        self.function_name = function_name
        self.started_ns = now_ns()
        self.ended_ns: Optional[int] = None
        self.input: Optional[EncodedValue] = None
        self.input_serialized: Optional[Dict[str, Any]] = None
        self.output: Optional[EncodedValue] = None
        self.error: Optional[str] = None
        self.prompt: Optional[str] = None
        self.contexts: List[Any] = []
        self.errors: List[Dict[str, str]] = []
        #: True when a replay served the recorded output instead of running the function.
        self.mocked = False

    @property
    def is_root(self) -> bool:
        return self.parent_id is None

    def set_input(self, args: tuple, kwargs: Dict[str, Any]) -> None:
        """Positional arguments as a list, plus a trailing keyword-argument object when there are any.
        ``input_serialized`` keeps ``{args, kwargs}`` and the type meta when plain JSON would not round-trip."""
        values: List[Any] = list(args) + ([kwargs] if kwargs else [])
        self.input = encode_value(values)
        if self.input.meta is not None or kwargs:
            full = encode_value({"args": list(args), "kwargs": dict(kwargs)})
            self.input_serialized = {"json": full.json, "meta": full.meta}
        self._note_loss("input", self.input)

    def set_output(self, value: Any) -> None:
        self.output = encode_value(value)
        self._note_loss("output", self.output)

    def set_error(self, error: BaseException) -> None:
        self.error = str(error) or type(error).__name__

    def _note_loss(self, field: str, value: EncodedValue) -> None:
        if not value.lost:
            return
        self.errors.append({
            "source": "sdk",
            "step": "serialization_degraded",
            "error": f"non-replayable: could not faithfully capture {field}: {', '.join(value.lost)}",
        })


class TraceState:
    """One trace: metadata, spans still running, span carriers actually submitted (``expectedSpanCount``)."""

    def __init__(self, trace_function_key: str, ingestion_type: str, replay: Optional[ReplayAttribution],
                 trace_id: Optional[str] = None) -> None:
        self.id = trace_id or new_id()
        self.trace_function_key = trace_function_key
        self.ingestion_type = ingestion_type
        self.replay = replay
        self.started_ns = now_ns()
        self.ended_ns: Optional[int] = None
        self.name: Optional[str] = None
        self.session_id: Optional[str] = None
        self.metadata: Dict[str, Any] = {}
        self.contexts: List[Any] = []
        self.dropped = False
        self.open_spans = 0
        self.root_ended = False
        self.sent_spans = 0
        self.completion_started = False
        self.lock = threading.Lock()
        self._completion = threading.Event()
        self.completion_info: Optional[CompletionInfo] = None
        #: Set by the recorder: ends one span or hold, and sends the completion after the last one.
        self.release: Any = None

    def hold(self) -> bool:
        """Keeps the trace open (its completion waits) until ``release`` is called. False once it completed."""
        with self.lock:
            if self.completion_started:
                return False
            self.open_spans += 1
            return True

    def resolve_completion(self, info: CompletionInfo) -> None:
        self.completion_info = info
        self._completion.set()

    def wait_completion(self, timeout: float) -> Optional[CompletionInfo]:
        return self.completion_info if self._completion.wait(max(0.0, timeout)) else None
