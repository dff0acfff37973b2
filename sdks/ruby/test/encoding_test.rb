# frozen_string_literal: true

require "test_helper"

class EncodingTest < Minitest::Test
  Point = Struct.new(:x, :y)

  def encode(value)
    Reprise::Encoding.encode(value)
  end

  def test_json_values_pass_through
    value = { "a" => [1, 2.5, "s", nil, true], b: { c: :sym } }
    result = encode(value)
    assert_equal({ "a" => [1, 2.5, "s", nil, true], "b" => { "c" => "sym" } }, result.json)
    assert_empty result.lost
  end

  def test_structs_times_and_sets_are_plain_data
    result = encode([Point.new(1, 2), Time.utc(2026, 1, 2, 3, 4, 5), Set[1]])
    assert_equal [{ "x" => 1, "y" => 2 }, "2026-01-02T03:04:05.000000Z", [1]], result.json
    assert_empty result.lost
  end

  def test_what_cannot_round_trip_is_reported
    result = encode([Float::NAN, Object.new, -> {}])
    assert_equal "<unserializable: non_finite_float>", result.json[0]
    assert_match(/#<Object/, result.json[1])
    assert_includes result.lost, "non_finite_float"
    assert_includes result.lost, "Object"
    assert_includes result.lost, "Proc"
  end

  def test_cycles_and_depth_are_stubbed
    cyclic = []
    cyclic << cyclic
    assert_equal ["<unserializable: circular_reference>"], encode(cyclic).json
    deep = (1..70).reduce("x") { |acc, _| [acc] }
    assert_includes JSON.generate(encode(deep).json), "<unserializable: max_depth>"
  end

  def test_invalid_utf8_is_scrubbed
    json = encode("ok\xff".b).json
    assert json.valid_encoding?
    JSON.generate(json)
  end
end
