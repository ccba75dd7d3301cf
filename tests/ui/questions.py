"""Answering a modal question in a test the way the arbiter does: once it is on screen and has stopped
discarding keys — never by a timer that may fire before a slow machine has even shown it."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox, QWidget


def keys_guarded() -> bool:
    """Whether the program is discarding keys (app.ui.widgets.key_guard). A process that never
    imported the window (the hang guard's child pytest) has no guard: it is not imported for that."""
    key_guard = sys.modules.get("app.ui.widgets.key_guard")
    return key_guard is not None and bool(key_guard.keys_guarded())


# How long an answer waits for a shown dialog to take the keyboard (be activated, a field focused).
ACTIVATION_WAIT = 20.0


def dismiss_modals() -> list[str]:
    """Close every modal dialog on screen (innermost first); returns what each was, for a message.

    A dialog is rejected (which ends its ``exec``), anything else closed; bounded, so a dialog that
    refuses to close cannot keep this looping.
    """
    closed: list[str] = []
    for _ in range(10):
        widget = QApplication.activeModalWidget()
        if widget is None:
            break
        closed.append(describe(widget))
        if isinstance(widget, QDialog):
            widget.reject()
        widget.close()
    return closed


def describe(widget: QWidget) -> str:
    """A dialog as a failure message names it: its class, title and (a message box's) text."""
    said = f" saying {widget.text()!r}" if isinstance(widget, QMessageBox) else ""
    return f"{type(widget).__name__} {widget.windowTitle()!r}{said}"


#: bumped when a test ends (tests/ui/conftest.py): an answer still waiting from an earlier test — its
#: dialog never came, or was closed by keys before the answer saw it — stops looking, instead of
#: answering (or, after ``give_up_after``, closing) a later test's dialog
_test_generation = [0]


def forget_waiting_answers() -> None:
    """End every :func:`when_asked` of the test that is over."""
    _test_generation[0] += 1


def when_asked(action: Callable[[QWidget], None], *, give_up_after: float = 60.0) -> list[str]:
    """Run ``action(dialog)`` once a modal dialog is shown, has the keyboard and no longer discards keys.

    Returns a list that gets ``"left open"`` if the dialog is still there after the action (or no
    dialog came) when ``give_up_after`` seconds have passed: the dialog is then closed, so a test
    fails instead of hanging. If the action itself fails (an assertion inside it), the dialog is
    closed at once and the failure noted and raised, for the same reason.
    """
    problems: list[str] = []
    start = time.monotonic()
    acted: list[QWidget] = []
    first_seen: dict[int, float] = {}

    def _has_the_keyboard(dialog: QWidget) -> bool:
        """The dialog is the active window with a focused field, as when the arbiter starts typing —
        on a loaded machine that comes a while after it is shown. A dialog that never takes the
        keyboard is answered after ACTIVATION_WAIT seconds all the same (its answer then fails)."""
        if dialog.isActiveWindow() and QApplication.focusWidget() is not None:
            return True
        seen = first_seen.setdefault(id(dialog), time.monotonic())
        return time.monotonic() - seen > ACTIVATION_WAIT

    generation = _test_generation[0]

    def attempt() -> None:
        if _test_generation[0] != generation:
            return  # its test is over: a later test's dialog is not its to answer
        dialog = QApplication.activeModalWidget()
        if time.monotonic() - start > give_up_after:
            problems.extend("left open" for _ in dismiss_modals())
            return
        if dialog is None and acted:
            return  # answered, and gone
        if dialog is not None and dialog not in acted and not keys_guarded() and _has_the_keyboard(dialog):
            acted.append(dialog)
            try:
                action(dialog)
            except BaseException as error:  # a failed check inside the answer: close, never hang
                problems.append(f"the answer failed: {error!r}")
                dismiss_modals()
                raise  # pytest-qt reports it as the test's failure
        QTimer.singleShot(50, attempt)

    QTimer.singleShot(50, attempt)
    return problems


def until_keys_count(qtbot: object, *, timeout_ms: int = 20_000) -> None:
    """Wait until the moment a question discards keys is over (``GUARD_MS`` and the queue before it
    read), as an arbiter's deliberate key comes after it — no longer: the guard is asserted to be on
    first, so the wait is for its end, not a fixed time with a margin."""
    assert keys_guarded(), "no question is discarding keys: nothing to wait for"
    qtbot.waitUntil(lambda: not keys_guarded(), timeout=timeout_ms)  # type: ignore[attr-defined]
