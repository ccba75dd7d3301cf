"""The fast loop's lighter property tests: under ``XQARBITER_TESTS=fast`` (``make test-fast``) each
property test runs a quarter of the examples it asks for, never fewer than ten, and still runs them;
without it (``make test``) it runs them all."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import FAST_FLOOR, FAST_LOOP, _lighten, fast_examples, heavy_left_out


def test_a_quarter_of_the_examples_never_fewer_than_the_floor_nor_more_than_asked() -> None:
    assert fast_examples(1500) == 375
    assert fast_examples(600) == 150
    assert fast_examples(150) == 38  # rounded up
    assert fast_examples(100) == 25  # hypothesis's own default
    assert fast_examples(40) == FAST_FLOOR == 10
    assert fast_examples(12) == 10
    assert fast_examples(2) == 2


def _counting(max_examples: int | None) -> tuple[Any, list[int]]:
    seen: list[int] = []

    @given(st.integers())
    def test(x: int) -> None:
        seen.append(x)

    if max_examples is not None:
        test = settings(max_examples=max_examples, database=None)(test)
    else:
        test = settings(database=None)(test)
    return test, seen


def test_the_fast_profile_runs_fewer_examples_and_still_runs_them() -> None:
    test, seen = _counting(600)
    other, other_seen = _counting(None)  # no max_examples of its own: the profile's 100
    items: list[Any] = [SimpleNamespace(obj=test), SimpleNamespace(obj=test), SimpleNamespace(obj=other)]
    _lighten(items)  # the same function twice (parametrized tests share it): lightened once
    assert test._hypothesis_internal_use_settings.max_examples == 150
    assert other._hypothesis_internal_use_settings.max_examples == 25
    test()
    other()
    assert 0 < len(seen) <= 150 and 0 < len(other_seen) <= 25
    # integers() has far more than 150 values: hypothesis stops at the budget, not for want of inputs
    assert len(seen) > 100


def test_without_the_fast_profile_a_test_keeps_its_full_count() -> None:
    test, seen = _counting(600)
    assert test._hypothesis_internal_use_settings.max_examples == 600
    test()
    assert len(seen) > 150


class _Item:
    """Just what heavy_left_out reads of a collected test."""

    def __init__(self, nodeid: str, heavy: dict[str, str] | None = None) -> None:
        self.nodeid = nodeid
        self.name = nodeid.split("::")[-1]
        self.originalname = self.name.split("[")[0]
        self._heavy = None if heavy is None else SimpleNamespace(kwargs=heavy)

    def get_closest_marker(self, name: str) -> Any:
        return self._heavy if name == "heavy" else None


def test_the_fast_loop_leaves_a_heavy_case_out_beside_its_lighter_cases() -> None:
    items: list[Any] = [
        _Item("tests/a.py::test_sizes[2]"),
        _Item("tests/a.py::test_sizes[128]", heavy={}),
        _Item("tests/a.py::test_depth_3"),
        _Item("tests/a.py::test_depth_4", heavy={"lighter": "test_depth_3"}),
        _Item("tests/a.py::test_other"),
    ]
    kept, heavy = heavy_left_out(items)
    assert [i.nodeid for i in kept] == [
        "tests/a.py::test_sizes[2]",
        "tests/a.py::test_depth_3",
        "tests/a.py::test_other",
    ]
    assert [i.nodeid for i in heavy] == ["tests/a.py::test_sizes[128]", "tests/a.py::test_depth_4"]


@pytest.mark.parametrize(
    "items",
    [
        # the only case of its test
        [_Item("tests/a.py::test_sizes[128]", heavy={})],
        # its lighter case is heavy too
        [_Item("tests/a.py::test_sizes[64]", heavy={}), _Item("tests/a.py::test_sizes[128]", heavy={})],
        # the lighter test it names is not there (nor in this module)
        [
            _Item("tests/a.py::test_depth_4", heavy={"lighter": "test_depth_3"}),
            _Item("tests/b.py::test_depth_3"),
        ],
    ],
)
def test_a_heavy_case_without_a_lighter_one_stops_the_run(items: list[Any]) -> None:
    with pytest.raises(pytest.UsageError, match="heavy test must have a lighter case"):
        heavy_left_out(items)


def test_the_fast_loop_collects_no_heavy_case(request: pytest.FixtureRequest) -> None:
    # (the full suite collects them all; under the fast loop they were deselected at collection)
    heavy = [i.nodeid for i in request.session.items if i.get_closest_marker("heavy") is not None]
    assert not (FAST_LOOP and heavy), heavy
