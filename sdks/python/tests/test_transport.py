import gzip
import json
import threading
import time
import unittest

from reprise.transport.budget import escaped_bytes, pack, trim_payload
from reprise.transport.carrier import Carrier
from reprise.transport.compress import maybe_gzip
from reprise.transport.otlp_json import JsonEnvelope
from reprise.transport.otlp_proto import ProtobufEnvelope, _fields
from reprise.transport.processor import BatchProcessor
from reprise.transport.retry import RetryPolicy, Retryable, Throttle, parse_retry_after, send_with_retry

from .helpers import FakeServer, Reply, completions_of, make_client, spans_of


def carrier(text="x", operation="external_span"):
    payload = {"rawSpan": {"id": "s", "span_data": {"name": "n", "input": text}}}
    return Carrier(operation, payload, "t", "n", 1, 2, span_id="s")


class PieceTest(unittest.TestCase):
    def test_gzip_only_from_8192_bytes_and_when_smaller(self):
        self.assertEqual(maybe_gzip(b"a" * 8191, True), (b"a" * 8191, False))
        body, gzipped = maybe_gzip(b"a" * 8192, True)
        self.assertTrue(gzipped)
        self.assertEqual(gzip.decompress(body), b"a" * 8192)
        self.assertFalse(maybe_gzip(b"a" * 9000, False)[1])
        import os
        noise = os.urandom(9000)
        self.assertEqual(maybe_gzip(noise, True), (noise, False))

    def test_pack_by_count_and_exact_size(self):
        size = lambda total, count: 10 + total + max(0, count - 1)
        self.assertEqual(pack([5, 5, 5], 2, 1000, size), [[0, 1], [2]])
        self.assertEqual(pack([5, 5, 5], 10, 21, size), [[0, 1], [2]])  # 10 + 10 + 1 = 21 fits, 10+15+2 does not
        self.assertEqual(pack([50, 5], 10, 21, size), [[0], [1]])

    def test_json_envelope_size_is_exact(self):
        env = JsonEnvelope()
        parts = [env.encode_carrier(carrier(str(i) * i)) for i in range(3)]
        body = env.assemble(parts)
        self.assertEqual(len(body), env.request_size(sum(map(len, parts)), 3))
        decoded = json.loads(body)
        spans = decoded["resourceSpans"][0]["scopeSpans"][0]["spans"]
        self.assertEqual(len(spans), 3)
        self.assertEqual(spans[0]["kind"], 1)
        self.assertEqual(len(spans[0]["traceId"]), 32)
        attrs = {a["key"]: a["value"]["stringValue"] for a in spans[1]["attributes"]}
        self.assertEqual(attrs["reprise.operation"], "external_span")
        self.assertEqual(json.loads(attrs["reprise.payload"])["rawSpan"]["span_data"]["input"], "1")
        resource = decoded["resourceSpans"][0]["resource"]["attributes"]
        self.assertEqual(resource[0], {"key": "service.name", "value": {"stringValue": "reprise-python-sdk"}})

    def test_protobuf_envelope(self):
        env = ProtobufEnvelope()
        one = env.encode_carrier(carrier("héllo"))
        body = env.assemble([one, env.encode_carrier(carrier("b"))])
        self.assertEqual(len(body), env.request_size(len(body), 2))
        resource_spans = [v for f, w, v in _fields(body) if f == 1]
        self.assertEqual(len(resource_spans), 2)
        scope_spans = [v for f, w, v in _fields(resource_spans[0]) if f == 2][0]
        span = [v for f, w, v in _fields(scope_spans) if f == 2][0]
        fields = list(_fields(span))
        attrs = {}
        for f, w, v in fields:
            if f == 9:
                kv = {kf: kvv for kf, _, kvv in _fields(v)}
                attrs[kv[1].decode()] = [x for _, _, x in _fields(kv[2])][0].decode()
        self.assertEqual(attrs["reprise.operation"], "external_span")
        self.assertEqual(json.loads(attrs["reprise.payload"])["rawSpan"]["span_data"]["input"], "héllo")
        self.assertIn((5, 2, b"n"), [(f, w, bytes(v) if isinstance(v, (bytes, bytearray)) else v) for f, w, v in fields])
        self.assertEqual(env.read_response(b"\x0a\x05\x08\x02\x12\x01x").rejected_spans, 2)

    def test_trim_replaces_largest_fields_and_records_the_step(self):
        payload = {"rawSpan": {"id": "s", "span_data": {"name": "n" * 10, "input": "i" * 1000, "output": "o" * 500,
                                                        "input_serialized": {"json": "i" * 1000}}}}
        result = trim_payload(payload, "external_span", 800)
        data = payload["rawSpan"]["span_data"]
        self.assertEqual(data["input"], "<unserializable: too_large_1002_bytes>")
        self.assertNotIn("input_serialized", data)
        self.assertEqual(data["output"], "o" * 500)
        self.assertEqual(data["name"], "n" * 10)
        self.assertEqual(payload["errors"][0]["step"], "payload_budget")
        self.assertEqual(result.trimmed, [("rawSpan.span_data.input", 1002)])
        self.assertEqual(escaped_bytes('"\\'), 4)

    def test_retry_after(self):
        self.assertEqual(parse_retry_after("2"), 2.0)
        self.assertEqual(parse_retry_after("0.5"), 0.5)
        self.assertIsNone(parse_retry_after("soon"))
        self.assertIsNone(parse_retry_after("-1"))
        self.assertAlmostEqual(parse_retry_after("Thu, 01 Jan 2026 00:00:03 GMT", now=1767225600.0), 3.0)

    def test_retry_after_beyond_the_budget_gives_up(self):
        calls = []

        def attempt(timeout):
            calls.append(timeout)
            return Retryable("HTTP 503", 503, retry_after=60)

        result = send_with_retry(attempt, time.monotonic() + 10, RetryPolicy(), Throttle())
        self.assertEqual(len(calls), 1)
        self.assertIn("exceeds the export budget", result.message)

    def test_drop_oldest_queue(self):
        exported = []
        gate = threading.Event()

        def export(batch):
            gate.wait(5)
            exported.extend(c.payload["n"] for c in batch)
            return True

        processor = BatchProcessor(export, max_queue_size=3, max_export_batch_size=1, scheduled_delay=0.01)
        processor.submit(Carrier("external_span", {"n": 0}, "t", "n", 1, 1))
        time.sleep(0.1)  # the worker holds carrier 0
        for n in range(1, 6):
            processor.submit(Carrier("external_span", {"n": n}, "t", "n", 1, 1))
        self.assertEqual(processor.dropped, 2)
        gate.set()
        self.assertTrue(processor.flush(5))
        self.assertEqual(exported, [0, 3, 4, 5])


class DeliveryTest(unittest.TestCase):
    def setUp(self):
        self.replies = []
        self.server = FakeServer(self.reply)

    def tearDown(self):
        self.server.close()

    def reply(self, request):
        if request.path.startswith("/api/sdk/otel") and self.replies:
            return self.replies.pop(0)
        return None

    def record(self, client, n=1, size=10):
        @client.trace("k")
        def fn(x):
            return x

        for i in range(n):
            fn("v" * size)

    def test_retries_with_retry_after_and_honours_it(self):
        client = make_client(self.server)
        self.replies = [Reply(503, {"error": "busy"}, {"Retry-After": "0.3"}), Reply(500)]
        self.record(client)
        started = time.monotonic()
        self.assertTrue(client.flush_traces(10))
        self.assertGreaterEqual(time.monotonic() - started, 0.3)
        self.assertEqual(len(self.server.otlp()), 3)
        self.assertEqual(len(completions_of(self.server.otlp()[-1].carriers())), 1)
        client.close(1)

    def test_413_and_other_4xx_fail_without_retry(self):
        for status in (413, 400):
            self.server.requests.clear()
            client = make_client(self.server)
            self.replies = [Reply(status, {"error": "no"})]
            self.record(client)
            self.assertFalse(client.flush_traces(5))
            self.assertEqual(len(self.server.otlp()), 1)
            client.close(1)

    def test_partial_rejection_fails_the_flush(self):
        client = make_client(self.server)
        self.replies = [Reply(200, {"partialSuccess": {"rejectedSpans": "1", "errorMessage": "bad"}})]
        self.record(client)
        self.assertFalse(client.flush_traces(5))
        self.assertEqual(len(self.server.otlp()), 1)
        client.close(1)

    def test_network_errors_are_retried_then_reported_false(self):
        client = make_client(self.server, service_url="http://127.0.0.1:9", transport={"max_attempts": 2})
        self.record(client)
        self.assertFalse(client.flush_traces(5))
        client.close(1)

    def test_request_deadline(self):
        client = make_client(self.server, transport={"request_timeout": 0.2, "max_attempts": 1})
        self.replies = [Reply(200, {}, delay=3.0)]
        self.record(client)
        started = time.monotonic()
        self.assertFalse(client.flush_traces(5))
        self.assertLess(time.monotonic() - started, 2.0)
        client.close(1)

    def test_packing_and_gzip(self):
        client = make_client(self.server, transport={"max_carriers_per_request": 3})
        self.record(client, n=4, size=5000)  # 8 carriers, ~5 KB each
        self.assertTrue(client.flush_traces(10))
        requests = self.server.otlp()
        self.assertEqual(sorted(len(r.carriers()) for r in requests), [2, 3, 3])
        self.assertTrue(all(r.headers.get("content-encoding") == "gzip" for r in requests))
        self.assertTrue(all(r.headers["authorization"] == "Bearer rp_test" for r in requests))
        client.close(1)

    def test_max_request_bytes_splits_requests(self):
        client = make_client(self.server, max_request_bytes=6000, disable_compression=True)
        self.record(client, n=2, size=2000)
        self.assertTrue(client.flush_traces(10))
        for request in self.server.otlp():
            self.assertLessEqual(len(request.raw), 6000)
            self.assertNotIn("content-encoding", request.headers)
        self.assertEqual(len(spans_of(self.server.carriers())), 2)
        client.close(1)

    def test_an_oversized_carrier_goes_alone_gzipped_or_trimmed(self):
        client = make_client(self.server, max_request_bytes=20_000)
        self.record(client, n=1, size=100_000)  # compresses well: sent intact, gzipped
        self.assertTrue(client.flush_traces(10))
        span = spans_of(self.server.carriers())[0]
        self.assertEqual(len(span["rawSpan"]["span_data"]["output"]), 100_000)
        self.server.requests.clear()
        client2 = make_client(self.server, max_request_bytes=20_000, disable_compression=True)
        self.record(client2, n=1, size=100_000)
        self.assertTrue(client2.flush_traces(10))
        span = spans_of(self.server.carriers())[0]
        self.assertTrue(span["rawSpan"]["span_data"]["output"].startswith("<unserializable: too_large_"))
        self.assertEqual(span["errors"][-1]["step"], "payload_budget")
        for request in self.server.otlp():
            self.assertLessEqual(len(request.raw), 20_000)
        client.close(1)
        client2.close(1)

    def test_collector_mode_sends_protobuf_only_to_the_collector(self):
        client = make_client(self.server, otel_exporter_endpoint=self.server.url + "/collector")
        self.record(client)
        self.assertTrue(client.flush_traces(5))
        paths = {r.path for r in self.server.requests}
        self.assertEqual(paths, {"/collector/v1/traces"})
        request = self.server.requests[0]
        self.assertEqual(request.headers["content-type"], "application/x-protobuf")
        self.assertIn(b"reprise.payload", request.body)
        client.close(1)


if __name__ == "__main__":
    unittest.main()
