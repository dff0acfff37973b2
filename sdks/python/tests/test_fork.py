import os
import unittest

from .helpers import FakeServer, make_client, spans_of


@unittest.skipUnless(hasattr(os, "fork"), "needs os.fork")
class ForkTest(unittest.TestCase):
    def test_the_pipeline_is_rebuilt_in_the_child(self):
        server = FakeServer()
        self.addCleanup(server.close)
        client = make_client(server)
        self.addCleanup(client.close, 1)

        @client.trace("forked")
        def fn(who):
            return who

        fn("parent")
        self.assertTrue(client.flush_traces(5))
        pid = os.fork()
        if pid == 0:  # the child: its own worker thread, queue and connections
            try:
                fn("child")
                os._exit(0 if client.flush_traces(5) else 1)
            except BaseException:
                os._exit(2)
        _, status = os.waitpid(pid, 0)
        self.assertEqual(os.waitstatus_to_exitcode(status), 0)
        outputs = sorted(s["rawSpan"]["span_data"]["output"] for s in spans_of(server.carriers()))
        self.assertEqual(outputs, ["child", "parent"])


if __name__ == "__main__":
    unittest.main()
