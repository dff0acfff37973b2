# frozen_string_literal: true

module Reprise
  module Transport
    # Greedily packs carriers, in order, into requests bounded by carrier count and exact encoded size
    # (docs/sdk-transport.md). Returns groups of indexes; a carrier that alone exceeds the limit
    # gets its own group.
    module Packer
      module_function

      def pack(sizes, max_carriers:, max_bytes:, codec:)
        groups = []
        current = []
        bytes = 0
        sizes.each_with_index do |size, index|
          fits = current.size < max_carriers && codec.request_size(bytes + size, current.size + 1) <= max_bytes
          if !fits && !current.empty?
            groups << current
            current = []
            bytes = 0
          end
          current << index
          bytes += size
        end
        groups << current unless current.empty?
        groups
      end
    end
  end
end
