"""How often Python's cyclic garbage collector runs in the program's processes.

The collector's youngest generation is examined each time the program has made
:data:`YOUNG_THRESHOLD` more container objects (lists, dicts, ORM rows, Qt wrappers…) than it freed.
Python's default, 700, dates from much smaller programs: building a round's pairings, the standings
or a page of the hall makes tens of thousands of short-lived objects, nearly all freed at once by
reference counting, and the collector was woken every 700 of them to find almost nothing (about 5 %
of the CPU of the test suite, which runs the program's own code). At 10,000 it runs about fourteen
times less often; what it does free (objects in reference cycles) waits a little longer, at most some
thousands of small objects — a few megabytes at the very worst, measured at 5,000 players in
docs/figures.md. The older generations keep Python's ratios (10, 10).

Set once when a process starts: the command line (:func:`app.cli.run`, and so ``serve``), the
window (:func:`app.ui.application.run`), and the test suite (tests/conftest.py), so the tests run
the program as the arbiter does. Nothing else changes: the collector stays enabled, the whole-event
builds still pause it (:mod:`app.services.collector`), and a test that looks for a leak collects
explicitly (``gc.collect()``).
"""

from __future__ import annotations

import gc

#: container objects made (net of those freed) between two passes over the youngest generation
YOUNG_THRESHOLD = 10_000
#: passes over a generation between two passes over the next (Python's own ratios)
OLDER_RATIOS = (10, 10)


def tune_collector() -> None:
    """Set the program's collector thresholds (:data:`YOUNG_THRESHOLD`, :data:`OLDER_RATIOS`)."""
    gc.set_threshold(YOUNG_THRESHOLD, *OLDER_RATIOS)
