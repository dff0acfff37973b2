# frozen_string_literal: true

require "uri"

module Reprise
  module Replay
    # The replay endpoints (docs/api/replay.md), thin.
    class Api
      # Client timeout of replay calls, in seconds.
      TIMEOUT = 30

      def initialize(api)
        @api = api
      end

      # `POST /api/sdk/replay/start`.
      def start(body)
        @api.call(:post, "/replay/start", body, timeout: TIMEOUT)
      end

      # `GET /api/sdk/externalSpans/{id}?view=replay`: the original root span's input.
      def original_span(span_id)
        @api.call(:get, "/externalSpans/#{URI.encode_www_form_component(span_id)}?view=replay", timeout: TIMEOUT)
      end

      # `GET /api/sdk/replay/spanTree/{id}`: the original trace's span tree with recorded outputs.
      def span_tree(span_id)
        @api.call(:get, "/replay/spanTree/#{URI.encode_www_form_component(span_id)}", timeout: TIMEOUT)
      end

      # `POST /api/sdk/replay/status` with `expectedSpanCounts`: `{local trace id => server trace id}` of the traces
      # that are final with enough spans persisted.
      def status(test_run_id, expected_span_counts, timeout)
        body = @api.call(:post, "/replay/status", { "testRunId" => test_run_id, "experimentId" => test_run_id,
                                                    "expectedSpanCounts" => expected_span_counts },
                         timeout: [TIMEOUT, timeout].min)
        ids = body.is_a?(Hash) ? body["traceIds"] : nil
        return ids.grep(String).to_h { |id| [id, id] } if ids.is_a?(Array) # older servers answered a list

        ids.is_a?(Hash) ? ids : {}
      end

      # `POST /api/sdk/replay/complete`.
      def complete(test_run_id)
        @api.call(:post, "/replay/complete", { "testRunId" => test_run_id, "experimentId" => test_run_id },
                  timeout: TIMEOUT)
      end

      # An absolute URL from a relative path the server returned.
      def absolute(path)
        return nil if path.nil?
        return path if path.match?(%r{\Ahttps?://})

        "#{@api.base_url}#{path.start_with?('/') ? '' : '/'}#{path}"
      end
    end
  end
end
