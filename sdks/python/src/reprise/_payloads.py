"""Payloads of the carriers: ``external_span``, ``external_trace`` (the completion) and ``internal_trace``."""

from __future__ import annotations

import json
from typing import Any, Dict, Optional

from ._state import SpanState, TraceState, iso, now_ns
from ._version import SDK_FUNCTION_SOURCE, SDK_ORIGIN_NAME, SDK_SOURCE, SDK_VERSION
from .encoding import to_json_compatible
from .transport.carrier import EXTERNAL_SPAN, EXTERNAL_TRACE, INTERNAL_TRACE, Carrier


def _replay_ids(trace: TraceState) -> Dict[str, str]:
    # Both names of the run id are sent.
    if trace.replay is None:
        return {}
    return {"testRunId": trace.replay.test_run_id, "experimentId": trace.replay.test_run_id}


def build_span_carrier(trace: TraceState, span: SpanState) -> Carrier:
    ended = span.ended_ns or now_ns()
    raw: Dict[str, Any] = {"id": span.id, "trace_id": trace.id}
    if span.parent_id is not None:
        raw["parent_id"] = span.parent_id  # roots leave it out
    raw["started_at"] = iso(span.started_ns)
    raw["ended_at"] = iso(ended)
    if trace.replay is not None:
        raw["input_source_span_id"] = trace.replay.input_source_span_id
    raw["span_origin"] = {"name": SDK_ORIGIN_NAME, "version": SDK_VERSION, "instrumentation": {"name": span.instrumentation}}
    raw["span_data"] = _span_data(span)
    payload: Dict[str, Any] = {
        "type": "sdk-function",
        "source": SDK_SOURCE,
        "sourceTraceId": trace.id,
        "traceFunctionKey": trace.trace_function_key,
        "sdkVersion": SDK_VERSION,
        **_replay_ids(trace),
        "rawSpan": raw,
    }
    if span.errors:
        payload["errors"] = list(span.errors)
    if span.mocked:
        payload.update({"mocked": True, "mockTarget": "output", "mockSource": "recorded"})
    return Carrier(
        operation=EXTERNAL_SPAN,
        payload=payload,
        trace_id=trace.id,
        span_id=span.id,
        name=span.name or trace.trace_function_key or "reprise.external_span",
        start_ns=span.started_ns,
        end_ns=max(ended, span.started_ns),
        is_error=span.error is not None,
    )


def _span_data(span: SpanState) -> Dict[str, Any]:
    data: Dict[str, Any] = {"name": span.name, "type": span.type}
    if span.function_name:
        data["function_name"] = span.function_name
    if span.input is not None:
        data["input"] = span.input.json
        if span.input_serialized is not None:
            data["input_serialized"] = span.input_serialized
    if span.output is not None:
        data["output"] = span.output.json
        if span.output.meta is not None:
            data["output_serialized"] = {"json": span.output.json, "meta": span.output.meta}
    if span.error is not None:
        data["error"] = span.error
    if span.contexts:
        data["contexts"] = [to_json_compatible(c) for c in span.contexts]
    if span.prompt is not None:
        data["prompt"] = span.prompt
    return data


def build_completion_carrier(trace: TraceState) -> Carrier:
    ended = trace.ended_ns or now_ns()
    external: Dict[str, Any] = {
        "id": trace.id,
        "started_at": iso(trace.started_ns),
        "ended_at": iso(ended),
        "workflow_name": trace.trace_function_key,
        "ingestion_type": trace.ingestion_type,
    }
    if trace.name is not None:
        external["name"] = trace.name
    if trace.metadata:
        external["metadata"] = to_json_compatible(trace.metadata)
    if trace.contexts:
        external["contexts"] = [to_json_compatible(c) for c in trace.contexts]
    if trace.replay is not None:
        external["input_source_trace_id"] = trace.replay.input_source_trace_id
        external["replay_attempt"] = trace.replay.attempt
    payload: Dict[str, Any] = {
        "id": trace.id,
        "type": "sdk-function",
        "source": SDK_SOURCE,
        "traceFunctionKey": trace.trace_function_key,
        "completed": True,
        "sdkVersion": SDK_VERSION,
        "ingestion_type": trace.ingestion_type,
        **_replay_ids(trace),
        "externalTrace": external,
    }
    if trace.name is not None:
        payload["name"] = trace.name
    if trace.session_id is not None:
        payload["sessionId"] = trace.session_id
    if trace.dropped:
        payload["dropped"] = True
    else:
        payload["expectedSpanCount"] = trace.sent_spans
    return Carrier(
        operation=EXTERNAL_TRACE,
        payload=payload,
        trace_id=trace.id,
        name=trace.trace_function_key or "reprise.external_trace",
        start_ns=trace.started_ns,
        end_ns=max(ended, trace.started_ns),
    )


def build_function_trace_carrier(function_id: str, function_name: Optional[str], inputs: Optional[Dict[str, Any]],
                                 result: Any, raw_collector: Any = None) -> Carrier:
    """A function-execution trace (``internal_trace``): the body of ``POST /api/sdk/functions/{id}/traces`` plus
    ``functionId``; ``result`` as a string (JSON text unless already one)."""
    text = result if isinstance(result, str) else json.dumps(to_json_compatible(result), ensure_ascii=False)
    payload: Dict[str, Any] = {"functionId": function_id, "result": text, "source": SDK_FUNCTION_SOURCE, "sdkVersion": SDK_VERSION}
    if inputs:
        payload["inputs"] = to_json_compatible(inputs)
    if raw_collector is not None:
        payload["rawCollector"] = to_json_compatible(raw_collector)
    now = now_ns()
    return Carrier(operation=INTERNAL_TRACE, payload=payload, trace_id=function_id,
                   name=function_name or "reprise.internal_trace", start_ns=now, end_ns=now)
