# frozen_string_literal: true

require "json"

module Reprise
  module Transport
    # Carrier span attributes (docs/api/ingestion.md, OTLP).
    OPERATION_ATTRIBUTE = "reprise.operation"
    PAYLOAD_ATTRIBUTE = "reprise.payload"

    # One payload wrapped in its own OTLP carrier span. The carrier's OTLP ids are random and unrelated to the ids
    # inside the payload, which alone identify the span and trace.
    class Carrier
      attr_reader :operation, :trace_id, :span_id, :name, :start_time, :end_time, :otlp_trace_id, :otlp_span_id
      attr_accessor :payload

      def initialize(operation:, payload:, trace_id:, span_id:, name:, start_time:, end_time:, error:)
        @operation = operation
        @payload = payload
        @trace_id = trace_id
        @span_id = span_id
        @name = name.to_s
        @start_time = start_time
        @end_time = end_time < start_time ? start_time : end_time
        @error = error
        @otlp_trace_id = Random.bytes(16).unpack1("H*")
        @otlp_span_id = Random.bytes(8).unpack1("H*")
        @payload_json = nil
      end

      # Status ERROR for a user error (not for an `sdk` capture note).
      def error?
        @error
      end

      # The payload as the JSON text of the `reprise.payload` attribute, generated once.
      def payload_json
        @payload_json ||= JSON.generate(payload)
      end

      # A copy holding a replaced payload (after trimming).
      def with_payload(payload)
        copy = dup
        copy.payload = payload
        copy.instance_variable_set(:@payload_json, nil)
        copy
      end
    end
  end
end
