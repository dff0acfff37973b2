"""Warnings of the SDK: through the standard ``logging`` module (logger ``reprise``), once per key or
rate-limited, and never raising into the application."""

from __future__ import annotations

import logging
import threading
import time
from typing import Dict, Set

logger = logging.getLogger("reprise")

_warned: Set[str] = set()
_lock = threading.Lock()


def safe_warn(message: str) -> None:
    """Logs a warning; a broken logging setup is not the application's problem."""
    try:
        logger.warning("[reprise] %s", message)
    except Exception:  # pragma: no cover - defensive
        pass


def warn_once(key: str, message: str) -> bool:
    """Warns once per process for ``key``. Returns True when the warning was emitted."""
    with _lock:
        if key in _warned:
            return False
        _warned.add(key)
    safe_warn(message)
    return True


def reset_warn_once_for_tests() -> None:
    """Forgets which warnings were emitted; for tests only."""
    with _lock:
        _warned.clear()


class ThrottledWarner:
    """Rate-limits a repeating warning (delivery failures during an outage) to one line per interval and key."""

    def __init__(self, interval: float = 30.0) -> None:
        self._interval = interval
        self._last: Dict[str, float] = {}
        self._lock = threading.Lock()

    def warn(self, key: str, message: str) -> None:
        now = time.monotonic()
        with self._lock:
            previous = self._last.get(key)
            if previous is not None and now - previous < self._interval:
                return
            self._last[key] = now
        safe_warn(message)
