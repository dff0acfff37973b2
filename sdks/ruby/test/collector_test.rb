# frozen_string_literal: true

require "test_helper"

# Collector mode: OTLP/protobuf to `<endpoint>/v1/traces`, never to Reprise directly.
class CollectorTest < Minitest::Test
  include ClientHelpers

  # Decodes a protobuf message into `{field => [values]}` (varints as Integers, the rest as binary Strings).
  def self.decode(bytes)
    fields = Hash.new { |h, k| h[k] = [] }
    pos = 0
    read_varint = lambda do
      value = 0
      shift = 0
      loop do
        byte = bytes.getbyte(pos)
        pos += 1
        value |= (byte & 0x7f) << shift
        break if byte < 0x80

        shift += 7
      end
      value
    end
    while pos < bytes.bytesize
      key = read_varint.call
      case key & 7
      when 0 then fields[key >> 3] << read_varint.call
      when 1 then (fields[key >> 3] << bytes.byteslice(pos, 8).unpack1("Q<")) && pos += 8
      when 2
        len = read_varint.call
        fields[key >> 3] << bytes.byteslice(pos, len)
        pos += len
      when 5 then (fields[key >> 3] << bytes.byteslice(pos, 4).unpack1("L<")) && pos += 4
      end
    end
    fields
  end

  def decode(bytes) = self.class.decode(bytes)

  # `[name, {attribute key => value}, status code]` of every span in an ExportTraceServiceRequest.
  def spans_of(body)
    decode(body)[1].flat_map do |resource_spans|
      decode(resource_spans)[2].flat_map do |scope_spans|
        decode(scope_spans)[2].map do |span|
          fields = decode(span)
          attrs = fields[9].to_h do |kv|
            kv = decode(kv)
            [kv[1][0], decode(kv[2][0])[1][0].force_encoding("UTF-8")]
          end
          { name: fields[5][0], attrs: attrs, trace_id: fields[1][0].unpack1("H*"), start: fields[7][0],
            kind: fields[6][0], flags: fields[16][0] }
        end
      end
    end
  end

  def test_protobuf_to_the_collector_with_v1_traces_appended
    collector = FakeServer.new { [200, { "Content-Type" => "application/x-protobuf" }, ""] }
    reprise = fake_reprise
    @servers << collector
    client = client_for(reprise, otel_exporter_endpoint: "#{collector.url}/otlp/")
    record_simple(client)
    assert client.flush_traces(timeout: 5)
    assert_empty reprise.otlp_requests, "direct and Collector modes are never both used"
    request = collector.snapshot.first
    assert_equal "/otlp/v1/traces", request.path
    assert_equal "application/x-protobuf", request.headers["content-type"]
    assert_equal "Bearer rp_test", request.headers["authorization"]
    spans = spans_of(request.body)
    assert_equal 4, spans.size
    assert_equal %w[external_span external_span external_span external_trace],
                 spans.map { |s| s[:attrs]["reprise.operation"] }.sort
    root = spans.map { |s| JSON.parse(s[:attrs]["reprise.payload"]) }.find { |p| p["expectedSpanCount"] }
    assert_equal 3, root["expectedSpanCount"]
    assert(spans.all? { |s| s[:trace_id].size == 32 && s[:kind] == 1 && s[:flags] == 1 })
    resource = decode(decode(request.body)[1][0])[1][0]
    assert_includes resource, "reprise-ruby-sdk"
  end

  def test_partial_success_in_a_protobuf_answer_is_a_failure
    partial = [0x0a, 0x07, 0x08, 0x02, 0x12, 0x03].pack("C*") + "bad"
    collector = FakeServer.new { [200, { "Content-Type" => "application/x-protobuf" }, partial] }
    @servers << collector
    client = client_for(fake_reprise, otel_exporter_endpoint: collector.url)
    client.trace("k") { 1 }
    refute client.flush_traces(timeout: 5)
  end

  def test_concatenated_carriers_size_exactly
    codec = Reprise::Transport::ProtobufEnvelope.new
    carriers = Array.new(3) do |i|
      Reprise::Transport::Carrier.new(operation: "external_span", payload: { "i" => i }, trace_id: "t", span_id: "s#{i}",
                                      name: "n", start_time: Time.now, end_time: Time.now, error: i == 1)
    end
    encoded = carriers.map { |c| codec.encode(c) }
    body = codec.assemble(encoded)
    assert_equal codec.request_size(encoded.sum(&:bytesize), 3), body.bytesize
    assert_equal 3, spans_of(body).size
  end
end
