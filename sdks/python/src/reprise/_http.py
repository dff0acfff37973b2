"""One HTTP exchange with ``http.client``, keep-alive connections per origin, and a whole-exchange deadline.
Transport failures are values (:class:`HttpResponse` or :class:`NetworkError`), never exceptions."""

from __future__ import annotations

import http.client
import json
import socket
import ssl
import threading
import time
from typing import Any, Dict, List, Optional, Tuple, Union
from urllib.parse import urlsplit

#: Idle keep-alive connections older than this are not reused (servers commonly close them after 5 s).
_MAX_IDLE_SECONDS = 4.0
_READ_CHUNK = 64 * 1024


class HttpResponse:
    """A complete response."""

    __slots__ = ("status", "headers", "body")

    def __init__(self, status: int, headers: Dict[str, str], body: bytes) -> None:
        self.status = status
        self.headers = headers  # lower-case names
        self.body = body

    def json(self) -> Any:
        """The body as JSON, or None when it is empty or not JSON."""
        return parse_json_body(self.body)


class NetworkError:
    """No response: connection refused or reset, DNS failure, TLS failure, or the deadline passed."""

    __slots__ = ("message", "timed_out")

    def __init__(self, message: str, timed_out: bool = False) -> None:
        self.message = message
        self.timed_out = timed_out


HttpOutcome = Union[HttpResponse, NetworkError]


def parse_json_body(body: bytes) -> Any:
    if not body:
        return None
    try:
        return json.loads(body.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None


class ConnectionPool:
    """Idle keep-alive connections, reused by whichever sender thread needs one. Thread-safe."""

    def __init__(self, max_idle: int = 64) -> None:
        self._idle: Dict[Tuple[str, str, int], List[Tuple[http.client.HTTPConnection, float]]] = {}
        self._lock = threading.Lock()
        self._max_idle = max_idle

    def take(self, scheme: str, host: str, port: int) -> Optional[http.client.HTTPConnection]:
        now = time.monotonic()
        with self._lock:
            stack = self._idle.get((scheme, host, port), [])
            while stack:
                conn, since = stack.pop()
                if now - since <= _MAX_IDLE_SECONDS:
                    return conn
                _close_quietly(conn)
        return None

    def give_back(self, scheme: str, host: str, port: int, conn: http.client.HTTPConnection) -> None:
        with self._lock:
            stack = self._idle.setdefault((scheme, host, port), [])
            if len(stack) < self._max_idle:
                stack.append((conn, time.monotonic()))
                return
        _close_quietly(conn)

    def clear(self, close: bool = True) -> None:
        with self._lock:
            idle, self._idle = self._idle, {}
        if close:
            for stack in idle.values():
                for conn, _ in stack:
                    _close_quietly(conn)

    def forget_after_fork(self) -> None:
        """In a forked child: renew the lock and close the child's copies of the parent's sockets (closing a
        copy leaves the parent's connection open)."""
        self._lock = threading.Lock()
        idle, self._idle = self._idle, {}
        for stack in idle.values():
            for conn, _ in stack:
                _close_quietly(conn)


def _close_quietly(conn: http.client.HTTPConnection) -> None:
    try:
        conn.close()
    except Exception:
        pass


def send(
    method: str,
    url: str,
    headers: Dict[str, str],
    body: Optional[bytes],
    timeout: float,
    pool: Optional[ConnectionPool] = None,
) -> HttpOutcome:
    """Sends one request and reads the whole response within ``timeout`` seconds (the request deadline).
    A reused keep-alive connection that turns out closed by the server is replaced once, at no cost."""
    deadline = time.monotonic() + timeout
    try:
        parts = urlsplit(url)
        scheme = parts.scheme
        host = parts.hostname or ""
        port = parts.port or (443 if scheme == "https" else 80)
        target = parts.path or "/"
        if parts.query:
            target += "?" + parts.query
        if scheme not in ("http", "https") or not host:
            return NetworkError(f"unsupported URL {url!r}")
    except ValueError as error:
        return NetworkError(f"invalid URL {url!r}: {error}")
    all_headers = dict(headers)
    if body is not None:
        all_headers["Content-Length"] = str(len(body))
    for attempt in range(2):
        reused = pool.take(scheme, host, port) if pool is not None and attempt == 0 else None
        conn = reused or _connect(scheme, host, port, deadline)
        try:
            outcome, keep = _exchange(conn, method, target, all_headers, body, deadline)
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError) as error:
            _close_quietly(conn)
            if reused is not None:
                continue  # a stale keep-alive connection: try once on a fresh one
            return NetworkError(f"{type(error).__name__}: {error}")
        except socket.timeout:
            _close_quietly(conn)
            return NetworkError(f"timed out after {timeout:g} s", timed_out=True)
        except (OSError, http.client.HTTPException, ssl.SSLError, ValueError) as error:
            _close_quietly(conn)
            return NetworkError(f"{type(error).__name__}: {error}")
        if keep and pool is not None:
            pool.give_back(scheme, host, port, conn)
        else:
            _close_quietly(conn)
        return outcome
    return NetworkError("connection closed by the server")


_tls_context: Optional[ssl.SSLContext] = None


def _tls() -> ssl.SSLContext:
    """One default TLS context for every connection (loading the CA store per connection is slow)."""
    global _tls_context
    if _tls_context is None:
        _tls_context = ssl.create_default_context()
    return _tls_context


def _connect(scheme: str, host: str, port: int, deadline: float) -> http.client.HTTPConnection:
    remaining = max(0.001, deadline - time.monotonic())
    if scheme == "https":
        return http.client.HTTPSConnection(host, port, timeout=remaining, context=_tls())
    return http.client.HTTPConnection(host, port, timeout=remaining)


def _remaining(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise socket.timeout("request deadline passed")
    return left


def _exchange(
    conn: http.client.HTTPConnection,
    method: str,
    target: str,
    headers: Dict[str, str],
    body: Optional[bytes],
    deadline: float,
) -> Tuple[HttpResponse, bool]:
    conn.timeout = _remaining(deadline)
    if conn.sock is not None:
        conn.sock.settimeout(conn.timeout)
    conn.request(method, target, body=body, headers=headers)
    if conn.sock is not None:
        conn.sock.settimeout(_remaining(deadline))
    response = conn.getresponse()
    chunks: List[bytes] = []
    while True:
        if conn.sock is not None:
            conn.sock.settimeout(_remaining(deadline))
        chunk = response.read(_READ_CHUNK)
        if not chunk:
            break
        chunks.append(chunk)
    response_headers = {k.lower(): v for k, v in response.getheaders()}
    keep = not response.will_close
    return HttpResponse(response.status, response_headers, b"".join(chunks)), keep
