# frozen_string_literal: true

module Reprise
  module Replay
    # How a recorded input becomes the arguments of a call: an array recorded by a wrapped method is the argument
    # list (a trailing Hash becomes keywords when the method takes them); a block taking one parameter receives the
    # input as it was recorded.
    module Arguments
      module_function

      def call(callable, input)
        return callable.call(input) if single?(callable) || !input.is_a?(Array)

        args = input.dup
        if args.last.is_a?(Hash) && keywords?(callable)
          kwargs = args.pop.transform_keys(&:to_sym)
          return callable.call(*args, **kwargs)
        end
        callable.call(*args)
      end

      def single?(callable)
        callable.is_a?(Proc) && !callable.lambda? && callable.arity == 1
      end

      def keywords?(callable)
        callable.respond_to?(:parameters) && callable.parameters.any? { |kind, _| %i[key keyreq keyrest].include?(kind) }
      end
    end
  end
end
