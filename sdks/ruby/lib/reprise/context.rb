# frozen_string_literal: true

module Reprise
  # What is active in the current execution context: the trace, the span, and a replay waiting for its root.
  Frame = Struct.new(:trace, :span, :pending_replay)

  # The SDK's own context. On Ruby ≥ 3.2 it lives in fiber storage, which child fibers and threads inherit; on
  # Ruby 3.1 in fiber-local variables, so work handed to another thread or fiber carries it explicitly through
  # `Reprise.thread` or `Context.capture` / `Context.with`.
  module Context
    KEY = :__reprise_frame

    class << self
      if Fiber.respond_to?(:[])
        # The active frame, or nil.
        def current
          Fiber[KEY]
        end

        def set(frame)
          Fiber[KEY] = frame
        end
      else
        def current
          Thread.current[KEY]
        end

        def set(frame)
          Thread.current[KEY] = frame
        end
      end

      # Runs the block with `frame` active, restoring the previous one afterwards.
      def with(frame)
        previous = current
        set(frame)
        yield
      ensure
        set(previous)
      end

      # The active frame, to hand to another thread or fiber (`Context.with(frame) { … }` there).
      def capture
        current
      end

      # A thread that runs the block in the caller's trace context. The trace stays open until the thread ends, so
      # its completion waits for the spans the thread records.
      def thread(*args, &block)
        frame = current
        trace = frame&.trace
        trace&.hold
        Thread.new(*args) do |*a|
          with(frame) { block.call(*a) }
        ensure
          trace&.release
        end
      end
    end
  end
end
