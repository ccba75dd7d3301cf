"""The bad-input corpus: every case refused cleanly or done right — never a traceback, never a
changed file on a refusal, never a partial file, never a personal number in a public output.

Run ``python scripts/corpus_table.py`` for the table of categories (tried / refused cleanly /
tracebacks / changed …).
"""

from __future__ import annotations

import functools

import pytest

from tests.conftest import FAST_LOOP
from tests.corpus.cases import CATEGORIES
from tests.corpus.harness import Case, run_case
from tests.corpus.races import run_races

pytestmark = pytest.mark.slow


@functools.cache
def cases_of(category: str) -> tuple[Case, ...]:
    """The category's cases, made once per process (the count below and the category's own test)."""
    return tuple(dict(CATEGORIES)[category]())


def test_the_corpus_is_large_and_every_category_is_tried() -> None:
    assert set(REAL_PROCESSES) <= {name for name, _ in CATEGORIES}
    cases = [case for name, _ in CATEGORIES for case in cases_of(name)]  # all_cases(), made once
    assert len(cases) >= 800
    names = [(c.category, c.name) for c in cases]
    assert len(set(names)) == len(names), "two cases share a name"
    assert {c.category for c in cases} == {name for name, _ in CATEGORIES}


#: the fast loop (``make test-fast``) runs every FAST_STRIDE-th case of each category, from its first;
#: ``make test`` runs them all
FAST_STRIDE = 3


def fast_loop_share(cases: list[Case]) -> list[Case]:
    """The cases this run tries: all of them, or every third under the fast loop (never none)."""
    share = cases[::FAST_STRIDE] if FAST_LOOP else cases
    assert share, "a category without a case tries nothing"
    return share


def test_the_fast_loop_tries_every_third_case_of_each_category() -> None:
    cases = [Case("c", str(i), ("check-file", "{ws}/event.xqt")) for i in range(7)]
    expected = ["0", "3", "6"] if FAST_LOOP else [str(i) for i in range(7)]
    assert [c.name for c in fast_loop_share(cases)] == expected
    assert [c.name for c in fast_loop_share(cases[:1])] == ["0"]


#: the categories that start hundreds of real processes (a full disk is a real process under ulimit -f)
REAL_PROCESSES = ("Full disk (ulimit -f, real process)", "Real subprocess (python -m app.cli)")


@pytest.mark.parametrize(
    "category",
    [
        pytest.param(name, marks=[pytest.mark.stress] if name in REAL_PROCESSES else [])
        for name, _ in CATEGORIES
    ],
)
def test_every_case_of_the_category_is_refused_cleanly_or_done_right(category: str) -> None:
    cases = fast_loop_share(list(cases_of(category)))
    failures = [o.describe() for o in (run_case(c) for c in cases) if not o.ok]
    assert failures == [], f"{len(failures)} case(s):\n" + "\n".join(failures[:30])


@pytest.mark.stress
@pytest.mark.serial
def test_two_real_processes_never_both_hold_the_lock() -> None:
    """Two processes racing to create the lock, to take over a stale one, and taking and releasing
    it in a loop (every write slowed to 100 ms: a slow disk widens any gap between creating the lock
    and filling it)."""
    report = run_races(rounds=12, churn_seconds=1.0)
    assert report.tracebacks == []
    assert report.single_winner == report.rounds, report
    assert report.probes > 0 and report.probes_judged_stale == 0, report
    assert report.sound
