"""Threads that carry the current trace."""

from __future__ import annotations

import contextvars
import threading
from typing import Any

from ._context import current_frame


class Thread(threading.Thread):
    """A :class:`threading.Thread` that runs in a copy of the context it was created in, so the spans it records
    are children of the span that created it, and that keeps the current trace open until it ends: the trace's
    completion waits for it even when the function that started it returned first. Outside a trace it is a plain
    thread.

    ``reprise.Thread(target=work, args=(item,)).start()``
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._reprise_context = contextvars.copy_context()
        frame = current_frame.get()
        self._reprise_trace = frame.trace if frame is not None else None
        self._reprise_held = False

    def start(self) -> None:
        trace = self._reprise_trace
        if trace is not None and trace.release is not None:
            self._reprise_held = trace.hold()
        try:
            super().start()
        except BaseException:
            self._reprise_release()
            raise

    def run(self) -> None:
        try:
            self._reprise_context.run(super().run)
        finally:
            self._reprise_release()

    def _reprise_release(self) -> None:
        if self._reprise_held:
            self._reprise_held = False
            try:
                self._reprise_trace.release(self._reprise_trace)  # type: ignore[union-attr]
            except Exception:
                pass
