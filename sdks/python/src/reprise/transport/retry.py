"""Retries of OTLP requests (transport rule 8): which outcomes are retried, ``Retry-After`` within the export
budget through one throttle per transport, and jittered exponential backoff otherwise."""

from __future__ import annotations

import email.utils
import random
import re
import threading
import time
from dataclasses import dataclass
from typing import Callable, Optional, Union

from .._http import HttpOutcome, NetworkError
from .types import ResponseSummary

#: Statuses retried by the transport; 413 and other 4xx are not.
RETRYABLE_STATUSES = frozenset({408, 425, 429, 500, 502, 503, 504})
MAX_BACKOFF = 5.0


@dataclass
class Ok:
    body: bytes


@dataclass
class Rejected:
    message: str
    status: Optional[int] = None


@dataclass
class Retryable:
    message: str
    status: Optional[int] = None
    retry_after: Optional[float] = None


AttemptResult = Union[Ok, Rejected, Retryable]


@dataclass
class Delivered:
    body: bytes
    attempts: int


@dataclass
class Failed:
    message: str
    attempts: int
    status: Optional[int] = None


DeliveryResult = Union[Delivered, Failed]


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """Seconds from a ``Retry-After`` header (integer or fractional seconds, or an HTTP-date), else None."""
    if value is None or value.strip() == "":
        return None
    text = value.strip()
    if re.fullmatch(r"\d+(\.\d+)?", text):
        return float(text)
    if not re.search(r"[a-z]", text, re.IGNORECASE):
        return None
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def classify(outcome: HttpOutcome, read_response: Callable[[bytes], ResponseSummary]) -> AttemptResult:
    """Success, rejection (never retried) or retryable failure."""
    if isinstance(outcome, NetworkError):
        return Retryable(f"network error: {outcome.message}")
    status = outcome.status
    if 200 <= status < 300:
        summary = read_response(outcome.body)
        if summary.error is not None:
            return Rejected(f"rejected: {summary.error}", status)
        if summary.rejected_spans > 0:
            reason = summary.error_message or "no reason given"
            return Rejected(f"{summary.rejected_spans} carrier(s) rejected: {reason}", status)
        return Ok(outcome.body)
    detail = outcome.body[:500].decode("utf-8", "replace")
    message = f"HTTP {status}" + (f": {detail}" if detail else "")
    if status in RETRYABLE_STATUSES:
        return Retryable(message, status, parse_retry_after(outcome.headers.get("retry-after")))
    return Rejected(message, status)


class Throttle:
    """One per transport: a ``Retry-After`` received by one request holds back every request until it expires."""

    def __init__(self) -> None:
        self._until = 0.0
        self._lock = threading.Lock()

    def hold(self, seconds: float) -> None:
        with self._lock:
            self._until = max(self._until, time.monotonic() + seconds)

    def remaining(self) -> float:
        return max(0.0, self._until - time.monotonic())

    def reset_after_fork(self) -> None:
        self._lock = threading.Lock()
        self._until = 0.0


@dataclass
class RetryPolicy:
    max_attempts: int = 5
    backoff_base: float = 0.1
    max_backoff: float = MAX_BACKOFF
    request_timeout: float = 30.0


def backoff_delay(attempt: int, policy: RetryPolicy, rand: Callable[[], float] = random.random) -> float:
    """Jittered exponential backoff for attempt ``attempt`` (1-based): ``base·2^(n-1)`` capped, times [0.5, 1)."""
    ceiling = min(policy.max_backoff, policy.backoff_base * 2 ** (attempt - 1))
    return ceiling * (0.5 + rand() / 2)


def send_with_retry(
    attempt: Callable[[float], AttemptResult],
    deadline: float,
    policy: RetryPolicy,
    throttle: Throttle,
    sleep: Callable[[float], None] = time.sleep,
) -> DeliveryResult:
    """Runs ``attempt(timeout)`` until it succeeds, is rejected, or the export budget (``deadline``, monotonic)
    cannot afford another wait. A wait is taken only when it fits in half of the remaining budget; the other
    half is kept for the request itself."""
    last: AttemptResult = Retryable("no attempt made")
    for n in range(1, policy.max_attempts + 1):
        held = throttle.remaining()
        if held > 0:
            if held > (deadline - time.monotonic()) / 2:
                return _failed(last, n - 1, f"throttled for {held:.3g} s, beyond the export budget")
            sleep(held)
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return _failed(last, n - 1, "export budget exhausted")
        last = attempt(min(policy.request_timeout, remaining))
        if isinstance(last, Ok):
            return Delivered(last.body, n)
        if isinstance(last, Rejected) or n == policy.max_attempts:
            break
        left = deadline - time.monotonic()
        if last.retry_after is not None:
            if last.retry_after > left / 2:
                return _failed(last, n, f"Retry-After {last.retry_after:g} s exceeds the export budget")
            throttle.hold(last.retry_after)
            continue
        delay = backoff_delay(n, policy)
        if delay > left / 2:
            return _failed(last, n, "backoff exceeds the export budget")
        sleep(delay)
    return _failed(last, n)


def _failed(last: AttemptResult, attempts: int, why: str = "") -> Failed:
    message = "" if isinstance(last, Ok) else last.message
    status = None if isinstance(last, Ok) else last.status
    return Failed(f"{message} ({why})" if why else message, attempts, status)
