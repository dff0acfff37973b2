"""The exporter: packs each batch into size-bounded requests, sends up to N at once, gzips, retries through one
shared throttle, and trims oversized carriers (client transport rules 3 to 9)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import List, Optional, Union

from .. import _http
from .._log import ThrottledWarner, warn_once
from ..config import ResolvedConfig
from .acks import AckTracker
from .budget import DECOMPRESSED_CEILING, FALLBACK_BUDGET, PER_SPAN_BUDGET, escaped_bytes, pack, trim_payload
from .carrier import Carrier
from .compress import maybe_gzip
from .otlp_json import JsonEnvelope
from .otlp_proto import ProtobufEnvelope
from .retry import Delivered, Failed, RetryPolicy, Throttle, classify, send_with_retry
from .sender import SenderPool

Envelope = Union[JsonEnvelope, ProtobufEnvelope]


@dataclass
class _Prepared:
    carrier: Carrier
    data: bytes


@dataclass
class _Request:
    carriers: List[_Prepared]
    body: bytes
    gzipped: Optional[bool] = None  # None: not compressed yet


class Exporter:
    """Sends batches of carriers to the delivery mode's URL. ``export`` returns True when every request of the
    batch was delivered; failures are logged (rate-limited) and never raised."""

    def __init__(self, config: ResolvedConfig, acks: AckTracker) -> None:
        self.config = config
        self.acks = acks
        self.envelope: Envelope = JsonEnvelope() if config.mode.encoding == "json" else ProtobufEnvelope()
        self.throttle = Throttle()
        self.pool = _http.ConnectionPool(max_idle=config.export_concurrency)
        self.senders = SenderPool(config.export_concurrency)
        self._warner = ThrottledWarner()
        tuning = config.tuning
        self._policy = RetryPolicy(tuning.max_attempts, tuning.backoff_base, 5.0, tuning.request_timeout)

    def export(self, carriers: List[Carrier]) -> bool:
        deadline = time.monotonic() + self.config.tuning.export_timeout
        requests = self._plan([_Prepared(c, self.envelope.encode_carrier(c)) for c in carriers])
        results = self.senders.run_all([lambda r=r: self._send(r, deadline) for r in requests])
        failures = [r for r in results if not isinstance(r, Delivered)]
        if not failures:
            return True
        first = failures[0]
        reason = first.message if isinstance(first, Failed) else repr(first)
        status = first.status if isinstance(first, Failed) else None
        self._warner.warn(
            f"delivery:{status or 'network'}",
            f"could not deliver {len(failures)} of {len(requests)} request(s) to {self.config.mode.url}: {reason}",
        )
        return False

    def _plan(self, prepared: List[_Prepared]) -> List[_Request]:
        env, limit = self.envelope, self.config.max_request_bytes
        normal = [p for p in prepared if env.request_size(len(p.data), 1) <= limit]
        oversized = [p for p in prepared if env.request_size(len(p.data), 1) > limit]
        groups = pack([len(p.data) for p in normal], self.config.tuning.max_carriers_per_request, limit, env.request_size)
        requests = []
        for group in groups:
            members = [normal[i] for i in group]
            requests.append(_Request(members, env.assemble([m.data for m in members])))
        requests.extend(self._plan_oversized(p) for p in oversized)
        return requests

    def _plan_oversized(self, original: _Prepared) -> _Request:
        """A carrier over the packing target goes alone: intact when it gzips under the target and stays under
        the decompressed ceiling, else trimmed to the fallback budget (rules 5 and 7)."""
        current = original
        if escaped_bytes(current.carrier.payload_text()) > PER_SPAN_BUDGET:
            current = self._trim(current, PER_SPAN_BUDGET)
        raw = self.envelope.assemble([current.data])
        if self.config.compression and len(raw) <= DECOMPRESSED_CEILING:
            body, gzipped = maybe_gzip(raw, True)
            if gzipped and len(body) <= self.config.max_request_bytes:
                return _Request([current], body, True)
        current = self._trim(current, self._fallback_budget(current))
        return _Request([current], self.envelope.assemble([current.data]))

    def _fallback_budget(self, prepared: _Prepared) -> int:
        """The fallback budget, lowered when a smaller request target leaves less room for the payload."""
        envelope = self.envelope.request_size(0, 1)
        non_payload = len(prepared.data) - escaped_bytes(prepared.carrier.payload_text())
        return max(0, min(FALLBACK_BUDGET, self.config.max_request_bytes - envelope - non_payload))

    def _trim(self, prepared: _Prepared, budget: int) -> _Prepared:
        carrier = prepared.carrier
        payload = json.loads(carrier.payload_text())
        result = trim_payload(payload, carrier.operation, budget)
        if not result.trimmed:
            return prepared
        warn_once(
            "payload_budget",
            f"A {carrier.operation} payload exceeded the carrier budget; oversized fields were replaced with "
            "<unserializable: too_large_N_bytes> (recorded under errors, step payload_budget).",
        )
        trimmed = carrier.with_payload(result.payload)
        return _Prepared(trimmed, self.envelope.encode_carrier(trimmed))

    def _send(self, request: _Request, deadline: float):
        if request.gzipped is None:
            request.body, request.gzipped = maybe_gzip(request.body, self.config.compression)
        headers = {"Authorization": f"Bearer {self.config.api_key}", "Content-Type": self.envelope.content_type}
        if request.gzipped:
            headers["Content-Encoding"] = "gzip"
        url = self.config.mode.url

        def attempt(timeout: float):
            outcome = _http.send("POST", url, headers, request.body, timeout, self.pool)
            return classify(outcome, self.envelope.read_response)

        result = send_with_retry(attempt, deadline, self._policy, self.throttle)
        if isinstance(result, Delivered):
            self._acknowledge(request, result.body)
        return result

    def _acknowledge(self, request: _Request, body: bytes) -> None:
        # A Collector's acceptance does not prove persistence.
        if self.config.mode.kind != "direct":
            return
        infos = [(p.carrier.operation, p.carrier.trace_id, p.carrier.span_id) for p in request.carriers]
        self.acks.record(infos, self.envelope.read_response(body).trace_ids)

    def reset_after_fork(self) -> None:
        self.throttle.reset_after_fork()
        self.pool.forget_after_fork()
        self.senders.reset_after_fork()

    def close(self) -> None:
        self.senders.stop()
        self.pool.clear()
