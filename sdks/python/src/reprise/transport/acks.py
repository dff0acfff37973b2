"""Local acknowledgments of watched traces, the replay barrier's first proof (transport rule 11): the OTLP
endpoint answers only after every accepted carrier persisted."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Dict, Iterable, Optional, Set, Tuple


@dataclass
class AckState:
    span_ids: Set[str] = field(default_factory=set)
    completion_acked: bool = False
    server_trace_id: Optional[str] = None


class AckTracker:
    """Records which carriers of watched traces the server acknowledged; other traffic costs nothing."""

    def __init__(self) -> None:
        self._watched: Dict[str, AckState] = {}
        self._lock = threading.Lock()

    def watch(self, trace_id: str) -> None:
        with self._lock:
            self._watched.setdefault(trace_id, AckState())

    def unwatch(self, trace_id: str) -> None:
        with self._lock:
            self._watched.pop(trace_id, None)

    def confirmed(self, trace_id: str, expected_spans: int) -> Tuple[bool, Optional[str]]:
        """Whether the completion and at least ``expected_spans`` unique span ids were acknowledged."""
        with self._lock:
            state = self._watched.get(trace_id)
            if state is None:
                return False, None
            return state.completion_acked and len(state.span_ids) >= expected_spans, state.server_trace_id

    def record(self, carriers: Iterable[Tuple[str, str, Optional[str]]], server_ids: Optional[Dict[str, str]]) -> None:
        """Records acknowledged ``(operation, trace_id, span_id)`` carriers and the server's ``traceIds`` map."""
        with self._lock:
            if not self._watched:
                return
            for operation, trace_id, span_id in carriers:
                state = self._watched.get(trace_id)
                if state is None:
                    continue
                if operation == "external_trace":
                    state.completion_acked = True
                elif span_id is not None:
                    state.span_ids.add(span_id)
                if server_ids and trace_id in server_ids:
                    state.server_trace_id = server_ids[trace_id]

    def reset_after_fork(self) -> None:
        self._lock = threading.Lock()
        self._watched = {}
