"""Event log, action codec and content loading: the kernel's small pieces."""

import pytest
from pydantic import BaseModel, Field

from issoku.rules.kernel import ActionCodec, DataError, EventLog, ObservationSpec, load_model


def test_event_log_serialises_canonically_and_filters_by_rule():
    log = EventLog()
    log.emit("BR-025", "overload_check", 0, dice=(4, 6), total=11, target=11, success=True)
    log.emit("BR-006", "lull", None, round=1)
    assert log.to_jsonl() == (
        '{"actor":0,"dice":[4,6],"kind":"overload_check","rule":"BR-025","success":true,"target":11,"total":11}\n'
        '{"actor":null,"kind":"lull","round":1,"rule":"BR-006"}\n'
    )
    assert [e.kind for e in log.by_rule("BR-02")] == ["overload_check"]
    assert "[BR-025 ] overload_check" in log[0].describe()


def test_disabled_log_records_nothing_and_clone_is_independent():
    off = EventLog(enabled=False)
    off.emit("BR-001", "x")
    assert len(off) == 0
    log = EventLog()
    log.emit("BR-001", "x")
    twin = log.clone()
    twin.emit("BR-002", "y")
    assert len(log) == 1 and len(twin) == 2


def test_codec_round_trip_and_names():
    orders = [("end_breath",), ("attack", "thrust", None), ("attack", "thrust", "wrist"), ("reserve", "parry")]
    codec = ActionCodec(orders)
    assert len(codec) == 4
    for i, order in enumerate(orders):
        assert codec.encode(order) == i and codec.decode(i) == order
    assert codec.names == ("end_breath", "attack:thrust", "attack:thrust:wrist", "reserve:parry")
    assert codec.by_name("reserve:parry") == 3
    with pytest.raises(ValueError):
        ActionCodec([("a",), ("a",)])


def test_observation_spec_slices():
    spec = ObservationSpec((("energy", 2, 0.0, 1.0), ("rung", 5, 0.0, 1.0)))
    assert spec.size == 7 and spec.slice("rung") == slice(2, 7)
    low, high = spec.bounds()
    assert low.shape == (7,) and high.max() == 1.0
    assert set(spec.unpack(spec.zeros())) == {"energy", "rung"}
    with pytest.raises(ValueError):
        ObservationSpec((("a", 1, 0.0, 1.0), ("a", 1, 0.0, 1.0)))


class _Weapon(BaseModel):
    name: str
    cost: int = Field(ge=1)


class _Catalog(BaseModel):
    weapons: list[_Weapon]


def test_bad_data_names_file_field_and_reason(tmp_path):
    bad = tmp_path / "weapons.toml"
    bad.write_text('[[weapons]]\nname = "tanto"\ncost = -1\n[[weapons]]\ncost = 2\n')
    with pytest.raises(DataError) as info:
        load_model(bad, _Catalog)
    message = str(info.value)
    assert str(bad) in message
    assert "weapons[0].cost" in message and "greater than or equal to 1" in message
    assert "weapons[1].name" in message and "Field required" in message


def test_syntax_error_and_missing_file_are_data_errors(tmp_path):
    broken = tmp_path / "x.toml"
    broken.write_text("weapons = [")
    with pytest.raises(DataError, match="syntax"):
        load_model(broken, _Catalog)
    with pytest.raises(DataError, match="no such file"):
        load_model(tmp_path / "missing.toml", _Catalog)
