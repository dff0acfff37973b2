# frozen_string_literal: true

# The Ruby SDK's conformance driver (sdks/conformance/PROTOCOL.md): one JSON command per line on stdin, one JSON
# answer per line on stdout, SDK warnings on stderr. One client, built lazily from the environment alone.
require "json"
require "reprise"

# Runs the driver protocol's commands against one client.
class Driver
  def initialize
    @client = nil
  end

  def client
    @client ||= Reprise::Client.new
  end

  def handle(command)
    { "id" => command["id"], "ok" => true, "result" => dispatch(command) }
  rescue Reprise::FunctionNotFoundError => e
    failure(command, "function_not_found", e)
  rescue Reprise::ReplayBarrierTimeoutError => e
    failure(command, "replay_barrier_timeout", e, "pendingTraceIds" => e.pending_trace_ids)
  rescue Reprise::ApiError => e
    failure(command, "api_error", e, "status" => e.status)
  rescue Reprise::ConfigError => e
    failure(command, "config_error", e)
  rescue Reprise::ClosedError => e
    failure(command, "closed", e)
  rescue StandardError => e
    failure(command, "other", e)
  end

  private

  def dispatch(command)
    case command["cmd"]
    when "trace" then trace(command)
    when "flush" then Reprise.flush_traces(timeout: (command["timeoutMs"] || 30_000) / 1000.0)
    when "close" then client.close(timeout: 30).then { nil }
    when "updateTrace" then update_trace(command)
    when "seedTrace" then seed_trace(command)
    when "lookupFunction" then { "id" => client.lookup_function(command["name"])["id"] }
    when "functionTrace" then function_trace(command)
    when "replay" then replay(command)
    when "sleep" then sleep(command["ms"].to_f / 1000).then { nil }
    else raise ArgumentError, "unknown command #{command['cmd'].inspect}"
    end
  end

  def trace(command)
    tree = command["tree"]
    trace_id = nil
    begin
      client.trace(command["traceFunctionKey"], input: expand(tree["input"]), span_name: tree["name"],
                                                type: tree["type"]) do |t|
        trace_id = t.id
        body(tree, root: true)
      end
    rescue TreeError
      nil # the tree asked for an error; it was recorded
    end
    { "traceId" => trace_id }
  end

  def update_trace(command)
    body = command.slice("setName", "mergeMetadata", "appendContexts", "setSessionId").transform_values { |v| expand(v) }
    client.detached_trace(command["traceId"]).update(body)
    nil
  end

  def seed_trace(command)
    id = client.seed_trace(trace_function_key: command["traceFunctionKey"], input: expand(command["input"]),
                           output: expand(command["output"]), name: command["name"])
    { "traceId" => id }
  end

  def function_trace(command)
    function = client.lookup_function(command["name"])
    input = expand(command["input"])
    queued = client.record_function_trace(function, result: expand(command["output"]),
                                                    inputs: input.is_a?(Hash) ? input : { "input" => input })
    raise Reprise::ClosedError, "the function trace was not queued (client closed)" unless queued

    nil
  end

  def replay(command)
    tree = command["tree"]
    options = { limit: command["limit"], trace_ids: command["traceIds"], dataset_ids: command["datasetIds"],
                name: command["name"], span_name: tree["name"], type: tree["type"] }.compact
    options[:barrier_timeout] = command["barrierTimeoutMs"] / 1000.0 if command["barrierTimeoutMs"]
    result = client.replay(command["traceFunctionKey"], **options) { |_input| body(tree, root: true) }
    items = result.items.map do |item|
      { "originalTraceId" => item.original_trace_id, "traceId" => item.server_trace_id || item.replay_trace_id,
        "error" => item.error }.compact
    end
    { "testRunId" => result.test_run_id, "items" => items }
  end

  # The body of one span of the tree: contexts, metadata, trace settings, children, sleep, then output or error.
  def body(node, root:)
    Array(node["contexts"]).each { |c| client.current_span.add_context(expand(c)) }
    trace = client.current_trace
    trace.merge_metadata(expand(node["metadata"])) if node["metadata"]
    if root
      trace.set_name(node["traceName"]) if node["traceName"]
      trace.set_session_id(node["sessionId"]) if node["sessionId"]
    end
    trace.drop if node["drop"]
    Array(node["children"]).each { |child| child["background"] ? Reprise.thread { run_child(child) } : run_child(child) }
    sleep(node["sleepMs"] / 1000.0) if node["sleepMs"].to_i.positive?
    raise TreeError, node["error"] if node["error"]

    expand(node["output"])
  end

  def run_child(node)
    client.span(node["name"], type: node["type"], input: expand(node["input"]),
                              mock_on_replay: node["mockOnReplay"] ? true : false) { body(node, root: false) }
  rescue TreeError
    nil
  end

  # `{"$repeat": s, "count": n}` anywhere stands for `s * n`.
  def expand(value)
    case value
    when Hash
      return value["$repeat"] * value["count"] if value.key?("$repeat") && value.size == 2 && value.key?("count")

      value.transform_values { |v| expand(v) }
    when Array then value.map { |v| expand(v) }
    else value
    end
  end

  def failure(command, type, error, extra = {})
    { "id" => command["id"], "ok" => false,
      "error" => { "type" => type, "message" => error.message }.merge(extra) }
  end

  # An error the tree asked the wrapped code to raise.
  class TreeError < StandardError; end
end

$stdout.sync = true
driver = Driver.new
$stdin.each_line do |line|
  next if line.strip.empty?

  command = JSON.parse(line)
  $stdout.write("#{JSON.generate(driver.handle(command))}\n")
end
$stdout.flush
exit!(0) # end of stdin: exit without the at-exit flush (the protocol flushes only when told to)
