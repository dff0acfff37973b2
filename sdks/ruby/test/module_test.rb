# frozen_string_literal: true

require "test_helper"

class ModuleTest < Minitest::Test
  include ClientHelpers

  def teardown
    Reprise.close(timeout: 2)
    super
  end

  def test_configure_builds_the_default_client
    server = fake_reprise
    Reprise.configure do |c|
      c.api_key = "rp_module"
      c.service_url = server.url
      c.logger = MemoryLogger.new
      c.transport = ClientHelpers::FAST
    end
    id = Reprise.trace("module-level") do |t|
      Reprise.span("child", type: :llm) { Reprise.current_span.add_context(model: "m") }
      t.id
    end
    refute_nil id
    assert_nil Reprise.current_trace.id, "no trace outside the block"
    assert Reprise.flush_traces(timeout: 5)
    assert_equal "Bearer rp_module", server.otlp_requests.first.headers["authorization"]
    assert_equal 3, server.carriers.size
  end

  def test_global_flush_reaches_every_live_client
    first = fake_reprise
    second = fake_reprise
    a = client_for(first)
    b = client_for(second)
    a.trace("a") { 1 }
    b.trace("b") { 2 }
    assert Reprise.flush_traces(timeout: 5)
    assert_equal 2, first.carriers.size
    assert_equal 2, second.carriers.size
  end

  def test_retry_after_parsing
    assert_equal 1.0, Reprise::Http.retry_after("1")
    assert_equal 0.25, Reprise::Http.retry_after("0.25")
    now = Time.utc(2026, 1, 1)
    assert_equal 3.0, Reprise::Http.retry_after("Thu, 01 Jan 2026 00:00:03 GMT", now)
    assert_nil Reprise::Http.retry_after(nil)
    assert_nil Reprise::Http.retry_after("soon")
    assert_nil Reprise::Http.retry_after("-1")
  end

  def test_recorded_inputs_become_arguments
    call = Reprise::Replay::Arguments.method(:call)
    assert_equal [1, 2], call.call(->(a, b) { [a, b] }, [1, 2])
    assert_equal [1, 2], call.call(proc { |input| input }, [1, 2])
    assert_equal ["q", "warm"], call.call(->(q, tone:) { [q, tone] }, ["q", { "tone" => "warm" }])
    assert_equal "q", call.call(->(q) { q }, "q")
  end

  def test_ids_are_uuid_v4
    ids = Array.new(100) { Reprise::Ids.uuid }
    assert_equal 100, ids.uniq.size
    assert(ids.all? { |id| id.match?(/\A\h{8}-\h{4}-4\h{3}-[89ab]\h{3}-\h{12}\z/) })
  end
end
