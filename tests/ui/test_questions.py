"""The tests' own answerer of modal questions (tests/ui/questions.py): a failing answer closes the dialog
and fails the test; it never leaves a modal dialog waiting for ever (which hung a whole run)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialog, QWidget

from tests.ui.questions import when_asked


def test_an_answer_that_fails_closes_the_dialog_and_reaches_the_test(qtbot: Any) -> None:
    dialog = QDialog()
    qtbot.addWidget(dialog)
    hung: list[str] = []

    def rescue() -> None:  # this test's own bound: were the dialog left open, close it and say so
        if QApplication.activeModalWidget() is dialog:
            hung.append("still open after 10 s")
            dialog.close()

    def answer(shown: QWidget) -> None:
        assert shown is dialog
        raise AssertionError("the dialog was not what the test expected")

    QTimer.singleShot(10_000, rescue)
    with qtbot.capture_exceptions() as raised:
        problems = when_asked(answer)
        dialog.exec()  # modal: returns once closed
    assert hung == []
    assert problems[0] == "the answer failed: AssertionError('the dialog was not what the test expected')"
    assert problems[1:] == ["closed after the answer failed"]
    assert [type(e[1]) for e in raised] == [AssertionError]  # pytest-qt fails the test that met it


def test_an_answer_that_succeeds_reports_nothing(qtbot: Any) -> None:
    dialog = QDialog()
    qtbot.addWidget(dialog)
    problems = when_asked(lambda shown: shown.accept() if isinstance(shown, QDialog) else None)
    assert dialog.exec() == QDialog.DialogCode.Accepted
    assert problems == []
