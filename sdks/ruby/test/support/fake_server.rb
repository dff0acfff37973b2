# frozen_string_literal: true

require "socket"
require "zlib"
require "stringio"
require "json"

# A small HTTP/1.1 server for the tests (no WEBrick in Ruby ≥ 3.0): records every request and answers through a
# handler `->(request) { [status, headers, body] }`.
class FakeServer
  Request = Struct.new(:method, :path, :headers, :raw_body) do
    # The body, gunzipped when it was sent gzipped.
    def body
      headers["content-encoding"] == "gzip" ? Zlib::GzipReader.new(StringIO.new(raw_body)).read : raw_body
    end

    def json
      JSON.parse(body)
    end

    # OTLP/JSON carriers of this request: `[operation, payload]` pairs.
    def carriers
      json["resourceSpans"].flat_map { |rs| rs["scopeSpans"].flat_map { |ss| ss["spans"] } }.map do |span|
        attrs = span["attributes"].to_h { |a| [a["key"], a["value"]["stringValue"]] }
        [attrs["reprise.operation"], JSON.parse(attrs["reprise.payload"])]
      end
    end
  end

  attr_reader :requests
  attr_accessor :handler

  def initialize(&handler)
    @handler = handler || ->(_req) { [200, {}, "{}"] }
    @server = TCPServer.new("127.0.0.1", 0)
    @requests = []
    @lock = Mutex.new
    @thread = Thread.new { accept_loop }
  end

  def port
    @server.addr[1]
  end

  def url
    "http://127.0.0.1:#{port}"
  end

  def otlp_requests
    snapshot.select { |r| r.path.end_with?("/v1/traces") }
  end

  def carriers
    otlp_requests.flat_map(&:carriers)
  end

  def snapshot
    @lock.synchronize { @requests.dup }
  end

  def stop
    @thread.kill
    @server.close
  rescue IOError
    nil
  end

  private

  def accept_loop
    loop do
      socket = @server.accept
      Thread.new(socket) { |s| serve(s) }.report_on_exception = false
    end
  rescue IOError
    nil
  end

  def serve(socket)
    loop do
      line = socket.gets or break
      method, path, = line.split(" ")
      headers = {}
      while (header = socket.gets) && header != "\r\n"
        key, value = header.split(":", 2)
        headers[key.downcase] = value.strip
      end
      body = socket.read(headers["content-length"].to_i) || ""
      request = Request.new(method, path, headers, body.b)
      @lock.synchronize { @requests << request }
      status, response_headers, response_body = @handler.call(request)
      break if status == :reset

      response_body = response_body.to_s
      head = +"HTTP/1.1 #{status} X\r\nContent-Length: #{response_body.bytesize}\r\n"
      head << "Content-Type: application/json\r\n" unless response_headers.key?("Content-Type")
      response_headers.each { |k, v| head << "#{k}: #{v}\r\n" }
      socket.write("#{head}\r\n#{response_body}")
      break if headers["connection"] == "close"
    end
  rescue IOError, Errno::ECONNRESET, Errno::EPIPE
    nil
  ensure
    socket.close rescue nil # rubocop:disable Style/RescueModifier
  end
end
