"""Errors raised to callers of blocking operations. Tracing itself never raises into the application."""

from __future__ import annotations

from typing import List, Optional


class RepriseError(Exception):
    """Base class of every error the SDK raises."""


class RepriseConfigError(RepriseError):
    """A blocking call needs an API key and none was configured."""


class RepriseApiError(RepriseError):
    """The server rejected a blocking call (non-2xx, or a 2xx body with ``error``), or could not be reached."""

    def __init__(
        self,
        message: str,
        status: Optional[int] = None,
        code: Optional[str] = None,
        url: Optional[str] = None,
    ) -> None:
        super().__init__(message)
        #: HTTP status, ``None`` for network errors and timeouts.
        self.status = status
        #: The server's snake_case error code, when it sent one.
        self.code = code
        #: Absolute URL where the problem can be fixed, when the server named one.
        self.url = url


class FunctionNotFoundError(RepriseError):
    """``lookup_function(name)`` found nothing: the server answered ``{"id": null}``."""

    def __init__(self, function_name: str, url: str) -> None:
        super().__init__(f'Function "{function_name}" not found. Create it at {url}')
        self.function_name = function_name
        self.url = url


class ReplayBarrierTimeoutError(RepriseError):
    """Some replayed traces were not confirmed persisted in time, so the run was NOT completed."""

    def __init__(self, test_run_id: str, pending_trace_ids: List[str], timeout: float, reason: str = "") -> None:
        why = f" ({reason})" if reason else ""
        super().__init__(
            f"Replay {test_run_id}: {len(pending_trace_ids)} trace(s) were not confirmed persisted within "
            f"{timeout:g} s{why}; the run was not completed."
        )
        self.test_run_id = test_run_id
        #: Local trace ids that were not confirmed in time.
        self.pending_trace_ids = list(pending_trace_ids)
