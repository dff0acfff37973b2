# frozen_string_literal: true


module Reprise
  module Tracing
    # What the completion carried once decided: the replay barrier waits for it.
    CompletionInfo = Struct.new(:trace_id, :expected_span_count, :dropped, :sent, keyword_init: true)

    # Replay attribution of a trace run by the replay runner.
    ReplayAttribution = Struct.new(:test_run_id, :input_source_span_id, :input_source_trace_id, :attempt,
                                   :mocks, keyword_init: true)

    # Mutable, thread-safe state of one trace: its metadata, how many spans still run, and how many span carriers
    # were actually sent (the completion's `expectedSpanCount`).
    class TraceState
      attr_reader :id, :trace_function_key, :ingestion_type, :replay, :started_at, :metadata, :contexts, :completion
      attr_accessor :name, :session_id, :ended_at
      # Called with the trace when its last span ended (set by the recorder: it submits the completion).
      attr_accessor :on_complete
      # Set inside `update` only.
      attr_writer :dropped

      def initialize(trace_function_key, ingestion_type: "captured", replay: nil, id: nil)
        @id = id || Ids.uuid
        @trace_function_key = trace_function_key
        @ingestion_type = ingestion_type
        @replay = replay
        @started_at = Time.now
        @metadata = {}
        @contexts = []
        @lock = Mutex.new
        @open_spans = 0
        @root_ended = false
        @completion_started = false
        @sent_spans = 0
        @dropped = false
        @completion = Promise.new
      end

      def dropped?
        @lock.synchronize { @dropped }
      end

      def completion_started?
        @lock.synchronize { @completion_started }
      end

      def sent_spans
        @lock.synchronize { @sent_spans }
      end

      # Applies a change unless the completion already started; returns false when it was too late.
      def update
        @lock.synchronize do
          return false if @completion_started

          yield self
          true
        end
      end

      # Keeps the trace open for work started in another thread (`Reprise.thread`), so its completion waits for it.
      def hold
        span_opened
      end

      # Ends a `hold`; completes the trace when it was the last open piece after the root ended.
      def release
        on_complete&.call(self) if span_finished(false)
      end

      def span_opened
        @lock.synchronize { @open_spans += 1 }
      end

      def span_sent
        @lock.synchronize { @sent_spans += 1 }
      end

      # Records a finished span; true when this was the last running span after the root ended (time to complete).
      def span_finished(root)
        @lock.synchronize do
          @open_spans -= 1
          @root_ended = true if root
          return false unless @root_ended && @open_spans.zero? && !@completion_started

          @completion_started = true
          @ended_at = Time.now
          true
        end
      end

      # Resolves the completion info (once).
      def completion_decided(sent)
        @completion.resolve(CompletionInfo.new(trace_id: id, expected_span_count: sent_spans, dropped: dropped?,
                                               sent: sent))
      end
    end
  end
end
