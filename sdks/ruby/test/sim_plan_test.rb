# frozen_string_literal: true

require "test_helper"

class SimPlanTest < Minitest::Test
  include ClientHelpers

  def plan_server(answer)
    server = FakeServer.new { |req| req.path.end_with?("/sim-plan") ? answer.call(req) : [200, {}, "{}"] }
    @servers << server
    server
  end

  def span_data(server, name)
    server.carriers.map(&:last).find { |p| p.dig("rawSpan", "span_data", "name") == name }["rawSpan"]["span_data"]
  end

  def test_content_off_spans_are_sent_without_content
    nodes = { "nodes" => [{ "traceFunctionKey" => "k", "name" => "secret", "captureContent" => false },
                          { "traceFunctionKey" => "k", "name" => "k", "captureContent" => false }] }
    server = plan_server(->(_) { [200, {}, JSON.generate(nodes)] })
    client = client_for(server)
    client.trace("k", input: "root-in") do
      client.span("secret", input: "hidden") { |s| s.set_prompt("p") && "out" }
      client.span("open", input: "shown") { "out" }
    end
    assert client.flush_traces(timeout: 5)
    secret = span_data(server, "secret")
    assert_equal true, secret["content_off_by_simulation_plan"]
    %w[input output prompt].each { |f| refute secret.key?(f), f }
    assert_equal "shown", span_data(server, "open")["input"]
    assert_equal true, span_data(server, "k")["content_off_by_simulation_plan"]
    completion = server.carriers.find { |op, _| op == "external_trace" }.last
    assert_equal 3, completion["expectedSpanCount"]
    plan_request = server.snapshot.find { |r| r.path.end_with?("/sim-plan") }
    assert_equal "close", plan_request.headers["connection"]
    assert_equal 1, server.snapshot.count { |r| r.path.end_with?("/sim-plan") }, "read at most once a minute"
  end

  def test_unavailable_plan_strips_child_spans_only
    server = plan_server(->(_) { [500, {}, "{}"] })
    client = client_for(server)
    client.trace("k", input: "root-in") { client.span("child", input: "x") { "y" } }
    assert client.flush_traces(timeout: 5)
    refute span_data(server, "child").key?("input")
    assert_equal "root-in", span_data(server, "k")["input"]
  end

  def test_404_is_an_empty_plan_and_disabling_skips_the_read
    server = plan_server(->(_) { [404, {}, "{}"] })
    client = client_for(server)
    client.trace("k") { client.span("child", input: "x") { "y" } }
    client.flush_traces(timeout: 5)
    assert_equal "x", span_data(server, "child")["input"]
    other = plan_server(->(_) { [500, {}, "{}"] })
    client = client_for(other, disable_sim_plan: true)
    client.trace("k") { 1 }
    client.flush_traces(timeout: 5)
    assert(other.snapshot.none? { |r| r.path.end_with?("/sim-plan") })
  end

  def test_slow_plan_holds_spans_until_it_answers
    server = plan_server(->(_) { sleep(0.5).then { [200, {}, '{"nodes":[]}'] } })
    client = client_for(server)
    client.trace("k") { client.span("child", input: "x") { "y" } }
    assert client.flush_traces(timeout: 5)
    assert_equal "x", span_data(server, "child")["input"]
  end
end
