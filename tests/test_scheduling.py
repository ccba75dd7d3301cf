"""The order pytest-xdist hands out the test files in (tests/scheduling.py): the slowest first, by the
last run's figures, else the estimates; the tests inside a file keep their order."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from tests.scheduling import ESTIMATES, UNKNOWN_SECONDS, slowest_first

ROOT = Path(__file__).resolve().parents[1]


def _items(*nodeids: str) -> list[Any]:
    return [SimpleNamespace(nodeid=n) for n in nodeids]


def test_the_slowest_file_first_the_tests_of_a_file_in_their_order() -> None:
    items = _items("a.py::t1", "b.py::t1", "a.py::t2", "c.py::t1", "b.py::t2")
    ordered = slowest_first(items, {"a.py": 1.0, "b.py": 30.0, "c.py": 5.0})
    assert [i.nodeid for i in ordered] == ["b.py::t1", "b.py::t2", "c.py::t1", "a.py::t1", "a.py::t2"]


def test_a_file_the_last_run_did_not_time_takes_its_estimate() -> None:
    slow = next(iter(ESTIMATES))
    items = _items("new.py::t", "small.py::t", f"{slow}::t")
    ordered = slowest_first(items, {"small.py": UNKNOWN_SECONDS / 2})
    assert [i.nodeid for i in ordered] == [f"{slow}::t", "new.py::t", "small.py::t"]
    assert [i.nodeid for i in slowest_first(items, {slow: 0.1})][-1] == f"{slow}::t"  # measured: it wins


def test_xdist_workers_run_the_slow_file_first_and_the_run_records_the_times(tmp_path: Path) -> None:
    """``--dist loadfile --no-loadscope-reorder`` as the Makefile runs it (one worker here, so that the
    order is the order handed out): the file the last run found slow goes before the file collected
    first and before the file of more tests (xdist's own order), and the run records its times.
    The child run loads xdist and this plugin only (no plugin autoload: pytest-qt, hypothesis and
    the like order nothing, and importing them was most of the child's CPU)."""
    (tmp_path / "test_many.py").write_text(
        "import pytest\n\n@pytest.mark.parametrize('n', range(6))\ndef test_quick(n):\n    pass\n",
        encoding="utf-8",
    )
    (tmp_path / "test_slow.py").write_text(
        "import time\n\ndef test_slow():\n    time.sleep(0.3)\n", encoding="utf-8"
    )
    (tmp_path / "pytest.ini").write_text("[pytest]\ntestpaths = .\n", encoding="utf-8")
    started = tmp_path / "started.txt"
    (tmp_path / "conftest.py").write_text(
        'pytest_plugins = ["tests.scheduling"]\n'
        + textwrap.dedent(
            f"""
            def pytest_runtest_logstart(nodeid, location):
                with open({str(started)!r}, "a") as f:
                    f.write(nodeid + "\\n")
            """
        ),
        encoding="utf-8",
    )
    cached = tmp_path / ".pytest_cache" / "v" / "xqarbiter" / "file-seconds"
    cached.parent.mkdir(parents=True)
    cached.write_text(json.dumps({"test_many.py": 0.5, "test_slow.py": 9.0}), encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "xdist",
            "-q",
            "-n",
            "1",
            "--dist",
            "loadfile",
            "--no-loadscope-reorder",
        ],
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert started.read_text(encoding="utf-8").splitlines()[0] == "test_slow.py::test_slow"
    recorded = json.loads(cached.read_text(encoding="utf-8"))
    assert set(recorded) == {"test_many.py", "test_slow.py"}
    assert 0.3 <= recorded["test_slow.py"] < 9.0  # this run's figure replaced the last one's
