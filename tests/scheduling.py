"""The order in which pytest-xdist hands out the test files: the slowest first.

``make test`` and ``make test-fast`` run ``-n JOBS`` (``-n FAST_JOBS``) ``--dist loadfile
--no-loadscope-reorder``: each file goes whole to one worker, in the order of the collection (without ``--no-loadscope-reorder`` xdist
would put the files with the most tests first, which left the slow files of few tests — the real
processes of ``tests/e2e``, the child pytest runs — to the end). A slow file handed out last makes a
tail: one worker runs it while the others have nothing left to do. So each worker orders the files
it collected by how long each took in the last run that ran it (kept in pytest's cache,
``.pytest_cache``), longest first; a file the cache does not know yet (a fresh clone, CI, a new file)
takes its estimate from :data:`ESTIMATES`, else :data:`UNKNOWN_SECONDS`. The tests inside a file keep
their order, and a run in one process (no xdist) is not reordered at all.

Loaded from tests/conftest.py (``pytest_plugins``).
"""

from __future__ import annotations

import os
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

#: the cache entry: {file: seconds} (setup, call and teardown of its tests, summed)
CACHE_KEY = "xqarbiter/file-seconds"

#: seconds per file of the fast loop (a three-worker run of ``make test-fast`` on the quiet two-core
#: machine, December 2026): the slowest files, used where the cache has no figure of its own (a fresh
#: clone, CI)
ESTIMATES: dict[str, float] = {
    "tests/corpus/test_corpus.py": 22.0,
    "tests/services/test_faststandings.py": 21.0,
    "tests/e2e/test_owner_processes.py": 14.0,
    "tests/ui/test_keys_at_the_desk.py": 13.0,
    "tests/services/test_formats.py": 10.0,
    "tests/web/test_hostile.py": 10.0,
    "tests/cli/test_owner_channel.py": 10.0,
    "tests/web/test_same_truth.py": 10.0,
    "tests/ui/test_team_desk_window.py": 10.0,
    "tests/services/test_team_events.py": 10.0,
    "tests/reports/test_excel.py": 9.0,
    "tests/services/test_exports.py": 7.0,
    "tests/ui/test_round_actions.py": 7.0,
    "tests/ui/test_window_rough_edges.py": 7.0,
    "tests/ui/test_file_dialog_safety.py": 6.0,
    "tests/ui/test_window_beside_serve.py": 6.0,
    "tests/web/test_security.py": 6.0,
    "tests/engine/pairing/test_large.py": 6.0,
    "tests/web/test_team_own_pages.py": 6.0,
}

#: a file that neither the cache nor the estimates know: most files take a few seconds
UNKNOWN_SECONDS = 2.0


def file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def slowest_first(items: list[pytest.Item], seconds: dict[str, float]) -> list[pytest.Item]:
    """``items`` grouped by file, the files longest first (by ``seconds``, else :data:`ESTIMATES`,
    else :data:`UNKNOWN_SECONDS`); ties, and the tests inside a file, keep their order."""
    by_file: dict[str, list[pytest.Item]] = {}
    for item in items:
        by_file.setdefault(file_of(item.nodeid), []).append(item)

    def estimate(name: str) -> float:
        return seconds.get(name, ESTIMATES.get(name, UNKNOWN_SECONDS))

    order = sorted(by_file, key=lambda name: -estimate(name))
    return [item for name in order for item in by_file[name]]


#: ``XQARBITER_PASS=serial``: the Makefile's second pass, the tests marked ``serial`` alone. It needs
#: only the files that mark a test so; collecting the other ~150 files (importing each, building every
#: parametrised item, then deselecting all of them) took 5–6 s of the pass's ~15. A file is collected
#: there if its text holds :data:`SERIAL_MARK`; :func:`pytest_itemcollected` fails any run in which a
#: test is marked serial some other way (a conftest, a plugin), which that pass would never run.
SERIAL_PASS_ENV = "XQARBITER_PASS"
SERIAL_MARK = "pytest.mark.serial"


@cache
def marks_serial(path: Path) -> bool:
    """Whether the test file ``path`` marks a test ``serial`` in its own text."""
    try:
        return SERIAL_MARK in path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return True  # unreadable here: collect it, and let pytest say what is wrong


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if os.environ.get(SERIAL_PASS_ENV) != "serial":
        return None
    if collection_path.suffix == ".py" and collection_path.name.startswith("test_"):
        return None if marks_serial(collection_path) else True
    return None


#: ``XQARBITER_SERIAL_LEFT=<file>``: the Makefile's first pass runs every test its markers select but
#: those marked ``serial``, which it leaves out (deselected, as ``-m "not serial"`` would) and lists in
#: that file, one node id a line (an empty file: none). The Makefile starts the serial pass only when the
#: list is not empty — or when the file is missing (the first pass did not say): the fast loop, which
#: selects no serial test, then pays nothing for a second pytest (~3 s of CPU to start and collect,
#: ~10 s of wall beside the tests it ran).
SERIAL_LEFT_ENV = "XQARBITER_SERIAL_LEFT"


def _serial_left_out(config: pytest.Config, items: list[pytest.Item]) -> None:
    target = os.environ.get(SERIAL_LEFT_ENV)
    if not target:
        return
    serial = [item for item in items if item.get_closest_marker("serial") is not None]
    if serial:
        config.hook.pytest_deselected(items=serial)
        items[:] = [item for item in items if item.get_closest_marker("serial") is None]
    worker = getattr(config, "workerinput", {}).get("workerid")
    if worker not in (None, "gw0"):
        return  # every worker collects alike: one of them says it
    path = Path(target)
    partial = path.with_name(f"{path.name}.{os.getpid()}")
    partial.write_text("".join(f"{item.nodeid}\n" for item in serial), encoding="utf-8")
    partial.replace(path)


def pytest_itemcollected(item: pytest.Item) -> None:
    if item.get_closest_marker("serial") is not None and not marks_serial(Path(item.path)):
        raise pytest.UsageError(
            f"{item.nodeid} is marked serial but its file does not say {SERIAL_MARK}: the serial pass "
            f"({SERIAL_PASS_ENV}=serial) collects only the files that do, so it would never run"
        )


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def _is_controller(config: pytest.Config) -> bool:
    return not _is_worker(config) and config.pluginmanager.hasplugin("dsession")


def _cached(config: pytest.Config) -> dict[str, float]:
    cache = getattr(config, "cache", None)
    if cache is None:
        return {}
    value = cache.get(CACHE_KEY, {})
    if not isinstance(value, dict):
        return {}
    return {str(k): float(v) for k, v in value.items() if isinstance(v, (int, float))}


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    _serial_left_out(config, items)  # after the markers' own selection (trylast)
    if _is_worker(config):  # every worker orders alike (the same cache), as xdist requires
        items[:] = slowest_first(items, _cached(config))


_measured: defaultdict[str, float] = defaultdict(float)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if getattr(report, "node", None) is not None:  # the controller, told by a worker
        _measured[file_of(report.nodeid)] += report.duration


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    cache = getattr(config, "cache", None)
    if cache is None or not _measured or not _is_controller(config):
        return
    if exitstatus not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
        return  # interrupted: the sums are partial
    if config.option.keyword or config.args_source is not pytest.Config.ArgsSource.TESTPATHS:
        return  # a part of the suite (-k, or files named): the files' sums may be partial
    cache.set(CACHE_KEY, {**_cached(config), **{k: round(v, 2) for k, v in _measured.items()}})
