import time
import unittest

from .helpers import FakeServer, Reply, completions_of, make_client, spans_of


class SimPlanTest(unittest.TestCase):
    def run_trace(self, plan_reply, delay=0.0):
        server = FakeServer(lambda r: (Reply(plan_reply[0], plan_reply[1], delay=delay) if r.path == "/api/sdk/sim-plan" else None))
        self.addCleanup(server.close)
        client = make_client(server, disable_sim_plan=False)
        self.addCleanup(client.close, 1)

        @client.span("secret", type="llm")
        def secret(x):
            return "s"

        @client.span("failing-secret")
        def failing_secret():
            raise RuntimeError("no")

        @client.span("open")
        def public(x):
            return "p"

        @client.trace("plan-fn")
        def root(x):
            secret(x)
            public(x)
            try:
                failing_secret()
            except RuntimeError:
                pass
            return "r"

        root("in")
        self.assertTrue(client.flush_traces(10))
        get = [r for r in server.requests if r.path == "/api/sdk/sim-plan"]
        self.assertEqual(len(get), 1)
        self.assertEqual(get[0].headers.get("connection"), "close")
        carriers = server.carriers()
        return {s["rawSpan"]["span_data"]["name"]: s["rawSpan"]["span_data"] for s in spans_of(carriers)}, completions_of(carriers)

    def test_content_off_nodes(self):
        nodes = [{"traceFunctionKey": "plan-fn", "name": n, "captureContent": False}
                 for n in ("secret", "failing-secret", "plan-fn")]
        spans, completions = self.run_trace((200, {"nodes": nodes}), delay=0.2)
        self.assertEqual(spans["secret"], {"name": "secret", "type": "llm", "function_name": "secret",
                                           "content_off_by_simulation_plan": True})  # flagged, not withheld
        self.assertEqual(spans["failing-secret"], {"name": "failing-secret", "type": "custom", "function_name": "failing_secret",
                                                   "error": "no", "content_off_by_simulation_plan": True})
        self.assertTrue(spans["plan-fn"]["content_off_by_simulation_plan"])
        self.assertNotIn("input", spans["plan-fn"])
        self.assertEqual(spans["open"]["output"], "p")
        self.assertEqual(completions[0]["expectedSpanCount"], 4)

    def test_404_is_an_empty_plan(self):
        spans, completions = self.run_trace((404, {"error": "nope"}))
        self.assertEqual(spans["secret"]["output"], "s")
        self.assertEqual(completions[0]["expectedSpanCount"], 4)

    def test_unavailable_plan_strips_children(self):
        spans, completions = self.run_trace((500, {"error": "down"}))
        self.assertTrue(spans["open"]["content_off_by_simulation_plan"])
        self.assertNotIn("output", spans["open"])
        self.assertEqual(spans["plan-fn"]["output"], "r")
        self.assertEqual(completions[0]["expectedSpanCount"], 4)


if __name__ == "__main__":
    unittest.main()
