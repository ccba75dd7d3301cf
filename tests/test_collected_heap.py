"""The heap the collection built is frozen (tests/conftest.py ``pytest_collection_finish``), so the
garbage collector's full passes — pytest's unraisable-exception check runs two at the end — go over
only what the tests made; what a test makes is still collected, so a ``__del__`` that fails in a
cycle a test left behind is still reported."""

from __future__ import annotations

import gc
import weakref


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def test_the_collected_heap_is_frozen() -> None:
    assert gc.get_freeze_count() > 1000


def test_a_cycle_a_test_leaves_is_still_collected() -> None:
    cycle = _Cycle()
    gone = weakref.ref(cycle)
    del cycle
    assert gone() is not None  # a cycle: reference counting alone does not free it
    gc.collect()
    assert gone() is None
