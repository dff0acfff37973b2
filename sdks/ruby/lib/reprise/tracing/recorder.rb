# frozen_string_literal: true

module Reprise
  module Tracing
    # How to record one call: the span's name and type, and for a trace wrapper the trace to start when none is
    # active (`root` = trace function key, `ingestion_type`).
    RunSpec = Struct.new(:name, :type, :instrumentation, :function_name, :trace_function_key, :ingestion_type,
                         :mock_on_replay, keyword_init: true) do
      def root?
        !trace_function_key.nil?
      end
    end

    # Leaves a span's input out (the block API without `input:`).
    NO_INPUT = Object.new.freeze

    # Records blocks as spans: opens a span, runs the block in its context, and submits the span and, when the last
    # span of a trace ends, the trace completion. SDK failures are logged, never raised into the application; the
    # application's own exceptions pass through unchanged.
    class Recorder
      def initialize(pipeline, logger)
        @pipeline = pipeline
        @warner = Logging::ThrottledWarner.new(logger)
      end

      # Runs the block as a recorded span, yielding `(trace_state, span_state)`, or `(nil, nil)` when it is not
      # recorded (a span outside any trace).
      def run(spec, input = NO_INPUT)
        trace, span = open(spec, input)
        return yield(nil, nil) if span.nil?

        mock = spec.mock_on_replay ? mocked_output(trace, span) : nil
        if mock
          span.mocked = true
          return finish(trace, span, mock[:value])
        end

        begin
          result = Context.with(Frame.new(trace, span, nil)) { yield(trace, span) }
        rescue Exception => e # rubocop:disable Lint/RescueException -- recorded, then re-raised unchanged
          finish(trace, span, nil, e)
          raise
        end
        finish(trace, span, result)
      end

      private

      def open(spec, input)
        frame = Context.current
        trace = frame&.trace
        parent_id = frame&.span&.id
        if trace.nil?
          return [nil, nil] unless spec.root?

          trace = start_trace(spec, frame)
          parent_id = nil
        end
        span = SpanState.new(name: spec.name, type: spec.type, instrumentation: spec.instrumentation,
                             parent_id: parent_id, function_name: spec.function_name)
        span.record_input(input) unless input.equal?(NO_INPUT)
        trace.span_opened
        [trace, span]
      rescue StandardError => e
        internal_failure(e)
        [nil, nil]
      end

      def start_trace(spec, frame)
        pending = frame&.pending_replay
        if pending&.claim
          trace = TraceState.new(spec.trace_function_key, ingestion_type: spec.ingestion_type,
                                                          replay: pending.attribution, id: pending.trace_id)
          pending.started(trace)
        else
          trace = TraceState.new(spec.trace_function_key, ingestion_type: spec.ingestion_type || "captured")
        end
        trace.on_complete = ->(t) { @pipeline.submit_completion(t) }
        trace
      end

      # During a replay, a span whose recorded output stands in for re-execution.
      def mocked_output(trace, span)
        mocks = trace.replay&.mocks
        return nil if mocks.nil? || span.root?

        mocks.take(trace.trace_function_key, span.name)
      rescue StandardError => e
        internal_failure(e)
        nil
      end

      def finish(trace, span, value, error = nil)
        begin
          span.ended_at = Time.now
          if error
            span.record_error(error)
          else
            span.record_output(value)
          end
          @pipeline.submit_span(trace, span) unless trace.dropped?
        rescue StandardError => e
          internal_failure(e)
        ensure
          trace.on_complete.call(trace) if trace.span_finished(span.root?)
        end
        value
      end

      def internal_failure(error)
        @warner.warn("internal", "Tracing failed internally and was skipped: #{error.class}: #{error.message}")
      end
    end
  end
end
