# frozen_string_literal: true

require "json"

module Reprise
  module Transport
    # OTLP/JSON `ExportTraceServiceRequest` with one `resourceSpans` and one `scopeSpans` entry. Each carrier's span
    # object is encoded once; a request is the constant prefix, the span objects joined by commas, and the suffix,
    # so every request's exact size is known before it is built.
    class JsonEnvelope
      CONTENT_TYPE = "application/json"

      def initialize
        resource = { "attributes" => [attribute("service.name", SERVICE_NAME), attribute("service.version", VERSION)] }
        head = JSON.generate("resourceSpans" => [{ "resource" => resource, "scopeSpans" => [
                               { "scope" => { "name" => SCOPE_NAME, "version" => VERSION }, "spans" => [] }
                             ] }])
        cut = head.index('"spans":[]') + '"spans":['.length
        @prefix = head[0...cut]
        @suffix = head[cut..]
      end

      def content_type
        CONTENT_TYPE
      end

      # The span object of one carrier, as bytes.
      def encode(carrier)
        JSON.generate(
          "traceId" => carrier.otlp_trace_id, "spanId" => carrier.otlp_span_id, "name" => carrier.name, "kind" => 1,
          "startTimeUnixNano" => Clock.unix_nanos(carrier.start_time).to_s,
          "endTimeUnixNano" => Clock.unix_nanos(carrier.end_time).to_s,
          "attributes" => [attribute(OPERATION_ATTRIBUTE, carrier.operation),
                           attribute(PAYLOAD_ATTRIBUTE, carrier.payload_json)],
          "droppedAttributesCount" => 0, "droppedEventsCount" => 0, "droppedLinksCount" => 0,
          "status" => { "code" => carrier.error? ? 2 : 0 }, "flags" => 1
        ).b
      end

      # Exact size of a request of `count` carriers whose encodings sum to `carrier_bytes`.
      def request_size(carrier_bytes, count)
        @prefix.bytesize + @suffix.bytesize + carrier_bytes + [count - 1, 0].max
      end

      # The request body.
      def assemble(encoded)
        (+"").b.tap do |out|
          out << @prefix
          encoded.each_with_index do |e, i|
            out << "," if i.positive?
            out << e
          end
          out << @suffix
        end
      end

      # Reads `{}`, `{partialSuccess}`, `{error}` and Reprise's `traceIds` map.
      def read_response(body)
        parsed = body.nil? || body.empty? ? nil : JSON.parse(body)
        return Summary.new(rejected_spans: 0) unless parsed.is_a?(Hash)

        partial = parsed["partialSuccess"].is_a?(Hash) ? parsed["partialSuccess"] : {}
        ids = parsed["traceIds"]
        Summary.new(
          error: parsed["error"].is_a?(String) ? parsed["error"] : nil,
          rejected_spans: Integer(partial["rejectedSpans"] || 0, exception: false) || 0,
          error_message: partial["errorMessage"].is_a?(String) ? partial["errorMessage"] : nil,
          trace_ids: ids.is_a?(Hash) ? ids : nil
        )
      rescue JSON::ParserError
        Summary.new(rejected_spans: 0)
      end

      private

      def attribute(key, value)
        { "key" => key, "value" => { "stringValue" => value } }
      end
    end

    # What an OTLP response said.
    Summary = Struct.new(:error, :rejected_spans, :error_message, :trace_ids, keyword_init: true)
  end
end
