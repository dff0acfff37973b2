# frozen_string_literal: true

module Reprise
  # Resolved client settings: keyword option, then `REPRISE_*` environment variable, then default.
  class Config
    # Default base URL of a local Reprise server.
    DEFAULT_SERVICE_URL = "http://localhost:3000"
    # SDK wire target per OTLP request (docs/sdk-transport.md, limits).
    MAX_REQUEST_BYTES = 3_000_000
    DEFAULT_EXPORT_CONCURRENCY = 32
    MAX_EXPORT_CONCURRENCY = 64

    # Batch processor and request tuning; the defaults are the interface's values, tests shorten them.
    Tuning = Struct.new(
      :max_queue_size,          # carriers queued; the oldest are dropped when full
      :scheduled_delay,         # seconds between scheduled exports
      :max_export_batch_size,   # carriers per export call
      :max_carriers_per_request,
      :export_timeout,          # seconds for one export call, waits and retries included
      :request_timeout,         # seconds for one HTTP request
      :max_attempts,            # attempts per request, the first included
      :backoff_base,            # first backoff step in seconds; doubles per attempt, capped at 5 s, jittered
      keyword_init: true
    )

    # Where carriers go: `:direct` (OTLP/JSON to Reprise) or `:collector` (OTLP/protobuf). Never both.
    Mode = Struct.new(:kind, :url, :encoding, keyword_init: true) do
      def direct?
        kind == :direct
      end
    end

    # A warning `resolve` wants emitted once, keyed so repeated clients do not repeat it.
    Warning = Struct.new(:key, :message)

    OPTION_KEYS = %i[api_key service_url otel_exporter_endpoint max_request_bytes export_concurrency
                     disable_compression disable_sim_plan logger transport].freeze

    attr_reader :api_key, :service_url, :mode, :max_request_bytes, :export_concurrency, :tuning

    def initialize(api_key:, service_url:, mode:, max_request_bytes:, export_concurrency:, compression:,
                   sim_plan:, tuning:)
      @api_key = api_key
      @service_url = service_url
      @mode = mode
      @max_request_bytes = max_request_bytes
      @export_concurrency = export_concurrency
      @compression = compression
      @sim_plan = sim_plan
      @tuning = tuning
      freeze
    end

    # True unless compression was disabled.
    def compression?
      @compression
    end

    # True unless the sim plan was disabled.
    def sim_plan?
      @sim_plan
    end

    # True when an API key is set: without one, tracing is off.
    def enabled?
      !api_key.empty?
    end

    class << self
      # Resolves options against the environment. Pure: returns `[config, warnings]` instead of printing.
      def resolve(options = {}, env = ENV)
        unknown = options.keys - OPTION_KEYS
        raise ArgumentError, "unknown Reprise option(s): #{unknown.join(', ')}" unless unknown.empty?

        warnings = []
        service_url = strip_slash(pick(options[:service_url], env["REPRISE_URL"]) || DEFAULT_SERVICE_URL)
        mode = resolve_mode(service_url, pick(options[:otel_exporter_endpoint], env["REPRISE_OTEL_EXPORTER_ENDPOINT"]))
        config = new(
          api_key: (options[:api_key] || env["REPRISE_API_KEY"] || "").to_s.strip,
          service_url: service_url,
          mode: mode,
          max_request_bytes: bounded_int(option_or_env(options, :max_request_bytes, env, "REPRISE_OTEL_MAX_REQUEST_BYTES"),
                                         "REPRISE_OTEL_MAX_REQUEST_BYTES", 1, MAX_REQUEST_BYTES, MAX_REQUEST_BYTES, warnings),
          export_concurrency: bounded_int(option_or_env(options, :export_concurrency, env, "REPRISE_OTEL_EXPORT_CONCURRENCY"),
                                          "REPRISE_OTEL_EXPORT_CONCURRENCY", 1, MAX_EXPORT_CONCURRENCY,
                                          DEFAULT_EXPORT_CONCURRENCY, warnings),
          compression: !flag(options[:disable_compression], env["REPRISE_DISABLE_COMPRESSION"]),
          sim_plan: !flag(options[:disable_sim_plan], env["REPRISE_DISABLE_SIM_PLAN"]),
          tuning: default_tuning(mode).tap { |t| (options[:transport] || {}).each { |k, v| t[k] = v unless v.nil? } }
        )
        [config, warnings]
      end

      # The interface's transport defaults for a delivery mode.
      def default_tuning(mode)
        Tuning.new(
          max_queue_size: 8_192,
          scheduled_delay: 5.0,
          max_export_batch_size: mode.direct? ? 512 : 32,
          max_carriers_per_request: 128,
          export_timeout: 30.0,
          request_timeout: 30.0,
          max_attempts: 5,
          backoff_base: 0.1
        )
      end

      private

      def resolve_mode(service_url, endpoint)
        return Mode.new(kind: :direct, url: "#{service_url}/api/sdk/otel/v1/traces", encoding: :json) if endpoint.nil?

        base = strip_slash(endpoint)
        Mode.new(kind: :collector, url: base.end_with?("/v1/traces") ? base : "#{base}/v1/traces", encoding: :protobuf)
      end

      def option_or_env(options, key, env, name)
        options[key].nil? ? env[name] : options[key]
      end

      def bounded_int(raw, name, min, max, fallback, warnings)
        return fallback if raw.nil? || raw.to_s.strip.empty?

        value = raw.is_a?(Integer) ? raw : (raw.to_s =~ /\A\s*\d+\s*\z/ ? raw.to_s.to_i : nil)
        return value if value && value >= min && value <= max

        warnings << Warning.new("config:#{name}:#{raw}", "#{name}=#{raw} is not an integer from #{min} to #{max}; " \
                                                         "using #{fallback}.")
        fallback
      end

      def pick(option, env_value)
        return option.to_s.strip unless option.nil? || option.to_s.strip.empty?
        return env_value.strip unless env_value.nil? || env_value.strip.empty?

        nil
      end

      def flag(option, env_value)
        return option ? true : false unless option.nil?

        !env_value.nil? && !env_value.empty?
      end

      def strip_slash(url)
        url.sub(%r{/+\z}, "")
      end
    end
  end
end
