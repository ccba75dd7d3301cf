"""Stopping cleanly when the system asks, so that no stale lock is left behind.

An owner of a tournament file (the window, ``xqarbiter serve``) holds its lock file and its channel
until it closes the file. Killed the hard way it leaves both (the next start offers to take the lock
over); asked politely it must close the file first. :class:`Termination` turns every polite request
into one call of ``request_stop`` — the owner then stops its work, closes the file (the lock file and
the channel are removed) and calls :meth:`Termination.finished`:

- POSIX: ``SIGTERM`` (``kill``, a shutdown) and ``SIGHUP`` (the terminal closed); the window also takes
  ``SIGINT`` (Ctrl+C in the terminal that started it). Python runs a signal handler in the main thread
  between two bytecodes; the window's event loop is woken for it (:func:`app.ui.application.run`).
- Windows: the console's close button, a log-off, a shutdown, Ctrl+Break
  (``SetConsoleCtrlHandler``). The system calls the handler in a thread of its own and ends the process
  as soon as the handler returns, so the handler waits (at most :data:`CONSOLE_GRACE` seconds) until
  the owner says it has :meth:`finished`.

Standard library only: the command line uses it without Qt.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any

#: Windows gives a console handler 5 s after a close event before it ends the process
CONSOLE_GRACE = 4.5
CTRL_C_EVENT, CTRL_BREAK_EVENT, CTRL_CLOSE_EVENT, CTRL_LOGOFF_EVENT, CTRL_SHUTDOWN_EVENT = 0, 1, 2, 5, 6
_CONSOLE_EVENTS = {
    CTRL_BREAK_EVENT: "CTRL_BREAK",
    CTRL_CLOSE_EVENT: "CTRL_CLOSE",
    CTRL_LOGOFF_EVENT: "CTRL_LOGOFF",
    CTRL_SHUTDOWN_EVENT: "CTRL_SHUTDOWN",
}


class Termination:
    """The polite ways a process is asked to stop, all turned into ``request_stop(reason)``."""

    def __init__(self, request_stop: Callable[[str], None], *, interrupt: bool = False) -> None:
        self.request_stop = request_stop
        self.interrupt = interrupt  # SIGINT too (the window; the command line keeps KeyboardInterrupt)
        self.requested: str | None = None
        self._done = threading.Event()
        self._previous: dict[int, Any] = {}
        self._console_handler: Any = None

    def install(self) -> Termination:
        """Install the handlers (signals only from the main thread, where Python allows them)."""
        if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
            self._install_console_handler()
        if threading.current_thread() is threading.main_thread():
            wanted = [getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)]
            if self.interrupt:
                wanted.append(signal.SIGINT)
            for signum in wanted:
                self._previous[signum] = signal.signal(signum, self._on_signal)
        return self

    def uninstall(self) -> None:
        for signum, previous in self._previous.items():
            with contextlib.suppress(ValueError, TypeError):
                signal.signal(signum, previous)
        self._previous.clear()
        if self._console_handler is not None:  # pragma: no cover - Windows only
            import ctypes

            ctypes.windll.kernel32.SetConsoleCtrlHandler(self._console_handler, False)  # type: ignore[attr-defined]
            self._console_handler = None

    def _on_signal(self, signum: int, _frame: object) -> None:
        self._request(signal.Signals(signum).name)

    def _request(self, reason: str) -> None:
        if self.requested is None:
            self.requested = reason
        self.request_stop(reason)

    def console_event(self, ctrl_type: int) -> bool:
        """What the Windows console handler does with an event (called by the system in a thread of
        its own): True when handled. Ctrl+C is left to Python (KeyboardInterrupt)."""
        name = _CONSOLE_EVENTS.get(ctrl_type)
        if name is None:
            return False
        self._request(name)
        if ctrl_type != CTRL_BREAK_EVENT:  # the system ends the process once this returns
            self._done.wait(CONSOLE_GRACE)
        return True

    def finished(self) -> None:
        """The owner has closed its file (a waiting console handler may return now)."""
        self._done.set()

    def _install_console_handler(self) -> None:  # pragma: no cover - exercised on Windows only
        import ctypes
        from ctypes import wintypes

        handler_type = ctypes.WINFUNCTYPE(wintypes.BOOL, wintypes.DWORD)  # type: ignore[attr-defined,unused-ignore]

        def handler(ctrl_type: int) -> bool:
            return self.console_event(int(ctrl_type))

        self._console_handler = handler_type(handler)  # kept: the system calls it later
        ctypes.windll.kernel32.SetConsoleCtrlHandler(self._console_handler, True)  # type: ignore[attr-defined]
