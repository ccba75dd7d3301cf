"""The Makefile's second pass (``XQARBITER_PASS=serial``, tests/scheduling.py) collects only the files
that mark a test ``serial`` in their own text, and every run refuses a test marked serial another way,
which that pass would never collect. Child pytest runs load this plugin only (no plugin autoload)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.scheduling import SERIAL_LEFT_ENV, SERIAL_MARK, SERIAL_PASS_ENV, marks_serial

ROOT = Path(__file__).resolve().parents[1]


def _child(
    folder: Path, *args: str, serial_pass: bool, left: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "PYTHONPATH": str(ROOT)}
    for name in (SERIAL_PASS_ENV, SERIAL_LEFT_ENV, "PYTEST_ADDOPTS"):  # the child's options are its own
        env.pop(name, None)
    if serial_pass:
        env[SERIAL_PASS_ENV] = "serial"
    if left is not None:
        env[SERIAL_LEFT_ENV] = str(left)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.scheduling", "-q", "-p", "no:cacheprovider", *args],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _suite(folder: Path, imported: Path) -> None:
    (folder / "pytest.ini").write_text(
        "[pytest]\nmarkers =\n    serial: alone\n    stress: loads the machine\n", encoding="utf-8"
    )
    (folder / "test_decorated.py").write_text(
        "import pytest\n\n@pytest.mark.serial\ndef test_alone():\n    pass\n\ndef test_beside():\n    pass\n",
        encoding="utf-8",
    )
    (folder / "test_module_mark.py").write_text(
        "import pytest\n\npytestmark = [pytest.mark.serial]\n\ndef test_whole_file():\n    pass\n",
        encoding="utf-8",
    )
    (folder / "test_plain.py").write_text(
        f"open({str(imported)!r}, 'w').close()\n\ndef test_plain():\n    pass\n", encoding="utf-8"
    )


def test_the_serial_pass_collects_only_the_files_that_mark_a_test_serial(tmp_path: Path) -> None:
    imported = tmp_path / "plain-was-imported"
    _suite(tmp_path, imported)
    done = _child(tmp_path, "-m", "serial", "--collect-only", serial_pass=True)
    assert done.returncode == 0, done.stdout + done.stderr
    listed = {line for line in done.stdout.splitlines() if "::" in line}
    assert listed == {"test_decorated.py::test_alone", "test_module_mark.py::test_whole_file"}
    assert not imported.exists()  # the plain file was not even imported
    # the same selection as a full collection makes, which does import it
    full = _child(tmp_path, "-m", "serial", "--collect-only", serial_pass=False)
    assert full.returncode == 0, full.stdout + full.stderr
    assert {line for line in full.stdout.splitlines() if "::" in line} == listed
    assert imported.exists()


def test_a_test_marked_serial_another_way_fails_every_run_naming_it(tmp_path: Path) -> None:
    _suite(tmp_path, tmp_path / "imported")
    (tmp_path / "test_alias.py").write_text(
        "from pytest import mark\n\n@mark.serial\ndef test_hidden():\n    pass\n", encoding="utf-8"
    )
    assert not marks_serial(tmp_path / "test_alias.py")
    done = _child(tmp_path, "-m", "not serial", serial_pass=False)
    assert done.returncode == 4, done.stdout + done.stderr  # a usage error, not a pass
    assert "test_alias.py::test_hidden is marked serial" in done.stdout + done.stderr
    assert SERIAL_MARK in done.stdout + done.stderr


def _ran(done: subprocess.CompletedProcess[str]) -> set[str]:
    return {line.split(" ")[1] for line in done.stdout.splitlines() if line.startswith("PASSED ")}


def test_the_first_pass_leaves_the_serial_tests_out_and_lists_them(tmp_path: Path) -> None:
    """``XQARBITER_SERIAL_LEFT``: the first pass runs what its markers select but the serial tests, and
    lists those in the file — the Makefile's serial pass runs only when the list is not empty."""
    _suite(tmp_path, tmp_path / "imported")
    (tmp_path / "test_stressed.py").write_text(
        "import pytest\n\n@pytest.mark.stress\n@pytest.mark.serial\ndef test_race():\n    pass\n\n"
        "@pytest.mark.stress\ndef test_load():\n    pass\n",
        encoding="utf-8",
    )
    left = tmp_path / "left.txt"
    done = _child(tmp_path, "-rA", serial_pass=False, left=left)
    assert done.returncode == 0, done.stdout + done.stderr
    assert _ran(done) == {
        "test_decorated.py::test_beside",
        "test_plain.py::test_plain",
        "test_stressed.py::test_load",
    }
    assert "3 deselected" in done.stdout
    assert left.read_text(encoding="utf-8").splitlines() == [
        "test_decorated.py::test_alone",
        "test_module_mark.py::test_whole_file",
        "test_stressed.py::test_race",
    ]
    # the markers and -k choose first: the list holds the serial tests they selected, and only those
    done = _child(tmp_path, "-rA", "-m", "stress", serial_pass=False, left=left)
    assert done.returncode == 0, done.stdout + done.stderr
    assert _ran(done) == {"test_stressed.py::test_load"}
    assert left.read_text(encoding="utf-8").splitlines() == ["test_stressed.py::test_race"]
    done = _child(tmp_path, "-rA", "-k", "plain", serial_pass=False, left=left)
    assert done.returncode == 0, done.stdout + done.stderr
    assert _ran(done) == {"test_plain.py::test_plain"}
    assert left.read_text(encoding="utf-8") == ""  # none: the Makefile starts no serial pass
    # ... and under xdist, one worker writes it
    left.unlink()
    done = _child(tmp_path, "-rA", "-p", "xdist", "-n", "2", "-m", "not stress", serial_pass=False, left=left)
    assert done.returncode == 0, done.stdout + done.stderr
    assert _ran(done) == {"test_decorated.py::test_beside", "test_plain.py::test_plain"}
    assert left.read_text(encoding="utf-8").splitlines() == [
        "test_decorated.py::test_alone",
        "test_module_mark.py::test_whole_file",
    ]


def test_the_suites_own_serial_files_say_so() -> None:
    """The files of this suite that mark tests serial are found by their text (the tests the serial
    pass runs: the lock race, crash safety, the hall under load, the build)."""
    found = {p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").rglob("test_*.py") if marks_serial(p)}
    assert {
        "tests/corpus/test_corpus.py",
        "tests/services/test_crash_safety.py",
        "tests/web/test_load.py",
        "tests/e2e/test_frozen_build.py",
    } <= found
