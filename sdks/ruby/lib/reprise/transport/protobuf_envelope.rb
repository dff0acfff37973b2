# frozen_string_literal: true

module Reprise
  module Transport
    # A small hand-written OTLP/protobuf encoder for Collector mode (opentelemetry/proto/collector/trace/v1).
    # Each carrier is encoded as a complete one-span `ExportTraceServiceRequest`; concatenated protobuf messages merge
    # and repeated fields append, so the concatenation of carriers is a valid request with one `resourceSpans` entry
    # per carrier, and its size is the sum of theirs.
    class ProtobufEnvelope
      CONTENT_TYPE = "application/x-protobuf"

      def initialize
        resource = kv("service.name", SERVICE_NAME) + kv("service.version", VERSION) # Resource.attributes = 1
        @resource_field = field_bytes(1, resource) # ResourceSpans.resource = 1
        @scope_field = field_bytes(1, string(1, SCOPE_NAME) + string(2, VERSION)) # ScopeSpans.scope = 1
      end

      def content_type
        CONTENT_TYPE
      end

      # One carrier as a one-span request.
      def encode(carrier)
        scope_spans = @scope_field + field_bytes(2, span(carrier))
        resource_spans = @resource_field + field_bytes(2, scope_spans)
        field_bytes(1, resource_spans)
      end

      def request_size(carrier_bytes, _count)
        carrier_bytes
      end

      def assemble(encoded)
        encoded.each_with_object((+"").b) { |e, out| out << e }
      end

      # Reads `ExportTraceServiceResponse.partial_success` (rejected_spans = 1, error_message = 2).
      def read_response(body)
        fields = decode(body.to_s.b)
        partial = fields[1] ? decode(fields[1]) : {}
        Summary.new(rejected_spans: partial[1].is_a?(Integer) ? partial[1] : 0,
                    error_message: partial[2].is_a?(String) ? partial[2].dup.force_encoding("UTF-8") : nil)
      rescue StandardError
        Summary.new(rejected_spans: 0)
      end

      private

      # Span: trace_id 1, span_id 2, name 5, kind 6, start 7, end 8, attributes 9, status 15, flags 16.
      def span(carrier)
        bytes_field(1, [carrier.otlp_trace_id].pack("H*")) +
          bytes_field(2, [carrier.otlp_span_id].pack("H*")) +
          string(5, carrier.name) +
          varint_field(6, 1) +
          fixed64(7, Clock.unix_nanos(carrier.start_time)) +
          fixed64(8, Clock.unix_nanos(carrier.end_time)) +
          kv(OPERATION_ATTRIBUTE, carrier.operation, 9) +
          kv(PAYLOAD_ATTRIBUTE, carrier.payload_json, 9) +
          field_bytes(15, carrier.error? ? varint_field(3, 2) : "".b) +
          fixed32(16, 1)
      end

      # KeyValue { key = 1; AnyValue value = 2 { string_value = 1 } } as field `number` of its parent.
      def kv(key, value, number = 1)
        field_bytes(number, string(1, key) + field_bytes(2, string(1, value)))
      end

      def string(number, value)
        bytes_field(number, value.to_s.dup.force_encoding(::Encoding::BINARY))
      end

      def bytes_field(number, bytes)
        field_bytes(number, bytes)
      end

      def field_bytes(number, bytes)
        varint((number << 3) | 2) + varint(bytes.bytesize) + bytes.b
      end

      def varint_field(number, value)
        varint(number << 3) + varint(value)
      end

      def fixed64(number, value)
        varint((number << 3) | 1) + [value].pack("Q<")
      end

      def fixed32(number, value)
        varint((number << 3) | 5) + [value].pack("L<")
      end

      def varint(value)
        out = (+"").b
        loop do
          byte = value & 0x7f
          value >>= 7
          if value.zero?
            out << byte
            return out
          end
          out << (byte | 0x80)
        end
      end

      # Decodes one message level: field number => last value (Integer for varints, String for bytes).
      def decode(bytes)
        fields = {}
        pos = 0
        while pos < bytes.bytesize
          key, pos = read_varint(bytes, pos)
          number = key >> 3
          case key & 7
          when 0 then fields[number], pos = read_varint(bytes, pos)
          when 1 then pos += 8
          when 2
            len, pos = read_varint(bytes, pos)
            fields[number] = bytes.byteslice(pos, len)
            pos += len
          when 5 then pos += 4
          else raise ArgumentError, "unsupported wire type"
          end
        end
        fields
      end

      def read_varint(bytes, pos)
        value = 0
        shift = 0
        loop do
          byte = bytes.getbyte(pos) or raise ArgumentError, "truncated varint"
          pos += 1
          value |= (byte & 0x7f) << shift
          return [value, pos] if byte < 0x80

          shift += 7
        end
      end
    end
  end
end
