"""The bounded batch processor: a queue of at most 8,192 carriers that drops its OLDEST when full, drained by a
background daemon thread every 5 s, per full batch, or on flush (interface limits; sentry-python's transport
worker is the model)."""

from __future__ import annotations

import collections
import threading
import time
from typing import Callable, Deque, List, Optional

from .._log import ThrottledWarner
from .carrier import Carrier


class BatchProcessor:
    """Queues carriers and exports them in batches on its own thread; ``export`` returns True on success."""

    def __init__(
        self,
        export: Callable[[List[Carrier]], bool],
        max_queue_size: int,
        max_export_batch_size: int,
        scheduled_delay: float,
    ) -> None:
        self._export = export
        self._max_queue = max_queue_size
        self._batch = max(1, max_export_batch_size)
        self._delay = scheduled_delay
        self._warner = ThrottledWarner()
        self._init_state()

    def _init_state(self) -> None:
        self._queue: Deque[Carrier] = collections.deque()
        self._cond = threading.Condition(threading.Lock())
        self._thread: Optional[threading.Thread] = None
        self._removed = 0  # carriers taken from the front of the queue (exported or dropped)
        self._exporting = False
        self._flush_requests = 0
        self._failures = 0
        self._stopping = False
        self._closed = False
        self.dropped = 0

    @property
    def queue_length(self) -> int:
        return len(self._queue)

    @property
    def closed(self) -> bool:
        return self._closed

    def submit(self, carrier: Carrier) -> bool:
        """Queues a carrier; False once the processor is shut down."""
        with self._cond:
            if self._closed:
                return False
            if len(self._queue) >= self._max_queue:
                self._queue.popleft()
                self._removed += 1
                self.dropped += 1
                self._warner.warn("queue-full", f"The delivery queue is full ({self._max_queue} carriers); the oldest are dropped.")
            self._queue.append(carrier)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="reprise-batch-processor", daemon=True)
                self._thread.start()
            if len(self._queue) >= self._batch:
                self._cond.notify_all()
        return True

    def flush(self, timeout: float) -> bool:
        """Exports everything queued so far. False when an export failed meanwhile or time ran out. Carriers
        dropped because the queue was full do not make it fail."""
        deadline = time.monotonic() + timeout
        with self._cond:
            target = self._removed + len(self._queue)
            failures_before = self._failures
            self._flush_requests += 1
            self._cond.notify_all()
            try:
                while self._removed < target or self._exporting:
                    if self._thread is None or not self._thread.is_alive():
                        if self._removed < target:
                            return False
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return False
                    self._cond.wait(left)
                return self._failures == failures_before
            finally:
                self._flush_requests -= 1

    def shutdown(self, timeout: float) -> bool:
        """Flushes, then stops for good; later submissions are refused."""
        flushed = self.flush(timeout)
        with self._cond:
            self._closed = True
            self._stopping = True
            self._cond.notify_all()
        return flushed

    def reset_after_fork(self) -> None:
        """In a forked child: the worker thread does not exist and the locks may be held; start afresh. The
        parent's queued carriers are the parent's to send."""
        closed = self._closed
        self._init_state()
        self._closed = closed

    def _take(self) -> Optional[List[Carrier]]:
        next_export = time.monotonic() + self._delay
        with self._cond:
            while True:
                if self._stopping and not self._queue:
                    return None
                now = time.monotonic()
                due = now >= next_export
                if self._queue and (len(self._queue) >= self._batch or self._flush_requests > 0 or self._stopping or due):
                    break
                if due:
                    next_export = now + self._delay
                self._cond.wait(max(0.0, next_export - now))
            count = min(self._batch, len(self._queue))
            batch = [self._queue.popleft() for _ in range(count)]
            self._removed += count
            self._exporting = True
            return batch

    def _run(self) -> None:
        while True:
            batch = self._take()
            if batch is None:
                return
            try:
                ok = self._export(batch)
            except Exception as error:  # the exporter reports failures as values; this is a bug guard
                self._warner.warn("export-crash", f"Export failed unexpectedly: {error!r}")
                ok = False
            with self._cond:
                self._exporting = False
                if not ok:
                    self._failures += 1
                self._cond.notify_all()
