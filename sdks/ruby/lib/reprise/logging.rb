# frozen_string_literal: true

module Reprise
  # Where the SDK's warnings go. Any object with `warn(message)` works (a stdlib Logger too).
  module Logging
    # The default logger: one `[reprise]` line on stderr per warning.
    class StderrLogger
      def warn(message)
        $stderr.write("[reprise] #{message}\n")
      end
    end

    @warned = {}
    @lock = Mutex.new

    class << self
      # The process-wide default logger.
      def default
        @default ||= StderrLogger.new
      end

      # Warns once per process for a key (invalid settings, trimming). Returns true when the warning was emitted.
      def warn_once(logger, key, message)
        first = @lock.synchronize { @warned.key?(key) ? false : (@warned[key] = true) }
        safe_warn(logger, message) if first
        first
      end

      # Forgets which warnings were emitted; for tests.
      def reset!
        @lock.synchronize { @warned.clear }
      end

      # Calls the logger, swallowing anything it raises: tracing must never break the application.
      def safe_warn(logger, message)
        logger.warn(message)
      rescue StandardError
        nil
      end
    end

    # Rate-limits a repeating warning (delivery failures while the server is down) to one line per interval and key.
    class ThrottledWarner
      def initialize(logger, interval: 30.0)
        @logger = logger
        @interval = interval
        @last = {}
        @lock = Mutex.new
      end

      def warn(key, message)
        now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
        emit = @lock.synchronize do
          previous = @last[key]
          next false if previous && now - previous < @interval

          @last[key] = now
        end
        Logging.safe_warn(@logger, message) if emit
      end
    end
  end
end
