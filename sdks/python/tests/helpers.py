"""Test helpers: a local HTTP server that records requests and answers as a test scripts it, and decoders of what
the SDK sends."""

from __future__ import annotations

import gzip
import http.server
import json
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Tuple

import reprise
from reprise._log import reset_warn_once_for_tests


@dataclass
class Recorded:
    method: str
    path: str
    headers: Dict[str, str]
    raw: bytes
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8"))

    def carriers(self) -> List[Tuple[str, Dict[str, Any]]]:
        """``(operation, payload)`` of every carrier of an OTLP/JSON request."""
        out = []
        for rs in self.json()["resourceSpans"]:
            for ss in rs["scopeSpans"]:
                for span in ss["spans"]:
                    attrs = {a["key"]: a["value"]["stringValue"] for a in span["attributes"]}
                    out.append((attrs["reprise.operation"], json.loads(attrs["reprise.payload"])))
        return out


@dataclass
class Reply:
    status: int = 200
    body: Any = field(default_factory=dict)
    headers: Dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


Handler = Callable[[Recorded], Optional[Reply]]


class FakeServer:
    """Records every request; ``handler`` decides the answer (default ``200 {}``; ``GET /api/sdk/sim-plan`` answers
    an empty plan)."""

    def __init__(self, handler: Optional[Handler] = None) -> None:
        self.handler = handler
        self.requests: List[Recorded] = []
        self.lock = threading.Lock()
        server = self

        class RequestHandler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                body = gzip.decompress(raw) if self.headers.get("Content-Encoding") == "gzip" else raw
                recorded = Recorded(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, raw, body)
                with server.lock:
                    server.requests.append(recorded)
                reply = server.handler(recorded) if server.handler else None
                if reply is None:
                    reply = Reply(body={"nodes": []}) if self.path.startswith("/api/sdk/sim-plan") else Reply()
                if reply.delay:
                    import time
                    time.sleep(reply.delay)
                data = reply.body if isinstance(reply.body, bytes) else json.dumps(reply.body).encode()
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in reply.headers.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PATCH = _handle

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), RequestHandler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def otlp(self) -> List[Recorded]:
        with self.lock:
            return [r for r in self.requests if r.path == "/api/sdk/otel/v1/traces"]

    def carriers(self) -> List[Tuple[str, Dict[str, Any]]]:
        return [c for r in self.otlp() for c in r.carriers()]


FAST = {"scheduled_delay": 0.05, "backoff_base": 0.01, "export_timeout": 5.0, "request_timeout": 5.0}


def make_client(server: FakeServer, **kwargs: Any) -> reprise.Reprise:
    """A client of the fake server with short delays and the sim plan off unless asked."""
    reset_warn_once_for_tests()
    transport = dict(FAST)
    transport.update(kwargs.pop("transport", {}))
    kwargs.setdefault("disable_sim_plan", True)
    kwargs.setdefault("service_url", server.url)
    return reprise.Reprise(api_key="rp_test", transport=transport, env={}, **kwargs)


def spans_of(carriers: List[Tuple[str, Dict[str, Any]]]) -> List[Dict[str, Any]]:
    return [p for op, p in carriers if op == "external_span"]


def completions_of(carriers: List[Tuple[str, Dict[str, Any]]]) -> List[Dict[str, Any]]:
    return [p for op, p in carriers if op == "external_trace"]
