"""JSON-compatible encoding of inputs, outputs, contexts and metadata.

``json`` is what a person reads (and what ``span_data.input``/``output`` carry). Values JSON cannot describe
exactly (datetimes, sets, tuples, bytes, enums, decimals, UUIDs, dataclasses, pydantic models, non-finite floats,
dicts with non-string keys) are written as their natural JSON form and described in ``meta``, so that replay can
rebuild them; ``{"json", "meta"}`` travels as ``input_serialized``/``output_serialized``. What cannot round-trip
(functions, open files, arbitrary objects, cycles, nesting deeper than 64) becomes ``"<unserializable: Type>"``
and is listed in ``lost``, which adds a ``serialization_degraded`` entry to the span's ``errors``.

Meta grammar (version 1): ``{"v": 1, "values": {"<path>": [<kind>, <qualified name>?]}}``; a path joins keys
and list indexes with ``.`` (a ``.`` or ``\\`` inside a key is escaped with ``\\``), the root is ``""``.
"""

from __future__ import annotations

import base64
import copy
import dataclasses
import datetime as _dt
import decimal
import enum
import math
import sys
import uuid
from typing import Any, Dict, List, NamedTuple, Optional, Set, Tuple

MAX_DEPTH = 64


def unserializable(reason: str) -> str:
    """The ``<unserializable: reason>`` placeholder shared by every Reprise SDK."""
    return f"<unserializable: {reason}>"


class EncodedValue(NamedTuple):
    """A value as JSON-compatible data, its type descriptions and what could not be kept."""

    json: Any
    meta: Optional[Dict[str, Any]]
    lost: List[str]


class _NotPlain(Exception):
    pass


def _plain_copy(value: Any, depth: int) -> Any:
    """A copy of plain JSON data (the common case, and the hot path); raises :class:`_NotPlain` at the first value
    that needs the walker (a type with meta, a non-finite float, a cycle or over-deep nesting)."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is float:
        if value - value == 0.0:
            return value
        raise _NotPlain
    if depth >= MAX_DEPTH:
        raise _NotPlain
    if kind is list:
        return [_plain_copy(item, depth + 1) for item in value]
    if kind is dict:
        copy_: Dict[str, Any] = {}
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlain
            copy_[key] = _plain_copy(item, depth + 1)
        return copy_
    raise _NotPlain


def encode_value(value: Any) -> EncodedValue:
    """Encodes ``value``; never raises."""
    try:
        return EncodedValue(_plain_copy(value, 0), None, [])
    except _NotPlain:
        pass
    except RecursionError:
        pass
    walker = _Walker()
    try:
        data = walker.walk(value, "", 0)
    except Exception:  # a pathological object (a __eq__ that raises, …)
        name = type(value).__name__
        return EncodedValue(unserializable(name), None, [name])
    meta = {"v": 1, "values": walker.values} if walker.values else None
    return EncodedValue(data, meta, sorted(walker.lost))


def to_json_compatible(value: Any) -> Any:
    """Plain JSON-compatible data (no meta), for contexts and metadata."""
    return encode_value(value).json


def _qualname(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def _join(path: str, key: Any) -> str:
    part = str(key).replace("\\", "\\\\").replace(".", "\\.")
    return f"{path}.{part}" if path != "" else part


class _Walker:
    def __init__(self) -> None:
        self.values: Dict[str, List[str]] = {}
        self.lost: Set[str] = set()
        self._active: Set[int] = set()

    def note(self, path: str, *kind: str) -> None:
        self.values[path] = list(kind)

    def stub(self, reason: str) -> str:
        self.lost.add(reason)
        return unserializable(reason)

    def walk(self, value: Any, path: str, depth: int) -> Any:
        if value is None or isinstance(value, (bool, str)):
            return value
        if isinstance(value, enum.Enum):
            self.note(path, "enum", _qualname(type(value)))
            return self._plain(value.value, depth)
        if isinstance(value, int):
            return int(value)
        if isinstance(value, float):
            if math.isfinite(value):
                return float(value)
            self.note(path, "number")
            return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
        if isinstance(value, _dt.datetime):
            self.note(path, "datetime")
            return value.isoformat()
        if isinstance(value, _dt.date):
            self.note(path, "date")
            return value.isoformat()
        if isinstance(value, _dt.time):
            self.note(path, "time")
            return value.isoformat()
        if isinstance(value, _dt.timedelta):
            self.note(path, "timedelta")
            return value.total_seconds()
        if isinstance(value, decimal.Decimal):
            self.note(path, "decimal")
            return str(value)
        if isinstance(value, uuid.UUID):
            self.note(path, "uuid")
            return str(value)
        if isinstance(value, (bytes, bytearray, memoryview)):
            self.note(path, "bytes")
            return base64.b64encode(bytes(value)).decode("ascii")
        if depth >= MAX_DEPTH:
            return self.stub("max_depth")
        if id(value) in self._active:
            return self.stub("circular_reference")
        self._active.add(id(value))
        try:
            return self._container(value, path, depth)
        finally:
            self._active.discard(id(value))

    def _plain(self, value: Any, depth: int) -> Any:
        # An enum's value is encoded on its own; its meta is not needed to rebuild the member.
        inner = _Walker()
        result = inner.walk(value, "", depth + 1)
        self.lost |= inner.lost
        return result

    def _container(self, value: Any, path: str, depth: int) -> Any:
        if isinstance(value, dict):
            if all(isinstance(k, str) for k in value):
                return {k: self.walk(v, _join(path, k), depth + 1) for k, v in value.items()}
            self.note(path, "map")
            return [
                [self.walk(k, _join(_join(path, i), 0), depth + 2), self.walk(v, _join(_join(path, i), 1), depth + 2)]
                for i, (k, v) in enumerate(value.items())
            ]
        if isinstance(value, list):
            return [self.walk(v, _join(path, i), depth + 1) for i, v in enumerate(value)]
        if isinstance(value, tuple):
            if hasattr(value, "_fields"):  # a namedtuple is read as the record it is
                self.note(path, "namedtuple", _qualname(type(value)))
                return {k: self.walk(v, _join(path, k), depth + 1) for k, v in zip(value._fields, value)}
            self.note(path, "tuple")
            return [self.walk(v, _join(path, i), depth + 1) for i, v in enumerate(value)]
        if isinstance(value, (set, frozenset)):
            self.note(path, "frozenset" if isinstance(value, frozenset) else "set")
            items = list(value)
            try:
                items.sort()
            except TypeError:
                pass
            return [self.walk(v, _join(path, i), depth + 1) for i, v in enumerate(items)]
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            self.note(path, "dataclass", _qualname(type(value)))
            fields = {f.name: getattr(value, f.name, None) for f in dataclasses.fields(value)}
            return {k: self.walk(v, _join(path, k), depth + 1) for k, v in fields.items()}
        dumped = self._dump_model(value)
        if dumped is not None:
            kind, data = dumped
            if isinstance(data, dict) and all(isinstance(k, str) for k in data):
                self.note(path, kind, _qualname(type(value)))
                return {k: self.walk(v, _join(path, k), depth + 1) for k, v in data.items()}
            self.lost.add(type(value).__name__)
            return self.walk(data, path, depth + 1)
        return self.stub(type(value).__name__)

    def _dump_model(self, value: Any) -> Optional[Tuple[str, Any]]:
        """Pydantic v2 (``model_dump``) and v1-style (``dict()``) models, read as their fields."""
        for method, kind in (("model_dump", "model"), ("dict", "model_v1")):
            fn = getattr(value, method, None)
            if callable(fn) and not isinstance(value, type):
                try:
                    return kind, fn()
                except Exception:
                    self.lost.add(f"{type(value).__name__}.{method}")
                    return None
        return None


# --------------------------------------------------------------------------------------------------------------
# Decoding (replay)


def decode_value(data: Any, meta: Any) -> Any:
    """Rebuilds a value from ``json`` and ``meta``. Classes (dataclasses, pydantic models, enums, namedtuples)
    are rebuilt only when their module is already imported and the class is of that kind; otherwise the plain
    data is kept. Unknown kinds are left as they are."""
    if not isinstance(meta, dict) or not isinstance(meta.get("values"), dict):
        return data
    entries = [(_split(p), kind) for p, kind in meta["values"].items() if isinstance(kind, list) and kind]
    entries.sort(key=lambda e: len(e[0]), reverse=True)  # children before their containers
    root = [copy.deepcopy(data)]  # the caller's data is left as it was
    for parts, kind in entries:
        _apply(root, [0, *parts], kind)
    return root[0]


def _split(path: str) -> List[str]:
    if path == "":
        return []
    parts: List[str] = []
    current = []
    escaped = False
    for ch in path:
        if escaped:
            current.append(ch)
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == ".":
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return parts


def _apply(root: List[Any], parts: List[Any], kind: List[Any]) -> None:
    parent: Any = root
    for part in parts[:-1]:
        parent = _child(parent, part)
        if parent is _MISSING:
            return
    key = parts[-1]
    current = _child(parent, key)
    if current is _MISSING:
        return
    try:
        rebuilt = _rebuild(current, kind)
    except Exception:
        return
    if isinstance(parent, list):
        parent[int(key)] = rebuilt
    else:
        parent[key] = rebuilt


_MISSING = object()


def _child(container: Any, key: Any) -> Any:
    if isinstance(container, list):
        try:
            return container[int(key)]
        except (ValueError, IndexError):
            return _MISSING
    if isinstance(container, dict):
        return container.get(key, _MISSING)
    return _MISSING


def _rebuild(value: Any, kind: List[Any]) -> Any:
    name = kind[0]
    if name == "datetime":
        return _dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    if name == "date":
        return _dt.date.fromisoformat(value)
    if name == "time":
        return _dt.time.fromisoformat(value)
    if name == "timedelta":
        return _dt.timedelta(seconds=value)
    if name == "decimal":
        return decimal.Decimal(value)
    if name == "uuid":
        return uuid.UUID(value)
    if name == "bytes":
        return base64.b64decode(value)
    if name == "number":
        return float({"NaN": "nan", "Infinity": "inf", "-Infinity": "-inf"}.get(value, value))
    if name == "tuple":
        return tuple(value)
    if name == "set":
        return set(value)
    if name == "frozenset":
        return frozenset(value)
    if name == "map":
        return {(tuple(k) if isinstance(k, list) else k): v for k, v in value}
    cls = _resolve_class(kind[1]) if len(kind) > 1 and isinstance(kind[1], str) else None
    if cls is None:
        return value
    if name == "enum" and issubclass(cls, enum.Enum):
        return cls(value)
    if name == "dataclass" and dataclasses.is_dataclass(cls):
        return cls(**value)
    if name == "namedtuple" and issubclass(cls, tuple) and hasattr(cls, "_fields"):
        return cls(**value)
    if name == "model" and callable(getattr(cls, "model_validate", None)):
        return cls.model_validate(value)
    if name == "model_v1" and callable(getattr(cls, "parse_obj", None)):
        return cls.parse_obj(value)
    return value


def _resolve_class(qualified: str) -> Optional[type]:
    """Finds a class among modules already imported (never imports anything named by data)."""
    module_name, _, qualname = qualified.partition(":")
    target: Any = sys.modules.get(module_name)
    for attr in qualname.split("."):
        if target is None or attr == "<locals>":
            return None
        target = getattr(target, attr, None)
    return target if isinstance(target, type) else None
