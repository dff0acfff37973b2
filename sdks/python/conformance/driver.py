"""Conformance driver of the Python SDK: JSON lines on stdin, one answer per line on stdout
(sdks/conformance/PROTOCOL.md). One client, built lazily from the environment alone."""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any, Callable, Dict, Optional

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

import reprise  # noqa: E402
from reprise import (  # noqa: E402
    FunctionNotFoundError,
    ReplayBarrierTimeoutError,
    Reprise,
    RepriseApiError,
    RepriseConfigError,
    get_current_span,
    get_current_trace,
)

_client: Optional[Reprise] = None


def client() -> Reprise:
    global _client
    if _client is None:
        _client = Reprise()
    return _client


def expand(value: Any) -> Any:
    """Expands ``{"$repeat": s, "count": n}`` anywhere in a value."""
    if isinstance(value, dict):
        if set(value) == {"$repeat", "count"}:
            return str(value["$repeat"]) * int(value["count"])
        return {k: expand(v) for k, v in value.items()}
    if isinstance(value, list):
        return [expand(v) for v in value]
    return value


def build(node: Dict[str, Any], root_key: Optional[str], holder: Optional[Dict[str, Any]] = None) -> Callable[..., Any]:
    """The function a span node stands for, decorated with the SDK's trace (root) or span decorator."""
    child_nodes = node.get("children") or []
    children = [build(child, None) for child in child_nodes]

    def body(*_args: Any, **_kwargs: Any) -> Any:
        span = get_current_span()
        trace = get_current_trace()
        if holder is not None:
            holder["traceId"] = trace.id
        for context in node.get("contexts") or []:
            span.add_context(context)
        if node.get("metadata"):
            trace.merge_metadata(node["metadata"])
        if root_key is not None:
            if node.get("traceName") is not None:
                trace.set_name(node["traceName"])
            if node.get("sessionId") is not None:
                trace.set_session_id(node["sessionId"])
        if node.get("drop"):
            trace.drop()
        for child, child_node in zip(children, child_nodes):
            run_child(child, child_node)
        if node.get("sleepMs"):
            time.sleep(node["sleepMs"] / 1000)
        if node.get("error") is not None:
            raise RuntimeError(node["error"])
        return node.get("output")

    body.__name__ = "".join(c if c.isalnum() else "_" for c in str(node.get("name") or "span"))
    if root_key is not None:
        return client().trace(root_key, span_name=node.get("name") or root_key, type=node.get("type") or "function")(body)
    return client().span(node.get("name"), type=node.get("type") or "custom",
                         mock_on_replay=bool(node.get("mockOnReplay")))(body)


def run_child(child: Callable[..., Any], node: Dict[str, Any]) -> None:
    def call() -> None:
        try:
            child(node.get("input"))
        except Exception:
            pass  # the child's own error is recorded on its span; the parent carries on

    if not node.get("background"):
        call()
        return
    # A background child runs on a thread that carries the span context and keeps the trace open until it ends,
    # so the parent may return first.
    reprise.Thread(target=call, daemon=True).start()


def cmd_trace(req: Dict[str, Any]) -> Any:
    # After close the application still runs; the SDK just sends nothing (transport rule 10).
    holder: Dict[str, Any] = {}
    root = build(req["tree"], req["traceFunctionKey"], holder)
    try:
        root(req["tree"].get("input"))
    except Exception:
        pass  # the application's error passed through the SDK unchanged; the trace recorded it
    return {"traceId": holder.get("traceId")}


def cmd_flush(req: Dict[str, Any]) -> Any:
    return reprise.flush_traces(req.get("timeoutMs", 30000) / 1000)


def cmd_close(req: Dict[str, Any]) -> Any:
    client().close()
    return None


def cmd_update_trace(req: Dict[str, Any]) -> Any:
    handle = client().detached_trace(req["traceId"])
    if "setName" in req:
        handle.set_name(req["setName"])
    if "mergeMetadata" in req:
        handle.merge_metadata(req["mergeMetadata"])
    if "appendContexts" in req:
        handle.add_context(*req["appendContexts"])
    if "setSessionId" in req:
        handle.set_session_id(req["setSessionId"])
    return None


def cmd_seed_trace(req: Dict[str, Any]) -> Any:
    seeded = client().seed_trace(req["traceFunctionKey"], req.get("input"), req.get("output"), name=req.get("name"))
    return {"traceId": seeded.trace_id}


def cmd_lookup_function(req: Dict[str, Any]) -> Any:
    return {"id": client().lookup_function(req["name"])["id"]}


def cmd_function_trace(req: Dict[str, Any]) -> Any:
    function = client().lookup_function(req["name"])
    value = req.get("input")
    inputs = value if isinstance(value, dict) else {"input": value}
    client().record_function_trace(function, req.get("output"), inputs)
    return None


def cmd_replay(req: Dict[str, Any]) -> Any:
    tree = req["tree"]
    fn = build(tree, req["traceFunctionKey"])
    timeout = req.get("barrierTimeoutMs")
    result = client().replay(
        req["traceFunctionKey"], fn,
        limit=req.get("limit"), trace_ids=req.get("traceIds"), dataset_ids=req.get("datasetIds"), name=req.get("name"),
        **({"barrier_timeout": timeout / 1000} if timeout is not None else {}),
    )
    items = []
    for item in result.items:
        entry: Dict[str, Any] = {"originalTraceId": item.original_trace_id,
                                 "traceId": item.server_trace_id or item.replay_trace_id}
        if item.error is not None:
            entry["error"] = item.error
        if item.outline is not None:
            entry["outline"] = item.outline
        items.append(entry)
    return {"testRunId": result.test_run_id, "items": items}


def cmd_sleep(req: Dict[str, Any]) -> Any:
    time.sleep(req.get("ms", 0) / 1000)
    return None


COMMANDS: Dict[str, Callable[[Dict[str, Any]], Any]] = {
    "trace": cmd_trace,
    "flush": cmd_flush,
    "close": cmd_close,
    "updateTrace": cmd_update_trace,
    "seedTrace": cmd_seed_trace,
    "lookupFunction": cmd_lookup_function,
    "functionTrace": cmd_function_trace,
    "replay": cmd_replay,
    "sleep": cmd_sleep,
}


def error_of(error: BaseException) -> Dict[str, Any]:
    if isinstance(error, FunctionNotFoundError):
        return {"type": "function_not_found", "message": str(error)}
    if isinstance(error, RepriseApiError):
        return {"type": "api_error", "status": error.status, "message": str(error)}
    if isinstance(error, RepriseConfigError):
        return {"type": "config_error", "message": str(error)}
    if isinstance(error, ReplayBarrierTimeoutError):
        return {"type": "replay_barrier_timeout", "pendingTraceIds": error.pending_trace_ids, "message": str(error)}
    return {"type": "other", "message": f"{type(error).__name__}: {error}"}


def main() -> None:
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        request_id = None
        try:
            request = expand(json.loads(line))
            request_id = request.get("id")
            handler = COMMANDS.get(request.get("cmd"))
            if handler is None:
                raise ValueError(f"unknown command {request.get('cmd')!r}")
            answer = {"id": request_id, "ok": True, "result": handler(request)}
        except Exception as error:  # every failure is an answer, never a crash
            answer = {"id": request_id, "ok": False, "error": error_of(error)}
        out.write(json.dumps(answer) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
