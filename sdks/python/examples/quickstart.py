"""Records one trace with the Reprise Python SDK and prints its id.

    REPRISE_API_KEY=rp_... REPRISE_URL=http://localhost:3000 REPRISE_EXAMPLE_TRACE_FUNCTION=quickstart \\
        PYTHONPATH=sdks/python/src python3 sdks/python/examples/quickstart.py

The trace has a root span, a child ``plan`` (type ``function``) and a child ``call-model`` (type ``llm``) whose
context carries the model and token usage. The last line of stdout is ``{"traceId": "<canonical trace id>"}``.
"""

import json
import os
import sys

from reprise import Reprise, flush_traces, get_current_span, get_current_trace

reprise = Reprise()  # reads REPRISE_API_KEY and REPRISE_URL
TRACE_FUNCTION = os.environ.get("REPRISE_EXAMPLE_TRACE_FUNCTION", "quickstart")


@reprise.span("plan", type="function")
def plan(question: str) -> list:
    return [f"look up: {question}", "answer"]


@reprise.span("call-model", type="llm")
def call_model(steps: list) -> str:
    # Tokens and model live in span contexts; Reprise derives usage from them.
    get_current_span().add_context({"model": "example-model", "inputTokens": 12, "outputTokens": 3})
    return "4"


@reprise.trace(TRACE_FUNCTION)
def answer(question: str) -> dict:
    steps = plan(question)
    return {"answer": call_model(steps), "traceId": get_current_trace().id}


def main() -> int:
    result = answer("What is 2+2?")
    if not flush_traces(timeout=30):
        print("delivery failed; see the warnings above", file=sys.stderr)
        return 1
    print(json.dumps({"traceId": result["traceId"]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
