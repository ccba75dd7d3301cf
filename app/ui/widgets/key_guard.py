"""Questions that change a stored result never take their answer from keys typed before they appeared.

An arbiter typing fast (``30`` Enter Enter, 80 ms apart) is ahead of the screen: the second Enter was
meant for the next entry, not as the answer to a question that popped up in between. So for a moment
after such a question appears — :data:`GUARD_MS` — every key is discarded, wherever it was going:
keys already waiting in the event queue (typed before the question was drawn) and keys typed while
it is being drawn alike; shortcuts (Ctrl+Z …) included. The questions default to the harmless answer
as well (No / Cancel), so a reflex Enter after the guard changes nothing either.

:func:`guard_keys` starts a guard; :class:`GuardedQuestion` is a Yes/No message box that starts one
when it shows and defaults to No; :func:`guarded` does the same for any dialog.
"""

from __future__ import annotations

import time
from typing import ClassVar, TypeVar

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer
from PySide6.QtGui import QKeyEvent, QShowEvent
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox, QWidget

from app.ui.i18n import tr

#: How long keys are discarded after a question appears (milliseconds): longer than two key presses
#: of a fast typist (80–250 ms apart), shorter than reading the question.
GUARD_MS = 600

_FLUSHED = QEvent.Type(QEvent.registerEventType())
_KEY_EVENTS = frozenset({QEvent.Type.KeyPress, QEvent.Type.KeyRelease, QEvent.Type.ShortcutOverride})


class KeyGuard(QObject):
    """Discards every key event of the application until it is released: ``ms`` from now, and not
    before every event already queued when it started has been delivered (a slow machine may read
    keys typed before the question later than ``ms`` after it appeared — they are still discarded)."""

    _active: ClassVar[list[KeyGuard]] = []

    def __init__(self, ms: int | None = None) -> None:
        if ms is None:
            ms = GUARD_MS  # read when the guard starts (a test may set a shorter moment)
        app = QApplication.instance()
        super().__init__(app)
        self.until = time.monotonic() + ms / 1000
        self.flushed = False  # the marker posted now has come back: the queue before it is read
        assert app is not None
        app.installEventFilter(self)
        KeyGuard._active.append(self)
        QCoreApplication.postEvent(self, QEvent(_FLUSHED))
        QTimer.singleShot(ms, self._time_up)

    def event(self, event: QEvent) -> bool:
        if event.type() == _FLUSHED:
            self.flushed = True
            if time.monotonic() >= self.until:
                self.release()
            return True
        return super().event(event)

    def _time_up(self) -> None:
        if self.flushed:
            self.release()

    def release(self) -> None:
        if self in KeyGuard._active:
            KeyGuard._active.remove(self)
            app = QApplication.instance()
            if app is not None:
                app.removeEventFilter(self)
            self.deleteLater()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() not in _KEY_EVENTS or not isinstance(event, QKeyEvent):
            return False
        if self.flushed and time.monotonic() >= self.until:
            QTimer.singleShot(0, self.release)
            return False
        if event.type() == QEvent.Type.ShortcutOverride:
            event.accept()  # the key is "taken": no shortcut fires, the KeyPress that follows is discarded
        return True


def guard_keys(ms: int | None = None) -> KeyGuard:
    """Discard every key for ``ms`` (default :data:`GUARD_MS`) from now (a question has just appeared)."""
    return KeyGuard(ms)


def release_all() -> None:
    """End every guard now (a document closed under a question; a test that ends)."""
    for guard in list(KeyGuard._active):
        guard.release()


def keys_guarded() -> bool:
    """Whether keys are being discarded at this moment (a question has just appeared)."""
    return bool(KeyGuard._active)


class _GuardOnShow(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if isinstance(event, QShowEvent) and not event.spontaneous():
            guard_keys()
        return False


D = TypeVar("D", bound=QDialog)


def guarded(dialog: D) -> D:
    """``dialog`` discards keys for a moment each time it shows (see the module's docstring)."""
    watcher = _GuardOnShow(dialog)
    dialog.installEventFilter(watcher)
    return dialog


class GuardedQuestion(QMessageBox):
    """A Yes/No question about changing something stored: default and Esc are No; Y answers yes.

    Keys typed before it appeared (and during :data:`GUARD_MS` after) are discarded.
    """

    def __init__(self, parent: QWidget | None, title: str, text: str, *, yes: str = "") -> None:
        super().__init__(QMessageBox.Icon.Question, title, text, QMessageBox.StandardButton.NoButton, parent)
        self.yes_button = self.addButton(yes or tr("Questions", "是(&Y)"), QMessageBox.ButtonRole.YesRole)
        self.no_button = self.addButton(tr("Questions", "否(&N)"), QMessageBox.ButtonRole.NoRole)
        self.setDefaultButton(self.no_button)
        self.setEscapeButton(self.no_button)
        guarded(self)

    def ask(self) -> bool:
        """Show the question and wait; ``True`` only when the arbiter chose yes.

        The keyboard goes back to the window the question came from (its shortcuts included).
        """
        self.exec()
        parent = self.parentWidget()
        if parent is not None:
            parent.window().activateWindow()
        return self.clickedButton() is self.yes_button


def ask_guarded(parent: QWidget | None, title: str, text: str, *, yes: str = "") -> bool:
    """A :class:`GuardedQuestion`; ``True`` only for a deliberate yes."""
    question = GuardedQuestion(parent, title, text, yes=yes)
    try:
        return question.ask()
    finally:
        question.deleteLater()
