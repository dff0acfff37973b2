import threading
import unittest

import reprise
from reprise import get_current_span

from .helpers import FakeServer, Reply, make_client


class FakeReprise:
    """Replay endpoints over the recorded OTLP traffic (persisted = acknowledged)."""

    def __init__(self, originals, ack_status=200, status_confirms=True):
        self.originals = originals
        self.ack_status = ack_status
        self.status_confirms = status_confirms
        self.spans = {}
        self.completions = {}
        self.calls = []
        self.lock = threading.Lock()
        self.server = FakeServer(self.handle)

    def handle(self, request):
        path = request.path.split("?")[0]
        self.calls.append(f"{request.method} {path}")
        if path == "/api/sdk/otel/v1/traces":
            if self.ack_status != 200:
                return Reply(self.ack_status, {"error": "no"})
            ids = {}
            with self.lock:
                for op, payload in request.carriers():
                    if op == "external_span":
                        self.spans.setdefault(payload["sourceTraceId"], set()).add(payload["rawSpan"]["id"])
                        self.spans.setdefault("payloads", []).append(payload)
                    else:
                        self.completions[payload["id"]] = payload
                        ids[payload["id"]] = payload["id"]
            return Reply(200, {"traceIds": ids})
        if path == "/api/sdk/replay/start":
            self.start_body = request.json()
            return Reply(200, {"testRunId": "run-1", "experimentId": "run-1", "experimentUrl": "/experiments/run-1",
                               "items": [{"externalSpanId": o["spanId"], "originalTraceId": o["traceId"],
                                          "originalTokens": {"input": 1, "output": 2, "cached": 0, "total": 3}}
                                         for o in self.originals]})
        if path.startswith("/api/sdk/externalSpans/"):
            original = next(o for o in self.originals if path.endswith(o["spanId"]))
            return Reply(200, {"id": original["spanId"], "externalTraceId": original["traceId"],
                               "rawData": {"span_data": original["data"]}})
        if path.startswith("/api/sdk/replay/spanTree/"):
            original = next(o for o in self.originals if path.endswith(o["spanId"]))
            return Reply(200, {"root": {"spanName": "answer", "output": "old", "children": original.get("tree", [])}})
        if path == "/api/sdk/replay/status":
            body = request.json()
            with self.lock:
                done = {t: t for t, n in body["expectedSpanCounts"].items()
                        if self.status_confirms and t in self.completions and len(self.spans.get(t, ())) >= n}
            return Reply(200, {"traceIds": done})
        if path == "/api/sdk/replay/complete":
            return Reply(200, {"traceIds": {t: t for t in self.completions}, "traceCount": len(self.completions),
                               "tokens": {t: {"input": 5, "output": 6, "cached": 0, "total": 11} for t in self.completions}})
        return None


ORIGINALS = [
    {"spanId": "span-1", "traceId": "trace-1", "data": {"input": ["hello"]},
     "tree": [{"spanName": "tool", "output": "first", "children": []},
              {"spanName": "tool", "outputSerialized": {"json": [1, 2], "meta": {"v": 1, "values": {"": ["tuple"]}}},
               "output": [1, 2], "children": []}]},
    {"spanId": "span-2", "traceId": "trace-2",
     "data": {"input": ["x", {"n": 2}], "input_serialized": {"json": {"args": ["x"], "kwargs": {"n": 2}}, "meta": None}}},
]


class ReplayTest(unittest.TestCase):
    def make(self, **kwargs):
        fake = FakeReprise(ORIGINALS, **kwargs)
        self.addCleanup(fake.server.close)
        client = make_client(fake.server)
        self.addCleanup(client.close, 1)
        return fake, client

    def test_replay_end_to_end(self):
        fake, client = self.make()
        seen = []

        @client.span("child", type="llm")
        def child(text):
            get_current_span().add_context(model="m", inputTokens=1)
            return text.upper()

        def answer(text, n=1):
            seen.append((text, n))
            return child(text) * n

        result = client.replay("answer", answer, limit=2, name="v2")
        self.assertEqual(fake.start_body, {"traceFunctionKey": "answer", "limit": 2, "name": "v2"})
        self.assertEqual(sorted(seen), [("hello", 1), ("x", 2)])
        self.assertEqual(result.test_run_id, "run-1")
        self.assertEqual(result.url, fake.server.url + "/experiments/run-1")
        self.assertEqual(result.trace_count, 2)
        outputs = {i.original_trace_id: i.output for i in result.items}
        self.assertEqual(outputs, {"trace-1": "HELLO", "trace-2": "XX"})
        for item in result.items:
            self.assertIsNone(item.error)
            self.assertEqual(item.server_trace_id, item.replay_trace_id)
            self.assertEqual(item.tokens["total"], 11)
            self.assertEqual(item.original.tokens["total"], 3)
        self.assertEqual(fake.calls[-1], "POST /api/sdk/replay/complete")
        completion = fake.completions[result.items[0].replay_trace_id]
        self.assertEqual(completion["testRunId"], "run-1")
        self.assertEqual(completion["experimentId"], "run-1")
        self.assertEqual(completion["externalTrace"]["input_source_trace_id"], "trace-1")
        self.assertEqual(completion["expectedSpanCount"], 2)
        root = next(p for p in fake.spans["payloads"] if p["sourceTraceId"] == result.items[0].replay_trace_id
                    and "parent_id" not in p["rawSpan"])
        self.assertEqual(root["rawSpan"]["input_source_span_id"], "span-1")

    def test_mock_on_replay_serves_the_recorded_outputs_in_order(self):
        fake, client = self.make()
        ran = []

        @client.span("tool", mock_on_replay=True)
        def tool(n):
            ran.append(n)
            return "fresh"

        def answer(text, n=1):
            return [tool(1), tool(2), tool(3)]

        result = client.replay("answer", answer, trace_ids=["trace-1"])
        outputs = {i.original_trace_id: i.output for i in result.items}
        self.assertEqual(outputs["trace-1"], ["first", (1, 2), "fresh"])
        self.assertEqual(outputs["trace-2"], ["fresh", "fresh", "fresh"])
        self.assertEqual(sorted(ran), [1, 2, 3, 3])
        mocked = [p for p in fake.spans["payloads"] if p.get("mocked")]
        self.assertEqual(len(mocked), 2)
        self.assertEqual({(p["mockTarget"], p["mockSource"]) for p in mocked}, {("output", "recorded")})
        self.assertEqual(mocked[0]["rawSpan"]["span_data"]["output"], "first")

    def test_a_failed_flush_fails_the_replay_and_does_not_complete(self):
        fake, client = self.make(ack_status=400)
        with self.assertRaises(reprise.ReplayBarrierTimeoutError) as caught:
            client.replay("answer", lambda text, n=1: text, barrier_timeout=3)
        self.assertEqual(len(caught.exception.pending_trace_ids), 2)
        self.assertNotIn("POST /api/sdk/replay/complete", fake.calls)

    def test_barrier_timeout_without_proof(self):
        fake, client = self.make(status_confirms=False)
        client = make_client(fake.server, otel_exporter_endpoint=fake.server.url + "/collector")
        self.addCleanup(client.close, 1)
        with self.assertRaises(reprise.ReplayBarrierTimeoutError):
            client.replay("answer", lambda text, n=1: text, barrier_timeout=0.5)
        self.assertIn("POST /api/sdk/replay/status", fake.calls)
        self.assertNotIn("POST /api/sdk/replay/complete", fake.calls)

    def test_lookup_and_function_trace(self):
        fake, client = self.make()
        fake.server.handler = lambda r: Reply(200, {"id": "fn-1", "name": "f"} if r.json()["name"] == "f" else {"id": None}) \
            if r.path == "/api/sdk/functions/lookup" else None
        self.assertEqual(client.lookup_function("f")["id"], "fn-1")
        with self.assertRaises(reprise.FunctionNotFoundError):
            client.lookup_function("missing")
        self.assertTrue(client.record_function_trace(client.lookup_function("f"), {"answer": 4}, {"q": "2+2"}))
        self.assertTrue(client.flush_traces(5))
        client.close(5)
        self.assertFalse(client.record_function_trace("fn-1", "late"))
        [(op, payload)] = fake.server.carriers()
        self.assertEqual(op, "internal_trace")
        self.assertEqual(payload["functionId"], "fn-1")
        self.assertEqual(payload["result"], '{"answer": 4}')
        self.assertEqual(payload["inputs"], {"q": "2+2"})

    def test_detached_trace(self):
        fake, client = self.make()
        fake.server.handler = lambda r: Reply(404, {"error": "not found", "code": "not_found"}) if r.method == "PATCH" else None
        handle = client.detached_trace("t/1")
        with self.assertRaises(reprise.RepriseApiError) as caught:
            handle.set_name("x")
        self.assertEqual(caught.exception.status, 404)
        self.assertEqual(fake.server.requests[-1].path, "/api/sdk/traces/t%2F1")
        self.assertEqual(fake.server.requests[-1].json(), {"setName": "x"})


if __name__ == "__main__":
    unittest.main()
