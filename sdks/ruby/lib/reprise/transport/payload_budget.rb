# frozen_string_literal: true

require "json"

module Reprise
  module Transport
    # Trimming of oversized payloads (docs/sdk-transport.md, rules 6-7): the largest non-structural fields are
    # replaced with `<unserializable: too_large_N_bytes>`, largest first, until the payload fits, and the trim is
    # recorded in the payload's `errors` under step `payload_budget`.
    module PayloadBudget
      # Per-span carrier budget when the single-span request compresses under the wire target.
      PER_SPAN_BUDGET = 7_800_000
      # Fallback trim budget of an oversized carrier.
      FALLBACK_BUDGET = 2_800_000
      # Keys that identify a span or trace; never trimmed.
      STRUCTURAL = %w[name type function_name error_source content_off_by_simulation_plan id started_at ended_at
                      workflow_name ingestion_type input_source_trace_id replay_attempt].freeze
      FUNCTION_FIELDS = %w[result inputs rawCollector].freeze

      Trimmed = Struct.new(:payload, :trimmed)

      module_function

      # Size of a JSON text once re-escaped into the carrier's string attribute.
      def escaped_bytes(json)
        JSON.generate(json).bytesize - 2
      end

      # Trims a deep copy of `payload` to `budget` escaped bytes; returns the copy and what was trimmed.
      def trim(payload, operation, budget)
        payload = JSON.parse(JSON.generate(payload))
        total = escaped_bytes(JSON.generate(payload))
        trimmed = []
        candidates(payload, operation).sort_by { |c| -c[:escaped] }.each do |c|
          break if total <= budget

          placeholder = Encoding.unserializable("too_large_#{c[:raw]}_bytes")
          c[:container][c[:key]] = placeholder
          total -= c[:escaped] - escaped_bytes(JSON.generate(placeholder))
          trimmed << "#{c[:path]} (#{c[:raw]} bytes)"
        end
        unless trimmed.empty?
          errors = payload["errors"].is_a?(Array) ? payload["errors"] : []
          errors << { "source" => "sdk", "step" => "payload_budget",
                      "error" => "trimmed oversized field(s) to fit the #{budget}-byte carrier budget: " \
                                 "#{trimmed.join(', ')}" }
          payload["errors"] = errors
        end
        Trimmed.new(payload, trimmed)
      end

      def candidates(payload, operation)
        container, prefix =
          case operation
          when "external_span" then [payload.dig("rawSpan", "span_data"), "rawSpan.span_data"]
          when "external_trace" then [payload["externalTrace"], "externalTrace"]
          else [payload, ""]
          end
        return [] unless container.is_a?(Hash)

        container.filter_map do |key, value|
          next if STRUCTURAL.include?(key)
          next if operation == "internal_trace" && !FUNCTION_FIELDS.include?(key)

          json = JSON.generate(value)
          { container: container, key: key, path: prefix.empty? ? key : "#{prefix}.#{key}",
            escaped: escaped_bytes(json), raw: json.bytesize }
        end
      end
    end
  end
end
