# frozen_string_literal: true

module Reprise
  module Replay
    # Runs a replay (docs/replay.md): start the run, fetch each original's input, run the function under a new trace
    # attributed to the run, then the persistence barrier, then `replay/complete`. On barrier timeout it raises and
    # does not complete the run.
    class Runner
      Run = Struct.new(:result, :pending)

      def initialize(client:, api:, acks:, acks_prove_persistence:)
        @client = client
        @api = api
        @acks = acks
        @acks_prove_persistence = acks_prove_persistence
      end

      def run(key, callable, limit: nil, trace_ids: nil, dataset_ids: nil, grader_ids: nil, name: nil, concurrency: 10,
              barrier_timeout: 30, poll_interval: 0.1, span_name: nil, type: nil)
        validate(limit, trace_ids, dataset_ids, grader_ids, concurrency)
        start = @api.start(start_body(key, limit, trace_ids, dataset_ids, grader_ids, name))
        test_run_id = start["experimentId"] || start["testRunId"]
        raise ApiError, "replay/start answered without a run id" unless test_run_id.is_a?(String)

        items = Array(start["items"])
        runs = map_concurrent(items, concurrency) { |item| run_item(key, callable, test_run_id, item, span_name, type) }
        begin
          deadline = Clock.now + barrier_timeout
          expected = expected_counts(runs, test_run_id, barrier_timeout, deadline)
          Reprise.flush_traces(timeout: [deadline - Clock.now, 0.001].max) # a failed flush alone does not fail replay
          confirmed = Barrier.wait(test_run_id: test_run_id, expected: expected,
                                   acks: @acks_prove_persistence ? @acks : nil, api: @api,
                                   timeout: [deadline - Clock.now, 0.001].max, interval: poll_interval)
          complete = @api.complete(test_run_id)
          Result.new(test_run_id: test_run_id, experiment_id: test_run_id,
                     url: @api.absolute(start["experimentUrl"] || start["testRunUrl"]),
                     trace_count: complete["traceCount"] || (complete["traceIds"] || {}).size,
                     items: runs.map { |r| with_server_view(r.result, confirmed, complete) })
        ensure
          runs.each { |r| @acks.unwatch(r.result.replay_trace_id) if r.result.replay_trace_id }
        end
      end

      private

      def validate(limit, trace_ids, dataset_ids, grader_ids, concurrency)
        check = ->(ok, message) { raise ArgumentError, "replay: #{message}" unless ok }
        check.call(limit.nil? || (limit.is_a?(Integer) && limit.between?(1, 5_000)), "limit must be an integer from 1 to 5,000")
        check.call(Array(trace_ids).size <= 100, "at most 100 trace_ids")
        check.call(Array(dataset_ids).size <= 50, "at most 50 dataset_ids")
        check.call(Array(grader_ids).size <= 100, "at most 100 grader_ids")
        check.call(concurrency.is_a?(Integer) && concurrency >= 1, "concurrency must be at least 1")
      end

      def start_body(key, limit, trace_ids, dataset_ids, grader_ids, name)
        body = { "traceFunctionKey" => key }
        body["traceIds"] = trace_ids unless Array(trace_ids).empty?
        body["datasetIds"] = dataset_ids unless Array(dataset_ids).empty?
        body["limit"] = limit || 5 if Array(trace_ids).empty? && Array(dataset_ids).empty?
        body["graderIds"] = grader_ids unless Array(grader_ids).empty?
        body["name"] = name unless name.nil?
        body
      end

      def run_item(key, callable, test_run_id, item, span_name, type)
        original_span_id = item["externalSpanId"] || item["originalSpanId"] || item["sourceSpanId"] || ""
        original_trace_id = item["originalTraceId"] || item["sourceTraceId"] || ""
        result = ItemResult.new(
          original_trace_id: original_trace_id, original_span_id: original_span_id,
          original: Original.new(duration_ms: item.fetch("originalDurationMs", item["durationMs"]),
                                 tokens: item.fetch("originalTokens", item["tokens"]),
                                 model: item.fetch("originalModel", item["model"]))
        )
        begin
          original = @api.original_span(original_span_id)
          input = original.dig("rawData", "span_data", "input")
        rescue Error => e
          result.error = "could not load the original input: #{e.message}"
          return Run.new(result, nil)
        end
        pending = PendingReplay.new(Ids.uuid, Tracing::ReplayAttribution.new(
          test_run_id: test_run_id, input_source_span_id: original["id"] || original_span_id,
          input_source_trace_id: original["externalTraceId"] || original_trace_id, attempt: 0,
          mocks: Mocks.new(@api, original_span_id)
        ))
        @acks.watch(pending.trace_id)
        result.replay_trace_id = pending.trace_id
        result.input = input
        invoke(key, callable, input, pending, result, span_name, type)
        result.error ||= "the function did not record a trace (is tracing enabled?)" if pending.trace.nil?
        Run.new(result, pending)
      end

      def invoke(key, callable, input, pending, result, span_name, type)
        started = Clock.now
        Context.with(Frame.new(nil, nil, pending)) do
          result.output =
            if Traced.traces?(callable, key)
              Arguments.call(callable, input)
            else
              @client.trace(key, input: input, span_name: span_name, type: type) { Arguments.call(callable, input) }
            end
        end
      rescue StandardError => e
        result.error = e.message.empty? ? e.class.name : e.message
      ensure
        result.duration = Clock.now - started
      end

      # Waits for each replay trace's completion (children included) and returns its expected span count.
      def expected_counts(runs, test_run_id, timeout, deadline)
        expected = {}
        late = []
        runs.each do |run|
          trace = run.pending&.trace or next
          info = trace.completion.wait([deadline - Clock.now, 0.001].max)
          if info.nil?
            late << trace.id
          elsif info.sent && !info.dropped
            expected[info.trace_id] = info.expected_span_count
          end
        end
        raise ReplayBarrierTimeoutError.new(test_run_id, late, timeout) unless late.empty?

        expected
      end

      def with_server_view(result, confirmed, complete)
        result.original.outline = (complete["originalTraceOutlines"] || {})[result.original_trace_id]
        local = result.replay_trace_id
        return result if local.nil?

        server = (complete["traceIds"] || {})[local] || confirmed[local] || local
        result.server_trace_id = server
        result.tokens = (complete["tokens"] || {})[server]
        result.outline = (complete["traceOutlines"] || {})[server]
        result
      end

      def map_concurrent(items, limit)
        return items.map { |item| yield(item) } if limit <= 1 || items.size <= 1

        queue = Queue.new
        items.each_with_index { |item, i| queue << [item, i] }
        queue.close
        results = Array.new(items.size)
        threads = Array.new([limit, items.size].min) do
          Thread.new do
            while (pair = queue.pop)
              results[pair[1]] = yield(pair[0])
            end
          end
        end
        threads.each(&:join)
        results
      end
    end
  end
end
