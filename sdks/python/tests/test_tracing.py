import asyncio
import contextvars
import threading
import time
import unittest

import reprise
from reprise import get_current_span, get_current_trace

from .helpers import FakeServer, completions_of, make_client, spans_of


class TracingTest(unittest.TestCase):
    def setUp(self):
        self.server = FakeServer()
        self.client = make_client(self.server)

    def tearDown(self):
        self.client.close(5)
        self.server.close()

    def delivered(self):
        self.assertTrue(self.client.flush_traces(5))
        carriers = self.server.carriers()
        return spans_of(carriers), completions_of(carriers)

    def test_a_trace_with_children_and_contexts(self):
        client = self.client

        @client.span("call-model", type="llm")
        def call_model(prompt, temperature=0):
            get_current_span().add_context({"model": "m"}, inputTokens=12).set_prompt("p")
            return {"text": "4"}

        @client.trace("answer")
        def answer(question):
            get_current_trace().set_name("title").merge_metadata({"tenant": "acme"}).set_session_id("s-1")
            get_current_trace().add_context(region="eu")
            return call_model(question, temperature=0.5)["text"]

        self.assertEqual(answer("2+2?"), "4")
        spans, completions = self.delivered()
        self.assertEqual(len(spans), 2)
        root = next(s for s in spans if "parent_id" not in s["rawSpan"])
        child = next(s for s in spans if "parent_id" in s["rawSpan"])
        self.assertEqual(child["rawSpan"]["parent_id"], root["rawSpan"]["id"])
        self.assertEqual(root["rawSpan"]["span_data"], {"name": "answer", "type": "function", "function_name": "answer",
                                                        "input": ["2+2?"], "output": "4"})
        data = child["rawSpan"]["span_data"]
        self.assertEqual(data["input"], ["2+2?", {"temperature": 0.5}])
        self.assertEqual(data["input_serialized"], {"json": {"args": ["2+2?"], "kwargs": {"temperature": 0.5}}, "meta": None})
        self.assertEqual(data["contexts"], [{"model": "m", "inputTokens": 12}])
        self.assertEqual(data["prompt"], "p")
        self.assertEqual(child["rawSpan"]["span_origin"],
                         {"name": "reprise.sdk.python", "version": reprise.__version__, "instrumentation": {"name": "span"}})
        self.assertEqual(child["source"], "python-sdk-function")
        self.assertEqual(child["sourceTraceId"], root["sourceTraceId"])
        [completion] = completions
        self.assertEqual(completion["id"], root["sourceTraceId"])
        self.assertEqual(completion["expectedSpanCount"], 2)
        self.assertEqual(completion["name"], "title")
        self.assertEqual(completion["sessionId"], "s-1")
        self.assertEqual(completion["externalTrace"]["metadata"], {"tenant": "acme"})
        self.assertEqual(completion["externalTrace"]["contexts"], [{"region": "eu"}])
        self.assertEqual(completion["ingestion_type"], "captured")

    def test_the_application_error_passes_through_and_is_recorded(self):
        @self.client.trace("fails")
        def fails():
            raise ValueError("boom")

        with self.assertRaises(ValueError):
            fails()
        spans, completions = self.delivered()
        self.assertEqual(spans[0]["rawSpan"]["span_data"]["error"], "boom")
        self.assertEqual(completions[0]["expectedSpanCount"], 1)

    def test_async_functions_generators_and_async_generators(self):
        client = self.client

        @client.span("gen")
        def numbers(n):
            for i in range(n):
                yield i
            return "done"

        @client.span("agen")
        async def letters():
            for ch in "ab":
                await asyncio.sleep(0)
                yield ch

        @client.trace("async-root")
        async def root():
            total = list(numbers(3))
            got = [c async for c in letters()]
            await asyncio.sleep(0)
            return {"total": total, "got": got, "trace": get_current_trace().id}

        result = asyncio.run(root())
        self.assertEqual(result["total"], [0, 1, 2])
        spans, completions = self.delivered()
        by_name = {s["rawSpan"]["span_data"]["name"]: s for s in spans}
        self.assertEqual(by_name["gen"]["rawSpan"]["span_data"]["output"], {"yielded": [0, 1, 2], "return": "done"})
        self.assertEqual(by_name["agen"]["rawSpan"]["span_data"]["output"], {"yielded": ["a", "b"], "return": None})
        self.assertEqual(by_name["gen"]["rawSpan"]["parent_id"], by_name["async-root"]["rawSpan"]["id"])
        self.assertEqual(completions[0]["id"], result["trace"])
        self.assertEqual(completions[0]["expectedSpanCount"], 3)

    def test_asyncio_tasks_keep_their_own_parents(self):
        client = self.client

        @client.span("leaf")
        async def leaf(i):
            await asyncio.sleep(0.01)
            return i

        @client.span("branch")
        async def branch(i):
            return await leaf(i)

        @client.trace("fan-out")
        async def root():
            return await asyncio.gather(*(branch(i) for i in range(3)))

        asyncio.run(root())
        spans, completions = self.delivered()
        ids = {s["rawSpan"]["id"]: s for s in spans}
        for span in spans:
            if span["rawSpan"]["span_data"]["name"] == "leaf":
                parent = ids[span["rawSpan"]["parent_id"]]
                self.assertEqual(parent["rawSpan"]["span_data"]["name"], "branch")
                self.assertEqual(parent["rawSpan"]["span_data"]["input"], span["rawSpan"]["span_data"]["input"])
        self.assertEqual(completions[0]["expectedSpanCount"], 7)

    def test_completion_waits_for_a_background_child(self):
        client = self.client
        started = threading.Event()

        @client.span("slow")
        def slow():
            started.set()
            time.sleep(1.0)
            return "late"

        threads = []

        @client.trace("root-returns-first")
        def root():
            threads.append(threading.Thread(target=contextvars.copy_context().run, args=(slow,)))
            threads[0].start()
            started.wait(5)
            return "early"

        root()
        self.assertTrue(client.flush_traces(5))
        self.assertEqual(completions_of(self.server.carriers()), [])
        threads[0].join(5)
        spans, completions = self.delivered()
        self.assertEqual(len(spans), 2)
        self.assertEqual(completions[0]["expectedSpanCount"], 2)

    def test_reprise_thread_keeps_the_trace_open(self):
        client = self.client

        @client.span("worker")
        def worker(n):
            time.sleep(1.0)
            return n

        threads = []

        @client.trace("spawns")
        def root():
            threads.append(reprise.Thread(target=worker, args=(1,)))
            threads[0].start()
            return get_current_trace().id

        trace_id = root()
        self.assertTrue(client.flush_traces(5))
        self.assertEqual(completions_of(self.server.carriers()), [])
        threads[0].join(5)
        spans, completions = self.delivered()
        worker_span = next(s for s in spans if s["rawSpan"]["span_data"]["name"] == "worker")
        root_span = next(s for s in spans if s["rawSpan"]["span_data"]["name"] == "spawns")
        self.assertEqual(worker_span["rawSpan"]["parent_id"], root_span["rawSpan"]["id"])
        self.assertEqual(completions[0]["id"], trace_id)
        self.assertEqual(completions[0]["expectedSpanCount"], 2)

    def test_drop(self):
        client = self.client

        @client.span("after")
        def after():
            return 1

        @client.trace("dropped")
        def root():
            get_current_trace().drop()
            return after()

        root()
        spans, completions = self.delivered()
        self.assertEqual(spans, [])
        self.assertTrue(completions[0]["dropped"])
        self.assertNotIn("expectedSpanCount", completions[0])

    def test_methods_leave_self_out_and_span_without_trace_runs_plain(self):
        client = self.client

        class Agent:
            @client.trace("agent")
            def run(self, x):
                return self.step(x)

            @client.span
            def step(self, x):
                return x * 2

        self.assertEqual(Agent().step(2), 4)  # outside a trace: unrecorded
        self.assertEqual(Agent().run(3), 6)
        spans, _ = self.delivered()
        self.assertEqual(sorted(s["rawSpan"]["span_data"]["input"][0] for s in spans), [3, 3])
        self.assertEqual({s["rawSpan"]["span_data"]["name"] for s in spans}, {"agent", "step"})

    def test_serialization_degraded(self):
        @self.client.trace("odd")
        def odd(value):
            return object()

        odd(lambda: 1)
        spans, _ = self.delivered()
        steps = [e["step"] for e in spans[0]["errors"]]
        self.assertEqual(steps, ["serialization_degraded", "serialization_degraded"])
        self.assertEqual(spans[0]["rawSpan"]["span_data"]["output"], "<unserializable: object>")

    def test_handles_outside_a_trace_are_no_ops(self):
        self.assertIsNone(get_current_trace().id)
        get_current_trace().set_name("x").drop()
        get_current_span().add_context(a=1)

    def test_seed_trace(self):
        seeded = self.client.seed_trace("seeded-fn", ["q"], {"a": 1}, name="case 1")
        self.assertTrue(seeded.delivered)
        spans, completions = spans_of(self.server.carriers()), completions_of(self.server.carriers())
        self.assertEqual(completions[0]["id"], seeded.trace_id)
        self.assertEqual(completions[0]["ingestion_type"], "seeded")
        self.assertEqual(completions[0]["name"], "case 1")
        self.assertEqual(spans[0]["rawSpan"]["span_data"]["output"], {"a": 1})

    def test_close_rejects_later_spans(self):
        @self.client.trace("after-close")
        def fn():
            return 1

        self.assertTrue(self.client.close(5))
        self.assertEqual(fn(), 1)
        self.assertTrue(self.client.flush_traces(1))
        self.assertEqual(self.server.carriers(), [])


class DisabledClientTest(unittest.TestCase):
    def test_without_a_key_functions_run_untouched(self):
        client = reprise.Reprise(env={})
        self.assertFalse(client.enabled)

        def fn(x):
            return x

        self.assertIs(client.trace("k")(fn), fn)
        with self.assertRaises(reprise.RepriseConfigError):
            client.lookup_function("x")


if __name__ == "__main__":
    unittest.main()
