# frozen_string_literal: true

module Reprise
  module Replay
    # One replayed item: what ran, and how the server saw it.
    ItemResult = Struct.new(:original_trace_id, :original_span_id, :replay_trace_id, :server_trace_id, :input,
                            :output, :error, :duration, :tokens, :outline, :original, keyword_init: true)
    # What the original trace recorded: `duration_ms`, `tokens`, `model`, `outline`.
    Original = Struct.new(:duration_ms, :tokens, :model, :outline, keyword_init: true)
    # The result of `Client#replay`.
    Result = Struct.new(:test_run_id, :experiment_id, :url, :trace_count, :items, keyword_init: true)
  end
end
