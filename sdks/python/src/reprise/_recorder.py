"""Records decorated calls as spans: opens a span, runs the function in its context (sync, async, generators and
async generators), then submits the span and, when the last span of a trace ends, the trace completion. SDK
failures are logged and never raised into the application; the application's own exceptions pass unchanged."""

from __future__ import annotations

import functools
import inspect
import weakref
from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional, Tuple

from ._context import Frame, current_frame
from ._log import ThrottledWarner
from ._payloads import build_completion_carrier, build_span_carrier
from ._pipeline import Pipeline
from ._state import CompletionInfo, SpanState, TraceState, now_ns
from .sim_plan import SpanSubmission

#: Attribute set on functions wrapped by ``trace``; the replay runner recognises it.
TRACED_ATTRIBUTE = "__reprise_trace_function_key__"


@dataclass(frozen=True)
class RunSpec:
    """How to record one call."""

    name: str
    type: str
    instrumentation: str  # "span" | "trace"
    function_name: Optional[str] = None
    #: Set for ``trace``: the trace to start when none is active; ``(trace_function_key, ingestion_type)``.
    root: Optional[Tuple[str, str]] = None
    #: Leave the first argument (``self``/``cls``) out of the recorded input.
    skip_first: bool = False
    #: During a replay, serve the span from the original's recorded output instead of running the function.
    mock_on_replay: bool = False


class _Run:
    """One recorded call: its trace, span and context frame."""

    __slots__ = ("trace", "span", "frame", "done")

    def __init__(self, trace: TraceState, span: SpanState) -> None:
        self.trace = trace
        self.span = span
        self.frame = Frame(trace, span)
        self.done = False


class Recorder:
    def __init__(self, pipeline: Pipeline) -> None:
        self.pipeline = pipeline
        self._warner = ThrottledWarner()

    # -- wrapping ------------------------------------------------------------------------------------------------

    def wrap(self, spec: RunSpec, fn: Callable[..., Any], enabled: bool) -> Callable[..., Any]:
        """A wrapper of the same kind as ``fn`` (coroutine function, generator function, …)."""
        if not enabled:
            return fn
        recorder = self
        if inspect.isasyncgenfunction(fn):
            return self._generator_wrapper(spec, fn, self.drive_async_generator)
        if inspect.iscoroutinefunction(fn):
            @functools.wraps(fn)
            async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                run = recorder.open(spec, args, kwargs)
                if run is None:
                    return await fn(*args, **kwargs)
                mock = recorder.recorded_output(spec, run)
                if mock is not None:
                    return recorder.serve_mock(run, mock[0])
                token = current_frame.set(run.frame)
                try:
                    value = await fn(*args, **kwargs)
                except BaseException as error:
                    recorder.finish(run, error=error)
                    raise
                finally:
                    current_frame.reset(token)
                recorder.finish(run, value=value)
                return value
            return async_wrapper
        if inspect.isgeneratorfunction(fn):
            return self._generator_wrapper(spec, fn, self.drive_generator)

        @functools.wraps(fn)
        def sync_wrapper(*args: Any, **kwargs: Any) -> Any:
            run = recorder.open(spec, args, kwargs)
            if run is None:
                return fn(*args, **kwargs)
            mock = recorder.recorded_output(spec, run)
            if mock is not None:
                return recorder.serve_mock(run, mock[0])
            try:
                value = recorder.in_frame(run, fn, args, kwargs)
            except BaseException as error:
                recorder.finish(run, error=error)
                raise
            if inspect.isawaitable(value):
                return recorder.drive_awaitable(run, value)
            recorder.finish(run, value=value)
            return value
        return sync_wrapper

    def _generator_wrapper(
        self, spec: RunSpec, fn: Callable[..., Any], drive: Callable[[_Run, Any], Any]
    ) -> Callable[..., Any]:
        """Wraps a generator or async generator function: the span opens at the call and ``drive`` closes it
        when the (async) generator is exhausted, fails or is closed."""
        recorder = self

        @functools.wraps(fn)
        def generator_wrapper(*args: Any, **kwargs: Any) -> Any:
            run = recorder.open(spec, args, kwargs)
            if run is None:
                return fn(*args, **kwargs)
            try:
                generator = recorder.in_frame(run, fn, args, kwargs)
            except BaseException as error:
                recorder.finish(run, error=error)
                raise
            return drive(run, generator)
        return generator_wrapper

    @staticmethod
    def in_frame(run: _Run, fn: Callable[..., Any], args: tuple, kwargs: Dict[str, Any]) -> Any:
        token = current_frame.set(run.frame)
        try:
            return fn(*args, **kwargs)
        finally:
            current_frame.reset(token)

    async def drive_awaitable(self, run: _Run, awaitable: Any) -> Any:
        token = current_frame.set(run.frame)
        try:
            value = await awaitable
        except BaseException as error:
            self.finish(run, error=error)
            raise
        finally:
            current_frame.reset(token)
        self.finish(run, value=value)
        return value

    def drive_generator(self, run: _Run, gen: Any) -> Any:
        yielded: list = []
        weakref_target = self._abandon_guard(run, yielded)

        def driver():
            to_send: Any = None
            to_throw: Optional[BaseException] = None
            while True:
                token = current_frame.set(run.frame)
                try:
                    item = gen.throw(to_throw) if to_throw is not None else gen.send(to_send)
                except StopIteration as stop:
                    self.finish(run, value={"yielded": yielded, "return": stop.value})
                    return stop.value
                except BaseException as error:
                    self.finish(run, error=error, partial={"yielded": yielded})
                    raise
                finally:
                    current_frame.reset(token)
                yielded.append(item)
                try:
                    to_send, to_throw = (yield item), None
                except GeneratorExit:
                    gen.close()
                    self.finish(run, value={"yielded": yielded, "return": None})
                    raise
                except BaseException as error:
                    to_send, to_throw = None, error

        wrapped = driver()
        weakref_target(wrapped)
        return wrapped

    def drive_async_generator(self, run: _Run, agen: Any) -> Any:
        yielded: list = []
        weakref_target = self._abandon_guard(run, yielded)

        async def driver():
            to_send: Any = None
            to_throw: Optional[BaseException] = None
            while True:
                token = current_frame.set(run.frame)
                try:
                    item = await (agen.athrow(to_throw) if to_throw is not None else agen.asend(to_send))
                except StopAsyncIteration:
                    self.finish(run, value={"yielded": yielded, "return": None})
                    return
                except BaseException as error:
                    self.finish(run, error=error, partial={"yielded": yielded})
                    raise
                finally:
                    current_frame.reset(token)
                yielded.append(item)
                try:
                    to_send, to_throw = (yield item), None
                except GeneratorExit:
                    await agen.aclose()
                    self.finish(run, value={"yielded": yielded, "return": None})
                    raise
                except BaseException as error:
                    to_send, to_throw = None, error

        wrapped = driver()
        weakref_target(wrapped)
        return wrapped

    def _abandon_guard(self, run: _Run, yielded: list) -> Callable[[Any], None]:
        """A generator that is never iterated never runs its driver; end its span when it is collected."""
        def attach(obj: Any) -> None:
            try:
                weakref.finalize(obj, self.finish, run, {"yielded": yielded, "return": None})
            except TypeError:
                pass
        return attach

    # -- replay mocks --------------------------------------------------------------------------------------------

    def recorded_output(self, spec: RunSpec, run: _Run) -> Optional[Tuple[Any]]:
        """Counts the span's occurrence in a replayed trace and returns ``(recorded output,)`` when the span is to be
        served from the original instead of running. Generators always run."""
        try:
            mocks = run.trace.replay.mocks if run.trace.replay is not None else None
            if mocks is None or run.span.is_root:
                return None
            recorded = mocks.next(run.span.name)
            return recorded if spec.mock_on_replay else None
        except Exception as error:
            self._internal_failure(error)
            return None

    def serve_mock(self, run: _Run, value: Any) -> Any:
        """Ends the span at once with the recorded output, without calling the function."""
        run.span.mocked = True
        self.finish(run, value=value)
        return value

    # -- recording -----------------------------------------------------------------------------------------------

    def open(self, spec: RunSpec, args: tuple, kwargs: Dict[str, Any]) -> Optional[_Run]:
        try:
            frame = current_frame.get()
            trace = frame.trace if frame else None
            parent_id = frame.span.id if frame and frame.span else None
            if trace is None:
                if spec.root is None:
                    return None
                trace = self._start_trace(spec.root, frame)
                parent_id = None
            span = SpanState(spec.name, spec.type, spec.instrumentation, parent_id, spec.function_name)
            span.set_input(args[1:] if spec.skip_first else args, kwargs)
            with trace.lock:
                trace.open_spans += 1
            return _Run(trace, span)
        except Exception as error:
            self._internal_failure(error)
            return None

    def _start_trace(self, root: Tuple[str, str], frame: Optional[Frame]) -> TraceState:
        key, ingestion_type = root
        pending = frame.pending_replay if frame else None
        if pending is not None and not pending.consumed:
            pending.consumed = True
            trace = TraceState(key, ingestion_type, pending.attribution, pending.trace_id)
            trace.release = self.release
            pending.on_trace(trace)
            return trace
        trace = TraceState(key, ingestion_type, None)
        trace.release = self.release
        return trace

    def finish(self, run: _Run, value: Any = None, error: Optional[BaseException] = None, partial: Any = None) -> None:
        trace, span = run.trace, run.span
        with trace.lock:
            if run.done:
                return
            run.done = True
        try:
            span.ended_ns = now_ns()
            if error is not None:
                span.set_error(error)
                if partial is not None:
                    span.set_output(partial)
            else:
                span.set_output(value)
            if not trace.dropped:
                self._submit_span(trace, span)
        except Exception as failure:
            self._internal_failure(failure)
        finally:
            self.release(trace, root_ended=span.is_root)

    def release(self, trace: TraceState, root_ended: bool = False) -> None:
        """One span (or hold) of the trace ended; the last one out sends the completion."""
        with trace.lock:
            trace.open_spans -= 1
            if root_ended:
                trace.root_ended = True
            ready = trace.root_ended and trace.open_spans == 0 and not trace.completion_started
            if ready:
                trace.completion_started = True
                trace.ended_ns = now_ns()
        if ready:
            self._complete(trace)

    def _submit_span(self, trace: TraceState, span: SpanState) -> None:
        def sent(ok: bool) -> None:
            if ok:
                with trace.lock:
                    trace.sent_spans += 1

        submission = SpanSubmission(build_span_carrier(trace, span), trace.trace_function_key, span.name,
                                    span.is_root, span.error is not None)
        self.pipeline.submit_span(submission, sent)

    def _complete(self, trace: TraceState) -> None:
        """Submits the completion once every earlier span was decided; the app never waits for the network."""
        def done(sent: bool) -> None:
            trace.resolve_completion(CompletionInfo(trace.id, trace.sent_spans, trace.dropped, sent))

        try:
            self.pipeline.submit_after_spans(lambda: build_completion_carrier(trace), done)
        except Exception as error:
            self._internal_failure(error)
            done(False)

    def _internal_failure(self, error: BaseException) -> None:
        self._warner.warn("internal", f"Tracing failed internally and was skipped: {error!r}")
