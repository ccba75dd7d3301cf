"""The suite's guards against a hung run: a modal question nobody answers, or an answer that fails,
ends the test as a failure naming the dialog within seconds — it never waits for ever (a hung test
once kept the whole suite past the CI's time limit). The cases are small test files run by pytest in
one child process, with the UI tests' own fixtures and a 1-second watchdog limit."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree

import pytest

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


@dataclass
class Case:
    """One child test's outcome, as its JUnit report gives it."""

    errors: list[str]
    failures: list[str]

    @property
    def text(self) -> str:
        return "\n".join(self.errors + self.failures)


@pytest.fixture(scope="module")
def child(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[subprocess.CompletedProcess[str], dict[str, Case]]:
    """Both small test files run by one child pytest (one start of Python and Qt, not two); each
    case's outcome is read from the JUnit report."""
    folder = tmp_path_factory.mktemp("hangs")
    (folder / "test_forgotten.py").write_text(textwrap.dedent(FORGOTTEN), encoding="utf-8")
    (folder / "test_failed_answer.py").write_text(textwrap.dedent(FAILED_ANSWER), encoding="utf-8")
    report = folder / "report.xml"
    env = {**os.environ, "XQARBITER_MODAL_LIMIT": "1", "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            # only pytest-qt and pytest-timeout are used here: the other plugins are not loaded
            "-p",
            "no:hypothesispytest",
            "-p",
            "no:xdist",
            "-p",
            "no:xdist.looponfail",
            "-p",
            "tests.ui.conftest",
            "--rootdir",
            str(folder),
            "-c",
            os.devnull,
            "--timeout",
            "120",
            "--junitxml",
            str(report),
            str(folder / "test_forgotten.py"),
            str(folder / "test_failed_answer.py"),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert report.exists(), done.stdout + done.stderr
    cases = {
        case.get("name", ""): Case(
            [(e.get("message", "") + "\n" + (e.text or "")) for e in case.iter("error")],
            [(f.get("message", "") + "\n" + (f.text or "")) for f in case.iter("failure")],
        )
        for case in ElementTree.parse(report).iter("testcase")
    }
    return done, cases


def test_a_question_nobody_answers_fails_the_test_naming_it(
    child: tuple[subprocess.CompletedProcess[str], dict[str, Case]],
) -> None:
    done, cases = child
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 failed, 1 passed, 1 error" in done.stdout  # the two cases below, one report each
    case = cases["test_a_question_nobody_answers"]
    assert case.errors and not case.failures  # failed at the watchdog's teardown: reported as an error
    assert (
        "left waiting for an answer for 1 s, then closed: QMessageBox '覆盖文件' saying '文件已存在，覆盖吗？'"
        in case.text
    )
    assert "Timeout" not in done.stdout + done.stderr  # the watchdog, not the last-resort timeout


def test_an_answer_that_fails_closes_the_question_and_fails_the_test(
    child: tuple[subprocess.CompletedProcess[str], dict[str, Case]],
) -> None:
    done, cases = child
    case = cases["test_an_answer_that_fails"]
    assert case.failures and not case.errors
    assert "另一个问题" in case.text  # the failing check is what the report shows
    assert "left waiting" not in case.text  # closed by the failed answer at once, not by the watchdog
    assert "Timeout" not in done.stdout + done.stderr


def test_an_answer_left_waiting_by_an_earlier_test_never_answers_a_later_question(qtbot) -> None:
    """An answer armed for a dialog that never came (or was closed by keys before the answer saw it)
    ends with its test: the next test's question is answered by that test's own answer only."""
    from PySide6.QtWidgets import QMessageBox

    from tests.ui.questions import forget_waiting_answers, when_asked

    stale: list[str] = []
    when_asked(lambda dialog: (stale.append(dialog.text()), dialog.reject()))  # its dialog never comes
    forget_waiting_answers()  # the end of that test (tests/ui/conftest.py does it after every test)
    answered: list[str] = []

    def answer(dialog) -> None:
        answered.append(dialog.text())
        dialog.accept()

    problems = when_asked(answer)
    box = QMessageBox(QMessageBox.Icon.Question, "问题", "下一个测试的问题")
    qtbot.addWidget(box)
    box.exec()
    qtbot.wait(200)  # the stale answer's timer (every 50 ms) has had its chances
    assert problems == []
    assert answered == ["下一个测试的问题"]
    assert stale == []
