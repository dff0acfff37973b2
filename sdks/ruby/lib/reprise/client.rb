# frozen_string_literal: true

module Reprise
  # The Reprise client: records traces of an application and replays them.
  #
  #   client = Reprise::Client.new(api_key: ENV["REPRISE_API_KEY"])
  #   client.trace("answer-question", input: question) do |trace|
  #     trace.merge_metadata(tenant: "acme")
  #     client.span("call-model", type: :llm) { |span| span.add_context(model: "m", inputTokens: 12) ; answer }
  #   end
  #
  # Tracing never raises into the application: without an API key it is off (one warning), delivery failures are
  # logged to stderr, and the application's own exceptions pass through unchanged.
  class Client
    # The resolved configuration.
    attr_reader :config

    # Options (each falls back to its environment variable, then a default): `api_key` (REPRISE_API_KEY),
    # `service_url` (REPRISE_URL), `otel_exporter_endpoint` (REPRISE_OTEL_EXPORTER_ENDPOINT), `max_request_bytes`
    # (REPRISE_OTEL_MAX_REQUEST_BYTES), `export_concurrency` (REPRISE_OTEL_EXPORT_CONCURRENCY),
    # `disable_compression` (REPRISE_DISABLE_COMPRESSION), `disable_sim_plan` (REPRISE_DISABLE_SIM_PLAN), `logger`,
    # `transport` (tuning, mostly for tests). Nothing starts until the first span is recorded.
    def initialize(**options)
      @logger = options[:logger] || Logging.default
      @config, warnings = Config.resolve(options)
      warnings.each { |w| Logging.warn_once(@logger, w.key, w.message) }
      unless @config.enabled?
        Logging.warn_once(@logger, "no-api-key", "No API key (api_key option or REPRISE_API_KEY): tracing is disabled.")
      end
      @api = Http::ApiClient.new(@config)
      @pipeline = Pipeline.new(@config, @logger, @api)
      @recorder = Tracing::Recorder.new(@pipeline, @logger)
    end

    # False when no API key was found: blocks then run untouched.
    def enabled?
      @config.enabled?
    end

    # True once `close` was called.
    def closed?
      @pipeline.closed?
    end

    # Records the block as a trace of `trace_function_key` (a child span when a trace is already active) and returns
    # the block's value, its output. Yields the current trace handle. `input:` is recorded as the input.
    def trace(trace_function_key, input: Tracing::NO_INPUT, span_name: nil, type: nil, function_name: nil, &block)
      raise ArgumentError, "trace needs a block" unless block

      spec = Tracing::RunSpec.new(name: span_name || trace_function_key.to_s, type: Tracing.span_type(type, "function"),
                                  instrumentation: "trace", function_name: function_name,
                                  trace_function_key: trace_function_key.to_s, ingestion_type: "captured")
      record(spec, input) { |t, _s| block.call(Tracing::CurrentTrace.new(t, @logger)) }
    end

    # Records the block as a child span named `name` inside the active trace; outside any trace it just runs the
    # block. Yields the current span handle. Types: :llm, :agent, :function, :guardrail, :handoff, :custom (default).
    # With `mock_on_replay: true`, a replay serves the span's recorded output instead of running the block.
    def span(name, type: nil, input: Tracing::NO_INPUT, function_name: nil, mock_on_replay: false, &block)
      raise ArgumentError, "span needs a block" unless block

      spec = Tracing::RunSpec.new(name: name.to_s, type: Tracing.span_type(type), instrumentation: "span",
                                  function_name: function_name, mock_on_replay: mock_on_replay)
      record(spec, input) { |_t, s| block.call(Tracing::CurrentSpan.new(s)) }
    end

    # The trace active in the current context (a no-op handle outside a trace).
    def current_trace
      Tracing::CurrentTrace.new(Context.current&.trace, @logger)
    end

    # The span active in the current context (a no-op handle outside a span).
    def current_span
      Tracing::CurrentSpan.new(Context.current&.span)
    end

    # A handle that updates a trace by id through `PATCH /api/sdk/traces/{id}` (blocking; raises on rejection).
    def detached_trace(trace_id)
      require_key
      Tracing::DetachedTrace.new(trace_id, @api)
    end

    # Writes a `seeded` trace from a case (its root span holds `input` and `output`), flushes it, and returns its id.
    def seed_trace(trace_function_key:, input:, output: nil, name: nil, span_name: nil, type: nil, metadata: nil,
                   contexts: nil, session_id: nil)
      require_key
      spec = Tracing::RunSpec.new(name: span_name || trace_function_key.to_s, type: Tracing.span_type(type, "function"),
                                  instrumentation: "trace", trace_function_key: trace_function_key.to_s,
                                  ingestion_type: "seeded")
      raise ClosedError, "the client is closed" if closed?

      trace_id = nil
      Context.with(nil) do
        @recorder.run(spec, input) do |trace, _span|
          trace_id = trace&.id
          handle = Tracing::CurrentTrace.new(trace, @logger)
          handle.set_name(name) unless name.nil?
          handle.merge_metadata(metadata) if metadata
          (contexts || []).each { |c| handle.add_context(c) }
          handle.set_session_id(session_id) unless session_id.nil?
          output
        end
      end
      flush_traces
      trace_id
    end

    # Looks a function up by name (`POST /api/sdk/functions/lookup`); raises `Reprise::FunctionNotFoundError` when
    # the server answers `{"id": null}`.
    def lookup_function(name)
      require_key
      body = @api.call(:post, "/functions/lookup", { "name" => name.to_s })
      raise FunctionNotFoundError.new(name.to_s, "#{@config.service_url}/functions") if !body.is_a?(Hash) || body["id"].nil?

      body
    end

    # Records a function-execution trace (`internal_trace` carrier) of a function found with `lookup_function`
    # (pass its Hash or its id). `result` is a String or any JSON value (sent as its JSON text); `inputs` the named
    # arguments; `raw_collector` an optional snapshot of the call. Returns false when nothing was queued (no API key,
    # closed client); never raises.
    def record_function_trace(function, result:, inputs: {}, raw_collector: nil, started_at: nil, ended_at: nil)
      return false unless enabled?

      id, name = function.is_a?(Hash) ? function.values_at("id", "name") : [function, nil]
      ended_at ||= Time.now
      @pipeline.submit_carrier(Transport::Carrier.new(
        operation: "internal_trace", payload: function_payload(id, result, inputs, raw_collector),
        trace_id: id.to_s, span_id: nil, name: name || "reprise.internal_trace",
        start_time: started_at || ended_at, end_time: ended_at, error: false
      ))
    rescue StandardError => e
      Logging.warn_once(@logger, "function-trace", "A function trace could not be recorded: #{e.message}")
      false
    end

    # Replays recorded traces of `trace_function_key` through the block (or a callable: a method wrapped with
    # `Reprise::Traced`, a Method, a lambda) and returns a `Reprise::Replay::Result`. Options: `limit` (1..5,000,
    # default 5), `trace_ids` (≤ 100), `dataset_ids` (≤ 50), `grader_ids` (≤ 100), `name`, `concurrency` (10),
    # `barrier_timeout` (30 s), `poll_interval` (0.1 s), `span_name`, `type`. Raises
    # `Reprise::ReplayBarrierTimeoutError`, without completing the run, when the replayed traces are not confirmed
    # persisted in time.
    def replay(trace_function_key, callable = nil, **options, &block)
      require_key
      target = callable || block or raise ArgumentError, "replay needs a block or a callable"
      Replay::Runner.new(client: self, api: Replay::Api.new(@api), acks: @pipeline.acks,
                         acks_prove_persistence: @config.mode.direct?).run(trace_function_key.to_s, target, **options)
    end

    # Exports everything this client recorded so far; false on failure or after `timeout` seconds. Never raises.
    def flush_traces(timeout: 30)
      @pipeline.flush(timeout)
    end

    # Flushes, then stops this client for good; spans recorded afterwards are not sent.
    def close(timeout: 30)
      @pipeline.close(timeout)
    end

    private

    def record(spec, input, &block)
      return block.call(nil, nil) unless enabled?

      @recorder.run(spec, input, &block)
    end

    def function_payload(id, result, inputs, raw_collector)
      payload = { "functionId" => id.to_s, "source" => FUNCTION_SOURCE, "sdkVersion" => VERSION,
                  "result" => result.is_a?(String) ? result : JSON.generate(Encoding.to_json_compatible(result)) }
      payload["inputs"] = Encoding.to_json_compatible(inputs) if inputs.is_a?(Hash) && !inputs.empty?
      payload["rawCollector"] = Encoding.to_json_compatible(raw_collector) unless raw_collector.nil?
      payload
    end

    def require_key
      raise ConfigError, "No API key: pass api_key or set REPRISE_API_KEY." unless enabled?
    end
  end
end
