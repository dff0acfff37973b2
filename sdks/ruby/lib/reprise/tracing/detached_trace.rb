# frozen_string_literal: true

require "uri"

module Reprise
  module Tracing
    # Updates a trace by id after it left the current context, through `PATCH /api/sdk/traces/{id}`
    # (docs/api/traces.md). Blocking: each call returns once the server accepted it and raises `Reprise::ApiError`
    # on rejection.
    class DetachedTrace
      # Timeout of a detached trace update, in seconds.
      TIMEOUT = 10

      attr_reader :id

      def initialize(id, api)
        @id = id
        @api = api
      end

      # Replaces the trace title.
      def set_name(name)
        patch("setName" => name.to_s)
      end

      # Shallow-merges keys into the trace metadata.
      def merge_metadata(metadata)
        patch("mergeMetadata" => Encoding.to_json_compatible(metadata))
      end

      # Appends context hashes to the trace.
      def add_context(*contexts)
        patch("appendContexts" => contexts.map { |c| Encoding.to_json_compatible(c) })
      end

      # Replaces the session id.
      def set_session_id(session_id)
        patch("setSessionId" => session_id.to_s)
      end

      # Sends several updates in one request (`setName`, `mergeMetadata`, `appendContexts`, `setSessionId`).
      def update(body)
        patch(body.transform_keys(&:to_s))
      end

      private

      def patch(body)
        @api.call(:patch, "/traces/#{URI.encode_www_form_component(id)}", body, timeout: TIMEOUT)
        self
      end
    end
  end
end
