"""The Reprise client."""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, TypeVar, Union, overload

from ._api import NO_KEY_MESSAGE, ApiClient
from ._context import Frame, PendingReplay, current_frame
from ._log import warn_once
from ._payloads import build_function_trace_carrier
from ._pipeline import Pipeline, flush_all
from ._recorder import TRACED_ATTRIBUTE, Recorder, RunSpec
from ._state import to_span_type
from .config import ResolvedConfig, resolve_config
from .errors import FunctionNotFoundError, RepriseConfigError
from .handles import CurrentSpan, CurrentTrace, DetachedTrace, get_current_span, get_current_trace
from .replay import ReplayHost, ReplayResult, invoke_in_replay_context, run_replay

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class SeededTrace:
    """What :meth:`Reprise.seed_trace` wrote."""

    trace_id: str
    #: False when the flush after writing failed or timed out.
    delivered: bool


class Reprise:
    """Records traces of an application and replays them.

    Every argument falls back to its ``REPRISE_*`` environment variable, then a default::

        reprise = Reprise()  # REPRISE_API_KEY, REPRISE_URL

        @reprise.trace("answer-question")
        def answer(question: str) -> str: ...

    Nothing is started until the first span is recorded. Without an API key tracing is disabled with one warning
    and decorated functions run untouched.
    """

    def __init__(
        self,
        api_key: Optional[str] = None,
        service_url: Optional[str] = None,
        *,
        otel_exporter_endpoint: Optional[str] = None,
        max_request_bytes: Optional[int] = None,
        export_concurrency: Optional[int] = None,
        disable_compression: Optional[bool] = None,
        disable_sim_plan: Optional[bool] = None,
        transport: Optional[Mapping[str, Any]] = None,
        env: Optional[Mapping[str, str]] = None,
    ) -> None:
        config, warnings = resolve_config(
            api_key=api_key, service_url=service_url, otel_exporter_endpoint=otel_exporter_endpoint,
            max_request_bytes=max_request_bytes, export_concurrency=export_concurrency,
            disable_compression=disable_compression, disable_sim_plan=disable_sim_plan, transport=transport, env=env,
        )
        for warning in warnings:
            warn_once(warning.key, warning.message)
        #: The resolved configuration.
        self.config: ResolvedConfig = config
        #: False when no API key was found: decorators then leave functions untouched.
        self.enabled: bool = config.api_key != ""
        if not self.enabled:
            warn_once("no-api-key", "No API key (api_key=... or REPRISE_API_KEY): tracing is disabled.")
        self._api = ApiClient(config)
        self._pipeline = Pipeline(config, self._api)
        self._recorder = Recorder(self._pipeline)
        self._closed = False

    # -- decorators ----------------------------------------------------------------------------------------------

    def trace(self, trace_function_key: str, *, span_name: Optional[str] = None, type: str = "function") -> Callable[[F], F]:
        """Decorator: each call records a trace of ``trace_function_key`` (arguments as input, return value as
        output). Called inside another trace, it records a child span instead. Works on functions, methods,
        coroutine functions, generators and async generators."""
        def decorate(fn: F) -> F:
            spec = RunSpec(
                name=span_name or trace_function_key, type=to_span_type(type), instrumentation="trace",
                function_name=getattr(fn, "__name__", None), root=(trace_function_key, "captured"),
                skip_first=_is_method(fn),
            )
            wrapped = self._recorder.wrap(spec, fn, self.enabled)
            if wrapped is not fn:
                setattr(wrapped, TRACED_ATTRIBUTE, trace_function_key)
            return wrapped  # type: ignore[return-value]
        return decorate

    @overload
    def span(self, name: F) -> F: ...
    @overload
    def span(self, name: Optional[str] = None, *, type: str = "custom", mock_on_replay: bool = False) -> Callable[[F], F]: ...

    def span(self, name: Union[str, None, Callable[..., Any]] = None, *, type: str = "custom",
             mock_on_replay: bool = False) -> Any:
        """Decorator: each call inside a trace records a child span (default name: the function's name; types
        ``llm``, ``agent``, ``function``, ``guardrail``, ``handoff``, ``custom``). Outside a trace the function
        runs unrecorded. ``@reprise.span`` without parentheses works too.

        ``mock_on_replay=True``: during a replay the span is served from the original's recorded output (the n-th
        call of that name gets the n-th recorded output) instead of running the function, and is sent with
        ``mocked: true``; for tool or model calls you do not want re-executed. Outside a replay, or when the
        original has no such span, the function runs as usual. Generator functions always run."""
        if callable(name):
            return self.span(None, type=type, mock_on_replay=mock_on_replay)(name)

        def decorate(fn: F) -> F:
            spec = RunSpec(
                name=name or getattr(fn, "__name__", "span"), type=to_span_type(type), instrumentation="span",
                function_name=getattr(fn, "__name__", None), skip_first=_is_method(fn), mock_on_replay=mock_on_replay,
            )
            return self._recorder.wrap(spec, fn, self.enabled)  # type: ignore[return-value]
        return decorate

    # -- handles -------------------------------------------------------------------------------------------------

    def get_current_trace(self) -> CurrentTrace:
        """The trace active in the current context (a no-op handle outside a trace)."""
        return get_current_trace()

    def get_current_span(self) -> CurrentSpan:
        """The span active in the current context (a no-op handle outside a span)."""
        return get_current_span()

    def detached_trace(self, trace_id: str) -> DetachedTrace:
        """A handle that updates a trace by id through ``PATCH /api/sdk/traces/{id}`` (blocking, raises on
        rejection)."""
        return DetachedTrace(trace_id, self._api)

    # -- blocking calls ------------------------------------------------------------------------------------------

    def seed_trace(
        self,
        trace_function_key: str,
        input: Any,
        output: Any = None,
        *,
        name: Optional[str] = None,
        span_name: Optional[str] = None,
        type: str = "function",
        metadata: Optional[Mapping[str, Any]] = None,
        contexts: Optional[Sequence[Mapping[str, Any]]] = None,
        session_id: Optional[str] = None,
        timeout: float = 30.0,
    ) -> SeededTrace:
        """Writes a ``seeded`` trace from a case (``input`` is the argument list; a non-list is one argument),
        flushes it and returns its id."""
        self._require_key()
        args = list(input) if isinstance(input, (list, tuple)) else [input]
        spec = RunSpec(name=span_name or trace_function_key, type=to_span_type(type), instrumentation="trace",
                       root=(trace_function_key, "seeded"))
        holder: Dict[str, str] = {}

        def body(*_: Any) -> Any:
            trace = get_current_trace()
            holder["id"] = trace.id or ""
            if name is not None:
                trace.set_name(name)
            if metadata:
                trace.merge_metadata(metadata)
            for context in contexts or []:
                trace.add_context(context)
            if session_id is not None:
                trace.set_session_id(session_id)
            return output

        wrapped = self._recorder.wrap(spec, body, True)
        token = current_frame.set(Frame())
        try:
            wrapped(*args)
        finally:
            current_frame.reset(token)
        return SeededTrace(holder.get("id", ""), self.flush_traces(timeout))

    def lookup_function(self, name: str) -> Dict[str, Any]:
        """Looks a function up by name; raises :class:`FunctionNotFoundError` when the server answers
        ``{"id": null}``."""
        self._require_key()
        body = self._api.call("POST", "/functions/lookup", {"name": name})
        if not isinstance(body, dict) or not body.get("id"):
            raise FunctionNotFoundError(name, f"{self.config.service_url}/functions")
        return body

    def record_function_trace(
        self,
        function: Union[Mapping[str, Any], str],
        result: Any,
        inputs: Optional[Mapping[str, Any]] = None,
        *,
        raw_collector: Any = None,
    ) -> bool:
        """Records one execution of a function found with :meth:`lookup_function` (its dict, or its id) as a
        function-execution trace: an ``internal_trace`` carrier delivered in the background like spans. ``result``
        is a string or any JSON value (sent as its JSON text). False when nothing was queued (tracing disabled, or
        the client closed); never raises."""
        if not self.enabled or self._closed:
            return False
        try:
            function_id = function if isinstance(function, str) else str(function["id"])
            name = None if isinstance(function, str) else function.get("name")
            carrier = build_function_trace_carrier(function_id, name, dict(inputs) if inputs else None, result, raw_collector)
            return self._pipeline.submit(carrier)
        except Exception as error:
            warn_once("function-trace", f"A function trace could not be recorded: {error!r}")
            return False

    def replay(
        self,
        trace_function_key: str,
        fn: Callable[..., Any],
        *,
        limit: Optional[int] = None,
        trace_ids: Optional[Sequence[str]] = None,
        dataset_ids: Optional[Sequence[str]] = None,
        grader_ids: Optional[Sequence[str]] = None,
        name: Optional[str] = None,
        concurrency: int = 10,
        barrier_timeout: float = 30.0,
        poll_interval: float = 0.1,
    ) -> ReplayResult:
        """Replays recorded traces of ``trace_function_key`` through ``fn`` (decorated with :meth:`trace` or
        plain; coroutine functions are run to completion) and returns per-item results with outlines and token
        usage. Raises :class:`ReplayBarrierTimeoutError`, without completing the run, when the replayed traces are
        not confirmed persisted in time or their delivery failed."""
        self._require_key()
        host = ReplayHost(
            api=self._api,
            acks=self._pipeline.transport.acks,
            acks_prove_persistence=self.config.mode.kind == "direct",
            invoke=self._invoke_for_replay,
            flush_all=flush_all,
        )
        return run_replay(host, trace_function_key, fn, limit=limit, trace_ids=trace_ids, dataset_ids=dataset_ids,
                          grader_ids=grader_ids, name=name, concurrency=concurrency, barrier_timeout=barrier_timeout,
                          poll_interval=poll_interval)

    # -- lifecycle -----------------------------------------------------------------------------------------------

    def flush_traces(self, timeout: float = 30.0) -> bool:
        """Delivers everything this client recorded so far. False on delivery failure or timeout; never raises."""
        try:
            return self._pipeline.flush(timeout)
        except Exception:
            return False

    def close(self, timeout: float = 30.0) -> bool:
        """Flushes, then shuts this client down for good: later spans are not sent."""
        self._closed = True
        try:
            return self._pipeline.close(timeout)
        except Exception:
            return False
        finally:
            self._api.pool.clear()

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called."""
        return self._closed

    def __enter__(self) -> "Reprise":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _invoke_for_replay(self, key: str, fn: Callable[..., Any], args: list, kwargs: Dict[str, Any],
                           pending: PendingReplay) -> Any:
        marker = getattr(fn, TRACED_ATTRIBUTE, None)
        if marker is not None and marker != key:
            warn_once(f"replay-key:{key}", f'replay("{key}") was given a function traced as "{marker}".')
        target = fn if marker is not None else self.trace(key)(fn)
        return invoke_in_replay_context(target, args, kwargs, pending)

    def _require_key(self) -> None:
        if not self.enabled:
            raise RepriseConfigError(NO_KEY_MESSAGE)


def _is_method(fn: Callable[..., Any]) -> bool:
    """True when the first parameter is ``self`` or ``cls``: it is left out of the recorded input."""
    try:
        parameters = list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return False
    return bool(parameters) and parameters[0] in ("self", "cls") and "." in getattr(fn, "__qualname__", "")


def flush_traces(timeout: float = 30.0) -> bool:
    """Flushes every live client. False when any delivery failed or timed out."""
    try:
        return flush_all(timeout)
    except Exception:
        return False
