"""A client's transport: one bounded batch processor and one exporter, built lazily on the first carrier
(transport rule 10), rebuilt in a forked child, flushed at interpreter exit."""

from __future__ import annotations

import threading
from typing import Optional

from .._log import warn_once
from ..config import ResolvedConfig
from .acks import AckTracker
from .carrier import Carrier
from .exporter import Exporter
from .processor import BatchProcessor


class Transport:
    """Queues carriers for background delivery. Never raises into the application."""

    def __init__(self, config: ResolvedConfig) -> None:
        self.config = config
        self.acks = AckTracker()
        self._lock = threading.Lock()
        self._exporter: Optional[Exporter] = None
        self._processor: Optional[BatchProcessor] = None
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def queue_length(self) -> int:
        return self._processor.queue_length if self._processor else 0

    @property
    def dropped(self) -> int:
        return self._processor.dropped if self._processor else 0

    def submit(self, carrier: Carrier) -> bool:
        """Queues one carrier. False when the transport is closed."""
        if self._closed:
            warn_once("transport-closed", "A span was recorded after close(); it was not sent.")
            return False
        return self._started().submit(carrier)

    def flush(self, timeout: float) -> bool:
        processor = self._processor
        return True if processor is None else processor.flush(timeout)

    def close(self, timeout: float) -> bool:
        with self._lock:
            if self._closed:
                return True
            self._closed = True
        processor, exporter = self._processor, self._exporter
        flushed = True if processor is None else processor.shutdown(timeout)
        if exporter is not None:
            exporter.close()
        return flushed

    def _started(self) -> BatchProcessor:
        processor = self._processor
        if processor is not None:
            return processor
        with self._lock:
            if self._processor is None:
                tuning = self.config.tuning
                self._exporter = Exporter(self.config, self.acks)
                self._processor = BatchProcessor(
                    self._exporter.export, tuning.max_queue_size, tuning.max_export_batch_size or 512, tuning.scheduled_delay,
                )
            return self._processor

    def reset_after_fork(self) -> None:
        self._lock = threading.Lock()
        self.acks.reset_after_fork()
        if self._exporter is not None:
            self._exporter.reset_after_fork()
        if self._processor is not None:
            self._processor.reset_after_fork()
