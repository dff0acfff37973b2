# frozen_string_literal: true

module Reprise
  module Replay
    # Recorded outputs of the original trace, served to spans marked `mock_on_replay: true` instead of running them.
    # Matched by trace function key, span name and occurrence, in the original's chronological order.
    class Mocks
      def initialize(api, original_span_id)
        @api = api
        @original_span_id = original_span_id
        @lock = Mutex.new
        @queues = nil
      end

      # `{value: recorded output}` for the next occurrence of (key, name), or nil when none was recorded.
      def take(trace_function_key, name)
        @lock.synchronize do
          @queues ||= load
          queue = @queues["#{trace_function_key}\u0000#{name}"]
          queue.nil? || queue.empty? ? nil : { value: queue.shift }
        end
      end

      private

      def load
        tree = @api.span_tree(@original_span_id)
        queues = Hash.new { |h, k| h[k] = [] }
        walk(tree.is_a?(Hash) ? tree["root"] : nil, nil, queues, root: true)
        queues
      rescue Error
        {}
      end

      def walk(node, key, queues, root: false)
        return unless node.is_a?(Hash)

        key = node["traceFunctionKey"] || key
        queues["#{key}\u0000#{node['spanName']}"] << node["output"] if !root && node.key?("output")
        Array(node["children"]).each { |child| walk(child, key, queues) }
      end
    end
  end
end
