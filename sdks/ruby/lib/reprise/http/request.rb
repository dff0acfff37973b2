# frozen_string_literal: true

require "net/http"
require "uri"
require "timeout"
require "time"

module Reprise
  module Http
    # One HTTP exchange's outcome: a response, or a network error (including a timeout) as a value.
    Response = Struct.new(:status, :headers, :body) do
      def network_error?
        false
      end

      def success?
        status >= 200 && status < 300
      end
    end
    NetworkError = Struct.new(:message, :timed_out) do
      def network_error?
        true
      end
    end

    module_function

    # Sends one request with Net::HTTP within `timeout` seconds over the whole exchange. Never raises.
    def send_request(method, url, headers: {}, body: nil, timeout: 30)
      uri = URI.parse(url)
      request = build(method, uri, headers, body)
      Timeout.timeout(timeout) do
        Net::HTTP.start(uri.host, uri.port, use_ssl: uri.scheme == "https", open_timeout: timeout,
                                            read_timeout: timeout, write_timeout: timeout) do |http|
          response = http.request(request)
          Response.new(response.code.to_i, response.each_header.to_h, response.body.to_s.b)
        end
      end
    rescue Timeout::Error, Net::OpenTimeout, Net::ReadTimeout, Net::WriteTimeout
      NetworkError.new("timed out after #{timeout} s", true)
    rescue StandardError => e
      NetworkError.new("#{e.class}: #{e.message}", false)
    end

    def build(method, uri, headers, body)
      klass = { get: Net::HTTP::Get, post: Net::HTTP::Post, patch: Net::HTTP::Patch }.fetch(method)
      request = klass.new(uri.request_uri)
      request["Accept-Encoding"] = "identity"
      headers.each { |k, v| request[k] = v }
      request.body = body if body
      request
    end

    # Parses `Retry-After`: integer or fractional seconds, or an HTTP-date. Seconds, or nil when absent/unreadable.
    def retry_after(value, now = Time.now)
      text = value.to_s.strip
      return nil if text.empty?
      return Float(text) if text.match?(/\A\d+(\.\d+)?\z/)
      return nil unless text.match?(/[a-z]/i)

      [Time.httpdate(text) - now, 0].max.to_f
    rescue ArgumentError
      nil
    end
  end
end
