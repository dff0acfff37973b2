"""Reprise: record executions of LLM and agent applications, replay them and judge them.

Standard library only. The application's own OpenTelemetry setup is never touched: the SDK delivers through its
own bounded batch processor and OTLP encoders.
"""

from ._version import SDK_VERSION as __version__
from .client import Reprise, SeededTrace, flush_traces
from .config import DEFAULT_SERVICE_URL, ConfigWarning, DeliveryMode, ResolvedConfig, TransportTuning, resolve_config
from .encoding import EncodedValue, decode_value, encode_value
from .errors import (
    FunctionNotFoundError,
    ReplayBarrierTimeoutError,
    RepriseApiError,
    RepriseConfigError,
    RepriseError,
)
from .handles import CurrentSpan, CurrentTrace, DetachedTrace, get_current_span, get_current_trace
from .replay import OriginalRun, ReplayItemResult, ReplayResult
from .threads import Thread

__all__ = [
    "__version__",
    "Reprise",
    "SeededTrace",
    "flush_traces",
    "get_current_trace",
    "get_current_span",
    "CurrentTrace",
    "CurrentSpan",
    "DetachedTrace",
    "resolve_config",
    "ResolvedConfig",
    "TransportTuning",
    "DeliveryMode",
    "ConfigWarning",
    "DEFAULT_SERVICE_URL",
    "encode_value",
    "decode_value",
    "EncodedValue",
    "RepriseError",
    "RepriseApiError",
    "RepriseConfigError",
    "FunctionNotFoundError",
    "ReplayBarrierTimeoutError",
    "ReplayResult",
    "ReplayItemResult",
    "OriginalRun",
    "Thread",
]
