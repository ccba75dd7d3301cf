"""The fast loop's lighter property tests: under ``XQARBITER_TESTS=fast`` (``make test-fast``) each
property test runs a quarter of the examples it asks for, never fewer than ten, and still runs them;
without it (``make test``) it runs them all."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import FAST_FLOOR, _lighten, fast_examples


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
