# frozen_string_literal: true

require "json"
require "set"

module Reprise
  # Turns Ruby values into JSON-compatible data for `span_data.input`/`output`, contexts and metadata. What cannot
  # round-trip is coerced (an object becomes its `to_s`, an unsupported value a `<unserializable: …>` stub) and
  # reported, so the span carries a `serialization_degraded` entry (docs/api/ingestion.md, errors).
  module Encoding
    MAX_DEPTH = 64

    # An encoded value and the names of what could not be captured faithfully.
    Encoded = Struct.new(:json, :lost)

    module_function

    # Returns the `<unserializable: reason>` placeholder shared by the SDKs.
    def unserializable(reason)
      "<unserializable: #{reason}>"
    end

    NOTHING_LOST = [].freeze

    # Encodes `value`; never raises.
    def encode(value)
      case value # the common scalars skip the walker
      when nil, true, false, Integer then return Encoded.new(value, NOTHING_LOST)
      when String then return Encoded.new(string(value), NOTHING_LOST)
      end
      lost = Set.new
      Encoded.new(walk(value, 0, lost, {}), lost.to_a)
    rescue StandardError => e
      Encoded.new(unserializable(e.class.name), [e.class.name])
    end

    # Encoded JSON data without the loss report (contexts, metadata).
    def to_json_compatible(value)
      encode(value).json
    end

    def walk(value, depth, lost, seen)
      case value
      when nil, true, false, Integer then value
      when String then string(value)
      when Symbol then value.to_s
      when Float then value.finite? ? value : stub("non_finite_float", lost)
      when Hash, Array, Set, Struct then container(value, depth, lost, seen)
      when Time then value.utc.strftime("%Y-%m-%dT%H:%M:%S.%6NZ")
      else other(value, depth, lost, seen)
      end
    end

    def container(value, depth, lost, seen)
      return stub("max_depth", lost) if depth >= MAX_DEPTH
      return stub("circular_reference", lost) if seen.key?(value.object_id)

      seen[value.object_id] = true
      result =
        if value.is_a?(Hash) || value.is_a?(Struct)
          value.to_h.each_with_object({}) { |(k, v), out| out[key(k)] = walk(v, depth + 1, lost, seen) }
        else
          value.map { |v| walk(v, depth + 1, lost, seen) }
        end
      seen.delete(value.object_id)
      result
    end

    def other(value, depth, lost, seen)
      if value.respond_to?(:iso8601) then value.iso8601
      elsif value.respond_to?(:as_json) then walk(value.as_json, depth + 1, lost, seen)
      elsif defined?(::Data) && value.is_a?(::Data) then container(value.to_h, depth, lost, seen)
      else coerce(value, lost)
      end
    end

    def coerce(value, lost)
      lost << value.class.name.to_s
      string(value.to_s)
    rescue StandardError
      stub(value.class.name.to_s, lost)
    end

    def key(key)
      key.is_a?(String) ? string(key) : key.to_s
    end

    def string(value)
      return value if value.encoding == ::Encoding::UTF_8 && value.valid_encoding?

      copy = value.dup.force_encoding(::Encoding::UTF_8)
      copy.valid_encoding? ? copy : copy.scrub("\uFFFD")
    end

    def stub(reason, lost)
      lost << reason
      unserializable(reason)
    end
  end
end
