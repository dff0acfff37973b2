# frozen_string_literal: true

require_relative "lib/reprise/version"

Gem::Specification.new do |spec|
  spec.name = "reprise"
  spec.version = Reprise::VERSION
  spec.summary = "Record, replay and judge LLM and agent applications with Reprise"
  spec.description = "The Ruby SDK of Reprise: block-based tracing, a bounded background exporter speaking " \
                     "OTLP/JSON (or OTLP/protobuf to a Collector), and a replay runner. Standard library only."
  spec.authors = ["Reprise"]
  spec.license = "Apache-2.0"
  spec.required_ruby_version = ">= 3.1"
  spec.files = Dir["lib/**/*.rb", "README.md"]
  spec.require_paths = ["lib"]
  spec.metadata["rubygems_mfa_required"] = "true"
end
