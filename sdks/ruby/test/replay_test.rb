# frozen_string_literal: true

require "test_helper"

class ReplayTest < Minitest::Test
  include ClientHelpers

  # A fake Reprise that replays two recorded traces; `status` decides what replay/status answers.
  def replay_server(ack: true, status: ->(_body) { {} })
    calls = []
    server = FakeServer.new do |req|
      calls << req.path
      case req.path
      when %r{/sim-plan} then [200, {}, '{"nodes":[]}']
      when %r{/v1/traces}
        ids = req.carriers.to_h { |_, p| [p["sourceTraceId"] || p["id"], p["sourceTraceId"] || p["id"]] }
        [200, {}, JSON.generate(ack ? { "traceIds" => ids } : { "error" => "no ack here" })]
      when %r{/replay/start}
        [200, {}, JSON.generate("testRunId" => "run-1", "testRunUrl" => "/runs/run-1", "items" => [
                                  { "externalSpanId" => "s1", "originalTraceId" => "o1", "originalTokens" => { "total" => 5 } },
                                  { "externalSpanId" => "s2", "originalTraceId" => "o2" }
                                ])]
      when %r{/externalSpans/s\d}
        # The server answers on several threads at once and `$~` belongs to this method's frame, which they all
        # share: take the id from the path rather than from Regexp.last_match.
        id = req.path[%r{/externalSpans/(s\d)}, 1]
        input = id == "s1" ? "first" : "second"
        [200, {}, JSON.generate("id" => id, "externalTraceId" => "o", "rawData" => { "span_data" => { "input" => input } })]
      when %r{/replay/spanTree/}
        [200, {}, JSON.generate("root" => { "traceFunctionKey" => "k", "spanName" => "k", "children" => [
                                  { "traceFunctionKey" => "k", "spanName" => "tool", "output" => "recorded", "children" => [] }
                                ] })]
      when %r{/replay/status} then [200, {}, JSON.generate("traceIds" => status.call(req.json))]
      when %r{/replay/complete}
        [200, {}, JSON.generate("traceIds" => {}, "traceCount" => 2, "tokens" => {}, "traceOutlines" => {})]
      else [404, {}, "{}"]
      end
    end
    @servers << server
    [server, calls]
  end

  def test_replays_each_item_then_barrier_then_complete
    server, calls = replay_server
    client = client_for(server)
    tool_ran = []
    result = client.replay("k", name: "v2") do |input|
      client.span("tool", mock_on_replay: true) { tool_ran << 1 && "live" }.then { |tool| "#{input}:#{tool}" }
    end
    assert_equal "run-1", result.test_run_id
    assert_equal "#{server.url}/runs/run-1", result.url
    assert_equal 2, result.trace_count
    assert_equal %w[first:recorded second:recorded], result.items.map(&:output)
    assert_empty tool_ran, "a mocked span does not run"
    assert_equal({ "total" => 5 }, result.items[0].original.tokens)
    start = server.snapshot.find { |r| r.path.end_with?("/replay/start") }.json
    assert_equal({ "traceFunctionKey" => "k", "limit" => 5, "name" => "v2" }, start)
    assert_equal "/api/sdk/replay/complete", calls.last
    spans = server.carriers.select { |op, _| op == "external_span" }.map(&:last)
    assert(spans.all? { |p| p["testRunId"] == "run-1" && p["experimentId"] == "run-1" })
    tool = spans.find { |p| p["rawSpan"]["span_data"]["name"] == "tool" }
    assert_equal true, tool["mocked"]
    completion = server.carriers.find { |op, _| op == "external_trace" }.last
    assert_equal "o", completion["externalTrace"]["input_source_trace_id"]
    assert_equal result.items.map(&:replay_trace_id).sort, server.carriers.select { |op, _| op == "external_trace" }.map { |_, p| p["id"] }.sort
  end

  def test_status_polling_confirms_when_acks_cannot
    statuses = []
    server, calls = replay_server(ack: false, status: lambda { |body|
      statuses << body
      body["expectedSpanCounts"].keys.to_h { |id| [id, "server-#{id}"] }
    })
    client = client_for(server)
    result = client.replay("k") { |input| input.upcase }
    assert_equal %w[FIRST SECOND], result.items.map(&:output)
    assert_equal(statuses.first["expectedSpanCounts"].values, [1, 1])
    assert_equal "run-1", statuses.first["testRunId"]
    assert(result.items.all? { |i| i.server_trace_id == "server-#{i.replay_trace_id}" })
    assert_includes calls, "/api/sdk/replay/complete"
  end

  def test_barrier_timeout_raises_and_does_not_complete
    server, calls = replay_server(ack: false)
    client = client_for(server)
    error = assert_raises(Reprise::ReplayBarrierTimeoutError) do
      client.replay("k", barrier_timeout: 0.5) { |input| input }
    end
    assert_equal 2, error.pending_trace_ids.size
    refute_includes calls, "/api/sdk/replay/complete"
  end

  def test_errors_of_the_function_are_reported_on_the_item
    server, = replay_server
    client = client_for(server)
    result = client.replay("k") { |input| raise "bad #{input}" }
    assert_equal ["bad first", "bad second"], result.items.map(&:error)
  end

  def test_a_traced_method_is_replayed_as_is
    server, = replay_server
    client = client_for(server)
    agent = Class.new do
      extend Reprise::Traced

      def run(question) = question.reverse
    end
    agent.trace_method :run, "k", client: client
    result = client.replay("k", agent.new.method(:run))
    assert_equal %w[tsrif dnoces], result.items.map(&:output)
    roots = server.carriers.select { |op, p| op == "external_span" && p["rawSpan"]["parent_id"].nil? }
    assert_equal 2, roots.size
  end

  def test_options_are_validated
    client = client_for(fake_reprise)
    assert_raises(ArgumentError) { client.replay("k", limit: 0) { 1 } }
    assert_raises(ArgumentError) { client.replay("k", trace_ids: Array.new(101, "x")) { 1 } }
  end
end
