# frozen_string_literal: true

module Reprise
  # A client's whole delivery path: a background worker whose thread applies the sim plan and exports carriers.
  # Built lazily on the first submission, registered so `Reprise.flush_traces` and the replay barrier reach it, and
  # rebuilt in a forked child (the parent's thread does not survive `fork`; what the parent had queued is the
  # parent's to send).
  class Pipeline
    attr_reader :acks

    def initialize(config, logger, api)
      @config = config
      @logger = logger
      @api = api
      @acks = Transport::AckTracker.new
      @lock = Mutex.new
      @closed = false
      @worker = nil
      @pid = nil
    end

    def closed?
      @closed
    end

    # Queues a finished span; false when the pipeline is closed. Never raises.
    def submit_span(trace, span)
      push([:span, trace, span])
    end

    # Queues a trace completion, built on the worker once every earlier span of the trace was decided.
    def submit_completion(trace)
      accepted = push([:completion, trace], urgent: !trace.replay.nil?)
      trace.completion_decided(false) unless accepted
      accepted
    end

    # Queues a function-execution trace carrier.
    def submit_carrier(carrier)
      push([:carrier, carrier])
    end

    # Exports everything queued; false on failure or after `timeout` seconds. Never raises.
    def flush(timeout)
      worker = @lock.synchronize { current_worker }
      worker.nil? || worker.flush(timeout)
    rescue StandardError
      false
    end

    # Flushes, then shuts down for good; later submissions are rejected.
    def close(timeout)
      worker = @lock.synchronize do
        return true if @closed

        @closed = true
        current_worker
      end
      Reprise.unregister(self)
      worker.nil? || worker.shutdown(timeout)
    rescue StandardError
      false
    end

    private

    def push(item, urgent: false)
      worker = @lock.synchronize do
        if @closed
          Logging.warn_once(@logger, "transport-closed", "A span was recorded after close; it was not sent.")
          return false
        end
        current_worker || start_worker
      end
      worker.push(item, urgent: urgent)
    rescue StandardError => e
      Logging.safe_warn(@logger, "Tracing failed internally and was skipped: #{e.class}: #{e.message}")
      false
    end

    # The worker of this process; nil when none was started here (or only in the parent before a fork).
    def current_worker
      return nil if @worker.nil?
      return @worker if @pid == Process.pid

      @worker = nil # forked: the parent's worker thread does not exist in this process
      @acks = Transport::AckTracker.new
      nil
    end

    def start_worker
      @pid = Process.pid
      sim_plan = @config.sim_plan? ? SimPlan::Source.new(@api) : nil
      sim_plan&.current # the first read starts now, beside the application
      exporter = Transport::Exporter.new(@config, @logger, @acks)
      @worker = Transport::BatchWorker.new(
        @config.tuning, @logger,
        prepare: ->(items) { prepare(items, sim_plan) },
        export: ->(carriers) { exporter.export(carriers) },
        dropped: ->(item) { item[1].completion_decided(false) if item[0] == :completion }
      )
      Reprise.register(self)
      @worker
    end

    # Turns queued items into carriers on the worker thread, in order, so a completion counts exactly the spans
    # sent before it.
    def prepare(items, sim_plan)
      items.filter_map do |kind, a, b|
        case kind
        when :span then span_carrier(a, b, sim_plan)
        when :completion then completion_carrier(a)
        when :carrier then a
        end
      rescue StandardError => e
        Logging.safe_warn(@logger, "Tracing failed internally and was skipped: #{e.class}: #{e.message}")
        a.completion_decided(false) if kind == :completion
        nil
      end
    end

    def span_carrier(trace, span, sim_plan)
      carrier = Tracing::Payloads.span_carrier(trace, span)
      if sim_plan
        state, content_off = sim_plan.settle(SimPlan::TIMEOUT + 1)
        SimPlan.apply(state, content_off, carrier.payload, trace_function_key: trace.trace_function_key,
                                                           name: span.name, root: span.root?)
      end
      trace.span_sent
      carrier
    end

    def completion_carrier(trace)
      carrier = Tracing::Payloads.completion_carrier(trace, trace.sent_spans)
      trace.completion_decided(true)
      carrier
    end
  end
end
