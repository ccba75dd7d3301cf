"""What a UI test leaves alive: windows still open, and any widget or timer that outlives the test.

pytest-qt closes the widgets a test registered (``qtbot.addWidget``) and asks Qt to delete them
*later*; nothing runs that "later" until some test waits on the event loop, and a window the test did not
register (one a language switch rebuilt, a dialog shown without a parent) stays open. Until then every
test of the same process, UI or not, pays for it: pytest-qt processes the pending events around each
test, and a live window repaints its tables from its models then. :func:`leftovers` makes Qt delete
what is due now and names what is still alive.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QTimer
from PySide6.QtWidgets import QApplication, QWidget


def _name(widget: QWidget) -> str:
    title = widget.windowTitle()
    return f"{type(widget).__name__}{f' {title!r}' if title else ''}"


def leftovers() -> list[str]:
    """Delete what was handed to ``deleteLater``, then name every window (a widget without a parent)
    still alive, shown or hidden (a hidden window still holds its tournament file and its timers),
    and how many timers still run under it."""
    if QCoreApplication.instance() is None:
        return []
    for _ in range(3):  # a deletion can hand more to deleteLater (a view's own children)
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    left = []
    for widget in QApplication.topLevelWidgets():
        if widget.parentWidget() is not None:
            continue  # a window's own dialog or menu: it goes with the window, named below
        running = [t for t in widget.findChildren(QTimer) if t.isActive()]
        shown = "shown" if widget.isVisible() else "hidden"
        timers = f", {len(running)} timer(s) running" if running else ""
        left.append(f"{_name(widget)} ({shown}{timers})")
    return left


def clear_leftovers() -> None:
    """Close and delete whatever :func:`leftovers` found, so one test's leak does not run on into
    the next test's time (the test that leaked fails all the same)."""
    for widget in QApplication.topLevelWidgets():
        widget.close()
        widget.deleteLater()
    for _ in range(3):
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
