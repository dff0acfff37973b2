# frozen_string_literal: true

require "json"

module Reprise
  module Http
    # The outcome of a blocking call as a value: `body` on success, `error` (a `Reprise::ApiError`) otherwise.
    Answer = Struct.new(:status, :body, :error)

    # Client of Reprise's blocking JSON endpoints under `/api/sdk/`. Non-2xx answers, 2xx bodies with a string
    # `error`, network errors and timeouts become `Reprise::ApiError` (docs/sdk-transport.md, "Responses").
    class ApiClient
      def initialize(config)
        @config = config
      end

      def base_url
        @config.service_url
      end

      # Calls an endpoint and returns its parsed JSON body, or raises `Reprise::ApiError`.
      def call(method, path, body = nil, timeout: 30, headers: {})
        answer = try_call(method, path, body, timeout: timeout, headers: headers)
        raise answer.error if answer.error

        answer.body
      end

      # Calls an endpoint and returns an `Answer`.
      def try_call(method, path, body = nil, timeout: 30, headers: {})
        raise ConfigError, "No API key: pass api_key or set REPRISE_API_KEY." unless @config.enabled?

        all = { "Authorization" => "Bearer #{@config.api_key}" }.merge(headers)
        payload = nil
        unless body.nil?
          prepared = Transport::Compress.prepare(JSON.generate(body).b, @config.compression?)
          payload = prepared.bytes
          all["Content-Type"] = "application/json"
          all["Content-Encoding"] = "gzip" if prepared.gzipped
        end
        url = "#{@config.service_url}/api/sdk#{path}"
        outcome = Http.send_request(method, url, headers: all, body: payload, timeout: timeout)
        if outcome.network_error?
          return Answer.new(nil, nil, ApiError.new("#{method.upcase} #{url} failed: #{outcome.message}"))
        end

        json = parse(outcome.body)
        record = json.is_a?(Hash) ? json : {}
        return Answer.new(outcome.status, json || {}, nil) if outcome.success? && !record["error"].is_a?(String)

        Answer.new(outcome.status, json, to_error(method, url, outcome, record))
      end

      private

      def parse(body)
        body.nil? || body.empty? ? nil : JSON.parse(body.dup.force_encoding("UTF-8"))
      rescue JSON::ParserError
        nil
      end

      def to_error(method, url, outcome, record)
        reason = record["error"].is_a?(String) ? record["error"] : outcome.body.byteslice(0, 500).to_s
        fix_at = record["url"].is_a?(String) ? "#{@config.service_url}#{record['url']}" : nil
        message = "#{method.upcase} #{url} answered #{outcome.status}: #{reason}"
        message += " Configure it at: #{fix_at}" if fix_at
        ApiError.new(message, status: outcome.status, code: record["code"].is_a?(String) ? record["code"] : nil,
                              url: fix_at)
      end
    end
  end
end
