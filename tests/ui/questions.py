"""Answering a modal question in a test the way the arbiter does: once it is on screen and has stopped
discarding keys — never by a timer that may fire before a slow machine has even shown it."""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QWidget

from app.ui.widgets.key_guard import keys_guarded


def when_asked(action: Callable[[QWidget], None], *, give_up_after: float = 60.0) -> list[str]:
    """Run ``action(dialog)`` once a modal dialog is shown and no longer discards keys.

    Returns a list that gets ``"left open"`` if the dialog is still there after the action (or no
    dialog came) when ``give_up_after`` seconds have passed: the dialog is then closed, so a test
    fails instead of hanging. If the action itself fails (an assertion about the dialog), the list
    gets ``"the answer failed: …"``, the dialog is closed at once and the error goes on to pytest-qt,
    which fails the test: no later attempt would come to close it, and the modal dialog would wait
    for ever.
    """
    problems: list[str] = []
    start = time.monotonic()
    acted: list[QWidget] = []

    def close_all(why: str) -> None:
        for _ in range(20):  # a dialog that refuses to close is not waited for
            left = QApplication.activeModalWidget()
            if left is None:
                return
            problems.append(why)
            left.close()

    def attempt() -> None:
        dialog = QApplication.activeModalWidget()
        if time.monotonic() - start > give_up_after:
            close_all("left open")
            return
        if dialog is None and acted:
            return  # answered, and gone
        if dialog is not None and dialog not in acted and not keys_guarded():
            acted.append(dialog)
            try:
                action(dialog)
            except BaseException as exc:
                problems.append(f"the answer failed: {exc!r}")
                close_all("closed after the answer failed")
                raise
        QTimer.singleShot(50, attempt)

    QTimer.singleShot(50, attempt)
    return problems
