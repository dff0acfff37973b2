# frozen_string_literal: true

module Reprise
  module Replay
    # The persistence barrier (docs/replay.md): waits until every replayed trace is final with enough spans
    # persisted, confirmed by local acknowledgments (completion acknowledged and at least the expected number of
    # unique span ids), or else by polling `replay/status` with `expectedSpanCounts`. Returns `{local id => server
    # id}`; raises `Reprise::ReplayBarrierTimeoutError` when time runs out.
    module Barrier
      module_function

      # `expected`: `{local trace id => expected span count}`; `acks`: nil when acknowledgments do not prove
      # persistence (Collector mode).
      def wait(test_run_id:, expected:, acks:, api:, timeout:, interval:)
        deadline = Clock.now + timeout
        confirmed = {}
        pending = expected.dup
        loop do
          confirm_from_acks(acks, pending, confirmed)
          return confirmed if pending.empty?

          confirm_from_status(test_run_id, api, pending, confirmed, deadline)
          return confirmed if pending.empty?

          left = deadline - Clock.now
          raise ReplayBarrierTimeoutError.new(test_run_id, pending.keys, timeout) if left <= 0

          sleep([interval, left].min)
        end
      end

      def confirm_from_acks(acks, pending, confirmed)
        return if acks.nil?

        pending.keys.each do |trace_id|
          spans, completion_acked, server_id = acks.get(trace_id)
          next unless completion_acked && spans >= pending[trace_id]

          confirmed[trace_id] = server_id
          pending.delete(trace_id)
        end
      end

      def confirm_from_status(test_run_id, api, pending, confirmed, deadline)
        left = deadline - Clock.now
        return if left <= 0

        persisted = api.status(test_run_id, pending, left)
        pending.keys.each do |trace_id|
          next unless persisted.key?(trace_id)

          confirmed[trace_id] = persisted[trace_id]
          pending.delete(trace_id)
        end
      rescue Error
        nil # an unreachable or older status endpoint leaves local acknowledgments as the only proof
      end
    end
  end
end
