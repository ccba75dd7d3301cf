"""The suite's guards against a hung run: a modal question nobody answers, or an answer that fails,
ends the test as a failure naming the dialog within seconds — it never waits for ever (a hung test
once kept the whole suite past the CI's time limit). Each case runs pytest on a small test file in a
child process, with the UI tests' own fixtures, and a short watchdog limit."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

FORGOTTEN = """
from PySide6.QtWidgets import QMessageBox

def test_a_question_nobody_answers(qtbot):
    box = QMessageBox(QMessageBox.Icon.Question, "覆盖文件", "文件已存在，覆盖吗？")
    box.exec()  # nothing answers it
"""

FAILED_ANSWER = """
from PySide6.QtWidgets import QMessageBox
from tests.ui.questions import when_asked

def test_an_answer_that_fails(qtbot):
    def answer(dialog):
        assert dialog.windowTitle() == "另一个问题"  # the check fails inside the answer
    problems = when_asked(answer)
    box = QMessageBox(QMessageBox.Icon.Question, "覆盖文件", "文件已存在，覆盖吗？")
    box.exec()
    assert problems  # reached only because the failed answer closed the box
"""


def _run(tmp_path: Path, source: str) -> subprocess.CompletedProcess[str]:
    test = tmp_path / "test_child.py"
    test.write_text(textwrap.dedent(source), encoding="utf-8")
    env = {**os.environ, "XQARBITER_MODAL_LIMIT": "2", "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "tests.ui.conftest",
            "--rootdir",
            str(tmp_path),
            "-c",
            os.devnull,
            "--timeout",
            "120",
            str(test),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_question_nobody_answers_fails_the_test_naming_it(tmp_path: Path) -> None:
    done = _run(tmp_path, FORGOTTEN)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 error" in done.stdout  # failed at the watchdog's teardown: reported as an error
    assert (
        "left waiting for an answer for 2 s, then closed: QMessageBox '覆盖文件' saying '文件已存在，覆盖吗？'"
        in done.stdout
    )
    assert "Timeout" not in done.stdout + done.stderr  # the watchdog, not the last-resort timeout


def test_an_answer_that_fails_closes_the_question_and_fails_the_test(tmp_path: Path) -> None:
    done = _run(tmp_path, FAILED_ANSWER)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 failed" in done.stdout
    assert "另一个问题" in done.stdout  # the failing check is what the report shows
    assert "left waiting" not in done.stdout  # closed by the failed answer at once, not by the watchdog
    assert "Timeout" not in done.stdout + done.stderr
