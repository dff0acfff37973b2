# frozen_string_literal: true

require "test_helper"

class TransportTest < Minitest::Test
  include ClientHelpers

  def record_many(client, count, size: 10)
    count.times { |i| client.trace("k") { "x#{i}" * size } }
  end

  def test_packing_by_carrier_count
    server = fake_reprise
    client = client_for(server, transport: { max_carriers_per_request: 3 })
    record_many(client, 4) # 8 carriers
    assert client.flush_traces(timeout: 5)
    assert_equal [2, 3, 3], server.otlp_requests.map { |r| r.carriers.size }.sort
  end

  def test_packing_by_exact_encoded_size
    server = fake_reprise
    client = client_for(server, max_request_bytes: 20_000, disable_compression: true)
    record_many(client, 10, size: 1_000) # ~4 KB span carriers
    assert client.flush_traces(timeout: 5)
    sizes = server.otlp_requests.map { |r| r.raw_body.bytesize }
    assert(sizes.all? { |s| s <= 20_000 }, sizes.inspect)
    assert_operator sizes.size, :>, 1
    assert_equal 20, server.carriers.size
  end

  def test_gzip_from_8192_bytes_only_when_smaller
    server = fake_reprise
    client = client_for(server)
    client.trace("small") { "x" }
    client.flush_traces(timeout: 5)
    client.trace("big") { "abc" * 5_000 }
    client.flush_traces(timeout: 5)
    small, big = server.otlp_requests
    assert_nil small.headers["content-encoding"]
    assert_equal "gzip", big.headers["content-encoding"]
    assert_operator big.raw_body.bytesize, :<, big.body.bytesize
    assert_equal 2, big.carriers.size
  end

  def test_incompressible_bodies_go_uncompressed
    body = Random.new(1).bytes(10_000)
    prepared = Reprise::Transport::Compress.prepare(body, true)
    refute prepared.gzipped
    assert_equal body, prepared.bytes
  end

  def test_retries_503_then_succeeds_and_honours_retry_after
    attempts = []
    server = fake_reprise do
      attempts << Reprise::Clock.now
      attempts.size < 3 ? [503, { "Retry-After" => "0.3" }, '{"error":"busy"}'] : [200, {}, "{}"]
    end
    client = client_for(server)
    record_simple(client)
    assert client.flush_traces(timeout: 10)
    assert_equal 3, attempts.size
    assert_operator attempts[1] - attempts[0], :>=, 0.29
  end

  def test_retryable_statuses
    [408, 425, 429, 500, 502, 503, 504].each do |status|
      count = 0
      server = fake_reprise { (count += 1) == 1 ? [status, {}, "{}"] : [200, {}, "{}"] }
      client = client_for(server)
      client.trace("k") { 1 }
      assert client.flush_traces(timeout: 5), "status #{status}"
      assert_equal 2, count, "status #{status}"
    end
  end

  def test_413_and_other_4xx_are_not_retried_and_flush_reports_failure
    [413, 400].each do |status|
      count = 0
      server = fake_reprise { (count += 1) && [status, {}, '{"error":"no"}'] }
      logger = MemoryLogger.new
      client = client_for(server, logger: logger)
      client.trace("k") { 1 }
      refute client.flush_traces(timeout: 5)
      assert_equal 1, count
      assert_match(/could not deliver/, logger.messages.join)
    end
  end

  def test_retry_after_beyond_the_export_budget_gives_up
    count = 0
    server = fake_reprise { (count += 1) && [429, { "Retry-After" => "60" }, "{}"] }
    client = client_for(server, transport: { export_timeout: 2 })
    client.trace("k") { 1 }
    started = Reprise::Clock.now
    refute client.flush_traces(timeout: 10)
    assert_operator Reprise::Clock.now - started, :<, 2
    assert_equal 1, count
  end

  def test_partial_success_and_2xx_error_are_failures
    [
      '{"partialSuccess":{"rejectedSpans":"1","errorMessage":"bad"}}',
      '{"error":"key revoked"}'
    ].each do |body|
      server = fake_reprise { [200, {}, body] }
      client = client_for(server)
      client.trace("k") { 1 }
      refute client.flush_traces(timeout: 5)
      assert_equal 1, server.otlp_requests.size
    end
  end

  def test_flush_times_out
    server = fake_reprise { sleep(2).then { [200, {}, "{}"] } }
    client = client_for(server)
    client.trace("k") { 1 }
    started = Reprise::Clock.now
    refute client.flush_traces(timeout: 0.3)
    assert_operator Reprise::Clock.now - started, :<, 1
  end

  def test_slow_answers_past_the_request_deadline_are_retried
    count = 0
    server = fake_reprise do
      sleep(1.5) if (count += 1) == 1
      [200, {}, "{}"]
    end
    client = client_for(server, transport: { request_timeout: 0.5 })
    client.trace("k") { 1 }
    assert client.flush_traces(timeout: 10)
    assert_equal 2, count
  end

  def test_close_flushes_then_rejects
    server = fake_reprise
    logger = MemoryLogger.new
    client = client_for(server, logger: logger)
    client.trace("k") { 1 }
    assert client.close(timeout: 5)
    assert client.closed?
    assert_equal 2, server.carriers.size
    assert_equal 3, client.trace("k") { 3 } # the application still runs
    client.flush_traces(timeout: 1)
    assert_equal 2, server.carriers.size
    assert_match(/after close/, logger.messages.join)
    assert_raises(Reprise::ClosedError) { client.seed_trace(trace_function_key: "k", input: 1) }
  end

  def test_full_queue_drops_the_oldest
    gate = Queue.new
    server = fake_reprise { gate.pop && [200, {}, "{}"] }
    client = client_for(server, transport: { max_queue_size: 4, max_export_batch_size: 1, scheduled_delay: 0.01 })
    client.trace("first") { 1 } # its span goes out and blocks the worker in the request
    sleep 0.2
    6.times { |i| client.trace("t#{i}") { i } }
    20.times { gate << :go }
    client.flush_traces(timeout: 5)
    keys = server.carriers.map { |_, p| p["traceFunctionKey"] }
    assert_includes keys, "t5"
    refute_includes keys, "t1"
  end

  def test_oversized_carrier_is_sent_alone_gzipped_when_it_fits
    server = fake_reprise
    client = client_for(server, max_request_bytes: 100_000)
    client.trace("k") { "a" * 500_000 }
    assert client.flush_traces(timeout: 5)
    big = server.otlp_requests.find { |r| r.carriers.any? { |op, p| op == "external_span" } }
    assert_equal "gzip", big.headers["content-encoding"]
    assert_equal 1, big.carriers.size
    assert_equal "a" * 500_000, big.carriers.first.last["rawSpan"]["span_data"]["output"]
  end

  def test_oversized_carrier_is_trimmed_with_payload_budget_and_warned_once
    server = fake_reprise
    logger = MemoryLogger.new
    client = client_for(server, max_request_bytes: 50_000, logger: logger)
    2.times { client.trace("k", input: "keep") { Random.new(2).bytes(200_000).unpack1("H*") } }
    assert client.flush_traces(timeout: 5)
    spans = server.carriers.select { |op, _| op == "external_span" }.map(&:last)
    spans.each do |payload|
      data = payload["rawSpan"]["span_data"]
      assert_equal "<unserializable: too_large_400002_bytes>", data["output"]
      assert_equal "keep", data["input"]
      assert_equal "k", data["name"]
      assert_equal "payload_budget", payload["errors"].last["step"]
      assert_equal "sdk", payload["errors"].last["source"]
    end
    assert(server.otlp_requests.all? { |r| r.raw_body.bytesize <= 50_000 })
    assert_equal 1, logger.messages.grep(/carrier budget/).size
  end

  def test_payload_budget_trims_largest_first_and_keeps_structure
    payload = { "rawSpan" => { "span_data" => { "name" => "n" * 10, "input" => "i" * 100, "output" => "o" * 1000 } } }
    result = Reprise::Transport::PayloadBudget.trim(payload, "external_span", 500)
    data = result.payload["rawSpan"]["span_data"]
    assert_equal "<unserializable: too_large_1002_bytes>", data["output"]
    assert_equal "i" * 100, data["input"]
    assert_equal "n" * 10, data["name"]
    assert_equal "o" * 1000, payload["rawSpan"]["span_data"]["output"], "the original payload is left alone"
  end

  def test_escaped_size_counts_re_escaping
    assert_equal 4, Reprise::Transport::PayloadBudget.escaped_bytes('""')
  end

  def test_delivery_never_raises_into_the_application
    client = Reprise::Client.new(api_key: "rp", service_url: "http://127.0.0.1:1", logger: MemoryLogger.new,
                                 transport: ClientHelpers::FAST.merge(export_timeout: 1))
    @clients << client
    assert_equal :ok, client.trace("k") { :ok }
    refute client.flush_traces(timeout: 5)
  end

  def test_at_exit_flushes_pending_spans
    server = fake_reprise
    script = <<~RUBY
      require "reprise"
      client = Reprise::Client.new(api_key: "rp", service_url: "#{server.url}")
      client.trace("at-exit") { 1 }
    RUBY
    system(RbConfig.ruby, "-I#{File.expand_path('../lib', __dir__)}", "-e", script, exception: true)
    assert_equal %w[external_span external_trace], server.carriers.map(&:first).sort
  end

  def test_fork_rebuilds_the_pipeline_in_the_child
    skip "fork is not available" unless Process.respond_to?(:fork)

    server = fake_reprise
    client = client_for(server)
    client.trace("parent") { 1 }
    assert client.flush_traces(timeout: 5)
    pid = fork do
      client.trace("child") { 2 }
      exit!(client.flush_traces(timeout: 5) ? 0 : 1)
    end
    _, status = Process.wait2(pid)
    assert status.success?
    assert_includes server.carriers.map { |_, p| p["traceFunctionKey"] }, "child"
  end
end
