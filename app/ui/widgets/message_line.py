"""The message line under a view's buttons: what was just done, or why it was refused — for a while.

A message describes the moment it was written: left on screen it soon describes something else (a
result read back after it was undone, a refusal after the entry was retyped). So a message goes
after :data:`INFO_MS` (a refusal after :data:`ERROR_MS`), and every new message replaces the last.
"""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QLabel, QWidget

#: How long a message stays (milliseconds); a refusal stays longer.
INFO_MS = 20_000
ERROR_MS = 60_000
_ERROR_COLOUR = "#b22222"


def expire(label: QLabel, *, error: bool = False) -> None:
    """Clear ``label`` after a while (restarted by every new message)."""
    timer = label.findChild(QTimer, "message_expiry")
    if timer is None:
        timer = QTimer(label)
        timer.setObjectName("message_expiry")
        timer.setSingleShot(True)
        timer.timeout.connect(label.clear)
    if not label.text():
        timer.stop()
        return
    timer.start(ERROR_MS if error else INFO_MS)


class MessageLine(QLabel):
    """A word-wrapped label whose text goes after a while (:func:`expire`)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)

    def setText(self, text: str) -> None:
        super().setText(text)
        expire(self, error=_ERROR_COLOUR in text)
