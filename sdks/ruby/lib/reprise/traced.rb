# frozen_string_literal: true

module Reprise
  # Wraps methods so each call is recorded: `trace_method` records a trace (a child span inside another trace),
  # `span_method` a child span. The argument list is the input (keywords as a trailing Hash), the return value the
  # output.
  #
  #   class Agent
  #     extend Reprise::Traced
  #
  #     def run(question) = plan(question)
  #     trace_method :run, "agent-run"
  #
  #     def plan(question) = "..."
  #     span_method :plan, type: :agent
  #   end
  #
  # The calls go through `Reprise.client` unless `client:` names another one.
  module Traced
    # The prepended module holding a class's wrappers; it remembers which method traces which key.
    class Wrappers < Module
      attr_reader :trace_keys

      def initialize
        super
        @trace_keys = {}
      end
    end

    # Records every call of `method_name` as a trace of `trace_function_key` (default "Class#method").
    def trace_method(method_name, trace_function_key = nil, type: :function, span_name: nil, client: nil)
      key = (trace_function_key || "#{name}##{method_name}").to_s
      wrappers = reprise_wrappers
      wrappers.trace_keys[method_name.to_sym] = key
      wrappers.define_method(method_name) do |*args, **kwargs, &blk|
        (client || Reprise.client).trace(key, input: Traced.input(args, kwargs), span_name: span_name, type: type,
                                              function_name: method_name.to_s) { super(*args, **kwargs, &blk) }
      end
      method_name
    end

    # Records every call of `method_name` inside a trace as a child span named `name` (default the method name).
    def span_method(method_name, name = nil, type: nil, mock_on_replay: false, client: nil)
      span_name = (name || method_name).to_s
      reprise_wrappers.define_method(method_name) do |*args, **kwargs, &blk|
        (client || Reprise.client).span(span_name, type: type, input: Traced.input(args, kwargs),
                                                   function_name: method_name.to_s, mock_on_replay: mock_on_replay) do
          super(*args, **kwargs, &blk)
        end
      end
      method_name
    end

    # The recorded input of a call.
    def self.input(args, kwargs)
      kwargs.empty? ? args : args + [kwargs]
    end

    # True when `callable` is a method wrapped by `trace_method` for `key` (the replay runner calls it as is).
    def self.traces?(callable, key)
      return false unless callable.is_a?(Method)

      owner = callable.owner
      owner.is_a?(Wrappers) && owner.trace_keys[callable.name] == key
    end

    private

    def reprise_wrappers
      @reprise_wrappers ||= Wrappers.new.tap { |mod| prepend(mod) }
    end
  end
end
