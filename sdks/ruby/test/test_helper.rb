# frozen_string_literal: true

require "minitest/autorun"
require "reprise"
require_relative "support/fake_server"

# Collects warnings instead of printing them.
class MemoryLogger
  attr_reader :messages

  def initialize
    @messages = []
  end

  def warn(message)
    @messages << message
  end
end

module ClientHelpers
  FAST = { scheduled_delay: 0.05, backoff_base: 0.01 }.freeze

  def setup
    super
    Reprise::Logging.reset!
    @servers = []
    @clients = []
  end

  def teardown
    @clients.each { |c| c.close(timeout: 2) }
    @servers.each(&:stop)
    super
  end

  # A fake Reprise whose sim plan is empty and whose OTLP endpoint answers through the block (default `{}`).
  def fake_reprise(&otlp)
    server = FakeServer.new do |req|
      if req.path.end_with?("/sim-plan") then [200, {}, '{"nodes":[]}']
      elsif otlp then otlp.call(req)
      else [200, {}, "{}"]
      end
    end
    @servers << server
    server
  end

  def client_for(server, transport: {}, **options)
    client = Reprise::Client.new(api_key: "rp_test", service_url: server.url, logger: options.delete(:logger) || MemoryLogger.new,
                                 transport: FAST.merge(transport), **options)
    @clients << client
    client
  end

  # Records a trace of a root and two children; returns its id.
  def record_simple(client, key = "answer-question")
    client.trace(key, input: "q") do |trace|
      client.span("plan", type: :function) { "p" }
      client.span("call-model", type: :llm) { |s| s.add_context(model: "m", inputTokens: 12, outputTokens: 3) && "4" }
      trace.id
    end
  end
end
