"""Version and origin names of the SDK."""

#: Version of this SDK, sent as ``sdkVersion`` in every payload and in the OTLP resource.
SDK_VERSION = "0.1.0"
#: SDK origin name stored in ``rawSpan.span_origin.name``.
SDK_ORIGIN_NAME = "reprise.sdk.python"
#: Origin tag of spans and traces recorded by the decorators (``source``).
SDK_SOURCE = "python-sdk-function"
#: Origin tag of function-execution traces.
SDK_FUNCTION_SOURCE = "python-sdk"
#: OTLP resource ``service.name`` of the SDK's private pipeline.
SDK_SERVICE_NAME = "reprise-python-sdk"
#: OTLP instrumentation scope name of the carrier spans.
SDK_SCOPE_NAME = "reprise"
