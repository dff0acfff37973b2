# frozen_string_literal: true

module Reprise
  module Transport
    # The background worker of one client: a bounded queue that drops its OLDEST entry when full (docs/sdk-transport.md,
    # limits: 8,192 carriers), drained by one thread every `scheduled_delay` seconds, when a batch is full, or when a
    # flush asks. Entries are turned into carriers on the worker thread (`prepare`, where the sim plan applies), then
    # exported in batches of `max_export_batch_size`. Nothing here runs on the application's path but `push`.
    class BatchWorker
      Entry = Struct.new(:seq, :item)
      Waiter = Struct.new(:target, :failures, :promise)

      # `prepare.call(items)` returns carriers; `export.call(carriers)` returns true on success;
      # `dropped.call(item)` is told about entries dropped from a full queue.
      def initialize(tuning, logger, prepare:, export:, dropped:)
        @tuning = tuning
        @logger = logger
        @prepare = prepare
        @export = export
        @dropped_hook = dropped
        @lock = Mutex.new
        @cond = ConditionVariable.new
        @queue = []
        @seq = 0
        @done_seq = 0
        @failures = 0
        @dropped = 0
        @waiters = []
        @stopping = false
        @urgent = false
        @thread = Thread.new { run }
        @thread.name = "reprise-worker" if @thread.respond_to?(:name=)
        @thread.report_on_exception = false
      end

      # Entries dropped because the queue was full, since creation.
      attr_reader :dropped

      def queue_length
        @lock.synchronize { @queue.size }
      end

      # Queues an item; false once the worker is stopping. Never blocks on the network. An `urgent` item is exported
      # without waiting for the scheduled delay (the replay runner waits on replay traces' completions).
      def push(item, urgent: false)
        dropped = nil
        accepted = @lock.synchronize do
          next false if @stopping

          if @queue.size >= @tuning.max_queue_size
            dropped = @queue.shift.item
            @dropped += 1
          end
          @seq += 1
          @queue << Entry.new(@seq, item)
          @urgent ||= urgent
          @cond.signal if urgent || @queue.size >= @tuning.max_export_batch_size
          true
        end
        @dropped_hook.call(dropped) if dropped
        accepted
      end

      # Exports everything queued so far; true when every export since the call succeeded, false on failure or after
      # `timeout` seconds.
      def flush(timeout)
        waiter = @lock.synchronize do
          next nil if @done_seq >= @seq

          Waiter.new(@seq, @failures, Promise.new).tap do |w|
            @waiters << w
            @cond.signal
          end
        end
        return true if waiter.nil?

        waiter.promise.wait(timeout, false)
      end

      # Flushes, then stops the thread for good; later pushes are refused.
      def shutdown(timeout)
        deadline = Clock.now + timeout
        flushed = flush(timeout)
        @lock.synchronize do
          @stopping = true
          @cond.signal
        end
        @thread.join([deadline - Clock.now, 0.01].max)
        flushed
      end

      def alive?
        @thread.alive?
      end

      private

      def run
        while (batch = take_batch)
          ok = begin
            @export.call(@prepare.call(batch.map(&:item)))
          rescue StandardError => e
            Logging.safe_warn(@logger, "Tracing export failed internally: #{e.class}: #{e.message}")
            false
          end
          @lock.synchronize do
            @failures += 1 unless ok
            @done_seq = batch.last.seq
            resolve_waiters
          end
        end
      end

      def take_batch
        @lock.synchronize do
          deadline = Clock.now + @tuning.scheduled_delay
          loop do
            break if @queue.size >= @tuning.max_export_batch_size || @stopping
            break if !@queue.empty? && (@urgent || !@waiters.empty? || Clock.now >= deadline)

            deadline = Clock.now + @tuning.scheduled_delay if @queue.empty? && Clock.now >= deadline
            @cond.wait(@lock, [deadline - Clock.now, 0.001].max)
          end
          return nil if @queue.empty?

          @urgent = false
          @queue.shift(@tuning.max_export_batch_size)
        end
      end

      def resolve_waiters
        @waiters.reject! do |waiter|
          next false if waiter.target > @done_seq

          waiter.promise.resolve(@failures == waiter.failures)
          true
        end
      end
    end
  end
end
