"""The replay runner: start the run, fetch each original's input, re-execute the function under a new trace
attributed to the run, then the persistence barrier, then ``replay/complete`` (client transport rule 11)."""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple
from urllib.parse import quote

from ._api import ApiClient
from ._context import Frame, PendingReplay, current_frame
from ._state import ReplayAttribution, TraceState
from .encoding import decode_value
from .errors import RepriseApiError, RepriseError, ReplayBarrierTimeoutError
from .transport.acks import AckTracker

REPLAY_TIMEOUT = 30.0


@dataclass
class OriginalRun:
    """What the original trace did, as the server reported it."""

    duration_ms: Optional[int] = None
    tokens: Optional[Dict[str, Any]] = None
    model: Optional[str] = None
    outline: Optional[Dict[str, Any]] = None


@dataclass
class ReplayItemResult:
    """One replayed item."""

    original_trace_id: str
    original_span_id: str
    original: OriginalRun = field(default_factory=OriginalRun)
    #: SDK-generated id of the replay trace (None when the item could not run).
    replay_trace_id: Optional[str] = None
    #: Persisted server id of the replay trace (equal to ``replay_trace_id`` on Reprise).
    server_trace_id: Optional[str] = None
    args: Optional[list] = None
    kwargs: Optional[Dict[str, Any]] = None
    output: Any = None
    #: Message of the exception the function raised, or why the item could not run.
    error: Optional[str] = None
    duration_ms: Optional[int] = None
    tokens: Optional[Dict[str, Any]] = None
    outline: Optional[Dict[str, Any]] = None


@dataclass
class ReplayResult:
    """What :meth:`Reprise.replay` returns."""

    #: The run (experiment) id.
    test_run_id: str
    #: Absolute URL of the run in the console, when the server named one.
    url: Optional[str]
    #: Traces the server persisted for the run.
    trace_count: int
    items: List[ReplayItemResult]

    @property
    def experiment_id(self) -> str:
        """The same id under its newer name."""
        return self.test_run_id


@dataclass
class ReplayHost:
    """What the runner needs from the client."""

    api: ApiClient
    acks: AckTracker
    acks_prove_persistence: bool
    invoke: Callable[[str, Callable[..., Any], list, Dict[str, Any], PendingReplay], Any]
    flush_all: Callable[[float], bool]


def run_replay(
    host: ReplayHost,
    trace_function_key: str,
    fn: Callable[..., Any],
    limit: Optional[int] = None,
    trace_ids: Optional[Sequence[str]] = None,
    dataset_ids: Optional[Sequence[str]] = None,
    grader_ids: Optional[Sequence[str]] = None,
    name: Optional[str] = None,
    concurrency: int = 10,
    barrier_timeout: float = 30.0,
    poll_interval: float = 0.1,
) -> ReplayResult:
    _validate(limit, trace_ids, dataset_ids, grader_ids, concurrency)
    body: Dict[str, Any] = {"traceFunctionKey": trace_function_key}
    if trace_ids:
        body["traceIds"] = list(trace_ids)
    if dataset_ids:
        body["datasetIds"] = list(dataset_ids)
    if not trace_ids and not dataset_ids:
        body["limit"] = 5 if limit is None else limit
    if grader_ids:
        body["graderIds"] = list(grader_ids)
    if name is not None:
        body["name"] = name
    start = host.api.call("POST", "/replay/start", body, timeout=REPLAY_TIMEOUT)
    test_run_id = start.get("experimentId") or start.get("testRunId")
    if not isinstance(test_run_id, str):
        raise RepriseApiError("replay/start answered without a run id")
    items = [i for i in start.get("items") or [] if isinstance(i, dict)]
    runs = _map_concurrent(items, concurrency, lambda item: _run_item(host, trace_function_key, fn, test_run_id, item))
    try:
        deadline = time.monotonic() + barrier_timeout
        expected = _expected_counts(runs, test_run_id, barrier_timeout, deadline)
        if not host.flush_all(max(0.001, deadline - time.monotonic())):
            # Python: a failed flush fails the replay (transport rule 11); the run is not completed.
            raise ReplayBarrierTimeoutError(test_run_id, list(expected), barrier_timeout, "delivery failed")
        confirmed = _wait_for_persistence(host, test_run_id, expected, deadline, barrier_timeout, poll_interval)
        complete = host.api.call("POST", "/replay/complete", {"testRunId": test_run_id, "experimentId": test_run_id},
                                 timeout=REPLAY_TIMEOUT)
    finally:
        for result, _ in runs:
            if result.replay_trace_id:
                host.acks.unwatch(result.replay_trace_id)
    url = start.get("experimentUrl") or start.get("testRunUrl")
    server_ids = complete.get("traceIds") if isinstance(complete.get("traceIds"), dict) else {}
    return ReplayResult(
        test_run_id=test_run_id,
        url=_absolute(host.api.base_url, url) if isinstance(url, str) else None,
        trace_count=int(complete.get("traceCount") or len(server_ids)),
        items=[_with_server_view(result, confirmed, complete) for result, _ in runs],
    )


def _validate(limit, trace_ids, dataset_ids, grader_ids, concurrency) -> None:
    def check(ok: bool, message: str) -> None:
        if not ok:
            raise RepriseError(f"replay: {message}")

    check(limit is None or (isinstance(limit, int) and 1 <= limit <= 5_000), "limit must be an integer from 1 to 5,000")
    check(len(trace_ids or []) <= 100, "at most 100 trace_ids")
    check(len(dataset_ids or []) <= 50, "at most 50 dataset_ids")
    check(len(grader_ids or []) <= 100, "at most 100 grader_ids")
    check(concurrency >= 1, "concurrency must be at least 1")


class ReplayMocks:
    """The recorded outputs of one original trace (``GET /api/sdk/replay/spanTree/{id}``), for spans marked
    ``mock_on_replay``: the n-th span named X of the replayed trace is served the output of the n-th span named X
    of the original, in start order."""

    def __init__(self, root: Any) -> None:
        self._recorded: Dict[str, List[Dict[str, Any]]] = {}
        self._seen: Dict[str, int] = {}
        self._lock = threading.Lock()
        stack = [root] if isinstance(root, dict) else []
        order: List[Dict[str, Any]] = []
        while stack:  # depth-first, children in order
            node = stack.pop()
            order.append(node)
            stack.extend(reversed([c for c in node.get("children") or [] if isinstance(c, dict)]))
        for node in order:
            if isinstance(node.get("spanName"), str):
                self._recorded.setdefault(node["spanName"], []).append(node)

    def next(self, name: str) -> Optional[Tuple[Any]]:
        """Counts one more span named ``name`` (every span counts, mocked or not) and returns ``(output,)`` for
        that occurrence when the original recorded one."""
        with self._lock:
            index = self._seen.get(name, 0)
            self._seen[name] = index + 1
        nodes = self._recorded.get(name, [])
        if index >= len(nodes) or "output" not in nodes[index]:
            return None
        node = nodes[index]
        serialized = node.get("outputSerialized")
        if isinstance(serialized, dict) and "json" in serialized:
            return (decode_value(serialized["json"], serialized.get("meta")),)
        return (node["output"],)


def decode_arguments(span_data: Dict[str, Any]) -> Tuple[list, Dict[str, Any]]:
    """The original call's arguments: ``input_serialized`` (``{args, kwargs}`` with meta) when present, else the
    recorded ``input`` (an argument list; anything else is one argument)."""
    serialized = span_data.get("input_serialized")
    if isinstance(serialized, dict) and isinstance(serialized.get("json"), dict):
        value = decode_value(serialized["json"], serialized.get("meta"))
        args, kwargs = value.get("args"), value.get("kwargs")
        if isinstance(args, list) and isinstance(kwargs, dict):
            return args, kwargs
    data = span_data.get("input")
    if isinstance(data, list):
        return list(data), {}
    return ([] if data is None else [data]), {}


def _run_item(host: ReplayHost, key: str, fn, test_run_id: str, item: Dict[str, Any]):
    span_id = item.get("externalSpanId") or item.get("originalSpanId") or item.get("sourceSpanId") or ""
    original_trace_id = item.get("originalTraceId") or item.get("sourceTraceId") or ""
    result = ReplayItemResult(
        original_trace_id=original_trace_id,
        original_span_id=span_id,
        original=OriginalRun(
            duration_ms=_first(item, "originalDurationMs", "durationMs"),
            tokens=_first(item, "originalTokens", "tokens"),
            model=_first(item, "originalModel", "model"),
        ),
    )
    try:
        original = host.api.call("GET", f"/externalSpans/{quote(span_id, safe='')}?view=replay", timeout=REPLAY_TIMEOUT)
        raw = original.get("rawData") if isinstance(original.get("rawData"), dict) else {}
        data = raw.get("span_data") if isinstance(raw.get("span_data"), dict) else {}
        args, kwargs = decode_arguments(data)
    except Exception as error:
        result.error = f"could not load the original input: {error}"
        return result, None
    try:
        tree = host.api.call("GET", f"/replay/spanTree/{quote(span_id, safe='')}", timeout=REPLAY_TIMEOUT)
        mocks = ReplayMocks(tree.get("root") if isinstance(tree, dict) else None)
    except Exception:
        mocks = ReplayMocks(None)  # without the tree every span runs
    replay_trace_id = str(uuid.uuid4())
    host.acks.watch(replay_trace_id)
    holder: Dict[str, TraceState] = {}
    pending = PendingReplay(
        trace_id=replay_trace_id,
        attribution=ReplayAttribution(test_run_id, original.get("id") or span_id,
                                      original.get("externalTraceId") or original_trace_id, 0, mocks),
        on_trace=lambda trace: holder.setdefault("trace", trace),
    )
    result.replay_trace_id = replay_trace_id
    result.args, result.kwargs = args, kwargs
    started = time.monotonic()
    try:
        result.output = host.invoke(key, fn, args, kwargs, pending)
    except Exception as error:
        result.error = str(error) or type(error).__name__
    result.duration_ms = int((time.monotonic() - started) * 1000)
    trace = holder.get("trace")
    if trace is None and result.error is None:
        result.error = "the function did not record a trace (is tracing enabled?)"
    return result, trace


def invoke_in_replay_context(fn: Callable[..., Any], args: list, kwargs: Dict[str, Any], pending: PendingReplay) -> Any:
    """Calls ``fn`` in a fresh context whose next root trace becomes ``pending``; awaits coroutines."""
    def call() -> Any:
        current_frame.set(Frame(pending_replay=pending))
        value = fn(*args, **kwargs)
        if inspect.isawaitable(value):
            return asyncio.run(_await(value))
        return value

    return contextvars.Context().run(call)


async def _await(awaitable: Any) -> Any:
    return await awaitable


def _expected_counts(runs, test_run_id: str, timeout: float, deadline: float) -> Dict[str, int]:
    """Waits for each replay trace's completion (children included) and returns its expected span count."""
    expected: Dict[str, int] = {}
    late: List[str] = []
    for _, trace in runs:
        if trace is None:
            continue
        info = trace.wait_completion(deadline - time.monotonic())
        if info is None:
            late.append(trace.id)
        elif info.sent and not info.dropped:
            expected[info.trace_id] = info.expected_span_count
    if late:
        raise ReplayBarrierTimeoutError(test_run_id, late, timeout)
    return expected


def _wait_for_persistence(host: ReplayHost, test_run_id: str, expected: Dict[str, int], deadline: float,
                          timeout: float, interval: float) -> Dict[str, Optional[str]]:
    """Until every replay trace is final with enough spans persisted: local acknowledgments, else
    ``replay/status`` with ``expectedSpanCounts``."""
    confirmed: Dict[str, Optional[str]] = {}
    pending = dict(expected)
    while True:
        if host.acks_prove_persistence:
            for trace_id, count in list(pending.items()):
                ok, server_id = host.acks.confirmed(trace_id, count)
                if ok:
                    confirmed[trace_id] = server_id
                    del pending[trace_id]
        if not pending:
            return confirmed
        left = deadline - time.monotonic()
        if left > 0:
            try:
                body = host.api.call("POST", "/replay/status",
                                     {"testRunId": test_run_id, "experimentId": test_run_id, "expectedSpanCounts": pending},
                                     timeout=min(REPLAY_TIMEOUT, left))
                for trace_id, server_id in _status_ids(body.get("traceIds")).items():
                    if trace_id in pending:
                        confirmed[trace_id] = server_id
                        del pending[trace_id]
            except RepriseError:
                pass  # an unreachable or older status endpoint leaves acknowledgments as the only proof
        if not pending:
            return confirmed
        left = deadline - time.monotonic()
        if left <= 0:
            raise ReplayBarrierTimeoutError(test_run_id, list(pending), timeout)
        time.sleep(min(interval, left))


def _status_ids(ids: Any) -> Dict[str, str]:
    if isinstance(ids, dict):
        return {str(k): v for k, v in ids.items() if isinstance(v, str)}
    if isinstance(ids, list):  # older servers answered a list
        return {i: i for i in ids if isinstance(i, str)}
    return {}


def _with_server_view(result: ReplayItemResult, confirmed: Dict[str, Optional[str]], complete: Dict[str, Any]) -> ReplayItemResult:
    originals = complete.get("originalTraceOutlines") or {}
    result.original.outline = originals.get(result.original_trace_id) if isinstance(originals, dict) else None
    local = result.replay_trace_id
    if local is None:
        return result
    ids = complete.get("traceIds") or {}
    server_id = (ids.get(local) if isinstance(ids, dict) else None) or confirmed.get(local) or local
    result.server_trace_id = server_id
    tokens = complete.get("tokens") or {}
    outlines = complete.get("traceOutlines") or {}
    result.tokens = tokens.get(server_id) if isinstance(tokens, dict) else None
    result.outline = outlines.get(server_id) if isinstance(outlines, dict) else None
    return result


def _map_concurrent(items: List[Dict[str, Any]], limit: int, task):
    results: List[Any] = [None] * len(items)
    lock = threading.Lock()
    position = [0]

    def worker() -> None:
        while True:
            with lock:
                index = position[0]
                if index >= len(items):
                    return
                position[0] += 1
            results[index] = task(items[index])

    threads = [threading.Thread(target=worker, name="reprise-replay", daemon=True) for _ in range(min(limit, len(items)))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def _first(item: Dict[str, Any], *keys: str) -> Any:
    for key in keys:
        if item.get(key) is not None:
            return item[key]
    return None


def _absolute(base: str, path: str) -> str:
    if path.startswith("http://") or path.startswith("https://"):
        return path
    return f"{base}{'' if path.startswith('/') else '/'}{path}"
