"""The window as the owner of its file for the command line (docs/file-safety.md).

While the window has a tournament file open for writing it offers it on the owner's channel
(:mod:`app.channel`): ``xqarbiter result …`` typed in a console beside it is handed to the window, which
runs it with the same services — a change in the window's own thread, between two of the arbiter's
actions, like a deputy's entry (:class:`app.ui.hall.WindowOwner`); a read (``pairings``, ``print`` …)
in the channel's thread, like the hall's pages. After a change the views refresh and the hall's phones
follow; the window's undo history is cleared (an undo recorded before would put back a state the
command line has changed since) and the status bar says what happened. ``xqarbiter serve`` typed
beside the window starts the window's hall server.
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

from app.engine.types import UserError
from app.ui.document import TournamentDocument
from app.ui.i18n import tr


class CommandLineHost(QObject):
    """The channel of a document open for writing; closed with the document."""

    changed_by_command_line = Signal(str)  # a status-bar message

    def __init__(self, document: TournamentDocument) -> None:
        super().__init__(document)
        from app.cli.hosted import Host, open_channel
        from app.ui.hall import WindowOwner

        self.document = document
        self.window: Any = None  # the MainWindow showing the document (its hall controller serves)
        self.writer = WindowOwner(document, self)
        self._queued: set[concurrent.futures.Future[Any]] = set()
        self.channel = open_channel(
            Host(document.db, "window", self._submit, self._changed, start_hall=self._start_hall)
        )

    def _submit(self, action: Callable[[], Any]) -> concurrent.futures.Future[Any]:
        """Queue a change for the window's thread (called from the channel's threads)."""
        future = self.writer.submit(action)
        self._queued.add(future)
        future.add_done_callback(self._queued.discard)
        return future

    @property
    def listening(self) -> bool:
        return self.channel is not None and self.channel.listening

    def _changed(self) -> None:
        """A command of the command line changed the file (in the window's thread)."""
        self.document.undo_stack.clear()
        self.changed_by_command_line.emit(
            tr("CommandLine", "命令行修改了赛事文件（已记入审计日志）；此前的操作不能再撤销")
        )

    def _start_hall(self, host: str, port: int) -> str:
        """``xqarbiter serve`` beside the window: the window's hall server (already running: its address)."""
        window = self.window
        if window is None:
            raise UserError("窗口没有打开这个赛事", "the window does not show this tournament")
        controller = window.hall
        if controller.running and controller.document is self.document:
            return str(controller.url)
        return str(controller.start(self.document, host, port))

    def close(self) -> None:
        """Stop offering the file (before it is closed, in the window's thread): a change still queued
        for this thread is not made (its command says so), reads under way finish first."""
        channel, self.channel = self.channel, None
        if channel is not None:
            channel.stop_listening()
        for future in list(self._queued):
            future.cancel()
        if channel is not None:
            channel.close()
