# frozen_string_literal: true

require "test_helper"

class ConfigTest < Minitest::Test
  def resolve(options = {}, env = {})
    Reprise::Config.resolve(options, env)
  end

  def test_defaults
    config, warnings = resolve
    assert_equal "", config.api_key
    refute config.enabled?
    assert_equal "http://localhost:3000", config.service_url
    assert_equal :direct, config.mode.kind
    assert_equal "http://localhost:3000/api/sdk/otel/v1/traces", config.mode.url
    assert_equal 3_000_000, config.max_request_bytes
    assert_equal 32, config.export_concurrency
    assert config.compression?
    assert config.sim_plan?
    assert_equal 8_192, config.tuning.max_queue_size
    assert_equal 512, config.tuning.max_export_batch_size
    assert_equal 5.0, config.tuning.scheduled_delay
    assert_equal 30.0, config.tuning.export_timeout
    assert_empty warnings
  end

  def test_option_then_environment_then_default
    env = { "REPRISE_API_KEY" => " rp_env ", "REPRISE_URL" => "http://env:1/", "REPRISE_OTEL_EXPORT_CONCURRENCY" => "4" }
    config, = resolve({}, env)
    assert_equal "rp_env", config.api_key
    assert_equal "http://env:1", config.service_url
    assert_equal 4, config.export_concurrency
    config, = resolve({ api_key: "rp_opt", service_url: "http://opt:2", export_concurrency: 8 }, env)
    assert_equal "rp_opt", config.api_key
    assert_equal "http://opt:2", config.service_url
    assert_equal 8, config.export_concurrency
  end

  def test_invalid_limits_warn_and_fall_back
    config, warnings = resolve({}, "REPRISE_OTEL_MAX_REQUEST_BYTES" => "4000000", "REPRISE_OTEL_EXPORT_CONCURRENCY" => "x")
    assert_equal 3_000_000, config.max_request_bytes
    assert_equal 32, config.export_concurrency
    assert_equal 2, warnings.size
    assert_match(/REPRISE_OTEL_MAX_REQUEST_BYTES=4000000/, warnings[0].message)
    config, warnings = resolve({}, "REPRISE_OTEL_MAX_REQUEST_BYTES" => "0", "REPRISE_OTEL_EXPORT_CONCURRENCY" => "65")
    assert_equal [3_000_000, 32], [config.max_request_bytes, config.export_concurrency]
    assert_equal 2, warnings.size
    config, warnings = resolve({}, "REPRISE_OTEL_MAX_REQUEST_BYTES" => "1000")
    assert_equal 1000, config.max_request_bytes
    assert_empty warnings
  end

  def test_collector_mode_appends_v1_traces_once
    config, = resolve({}, "REPRISE_OTEL_EXPORTER_ENDPOINT" => "http://collector:4318/")
    assert_equal :collector, config.mode.kind
    assert_equal :protobuf, config.mode.encoding
    assert_equal "http://collector:4318/v1/traces", config.mode.url
    assert_equal 32, config.tuning.max_export_batch_size
    config, = resolve({ otel_exporter_endpoint: "http://c/v1/traces" })
    assert_equal "http://c/v1/traces", config.mode.url
  end

  def test_flags_take_any_value
    config, = resolve({}, "REPRISE_DISABLE_COMPRESSION" => "0", "REPRISE_DISABLE_SIM_PLAN" => "yes")
    refute config.compression?
    refute config.sim_plan?
    config, = resolve({ disable_compression: false }, "REPRISE_DISABLE_COMPRESSION" => "1")
    assert config.compression?
  end

  def test_unknown_options_are_refused
    assert_raises(ArgumentError) { resolve({ api_kee: "x" }) }
  end

  def test_client_without_key_is_disabled_and_warns_once
    logger = MemoryLogger.new
    client = Reprise::Client.new(api_key: "", logger: logger)
    refute client.enabled?
    assert_equal 42, client.trace("k") { 42 }
    assert_raises(Reprise::ConfigError) { client.lookup_function("f") }
    Reprise::Client.new(api_key: "", logger: logger)
    assert_equal 1, logger.messages.grep(/No API key/).size
  end
end
