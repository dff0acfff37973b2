"""A small hand-written OTLP/protobuf encoder for Collector mode (``REPRISE_OTEL_EXPORTER_ENDPOINT``).

Each carrier is encoded as a complete one-span ``ExportTraceServiceRequest``. Concatenated protobuf messages
merge and repeated fields append, so a request is the concatenation of its carriers (one ``resourceSpans`` entry
each) and its size is the sum of theirs. Field numbers follow opentelemetry-proto's trace/v1, common/v1,
resource/v1 and collector/trace/v1 definitions."""

from __future__ import annotations

import struct
from typing import List, Tuple

from .._version import SDK_SCOPE_NAME, SDK_SERVICE_NAME, SDK_VERSION
from .carrier import OPERATION_ATTRIBUTE, PAYLOAD_ATTRIBUTE, Carrier
from .types import ResponseSummary

_VARINT, _FIXED64, _LEN, _FIXED32 = 0, 1, 2, 5


def _varint(value: int) -> bytes:
    out = bytearray()
    value &= (1 << 64) - 1
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _key(field: int, wire: int) -> bytes:
    return _varint((field << 3) | wire)


def _bytes_field(field: int, data: bytes) -> bytes:
    return _key(field, _LEN) + _varint(len(data)) + data


def _string_field(field: int, text: str) -> bytes:
    return _bytes_field(field, text.encode("utf-8", "replace"))


def _key_value(key: str, value: str) -> bytes:
    any_value = _string_field(1, value)  # AnyValue.string_value = 1
    return _string_field(1, key) + _bytes_field(2, any_value)  # KeyValue.key = 1, value = 2


def _resource() -> bytes:
    attributes = [_key_value("service.name", SDK_SERVICE_NAME), _key_value("service.version", SDK_VERSION)]
    return b"".join(_bytes_field(1, a) for a in attributes)  # Resource.attributes = 1


_RESOURCE_FIELD = _bytes_field(1, _resource())  # ResourceSpans.resource = 1
_SCOPE_FIELD = _bytes_field(1, _string_field(1, SDK_SCOPE_NAME) + _string_field(2, SDK_VERSION))  # ScopeSpans.scope = 1


def encode_span(carrier: Carrier) -> bytes:
    """The OTLP ``Span`` message of a carrier."""
    status = _key(3, _VARINT) + _varint(2) if carrier.is_error else b""  # Status.code = 3 (ERROR = 2)
    return b"".join([
        _bytes_field(1, carrier.otel_trace_id),  # trace_id
        _bytes_field(2, carrier.otel_span_id),  # span_id
        _string_field(5, carrier.name),  # name
        _key(6, _VARINT) + _varint(1),  # kind = SPAN_KIND_INTERNAL
        _key(7, _FIXED64) + struct.pack("<Q", carrier.start_ns),  # start_time_unix_nano
        _key(8, _FIXED64) + struct.pack("<Q", carrier.end_ns),  # end_time_unix_nano
        _bytes_field(9, _key_value(OPERATION_ATTRIBUTE, carrier.operation)),  # attributes
        _bytes_field(9, _key_value(PAYLOAD_ATTRIBUTE, carrier.payload_text())),
        _bytes_field(15, status),  # status
        _key(16, _FIXED32) + struct.pack("<I", 1),  # flags: sampled
    ])


class ProtobufEnvelope:
    """OTLP/protobuf codec of Collector mode."""

    content_type = "application/x-protobuf"

    def encode_carrier(self, carrier: Carrier) -> bytes:
        scope_spans = _SCOPE_FIELD + _bytes_field(2, encode_span(carrier))  # ScopeSpans.spans = 2
        resource_spans = _RESOURCE_FIELD + _bytes_field(2, scope_spans)  # ResourceSpans.scope_spans = 2
        return _bytes_field(1, resource_spans)  # ExportTraceServiceRequest.resource_spans = 1

    def request_size(self, carrier_bytes: int, count: int) -> int:
        return carrier_bytes

    def assemble(self, carriers: List[bytes]) -> bytes:
        return b"".join(carriers)

    def read_response(self, body: bytes) -> ResponseSummary:
        """Reads ``ExportTraceServiceResponse.partial_success`` (field 1: rejected_spans = 1, error_message = 2)."""
        try:
            summary = ResponseSummary()
            for field, wire, value in _fields(body):
                if field == 1 and wire == _LEN:
                    for inner_field, inner_wire, inner in _fields(value):
                        if inner_field == 1 and inner_wire == _VARINT:
                            summary.rejected_spans = int(inner)
                        elif inner_field == 2 and inner_wire == _LEN:
                            summary.error_message = bytes(inner).decode("utf-8", "replace")
            return summary
        except (ValueError, IndexError):
            return ResponseSummary()


def _read_varint(data: bytes, pos: int) -> Tuple[int, int]:
    result = 0
    shift = 0
    while True:
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7
        if shift > 63:
            raise ValueError("varint too long")


def _fields(data: bytes):
    pos = 0
    while pos < len(data):
        key, pos = _read_varint(data, pos)
        field, wire = key >> 3, key & 7
        if wire == _VARINT:
            value, pos = _read_varint(data, pos)
            yield field, wire, value
        elif wire == _LEN:
            length, pos = _read_varint(data, pos)
            if pos + length > len(data):
                raise ValueError("truncated field")
            yield field, wire, data[pos:pos + length]
            pos += length
        elif wire == _FIXED64:
            pos += 8
        elif wire == _FIXED32:
            pos += 4
        else:
            raise ValueError(f"unsupported wire type {wire}")
