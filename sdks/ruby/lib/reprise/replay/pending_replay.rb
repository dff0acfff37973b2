# frozen_string_literal: true

module Reprise
  module Replay
    # A replay waiting for its root trace: the first trace started in its context adopts the replay's trace id and
    # attribution.
    class PendingReplay
      attr_reader :trace_id, :attribution, :trace

      def initialize(trace_id, attribution)
        @trace_id = trace_id
        @attribution = attribution
        @lock = Mutex.new
        @claimed = false
        @trace = nil
      end

      # True for the first caller only.
      def claim
        @lock.synchronize { @claimed ? false : (@claimed = true) }
      end

      def started(trace)
        @trace = trace
      end
    end
  end
end
