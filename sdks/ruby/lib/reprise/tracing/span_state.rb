# frozen_string_literal: true


module Reprise
  module Tracing
    # Span types (docs/api/traces.md). Anything else is recorded as `custom`.
    SPAN_TYPES = %w[llm agent function guardrail handoff custom].freeze

    # Coerces a symbol or string to a valid span type.
    def self.span_type(value, default = "custom")
      return default if value.nil?

      SPAN_TYPES.include?(value.to_s) ? value.to_s : "custom"
    end

    # Mutable state of one running span.
    class SpanState
      attr_reader :id, :name, :type, :instrumentation, :parent_id, :function_name, :started_at, :contexts, :errors
      attr_accessor :ended_at, :input, :output, :error, :prompt, :mocked

      def initialize(name:, type:, instrumentation:, parent_id:, function_name: nil)
        @id = Ids.uuid
        @name = name
        @type = type
        @instrumentation = instrumentation
        @parent_id = parent_id
        @function_name = function_name
        @started_at = Time.now
        @contexts = []
        @errors = []
        @input = nil
        @output = nil
        @lock = Mutex.new
      end

      def root?
        parent_id.nil?
      end

      # Records the input (`NO_VALUE` leaves it out).
      def record_input(value)
        @input = encode("input", value)
      end

      # Records the return value.
      def record_output(value)
        @output = encode("output", value)
      end

      # Records an error raised by the wrapped code.
      def record_error(error)
        @error = error.is_a?(Exception) ? (error.message.empty? ? error.class.name : error.message) : error.to_s
      end

      def add_context(context)
        @lock.synchronize { @contexts << context }
      end

      private

      def encode(field, value)
        encoded = Encoding.encode(value)
        unless encoded.lost.empty?
          @errors << { "source" => "sdk", "step" => "serialization_degraded",
                       "error" => "non-replayable: could not faithfully capture #{field}: #{encoded.lost.join(', ')}" }
        end
        encoded
      end
    end
  end
end
