"""Handles on the current trace and span, and on a trace by id (``detached_trace``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Mapping, Optional
from urllib.parse import quote

from ._context import current_frame
from ._log import warn_once
from ._state import SpanState, TraceState

if TYPE_CHECKING:
    from ._api import ApiClient

#: Timeout of a detached trace update.
PATCH_TIMEOUT = 10.0


def _context_of(context: Optional[Mapping[str, Any]], fields: Dict[str, Any]) -> Dict[str, Any]:
    merged: Dict[str, Any] = dict(context or {})
    merged.update(fields)
    return merged


class CurrentTrace:
    """The trace active in the current context. Every method is a no-op outside a trace, so instrumented code runs
    the same with tracing off; methods return the handle so calls chain. Changes after the trace completed are
    ignored with a warning: use ``detached_trace(id)`` for those."""

    def __init__(self, trace: Optional[TraceState]) -> None:
        self._trace = trace

    @property
    def id(self) -> Optional[str]:
        """The canonical trace id (a UUID), or None outside a trace."""
        return self._trace.id if self._trace else None

    @property
    def is_active(self) -> bool:
        """True inside a recorded trace."""
        return self._trace is not None

    def set_name(self, name: str) -> "CurrentTrace":
        """Sets the trace title shown in the console and matched by trace search."""
        return self._update(lambda t: setattr(t, "name", str(name)))

    def merge_metadata(self, metadata: Optional[Mapping[str, Any]] = None, **fields: Any) -> "CurrentTrace":
        """Shallow-merges keys into the trace metadata; matching keys are replaced."""
        return self._update(lambda t: t.metadata.update(_context_of(metadata, fields)))

    def add_context(self, context: Optional[Mapping[str, Any]] = None, **fields: Any) -> "CurrentTrace":
        """Appends one context object to the trace's contexts."""
        return self._update(lambda t: t.contexts.append(_context_of(context, fields)))

    def set_session_id(self, session_id: str) -> "CurrentTrace":
        """Groups the trace under a user session."""
        return self._update(lambda t: setattr(t, "session_id", str(session_id)))

    def drop(self) -> "CurrentTrace":
        """Drops the trace: spans that finish from now on are not sent, and the completion tells the server to
        scrub what it already received."""
        return self._update(lambda t: setattr(t, "dropped", True))

    def _update(self, change) -> "CurrentTrace":
        trace = self._trace
        if trace is None:
            return self
        with trace.lock:
            if trace.completion_started:
                warn_once("trace-after-completion",
                          "A trace was changed after it completed; use detached_trace(id) for late updates.")
                return self
            change(trace)
        return self


class CurrentSpan:
    """The span active in the current context; methods are no-ops outside a span."""

    def __init__(self, span: Optional[SpanState]) -> None:
        self._span = span

    @property
    def id(self) -> Optional[str]:
        """The span id, or None outside a span."""
        return self._span.id if self._span else None

    @property
    def is_active(self) -> bool:
        """True inside a recorded span."""
        return self._span is not None

    def add_context(self, context: Optional[Mapping[str, Any]] = None, **fields: Any) -> "CurrentSpan":
        """Appends one context object to the span. Token usage and model go here, e.g.
        ``add_context(model="gpt-x", inputTokens=12, outputTokens=3)``; Reprise derives tokens and model from it."""
        if self._span is not None:
            self._span.contexts.append(_context_of(context, fields))
        return self

    def set_prompt(self, prompt: str) -> "CurrentSpan":
        """Records the prompt the span sent."""
        if self._span is not None:
            self._span.prompt = str(prompt)
        return self


def get_current_trace() -> CurrentTrace:
    """The trace active in the current context (a no-op handle outside a trace)."""
    frame = current_frame.get()
    return CurrentTrace(frame.trace if frame else None)


def get_current_span() -> CurrentSpan:
    """The span active in the current context (a no-op handle outside a span)."""
    frame = current_frame.get()
    return CurrentSpan(frame.span if frame else None)


class DetachedTrace:
    """Updates a trace by id after it left the current context, through ``PATCH /api/sdk/traces/{id}``. Blocking:
    each call returns when the server accepted it and raises :class:`~reprise.RepriseApiError` on rejection."""

    def __init__(self, trace_id: str, api: "ApiClient") -> None:
        self.id = trace_id
        self._api = api

    def set_name(self, name: str) -> None:
        """Replaces the trace title."""
        self._patch({"setName": name})

    def merge_metadata(self, metadata: Optional[Mapping[str, Any]] = None, **fields: Any) -> None:
        """Shallow-merges keys into the trace metadata."""
        self._patch({"mergeMetadata": _context_of(metadata, fields)})

    def add_context(self, *contexts: Mapping[str, Any], **fields: Any) -> None:
        """Appends context objects to the trace (keyword arguments form one more object)."""
        items = [dict(c) for c in contexts] + ([fields] if fields else [])
        self._patch({"appendContexts": items})

    def set_session_id(self, session_id: str) -> None:
        """Replaces the session id."""
        self._patch({"setSessionId": session_id})

    def _patch(self, body: Dict[str, Any]) -> None:
        from .encoding import to_json_compatible

        self._api.call("PATCH", f"/traces/{quote(self.id, safe='')}", to_json_compatible(body), timeout=PATCH_TIMEOUT)
