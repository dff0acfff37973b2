"""A client's whole delivery path: sim plan gate, then transport. Registered as live on first use so the global
flush, the replay barrier, the exit flush and the fork hook reach it."""

from __future__ import annotations

import atexit
import os
import threading
import time
import weakref
from typing import Callable, Optional

from ._api import ApiClient
from .config import ResolvedConfig
from .sim_plan import SimPlanGate, SimPlanSource, SpanSubmission, fetch_sim_plan
from .transport.carrier import Carrier
from .transport.transport import Transport

#: How long the interpreter-exit flush may take at most.
EXIT_FLUSH_TIMEOUT = 30.0

_live: "weakref.WeakSet[Pipeline]" = weakref.WeakSet()
_live_lock = threading.Lock()


class Pipeline:
    """Sim plan gate in front of the transport."""

    def __init__(self, config: ResolvedConfig, api: ApiClient) -> None:
        self.api = api
        self.transport = Transport(config)
        plan = SimPlanSource(lambda: fetch_sim_plan(api)) if config.sim_plan_enabled else None
        self.gate = SimPlanGate(plan, self.transport.submit)
        self._live = False

    def submit_span(self, submission: SpanSubmission, sent: Callable[[bool], None]) -> None:
        self._go_live()
        self.gate.submit_span(submission, sent)

    def submit_after_spans(self, build: Callable[[], Optional[Carrier]], done: Callable[[bool], None]) -> None:
        """Submits a carrier built only once every span submitted before it was decided (trace completions)."""
        self._go_live()

        def run() -> None:
            carrier = build()
            done(carrier is not None and self.transport.submit(carrier))

        self.gate.after_pending(run)

    def submit(self, carrier: Carrier) -> bool:
        """Submits a carrier that the sim plan does not concern (function-execution traces)."""
        self._go_live()
        return self.transport.submit(carrier)

    def flush(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        if not self.gate.drain(timeout):
            return False
        return self.transport.flush(max(0.001, deadline - time.monotonic()))

    def close(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        self.gate.drain(timeout)
        flushed = self.transport.close(max(0.001, deadline - time.monotonic()))
        with _live_lock:
            _live.discard(self)
        return flushed

    def _go_live(self) -> None:
        if self._live or self.transport.closed:
            return
        self._live = True
        with _live_lock:
            _live.add(self)

    def reset_after_fork(self) -> None:
        self.gate.reset_after_fork()
        self.transport.reset_after_fork()
        self.api.reset_after_fork()


def live_pipelines() -> list:
    with _live_lock:
        return list(_live)


def flush_all(timeout: float = 30.0) -> bool:
    """Flushes every live client. False when any of them failed or timed out."""
    deadline = time.monotonic() + timeout
    ok = True
    for pipeline in live_pipelines():
        try:
            ok = pipeline.flush(max(0.001, deadline - time.monotonic())) and ok
        except Exception:
            ok = False
    return ok


def _flush_at_exit() -> None:
    # Idle pipelines return at once; daemon worker threads are still alive while atexit handlers run.
    flush_all(EXIT_FLUSH_TIMEOUT)


def _rebuild_in_child() -> None:
    global _live_lock
    _live_lock = threading.Lock()
    for pipeline in list(_live):
        try:
            pipeline.reset_after_fork()
        except Exception:
            pass


atexit.register(_flush_at_exit)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_rebuild_in_child)
