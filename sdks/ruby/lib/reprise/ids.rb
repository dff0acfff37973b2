# frozen_string_literal: true

module Reprise
  # Span and trace ids: random UUID v4 strings. They need to be unique, not secret, so they come from Ruby's fast
  # PRNG (reseeded by Ruby in a forked child) rather than from SecureRandom, which costs more on every span.
  module Ids
    module_function

    def uuid
      hex = Random.bytes(16).unpack1("H*")
      variant = ((hex[16].hex & 0x3) | 0x8).to_s(16)
      "#{hex[0, 8]}-#{hex[8, 4]}-4#{hex[13, 3]}-#{variant}#{hex[17, 3]}-#{hex[20, 12]}"
    end
  end
end
