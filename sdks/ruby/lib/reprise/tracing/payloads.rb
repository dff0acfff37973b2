# frozen_string_literal: true

module Reprise
  module Tracing
    # Builds the payloads the carriers hold (docs/api/ingestion.md): the span payload and the trace completion.
    module Payloads
      module_function

      # The `external_span` carrier of a finished span.
      def span_carrier(trace, span)
        payload = {
          "type" => "sdk-function",
          "source" => SOURCE,
          "sourceTraceId" => trace.id,
          "traceFunctionKey" => trace.trace_function_key,
          "sdkVersion" => VERSION
        }
        payload.merge!(replay_ids(trace))
        payload["rawSpan"] = raw_span(trace, span)
        payload.merge!("mocked" => true, "mockTarget" => "output", "mockSource" => "recorded") if span.mocked
        payload["errors"] = span.errors.dup unless span.errors.empty?
        Transport::Carrier.new(
          operation: "external_span", payload: payload, trace_id: trace.id, span_id: span.id,
          name: span.name.to_s.empty? ? (trace.trace_function_key || "reprise.external_span") : span.name,
          start_time: span.started_at, end_time: span.ended_at || Time.now, error: !span.error.nil?
        )
      end

      def raw_span(trace, span)
        raw = { "id" => span.id, "trace_id" => trace.id }
        raw["parent_id"] = span.parent_id unless span.root? # roots leave it out
        raw["started_at"] = Clock.iso(span.started_at)
        raw["ended_at"] = Clock.iso(span.ended_at || Time.now)
        raw["input_source_span_id"] = trace.replay.input_source_span_id if trace.replay
        raw["span_origin"] = { "name" => ORIGIN_NAME, "version" => VERSION,
                               "instrumentation" => { "name" => span.instrumentation } }
        raw["span_data"] = span_data(span)
        raw
      end

      def span_data(span)
        data = { "name" => span.name, "type" => span.type }
        data["function_name"] = span.function_name if span.function_name
        data["input"] = span.input.json if span.input
        data["output"] = span.output.json if span.output
        data["error"] = span.error unless span.error.nil?
        data["contexts"] = span.contexts.map { |c| Encoding.to_json_compatible(c) } unless span.contexts.empty?
        data["prompt"] = span.prompt unless span.prompt.nil?
        data
      end

      # The `external_trace` completion carrier, sent once when the outermost span and its descendants ended.
      def completion_carrier(trace, expected_span_count)
        ended = trace.ended_at || Time.now
        external = {
          "id" => trace.id, "started_at" => Clock.iso(trace.started_at), "ended_at" => Clock.iso(ended),
          "workflow_name" => trace.trace_function_key, "ingestion_type" => trace.ingestion_type
        }
        external["name"] = trace.name unless trace.name.nil?
        external["metadata"] = Encoding.to_json_compatible(trace.metadata) unless trace.metadata.empty?
        external["contexts"] = trace.contexts.map { |c| Encoding.to_json_compatible(c) } unless trace.contexts.empty?
        if trace.replay
          external["input_source_trace_id"] = trace.replay.input_source_trace_id
          external["replay_attempt"] = trace.replay.attempt
        end
        payload = {
          "id" => trace.id, "type" => "sdk-function", "source" => SOURCE,
          "traceFunctionKey" => trace.trace_function_key, "completed" => true, "sdkVersion" => VERSION,
          "ingestion_type" => trace.ingestion_type
        }
        payload.merge!(replay_ids(trace))
        payload["externalTrace"] = external
        payload["name"] = trace.name unless trace.name.nil?
        payload["sessionId"] = trace.session_id unless trace.session_id.nil?
        if trace.dropped?
          payload["dropped"] = true
        else
          payload["expectedSpanCount"] = expected_span_count
        end
        Transport::Carrier.new(
          operation: "external_trace", payload: payload, trace_id: trace.id, span_id: nil,
          name: trace.trace_function_key || "reprise.external_trace",
          start_time: trace.started_at, end_time: ended, error: false
        )
      end

      # Both names of the run id are sent.
      def replay_ids(trace)
        return {} unless trace.replay

        { "testRunId" => trace.replay.test_run_id, "experimentId" => trace.replay.test_run_id }
      end
    end
  end
end
