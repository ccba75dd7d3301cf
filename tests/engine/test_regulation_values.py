"""Regulation values that make no sense are refused with the key named, and a file missing keys
says which; deep nesting is refused in words (not a RecursionError)."""

from __future__ import annotations

import pytest

from app.engine.regulations import preset, regulations_from_dict, regulations_from_toml, regulations_to_dict
from app.engine.types import UserError


def _with(path: str, value: object) -> dict[str, object]:
    data = regulations_to_dict(preset("tianshui-2024"))
    *parents, last = path.split(".")
    node: dict[str, object] = data
    for p in parents:
        node = node[p]  # type: ignore[assignment]
    node[last] = value
    return data


@pytest.mark.parametrize(
    ("path", "value", "named"),
    [
        ("points.loss", 5, "points.loss"),  # a loss worth more than a win (2)
        ("points.forfeit_loss", 3, "points.forfeit_loss"),
        ("points.red_draw", 7, "points.red_draw"),
        ("registration.age_limit", -4, "registration.age_limit"),
        ("registration.fee_yuan", -100, "registration.fee_yuan"),
        ("swiss_time_control.minutes", -20, "swiss_time_control.minutes"),
        ("swiss_time_control.increment_seconds", -1, "swiss_time_control.increment_seconds"),
        ("knockout.rapid.minutes", -3, "knockout.rapid.minutes"),
        ("team.counted_members", 9, "team.counted_members"),
        ("tiebreaks.chain", [], "tiebreaks.chain"),
        ("discipline.late_minutes", -10, "discipline.late_minutes"),
    ],
)
def test_a_senseless_value_is_refused_with_its_key(path: str, value: object, named: str) -> None:
    with pytest.raises(UserError) as err:
        regulations_from_dict(_with(path, value))
    assert named in err.value.zh and named in err.value.en


def test_counted_members_up_to_the_team_size_is_fine() -> None:
    reg = regulations_from_dict(_with("team.counted_members", 4))
    assert reg.team.counted_members == 4


def test_an_empty_regulation_names_the_missing_keys() -> None:
    with pytest.raises(UserError) as err:
        regulations_from_toml("")
    for key in ("event_name", "start_date", "end_date"):
        assert key in err.value.zh and key in err.value.en
    assert "__init__" not in err.value.en and "positional" not in err.value.en


@pytest.mark.parametrize("depth", [200, 3_000, 50_000])
def test_deeply_nested_toml_is_refused_in_words(depth: int) -> None:
    with pytest.raises(UserError) as err:
        regulations_from_toml("x = " + "[" * depth + "]" * depth)
    assert "嵌套" in err.value.zh and "nested" in err.value.en
