"""Client of Reprise's blocking JSON endpoints under ``/api/sdk/``. Non-2xx answers, 2xx bodies with a string
``error``, network errors and timeouts become :class:`RepriseApiError`."""

from __future__ import annotations

import json
from typing import Any, Dict, Optional

from . import _http
from .config import ResolvedConfig
from .errors import RepriseApiError, RepriseConfigError
from .transport.compress import maybe_gzip

NO_KEY_MESSAGE = "No API key: pass api_key=... or set REPRISE_API_KEY."


class ApiClient:
    """Blocking JSON calls with ``Authorization: Bearer <key>``; request bodies are gzipped like OTLP ones."""

    def __init__(self, config: ResolvedConfig) -> None:
        self.config = config
        self.pool = _http.ConnectionPool(max_idle=4)

    @property
    def base_url(self) -> str:
        return self.config.service_url

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        timeout: float = 30.0,
        headers: Optional[Dict[str, str]] = None,
    ) -> Any:
        """Calls an endpoint and returns its JSON body (``{}`` when empty); raises :class:`RepriseApiError`."""
        if self.config.api_key == "":
            raise RepriseConfigError(NO_KEY_MESSAGE)
        all_headers = {"Authorization": f"Bearer {self.config.api_key}", **(headers or {})}
        payload: Optional[bytes] = None
        if body is not None:
            payload, gzipped = maybe_gzip(json.dumps(body, ensure_ascii=False).encode("utf-8"), self.config.compression)
            all_headers["Content-Type"] = "application/json"
            if gzipped:
                all_headers["Content-Encoding"] = "gzip"
        url = f"{self.config.service_url}/api/sdk{path}"
        pool = None if (headers or {}).get("Connection") == "close" else self.pool
        outcome = _http.send(method, url, all_headers, payload, timeout, pool)
        if isinstance(outcome, _http.NetworkError):
            raise RepriseApiError(f"{method} {url} failed: {outcome.message}")
        data = outcome.json()
        record = data if isinstance(data, dict) else {}
        if 200 <= outcome.status < 300 and not isinstance(record.get("error"), str):
            return {} if data is None else data
        raise self._error(method, url, outcome, record)

    def _error(self, method: str, url: str, outcome: _http.HttpResponse, record: Dict[str, Any]) -> RepriseApiError:
        error = record.get("error")
        reason = error if isinstance(error, str) else outcome.body[:500].decode("utf-8", "replace")
        fix_at = f"{self.config.service_url}{record['url']}" if isinstance(record.get("url"), str) else None
        message = f"{method} {url} answered {outcome.status}: {reason}" + (f" Configure it at: {fix_at}" if fix_at else "")
        code = record.get("code") if isinstance(record.get("code"), str) else None
        return RepriseApiError(message, outcome.status, code, fix_at)

    def reset_after_fork(self) -> None:
        self.pool.forget_after_fork()
