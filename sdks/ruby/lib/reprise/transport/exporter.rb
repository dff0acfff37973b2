# frozen_string_literal: true

module Reprise
  module Transport
    # Exports one batch of carriers: packs them into size-bounded requests, sends up to `export_concurrency` at
    # once, gzips, retries through one shared throttle, and trims oversized carriers (docs/sdk-transport.md,
    # transport rules 3-9). Returns true when every request was delivered.
    class Exporter
      # Decompressed request ceiling of the server.
      DECOMPRESSED_CEILING = 8_000_000

      Prepared = Struct.new(:carrier, :bytes)
      Request = Struct.new(:carriers, :raw, :body)

      def initialize(config, logger, acks)
        @config = config
        @logger = logger
        @acks = acks
        @codec = config.mode.encoding == :json ? JsonEnvelope.new : ProtobufEnvelope.new
        @throttle = Throttle.new
        @warner = Logging::ThrottledWarner.new(logger)
      end

      # Exports carriers within the export budget; true when every request was delivered.
      def export(carriers)
        return true if carriers.empty?

        deadline = Clock.now + @config.tuning.export_timeout
        requests = plan(carriers.map { |c| Prepared.new(c, @codec.encode(c)) })
        results = each_concurrently(requests) do |request|
          deliver(request, deadline)
        rescue StandardError => e
          Delivery.new(delivered: false, message: "#{e.class}: #{e.message}", attempts: 0)
        end
        failures = results.reject(&:delivered)
        return true if failures.empty?

        first = failures.first
        @warner.warn("delivery:#{first.status || 'network'}",
                     "could not deliver #{failures.size} of #{requests.size} request(s) to #{@config.mode.url}: " \
                     "#{first.message}")
        false
      end

      private

      def plan(prepared)
        normal, oversized = prepared.partition { |p| @codec.request_size(p.bytes.bytesize, 1) <= @config.max_request_bytes }
        groups = Packer.pack(normal.map { |p| p.bytes.bytesize }, max_carriers: @config.tuning.max_carriers_per_request,
                                                                  max_bytes: @config.max_request_bytes, codec: @codec)
        requests = groups.map do |group|
          members = group.map { |i| normal[i] }
          Request.new(members, @codec.assemble(members.map(&:bytes)), nil)
        end
        requests + oversized.map { |p| plan_oversized(p) }
      end

      # A carrier over the packing target goes alone: intact when it gzips under the target and stays under the
      # decompressed ceiling, else trimmed to the fallback budget (rules 5 and 7).
      def plan_oversized(original)
        current = original
        if PayloadBudget.escaped_bytes(current.carrier.payload_json) > PayloadBudget::PER_SPAN_BUDGET
          current = trim(current, PayloadBudget::PER_SPAN_BUDGET)
        end
        raw = @codec.assemble([current.bytes])
        if @config.compression? && raw.bytesize <= DECOMPRESSED_CEILING
          body = Compress.prepare(raw, true)
          return Request.new([current], raw, body) if body.gzipped && body.bytes.bytesize <= @config.max_request_bytes
        end
        current = trim(current, fallback_budget(current))
        Request.new([current], @codec.assemble([current.bytes]), nil)
      end

      # The fallback budget, lowered when a smaller request target leaves less room for the payload.
      def fallback_budget(prepared)
        envelope = @codec.request_size(0, 1)
        non_payload = prepared.bytes.bytesize - PayloadBudget.escaped_bytes(prepared.carrier.payload_json)
        [[PayloadBudget::FALLBACK_BUDGET, @config.max_request_bytes - envelope - non_payload].min, 0].max
      end

      def trim(prepared, budget)
        carrier = prepared.carrier
        result = PayloadBudget.trim(carrier.payload, carrier.operation, budget)
        return prepared if result.trimmed.empty?

        Logging.warn_once(@logger, "payload_budget",
                          "A #{carrier.operation} payload exceeded the carrier budget; oversized fields were replaced " \
                          "with <unserializable: too_large_N_bytes> (recorded under errors, step payload_budget).")
        trimmed = carrier.with_payload(result.payload)
        Prepared.new(trimmed, @codec.encode(trimmed))
      end

      def deliver(request, deadline)
        body = request.body || Compress.prepare(request.raw, @config.compression?)
        result = RetryingSender.deliver(deadline: deadline, tuning: @config.tuning, throttle: @throttle) do |timeout|
          attempt(body, timeout)
        end
        acknowledge(request, result.body) if result.delivered
        result
      end

      def attempt(body, timeout)
        headers = { "Authorization" => "Bearer #{@config.api_key}", "Content-Type" => @codec.content_type }
        headers["Content-Encoding"] = "gzip" if body.gzipped
        outcome = Http.send_request(:post, @config.mode.url, headers: headers, body: body.bytes, timeout: timeout)
        RetryingSender.classify(outcome, @codec)
      end

      # A Collector's acceptance does not prove persistence, so only direct-mode answers are acknowledgments.
      def acknowledge(request, body)
        return unless @config.mode.direct?

        @acks.record(request.carriers.map(&:carrier), @codec.read_response(body).trace_ids)
      end

      def each_concurrently(items, &block)
        return items.map(&block) if items.size <= 1

        queue = Queue.new
        items.each_with_index { |item, i| queue << [item, i] }
        queue.close
        results = Array.new(items.size)
        workers = Array.new([@config.export_concurrency, items.size].min) do
          Thread.new do
            while (pair = queue.pop)
              results[pair[1]] = block.call(pair[0])
            end
          end
        end
        workers.each(&:join)
        results
      end
    end
  end
end
