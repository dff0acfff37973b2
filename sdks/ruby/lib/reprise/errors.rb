# frozen_string_literal: true

module Reprise
  # Base class of every error the SDK raises to callers of blocking operations. Tracing itself never raises.
  class Error < StandardError; end

  # A blocking call needs an API key and none was configured.
  class ConfigError < Error; end

  # The server rejected a blocking call (non-2xx, or a 2xx body with `error`), or could not be reached.
  class ApiError < Error
    # HTTP status; nil for network errors and timeouts.
    attr_reader :status
    # The server's snake_case error code, when it sent one.
    attr_reader :code
    # Absolute URL where the problem can be fixed, when the server named one.
    attr_reader :url

    def initialize(message, status: nil, code: nil, url: nil)
      super(message)
      @status = status
      @code = code
      @url = url
    end
  end

  # `lookup_function(name)` found nothing: the server answered `{"id": null}`.
  class FunctionNotFoundError < Error
    attr_reader :function_name, :url

    def initialize(function_name, url)
      @function_name = function_name
      @url = url
      super("Function #{function_name.inspect} not found. Create it at #{url}")
    end
  end

  # The client was closed; it accepts no more submissions.
  class ClosedError < Error; end

  # The replay barrier timed out: some replayed traces were not confirmed persisted, so the run was NOT completed.
  class ReplayBarrierTimeoutError < Error
    attr_reader :test_run_id, :pending_trace_ids

    def initialize(test_run_id, pending_trace_ids, timeout)
      @test_run_id = test_run_id
      @pending_trace_ids = pending_trace_ids
      super("Replay #{test_run_id}: #{pending_trace_ids.size} trace(s) were not confirmed persisted within " \
            "#{timeout} s; the run was not completed.")
    end
  end
end
