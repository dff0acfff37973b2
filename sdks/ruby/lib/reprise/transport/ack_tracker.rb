# frozen_string_literal: true

require "set"

module Reprise
  module Transport
    # Records which carriers of watched traces the server acknowledged. The OTLP endpoint answers only after every
    # accepted carrier persisted, so an acknowledgment is the replay barrier's proof. Only watched traces are
    # recorded, so ordinary traffic costs nothing here.
    class AckTracker
      State = Struct.new(:span_ids, :completion_acked, :server_trace_id)

      def initialize
        @watched = {}
        @lock = Mutex.new
      end

      def watch(trace_id)
        @lock.synchronize { @watched[trace_id] ||= State.new(Set.new, false, nil) }
      end

      def unwatch(trace_id)
        @lock.synchronize { @watched.delete(trace_id) }
      end

      # `[unique acknowledged span ids, completion acknowledged?, server trace id]` of a watched trace, or nil.
      def get(trace_id)
        @lock.synchronize do
          state = @watched[trace_id]
          state && [state.span_ids.size, state.completion_acked, state.server_trace_id]
        end
      end

      # Records acknowledged carriers and the server's `traceIds` map.
      def record(carriers, server_trace_ids)
        @lock.synchronize do
          return if @watched.empty?

          carriers.each do |carrier|
            state = @watched[carrier.trace_id] or next
            if carrier.operation == "external_trace"
              state.completion_acked = true
            elsif carrier.span_id
              state.span_ids << carrier.span_id
            end
            server_id = server_trace_ids && server_trace_ids[carrier.trace_id]
            state.server_trace_id = server_id if server_id.is_a?(String)
          end
        end
      end
    end
  end
end
