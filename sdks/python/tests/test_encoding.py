import dataclasses
import datetime
import decimal
import enum
import math
import unittest
import uuid
from collections import namedtuple

from reprise import decode_value, encode_value


class Color(enum.Enum):
    RED = "red"


@dataclasses.dataclass
class Order:
    id: int
    placed: datetime.datetime
    tags: set


Point = namedtuple("Point", "x y")


class Model:
    """Looks like a pydantic v2 model."""

    def __init__(self, name):
        self.name = name

    def model_dump(self):
        return {"name": self.name}

    @classmethod
    def model_validate(cls, data):
        return cls(data["name"])

    def __eq__(self, other):
        return isinstance(other, Model) and other.name == self.name


class EncodingTest(unittest.TestCase):
    def roundtrip(self, value):
        encoded = encode_value(value)
        self.assertEqual(encoded.lost, [])
        return encoded, decode_value(encoded.json, encoded.meta)

    def test_plain_json_has_no_meta(self):
        encoded = encode_value({"a": [1, 2.5, "x", None, True]})
        self.assertEqual(encoded.json, {"a": [1, 2.5, "x", None, True]})
        self.assertIsNone(encoded.meta)

    def test_python_types_round_trip(self):
        value = {
            "when": datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc),
            "day": datetime.date(2026, 1, 2),
            "price": decimal.Decimal("1.10"),
            "id": uuid.UUID(int=1),
            "tags": {"b", "a"},
            "frozen": frozenset([1]),
            "pair": (1, 2),
            "raw": b"\x00\xff",
            "color": Color.RED,
            "order": Order(1, datetime.datetime(2026, 1, 1), {3}),
            "point": Point(1, 2),
            "model": Model("m"),
            "by_int": {1: "one"},
            "nan": float("nan"),
            "inf": float("-inf"),
            "dotted.key": {"x": (1,)},
        }
        encoded, decoded = self.roundtrip(value)
        self.assertEqual(encoded.json["when"], "2026-01-02T03:04:05+00:00")
        self.assertEqual(encoded.json["tags"], ["a", "b"])
        self.assertEqual(encoded.json["color"], "red")
        self.assertEqual(encoded.json["order"]["placed"], "2026-01-01T00:00:00")
        self.assertEqual(encoded.json["model"], {"name": "m"})
        for key in ["when", "day", "price", "id", "tags", "frozen", "pair", "raw", "color", "order", "point", "model",
                    "by_int", "dotted.key"]:
            self.assertEqual(decoded[key], value[key], key)
        self.assertIsInstance(decoded["order"], Order)
        self.assertIsInstance(decoded["point"], Point)
        self.assertTrue(math.isnan(decoded["nan"]))
        self.assertEqual(decoded["inf"], float("-inf"))

    def test_what_cannot_round_trip_becomes_a_string_and_is_reported(self):
        loop = []
        loop.append(loop)
        encoded = encode_value({"fn": len, "obj": object(), "loop": loop})
        self.assertEqual(encoded.json["fn"], "<unserializable: builtin_function_or_method>")
        self.assertEqual(encoded.json["obj"], "<unserializable: object>")
        self.assertEqual(encoded.json["loop"], ["<unserializable: circular_reference>"])
        self.assertEqual(encoded.lost, ["builtin_function_or_method", "circular_reference", "object"])

    def test_deep_nesting_is_cut(self):
        value = current = []
        for _ in range(100):
            nxt = []
            current.append(nxt)
            current = nxt
        encoded = encode_value(value)
        self.assertIn("max_depth", encoded.lost)

    def test_repeated_objects_are_not_cycles(self):
        shared = {"a": 1}
        encoded = encode_value([shared, shared])
        self.assertEqual(encoded.json, [{"a": 1}, {"a": 1}])
        self.assertEqual(encoded.lost, [])

    def test_unknown_classes_are_never_imported(self):
        data = decode_value({"a": 1}, {"v": 1, "values": {"": ["dataclass", "not_imported_module:Thing"]}})
        self.assertEqual(data, {"a": 1})


if __name__ == "__main__":
    unittest.main()
