"""The sim plan (``GET /api/sdk/sim-plan``): which nodes must not capture content, applied to spans before they
reach the transport. Read lazily on first use, then at most once a minute (10 s after a failure), in the
background; while the first read is pending, spans and the completions behind them are held (up to 1,000)."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Callable, FrozenSet, List, Optional, Tuple, Union

from .errors import RepriseApiError
from .transport.carrier import Carrier

SIM_PLAN_TIMEOUT = 5.0
SIM_PLAN_REFRESH = 60.0
SIM_PLAN_RETRY = 10.0
MAX_HELD = 1_000
#: Content fields withheld from a content-off span.
CONTENT_FIELDS = ("input", "input_meta", "output", "output_meta", "input_serialized", "output_serialized",
                  "prompt", "replay_recording")

NodeKey = Tuple[str, str]
#: ("pending" | "ready" | "unavailable", content-off nodes)
PlanState = Tuple[str, FrozenSet[NodeKey]]


def fetch_sim_plan(api) -> Optional[FrozenSet[NodeKey]]:
    """Reads the plan with a 5 s timeout and ``Connection: close``. None when unreadable; 404 is an empty plan."""
    try:
        body = api.call("GET", "/sim-plan", timeout=SIM_PLAN_TIMEOUT, headers={"Connection": "close"})
    except RepriseApiError as error:
        return frozenset() if error.status == 404 else None
    except Exception:
        return None
    nodes = body.get("nodes") if isinstance(body, dict) else None
    if not isinstance(nodes, list):
        return None
    off = set()
    for node in nodes:
        if isinstance(node, dict) and isinstance(node.get("traceFunctionKey"), str) and isinstance(node.get("name"), str) \
                and node.get("captureContent") is False:
            off.add((node["traceFunctionKey"], node["name"]))
    return frozenset(off)


class SimPlanSource:
    """The current plan; reads happen on daemon threads."""

    def __init__(self, read: Callable[[], Optional[FrozenSet[NodeKey]]]) -> None:
        self._read = read
        self._listeners: List[Callable[[], None]] = []
        self._reset()

    def _reset(self) -> None:
        self._state: PlanState = ("pending", frozenset())
        self._next_read = 0.0
        self._in_flight = False
        self._cond = threading.Condition(threading.Lock())

    def on_settled(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)

    def state(self) -> PlanState:
        """The current state; starts a read when one is due."""
        with self._cond:
            if not self._in_flight and time.monotonic() >= self._next_read:
                self._in_flight = True
                threading.Thread(target=self._refresh, name="reprise-sim-plan", daemon=True).start()
            return self._state

    def settled(self, timeout: float) -> bool:
        """Waits until no read is in flight."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._in_flight:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def _refresh(self) -> None:
        try:
            result = self._read()
        except Exception:
            result = None
        with self._cond:
            if result is not None:
                self._state = ("ready", result)
            elif self._state[0] != "ready":
                self._state = ("unavailable", frozenset())
            self._next_read = time.monotonic() + (SIM_PLAN_REFRESH if result is not None else SIM_PLAN_RETRY)
            self._in_flight = False
            self._cond.notify_all()
        for listener in self._listeners:
            listener()

    def reset_after_fork(self) -> None:
        self._reset()


@dataclass
class SpanSubmission:
    """A finished span on its way to the transport."""

    carrier: Carrier
    trace_function_key: str
    span_name: str
    is_root: bool
    has_error: bool


_Held = Union[Tuple[str, SpanSubmission, Callable[[bool], None]], Tuple[str, Callable[[], None]]]


class SimPlanGate:
    """Sends, strips or skips spans in submission order; completions wait behind the spans submitted before."""

    def __init__(self, plan: Optional[SimPlanSource], deliver: Callable[[Carrier], bool]) -> None:
        self._plan = plan
        self._deliver = deliver
        self._held: List[_Held] = []
        self._forced_unavailable = False
        self._lock = threading.RLock()
        if plan is not None:
            plan.on_settled(self._on_settled)

    def submit_span(self, submission: SpanSubmission, sent: Callable[[bool], None]) -> None:
        with self._lock:
            state = self._current_state()
            if state[0] == "pending" or self._held:
                self._hold(("span", submission, sent))
                return
            sent(self._process(submission, state))

    def after_pending(self, run: Callable[[], None]) -> None:
        """Runs ``run`` once every span submitted before it has been decided."""
        with self._lock:
            if self._held:
                self._hold(("run", run))
                return
        run()

    def drain(self, timeout: float) -> bool:
        """Waits until nothing is held. Taking the lock also waits for a release in progress on another thread,
        so every carrier held before the drain is queued when it returns (one flush, one request)."""
        with self._lock:
            if not self._held:
                return True
        if self._plan is not None and not self._plan.settled(timeout):
            return False
        self._release()
        with self._lock:
            return not self._held

    def reset_after_fork(self) -> None:
        self._lock = threading.RLock()
        self._held = []
        self._forced_unavailable = False
        if self._plan is not None:
            self._plan.reset_after_fork()

    def _on_settled(self) -> None:
        with self._lock:
            self._forced_unavailable = False
            self._release()

    def _current_state(self) -> PlanState:
        if self._plan is None:
            return ("ready", frozenset())
        state = self._plan.state()
        if self._forced_unavailable and state[0] == "pending":
            return ("unavailable", frozenset())
        return state

    def _hold(self, item: _Held) -> None:
        self._held.append(item)
        if len(self._held) > MAX_HELD:
            # Memory stays bounded: decide everything held as if the plan were unavailable.
            self._forced_unavailable = True
            self._release()

    def _release(self) -> None:
        with self._lock:
            state = self._current_state()
            if state[0] == "pending":
                return
            items, self._held = self._held, []
            for item in items:
                if item[0] == "span":
                    _, submission, sent = item  # type: ignore[misc]
                    sent(self._process(submission, state))
                else:
                    item[1]()  # type: ignore[operator]

    def _process(self, submission: SpanSubmission, state: PlanState) -> bool:
        payload = submission.carrier.payload
        if state[0] == "ready" and (submission.trace_function_key, submission.span_name) in state[1]:
            # Sent without content and flagged, never withheld, so the server can count the node; the span tree
            # leaves such spans out unless they recorded an error (docs/sdk-transport.md, "Sim plan"; docs/replay.md,
            # "Complete").
            _strip_content(payload)
        elif state[0] == "unavailable" and not submission.is_root:
            _strip_content(payload)
        return self._deliver(submission.carrier)


def _strip_content(payload) -> None:
    raw_span = payload.get("rawSpan")
    data = raw_span.get("span_data") if isinstance(raw_span, dict) else None
    if not isinstance(data, dict):
        return
    for name in CONTENT_FIELDS:
        data.pop(name, None)
    data["content_off_by_simulation_plan"] = True
