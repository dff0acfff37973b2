# frozen_string_literal: true

module Reprise
  module Tracing
    # The trace active in the current context. Every method is a no-op outside a trace, so instrumented code runs the
    # same with tracing off. Changes after the trace completed are ignored with a warning: use
    # `client.detached_trace(id)` for those. Methods return self, so calls chain.
    class CurrentTrace
      def initialize(trace, logger)
        @trace = trace
        @logger = logger
      end

      # The canonical trace id (a UUID), or nil outside a trace.
      def id
        @trace&.id
      end

      # True inside a recorded trace.
      def active?
        !@trace.nil?
      end

      # Sets the trace title shown in the console and matched by trace search.
      def set_name(name)
        change { |t| t.name = name.to_s }
      end

      # Shallow-merges keys into the trace metadata; matching keys are replaced.
      def merge_metadata(metadata)
        change { |t| t.metadata.merge!(stringify(metadata)) }
      end

      # Appends one context hash to the trace's contexts.
      def add_context(context)
        change { |t| t.contexts << context }
      end

      # Groups the trace under a user session.
      def set_session_id(session_id)
        change { |t| t.session_id = session_id.to_s }
      end

      # Drops the trace: spans finishing from now on are not sent, and the completion asks the server to scrub it.
      def drop
        change { |t| t.dropped = true }
      end

      private

      def change(&block)
        return self if @trace.nil?

        unless @trace.update(&block)
          Logging.warn_once(@logger, "trace-after-completion",
                            "A trace was changed after it completed; use detached_trace(id) for late updates.")
        end
        self
      end

      def stringify(hash)
        hash.to_h.transform_keys(&:to_s)
      end
    end

    # The span active in the current context; methods are no-ops outside a span.
    class CurrentSpan
      def initialize(span)
        @span = span
      end

      # The span id, or nil outside a span.
      def id
        @span&.id
      end

      def active?
        !@span.nil?
      end

      # Appends one context hash to the span. Token usage and model go here:
      # `add_context(model: "m", inputTokens: 12, outputTokens: 3)`; Reprise derives tokens and model from them.
      def add_context(context)
        @span&.add_context(context)
        self
      end

      # Records the prompt the span sent.
      def set_prompt(prompt)
        @span.prompt = prompt.to_s if @span
        self
      end
    end
  end
end
