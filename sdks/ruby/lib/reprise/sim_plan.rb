# frozen_string_literal: true

require "set"

module Reprise
  # The sim plan (docs/api/sim-plan.md): which nodes (root trace function key + span name) must not capture content.
  module SimPlan
    # Sim plan read timeout, refresh interval after a success, retry delay after a failure (seconds).
    TIMEOUT = 5
    REFRESH = 60
    RETRY = 10
    # Content fields withheld from a content-off span.
    CONTENT_FIELDS = %w[input input_meta output output_meta input_serialized output_serialized prompt].freeze

    # Reads `GET /api/sdk/sim-plan` in a background thread: the first read starts on first use, later ones at most
    # once a minute after a success and ten seconds after a failure. A failed refresh keeps the last good plan; a
    # 404 is an empty plan. State: `:pending`, `:ready` (with the content-off set) or `:unavailable`.
    class Source
      def initialize(api)
        @api = api
        @lock = Mutex.new
        @cond = ConditionVariable.new
        @state = :pending
        @content_off = Set.new
        @next_read_at = 0.0
        @reading = false
      end

      # `[state, content_off]`; starts a read when one is due.
      def current
        @lock.synchronize do
          start_read if !@reading && Clock.now >= @next_read_at
          [@state, @content_off]
        end
      end

      # Waits (up to `timeout` seconds) until no first read is pending; returns the current state.
      def settle(timeout)
        deadline = Clock.now + timeout
        @lock.synchronize do
          start_read if !@reading && Clock.now >= @next_read_at
          while @state == :pending && @reading
            left = deadline - Clock.now
            break if left <= 0

            @cond.wait(@lock, left)
          end
          [@state, @content_off]
        end
      end

      def self.key(trace_function_key, name)
        "#{trace_function_key}\u0000#{name}"
      end

      private

      def start_read
        @reading = true
        Thread.new do
          result = read
          @lock.synchronize do
            if result
              @state = :ready
              @content_off = result
            elsif @state != :ready
              @state = :unavailable
            end
            @next_read_at = Clock.now + (result ? REFRESH : RETRY)
            @reading = false
            @cond.broadcast
          end
        end.report_on_exception = false
      end

      # The content-off set, or nil when the plan could not be read.
      def read
        answer = @api.try_call(:get, "/sim-plan", nil, timeout: TIMEOUT, headers: { "Connection" => "close" })
        return (answer.status == 404 ? Set.new : nil) if answer.error

        nodes = answer.body.is_a?(Hash) ? answer.body["nodes"] : nil
        return nil unless nodes.is_a?(Array) # a body without `nodes` is unreadable

        nodes.each_with_object(Set.new) do |node, set|
          next unless node.is_a?(Hash)

          key, name = node.values_at("traceFunctionKey", "name")
          set << Source.key(key, name) if key.is_a?(String) && name.is_a?(String) && node["captureContent"] == false
        end
      rescue StandardError
        nil
      end
    end

    # Applies the plan to a span payload: a span of a content-off node is sent without its content and flagged
    # `content_off_by_simulation_plan` (never withheld; the server leaves it out of span trees unless it recorded an
    # error). While the plan is unavailable, child spans are sent without content.
    def self.apply(state, content_off, payload, trace_function_key:, name:, root:)
      if state == :ready
        strip(payload) if content_off.include?(Source.key(trace_function_key, name))
      elsif !root
        strip(payload)
      end
      payload
    end

    def self.strip(payload)
      data = payload.dig("rawSpan", "span_data")
      return unless data.is_a?(Hash)

      CONTENT_FIELDS.each { |field| data.delete(field) }
      data["content_off_by_simulation_plan"] = true
    end
  end
end
