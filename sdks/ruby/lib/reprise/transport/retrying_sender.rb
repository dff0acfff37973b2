# frozen_string_literal: true

module Reprise
  module Transport
    # One throttle for the whole transport: a `Retry-After` received by one request holds back every request of the
    # same client until it expires (docs/sdk-transport.md).
    class Throttle
      def initialize
        @until = 0.0
        @lock = Mutex.new
      end

      # Holds every request for `seconds` from now (never shortens an existing hold).
      def hold(seconds)
        @lock.synchronize { @until = [@until, Clock.now + seconds].max }
      end

      # Seconds left before requests may go out again.
      def remaining
        @lock.synchronize { [@until - Clock.now, 0.0].max }
      end
    end

    # Outcome of one attempt: `:ok`, `:rejected` (never retried) or `:retryable`.
    Attempt = Struct.new(:kind, :status, :message, :retry_after, :body, keyword_init: true)
    # Outcome of a request after retries.
    Delivery = Struct.new(:delivered, :status, :message, :attempts, :body, keyword_init: true)

    # Statuses retried (docs/sdk-transport.md, rule 8): 408, 425, 429, 500, 502, 503, 504. 413 and other 4xx are not.
    RETRYABLE_STATUSES = [408, 425, 429, 500, 502, 503, 504].freeze
    MAX_BACKOFF = 5.0

    module RetryingSender
      module_function

      # Runs `attempt.call(timeout)` until it succeeds, is rejected, or the export budget (`deadline`, monotonic
      # seconds) cannot afford another wait. A `Retry-After` is honoured exactly through the shared throttle when it
      # fits in half of the remaining budget (the other half is kept for the request); otherwise the request gives
      # up. Without one, the delay is exponential (`base·2^(n-1)`, capped at 5 s) with jitter in [75%, 100%), so each
      # pause stays longer than the one before it.
      def deliver(deadline:, tuning:, throttle:, random: Kernel.method(:rand))
        last = Attempt.new(kind: :retryable, message: "no attempt made")
        (1..tuning.max_attempts).each do |n|
          held = throttle.remaining
          if held.positive?
            return failed(last, n - 1, "throttled for #{held.round(3)} s, beyond the export budget") if held > (deadline - Clock.now) / 2

            sleep(held)
          end
          remaining = deadline - Clock.now
          return failed(last, n - 1, "export budget exhausted") if remaining <= 0

          last = yield([tuning.request_timeout, remaining].min)
          return Delivery.new(delivered: true, attempts: n, body: last.body) if last.kind == :ok
          break if last.kind == :rejected || n == tuning.max_attempts

          left = deadline - Clock.now
          if last.retry_after
            return failed(last, n, "Retry-After #{last.retry_after} s exceeds the export budget") if last.retry_after > left / 2

            throttle.hold(last.retry_after)
            next
          end
          delay = backoff(n, tuning.backoff_base, random)
          return failed(last, n, "backoff exceeds the export budget") if delay > left / 2

          sleep(delay)
        end
        failed(last, tuning.max_attempts)
      end

      # Jittered exponential backoff for attempt `n` (1-based), in seconds.
      def backoff(n, base, random = Kernel.method(:rand))
        ceiling = [MAX_BACKOFF, base * (2**(n - 1))].min
        ceiling * (0.75 + (random.call / 4))
      end

      def failed(last, attempts, why = nil)
        message = last.message.to_s
        Delivery.new(delivered: false, status: last.status, attempts: attempts,
                     message: why ? "#{message} (#{why})" : message)
      end

      # Classifies an OTLP exchange.
      def classify(outcome, codec)
        return Attempt.new(kind: :retryable, message: "network error: #{outcome.message}") if outcome.network_error?

        status = outcome.status
        return classify_success(outcome, codec) if outcome.success?

        message = "HTTP #{status}#{describe(outcome.body)}"
        if RETRYABLE_STATUSES.include?(status)
          return Attempt.new(kind: :retryable, status: status, message: message,
                             retry_after: Http.retry_after(outcome.headers["retry-after"]))
        end
        Attempt.new(kind: :rejected, status: status, message: message)
      end

      def classify_success(outcome, codec)
        summary = codec.read_response(outcome.body)
        return Attempt.new(kind: :rejected, status: outcome.status, message: "rejected: #{summary.error}") if summary.error

        if summary.rejected_spans.positive?
          return Attempt.new(kind: :rejected, status: outcome.status,
                             message: "#{summary.rejected_spans} carrier(s) rejected: " \
                                      "#{summary.error_message || 'no reason given'}")
        end
        Attempt.new(kind: :ok, status: outcome.status, body: outcome.body)
      end

      def describe(body)
        return "" if body.nil? || body.empty?

        ": #{body.byteslice(0, 500).dup.force_encoding('UTF-8').scrub}"
      end
    end
  end
end
