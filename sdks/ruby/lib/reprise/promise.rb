# frozen_string_literal: true

module Reprise
  # A value that becomes available once, awaited with a timeout from any thread.
  class Promise
    def initialize
      @lock = Mutex.new
      @cond = ConditionVariable.new
      @resolved = false
      @value = nil
    end

    # Sets the value; later calls are ignored. Returns true when this call resolved it.
    def resolve(value)
      @lock.synchronize do
        return false if @resolved

        @resolved = true
        @value = value
        @cond.broadcast
      end
      true
    end

    def resolved?
      @lock.synchronize { @resolved }
    end

    # Waits up to `timeout` seconds (nil: forever); returns the value, or `default` on timeout.
    def wait(timeout = nil, default = nil)
      deadline = timeout && Clock.now + timeout
      @lock.synchronize do
        until @resolved
          left = deadline && deadline - Clock.now
          return default if left && left <= 0

          @cond.wait(@lock, left)
        end
        @value
      end
    end
  end

  # Monotonic seconds, and wall-clock formatting shared by payloads.
  module Clock
    module_function

    def now
      Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end

    # ISO-8601 UTC with microseconds, as the other SDKs send.
    def iso(time)
      time.utc.strftime("%Y-%m-%dT%H:%M:%S.%6NZ")
    end

    # Unix nanoseconds of a Time.
    def unix_nanos(time)
      (time.to_i * 1_000_000_000) + time.nsec
    end
  end
end
