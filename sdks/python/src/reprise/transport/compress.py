"""Gzip of request bodies (client transport rule 4)."""

from __future__ import annotations

import gzip
from typing import Tuple

#: Requests of this many bytes or more are candidates for gzip.
GZIP_THRESHOLD = 8_192


def maybe_gzip(body: bytes, enabled: bool) -> Tuple[bytes, bool]:
    """Gzips a body of 8,192 bytes or more when that makes it smaller. Best-effort: on failure, or when
    compression is disabled, the original body is returned. Returns ``(body, gzipped)``."""
    if not enabled or len(body) < GZIP_THRESHOLD:
        return body, False
    try:
        compressed = gzip.compress(body, compresslevel=6)
    except Exception:
        return body, False
    return (compressed, True) if len(compressed) < len(body) else (body, False)
