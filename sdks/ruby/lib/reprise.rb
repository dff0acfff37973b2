# frozen_string_literal: true

require "json"
require_relative "reprise/version"
require_relative "reprise/errors"
require_relative "reprise/logging"
require_relative "reprise/promise"
require_relative "reprise/ids"
require_relative "reprise/config"
require_relative "reprise/encoding"
require_relative "reprise/context"
require_relative "reprise/http/request"
require_relative "reprise/http/api_client"
require_relative "reprise/transport/carrier"
require_relative "reprise/transport/json_envelope"
require_relative "reprise/transport/protobuf_envelope"
require_relative "reprise/transport/payload_budget"
require_relative "reprise/transport/packer"
require_relative "reprise/transport/compress"
require_relative "reprise/transport/retrying_sender"
require_relative "reprise/transport/ack_tracker"
require_relative "reprise/transport/exporter"
require_relative "reprise/transport/batch_worker"
require_relative "reprise/sim_plan"
require_relative "reprise/pipeline"
require_relative "reprise/tracing/span_state"
require_relative "reprise/tracing/trace_state"
require_relative "reprise/tracing/handles"
require_relative "reprise/tracing/detached_trace"
require_relative "reprise/tracing/payloads"
require_relative "reprise/tracing/recorder"
require_relative "reprise/replay/api"
require_relative "reprise/replay/barrier"
require_relative "reprise/replay/pending_replay"
require_relative "reprise/replay/mocks"
require_relative "reprise/replay/result"
require_relative "reprise/replay/arguments"
require_relative "reprise/replay/runner"
require_relative "reprise/client"
require_relative "reprise/traced"

# Record, replay and judge LLM and agent applications with Reprise.
#
#   Reprise.configure { |c| c.service_url = "http://localhost:3000" } # or REPRISE_URL; the key from REPRISE_API_KEY
#   Reprise.trace("answer-question", input: question) do |trace|
#     Reprise.span("call-model", type: :llm) { |span| span.add_context(model: "m", inputTokens: 12); "4" }
#   end
#   Reprise.flush_traces # optional: pending spans are also flushed at exit
module Reprise
  # Settings of the default client, set through `Reprise.configure`; unset ones fall back to `REPRISE_*`.
  class Configuration
    Config::OPTION_KEYS.each { |key| attr_accessor key }

    def to_h
      Config::OPTION_KEYS.to_h { |key| [key, public_send(key)] }.compact
    end
  end

  # Seconds the `at_exit` hook waits for pending spans.
  EXIT_FLUSH_TIMEOUT = 10

  @lock = Mutex.new
  @live = []
  @configuration = Configuration.new
  @client = nil
  @exit_hook = false

  class << self
    # Configures the default client (the next `Reprise.client` is built from these settings).
    def configure
      yield @configuration
      old = @lock.synchronize { @client.tap { @client = nil } }
      old&.close(timeout: 5)
      @configuration
    end

    # The default client, built on first use from `configure` and the environment.
    def client
      @lock.synchronize { @client ||= Client.new(**@configuration.to_h) }
    end

    # See `Client#trace`.
    def trace(...)
      client.trace(...)
    end

    # See `Client#span`.
    def span(...)
      client.span(...)
    end

    # The trace active in the current context (a no-op handle outside a trace).
    def current_trace
      client.current_trace
    end

    # The span active in the current context (a no-op handle outside a span).
    def current_span
      client.current_span
    end

    # A thread that runs its block in the caller's trace context (needed on Ruby 3.1; later Rubies inherit it).
    def thread(*args, &block)
      Context.thread(*args, &block)
    end

    # Flushes every live client; false when any failed or timed out. Dropped carriers do not make it fail.
    def flush_traces(timeout: 30)
      pipelines = @lock.synchronize { @live.dup }
      deadline = Clock.now + timeout
      pipelines.map { |p| p.flush([deadline - Clock.now, 0.001].max) }.all?
    end

    # Closes the default client.
    def close(timeout: 30)
      old = @lock.synchronize { @client.tap { @client = nil } }
      old.nil? || old.close(timeout: timeout)
    end

    # @api private: a pipeline that started delivering.
    def register(pipeline)
      @lock.synchronize do
        @live << pipeline unless @live.include?(pipeline)
        install_exit_hook
      end
    end

    # @api private
    def unregister(pipeline)
      @lock.synchronize { @live.delete(pipeline) }
    end

    private

    def install_exit_hook
      return if @exit_hook

      @exit_hook = true
      at_exit { flush_traces(timeout: EXIT_FLUSH_TIMEOUT) }
    end
  end
end
