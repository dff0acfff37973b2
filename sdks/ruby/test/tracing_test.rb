# frozen_string_literal: true

require "test_helper"

class TracingTest < Minitest::Test
  include ClientHelpers

  def test_a_trace_is_three_span_carriers_and_a_completion
    server = fake_reprise
    client = client_for(server)
    trace_id = record_simple(client)
    assert client.flush_traces(timeout: 5)
    carriers = server.carriers
    spans = carriers.select { |op, _| op == "external_span" }.map(&:last)
    completion = carriers.find { |op, _| op == "external_trace" }.last
    assert_equal 3, spans.size
    root = spans.find { |p| p["rawSpan"]["parent_id"].nil? }
    refute root["rawSpan"].key?("parent_id")
    assert_equal "answer-question", root["rawSpan"]["span_data"]["name"]
    assert_equal "function", root["rawSpan"]["span_data"]["type"]
    assert_equal "q", root["rawSpan"]["span_data"]["input"]
    llm = spans.find { |p| p["rawSpan"]["span_data"]["name"] == "call-model" }
    assert_equal "llm", llm["rawSpan"]["span_data"]["type"]
    assert_equal [{ "model" => "m", "inputTokens" => 12, "outputTokens" => 3 }], llm["rawSpan"]["span_data"]["contexts"]
    assert_equal root["rawSpan"]["id"], llm["rawSpan"]["parent_id"]
    assert_equal({ "name" => "reprise.sdk.ruby", "version" => Reprise::VERSION, "instrumentation" => { "name" => "span" } },
                 llm["rawSpan"]["span_origin"])
    assert(spans.all? { |p| p["sourceTraceId"] == trace_id && p["source"] == "ruby-sdk-function" })
    assert_equal trace_id, completion["id"]
    assert_equal 3, completion["expectedSpanCount"]
    assert_equal true, completion["completed"]
    assert_equal "captured", completion["externalTrace"]["ingestion_type"]
  end

  def test_carrier_envelope_and_headers
    server = fake_reprise
    client = client_for(server)
    record_simple(client)
    client.flush_traces(timeout: 5)
    request = server.otlp_requests.first
    assert_equal "Bearer rp_test", request.headers["authorization"]
    assert_equal "application/json", request.headers["content-type"]
    span = request.json["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    assert_match(/\A\h{32}\z/, span["traceId"])
    assert_match(/\A\h{16}\z/, span["spanId"])
    assert_equal(%w[reprise.operation reprise.payload], span["attributes"].map { |a| a["key"] })
    assert_match(/\A\d+\z/, span["startTimeUnixNano"])
    resource = request.json["resourceSpans"][0]["resource"]["attributes"].to_h { |a| [a["key"], a["value"]["stringValue"]] }
    assert_equal "reprise-ruby-sdk", resource["service.name"]
  end

  def test_errors_pass_through_and_are_recorded
    server = fake_reprise
    client = client_for(server)
    assert_raises(ZeroDivisionError) do
      client.trace("k") { client.span("boom") { 1 / 0 } }
    end
    client.flush_traces(timeout: 5)
    span = server.carriers.map(&:last).find { |p| p.dig("rawSpan", "span_data", "name") == "boom" }
    assert_equal "divided by 0", span["rawSpan"]["span_data"]["error"]
  end

  def test_completion_waits_for_a_background_child
    server = fake_reprise
    client = client_for(server)
    release = Queue.new
    worker = nil
    client.trace("k") do
      worker = Reprise.thread { client.span("late") { release.pop } }
      :returned
    end
    client.flush_traces(timeout: 5)
    assert(server.carriers.none? { |op, _| op == "external_trace" }, "completion sent while a child still ran")
    release << :go
    worker.join
    client.flush_traces(timeout: 5)
    completion = server.carriers.find { |op, _| op == "external_trace" }.last
    assert_equal 2, completion["expectedSpanCount"]
    late = server.carriers.map(&:last).find { |p| p.dig("rawSpan", "span_data", "name") == "late" }
    refute_nil late["rawSpan"]["parent_id"]
  end

  def test_current_trace_handles_and_drop
    server = fake_reprise
    client = client_for(server)
    client.trace("k") do |t|
      t.set_name("title").merge_metadata(tenant: "acme").add_context(region: "eu").set_session_id("s-1")
      client.current_span.set_prompt("p")
    end
    client.trace("dropped") do |t|
      t.drop
      client.span("after") { 1 }
    end
    client.flush_traces(timeout: 5)
    completions = server.carriers.select { |op, _| op == "external_trace" }.map(&:last)
    kept = completions.find { |p| p["traceFunctionKey"] == "k" }
    assert_equal "title", kept["name"]
    assert_equal "s-1", kept["sessionId"]
    assert_equal({ "tenant" => "acme" }, kept["externalTrace"]["metadata"])
    assert_equal [{ "region" => "eu" }], kept["externalTrace"]["contexts"]
    dropped = completions.find { |p| p["traceFunctionKey"] == "dropped" }
    assert_equal true, dropped["dropped"]
    refute dropped.key?("expectedSpanCount")
    assert(server.carriers.none? { |_, p| p.dig("rawSpan", "span_data", "name") == "after" })
  end

  def test_span_outside_a_trace_just_runs
    server = fake_reprise
    client = client_for(server)
    assert_equal 7, client.span("alone") { |s| s.add_context(a: 1) && 7 }
    assert client.flush_traces(timeout: 1)
    assert_empty server.otlp_requests
  end

  def test_context_is_isolated_per_thread_and_fiber
    server = fake_reprise
    client = client_for(server)
    ids = Array.new(4) { |i| Thread.new { client.trace("t#{i}") { |t| sleep(0.01).then { t.id } } } }.map(&:value)
    assert_equal 4, ids.uniq.size
    assert_nil client.current_trace.id
    fiber_ids = Array.new(2) { |i| Fiber.new { client.trace("f#{i}") { |t| t.id } }.resume }
    assert_equal 2, fiber_ids.uniq.size
    client.flush_traces(timeout: 5)
    assert_equal 6, server.carriers.count { |op, _| op == "external_trace" }
  end

  def test_traced_module_wraps_methods
    server = fake_reprise
    client = client_for(server)
    klass = Class.new do
      extend Reprise::Traced

      def run(question, tone: "plain") = "#{plan(question)}/#{tone}"
      def plan(question) = question.upcase
    end
    klass.trace_method :run, "agent-run", client: client
    klass.span_method :plan, type: :agent, client: client
    assert_equal "Q/warm", klass.new.run("q", tone: "warm")
    client.flush_traces(timeout: 5)
    spans = server.carriers.select { |op, _| op == "external_span" }.to_h { |_, p| [p["rawSpan"]["span_data"]["name"], p] }
    assert_equal ["q", { "tone" => "warm" }], spans["agent-run"]["rawSpan"]["span_data"]["input"]
    assert_equal "Q/warm", spans["agent-run"]["rawSpan"]["span_data"]["output"]
    assert_equal "agent", spans["plan"]["rawSpan"]["span_data"]["type"]
    assert_equal "run", spans["agent-run"]["rawSpan"]["span_data"]["function_name"]
  end

  def test_seed_trace_and_function_trace
    server = fake_reprise do |req|
      req.path.end_with?("/v1/traces") ? [200, {}, "{}"] : [200, {}, '{"id":"fn-1","name":"f"}']
    end
    client = client_for(server)
    id = client.seed_trace(trace_function_key: "k", input: ["q"], output: "a", name: "case 1")
    function = client.lookup_function("f")
    assert client.record_function_trace(function, result: { "x" => 1 }, inputs: { "q" => "v" })
    client.flush_traces(timeout: 5)
    seeded = server.carriers.find { |op, _| op == "external_trace" }.last
    assert_equal id, seeded["id"]
    assert_equal "seeded", seeded["ingestion_type"]
    assert_equal "case 1", seeded["name"]
    internal = server.carriers.find { |op, _| op == "internal_trace" }.last
    assert_equal({ "functionId" => "fn-1", "source" => "ruby-sdk", "sdkVersion" => Reprise::VERSION,
                   "result" => '{"x":1}', "inputs" => { "q" => "v" } }, internal)
  end

  def test_lookup_function_not_found_is_typed
    server = fake_reprise { [200, {}, '{"id":null}'] }
    client = client_for(server)
    error = assert_raises(Reprise::FunctionNotFoundError) { client.lookup_function("missing") }
    assert_equal "#{server.url}/functions", error.url
  end

  def test_detached_trace_patches_and_raises_on_rejection
    server = fake_reprise { |req| req.path.include?("bad") ? [404, {}, '{"error":"not found","code":"not_found"}'] : [200, {}, "{}"] }
    client = client_for(server)
    client.detached_trace("t-1").set_name("n").merge_metadata(a: 1)
    patches = server.snapshot.select { |r| r.method == "PATCH" }
    assert_equal ["/api/sdk/traces/t-1"], patches.map(&:path).uniq
    assert_equal [{ "setName" => "n" }, { "mergeMetadata" => { "a" => 1 } }], patches.map(&:json)
    error = assert_raises(Reprise::ApiError) { client.detached_trace("bad").set_session_id("s") }
    assert_equal 404, error.status
    assert_equal "not_found", error.code
  end
end
