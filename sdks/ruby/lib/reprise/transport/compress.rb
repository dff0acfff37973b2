# frozen_string_literal: true

require "zlib"
require "stringio"

module Reprise
  module Transport
    # Gzip of request bodies (docs/sdk-transport.md).
    module Compress
      # Bodies of this many bytes or more are candidates for gzip.
      THRESHOLD = 8_192

      Body = Struct.new(:bytes, :gzipped)

      module_function

      # Gzips a body of 8,192 bytes or more when that makes it smaller. Best-effort: on failure, or when compression
      # is disabled, the original body is sent.
      def prepare(bytes, enabled)
        return Body.new(bytes, false) if !enabled || bytes.bytesize < THRESHOLD

        compressed = gzip(bytes)
        compressed.bytesize < bytes.bytesize ? Body.new(compressed, true) : Body.new(bytes, false)
      rescue StandardError
        Body.new(bytes, false)
      end

      def gzip(bytes)
        io = StringIO.new((+"").b)
        writer = Zlib::GzipWriter.new(io)
        writer.write(bytes)
        writer.close
        io.string
      end
    end
  end
end
