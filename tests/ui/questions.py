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
    fails instead of hanging.
    """
    problems: list[str] = []
    start = time.monotonic()
    acted: list[QWidget] = []

    def attempt() -> None:
        dialog = QApplication.activeModalWidget()
        if time.monotonic() - start > give_up_after:
            while (left := QApplication.activeModalWidget()) is not None:
                problems.append("left open")
                left.close()
            return
        if dialog is None and acted:
            return  # answered, and gone
        if dialog is not None and dialog not in acted and not keys_guarded():
            acted.append(dialog)
            action(dialog)
        QTimer.singleShot(50, attempt)

    QTimer.singleShot(50, attempt)
    return problems
