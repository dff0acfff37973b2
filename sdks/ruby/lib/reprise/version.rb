# frozen_string_literal: true

module Reprise
  # Version of this gem, sent as `sdkVersion` in every payload and in the OTLP resource.
  VERSION = "0.1.0"
  # Stored in `rawSpan.span_origin.name` (docs/api/ingestion.md).
  ORIGIN_NAME = "reprise.sdk.ruby"
  # Origin tag of spans and traces recorded by the block and method wrappers.
  SOURCE = "ruby-sdk-function"
  # Origin tag of function-execution traces (`internal_trace` carriers).
  FUNCTION_SOURCE = "ruby-sdk"
  # OTLP resource `service.name` of the carriers.
  SERVICE_NAME = "reprise-ruby-sdk"
  # OTLP instrumentation scope name of the carriers.
  SCOPE_NAME = "reprise"
end
