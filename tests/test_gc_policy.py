"""The program's processes and the tests run the cyclic garbage collector at the same thresholds
(:mod:`app.gc_policy`): the command line (and so ``serve``), the window, and every test process."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.gc_policy import OLDER_RATIOS, YOUNG_THRESHOLD

ROOT = Path(__file__).resolve().parents[1]
POLICY = (YOUNG_THRESHOLD, *OLDER_RATIOS)
PYTHONS_OWN = (700, 10, 10)


@pytest.fixture
def pythons_own_thresholds() -> Iterator[None]:
    before = gc.get_threshold()
    gc.set_threshold(*PYTHONS_OWN)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def test_the_tests_run_at_the_programs_thresholds() -> None:
    assert gc.get_threshold() == POLICY  # tests/conftest.py, in this process (a worker, or the only one)
    assert gc.isenabled()


def test_the_command_line_sets_them_before_its_command() -> None:
    code = (
        "import gc, sys\n"
        "import app.cli\n"
        "assert gc.get_threshold() == (700, 10, 10), gc.get_threshold()\n"
        "app.cli.main = lambda **_: print(*gc.get_threshold()) or 0\n"
        "app.cli.run()\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert tuple(int(n) for n in done.stdout.split()) == POLICY


class _Started(Exception):
    pass


def test_the_window_sets_them_before_it_starts(
    pythons_own_thresholds: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.ui import application

    seen: list[tuple[int, int, int]] = []

    def started() -> None:
        seen.append(gc.get_threshold())
        raise _Started

    monkeypatch.setattr(application, "application", started)
    with pytest.raises(_Started):
        application.run(None)
    assert seen == [POLICY]


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def test_a_cycle_is_still_freed_by_the_collector_on_its_own() -> None:
    """The collector still runs by itself (no explicit ``gc.collect``): a cycle left behind is freed
    once the program has made the threshold's worth of new objects."""
    cycle = _Cycle()
    gone = weakref.ref(cycle)
    del cycle
    assert gone() is not None  # a cycle: reference counting alone does not free it
    kept = [[] for _ in range(YOUNG_THRESHOLD * 2)]
    assert gone() is None
    del kept
