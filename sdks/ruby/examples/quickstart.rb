# frozen_string_literal: true

# Records one trace with the Reprise Ruby SDK (a root, a `plan` function span and a `call-model` llm span with
# tokens and model in its context), flushes, and prints `{"traceId": "<canonical trace id>"}` as the last line of stdout.
#
#   REPRISE_API_KEY=rp_... REPRISE_URL=http://localhost:3000 REPRISE_EXAMPLE_TRACE_FUNCTION=answer-question \
#     ruby -Isdks/ruby/lib sdks/ruby/examples/quickstart.rb
#
# The model is a stand-in, so the example runs offline.
require "json"
require "reprise"

client = Reprise::Client.new # REPRISE_API_KEY and REPRISE_URL from the environment
abort "Set REPRISE_API_KEY (and REPRISE_URL if Reprise is not on http://localhost:3000)." unless client.enabled?

trace_function = ENV.fetch("REPRISE_EXAMPLE_TRACE_FUNCTION", "answer-question")
question = "What is 2+2?"

trace_id = client.trace(trace_function, input: question) do |trace|
  plan = client.span("plan", type: :function, input: question) { ["call-model"] }
  answer = client.span("call-model", type: :llm, input: question) do |span|
    span.add_context("model" => "example-model", "inputTokens" => 12, "outputTokens" => 3)
    "4"
  end
  $stderr.puts "plan #{plan.inspect} answered #{answer.inspect}"
  trace.id
end

abort "delivery failed: see the warnings above" unless client.flush_traces(timeout: 30)
puts JSON.generate({ "traceId" => trace_id }, space: " ") # {"traceId": "<canonical trace id>"}
