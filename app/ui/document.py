"""One open tournament as the window holds it: the file, the chosen group, the undo stack.

Views never talk to each other; they call services and then :meth:`TournamentDocument.notify`, and
every view refreshes on :attr:`TournamentDocument.changed`. The undo stack belongs to the document,
so undo works across views and survives switching the language (the window is rebuilt, the
document stays).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from app.engine.types import UserError
from app.services import rounds as rounds_service
from app.services.rounds import RoundSummary
from app.services.tournaments import TournamentInfo, open_tournament, tournament_info


class TournamentDocument(QObject):
    changed = Signal()  # data in the file changed (a result, a flag, a round)
    group_changed = Signal(str)
    failed = Signal(object)  # a UserError raised by a service during undo/redo
    announced = Signal(str)  # what was just done, in words, for the message lines (an undo, a redo)

    def __init__(self, path: Path, db: Any, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.path = path
        self.db = db
        self.undo_stack = QUndoStack(self)
        self._info: TournamentInfo | None = tournament_info(db)
        self.group = self.info.groups[0].name if self.info.groups else ""
        self.command_line: Any = None  # app.ui.command_line.CommandLineHost, while open for writing
        #: the hall's address (host, port) of the ``xqarbiter serve`` this file was taken over from:
        #: the window serves the hall there next, so the phones' next request finds it
        self.resume_hall: tuple[str, int] | None = None
        #: the group's rounds as read once for the views answering one change (see :meth:`rounds`)
        self._rounds: tuple[str, list[RoundSummary]] | None = None
        self._readings = 0

    @classmethod
    def open(
        cls,
        path: Path | str,
        parent: QObject | None = None,
        *,
        read_only: bool = False,
        take_over: bool = False,
    ) -> TournamentDocument:
        path = Path(path)
        return cls(path, open_tournament(path, read_only=read_only, take_over=take_over), parent)

    @property
    def info(self) -> TournamentInfo:
        """The event's groups and regulations (``tournament_info``), as of the last change: read on
        the first question after each notice, not by every notice."""
        if self._info is None:
            self._info = tournament_info(self.db)
        return self._info

    @property
    def read_only(self) -> bool:
        return bool(self.db.read_only)

    @property
    def groups(self) -> list[str]:
        return [g.name for g in self.info.groups]

    def set_group(self, name: str) -> None:
        if name != self.group and name in self.groups:
            self.group = name
            with self.one_reading():
                self.group_changed.emit(name)

    def notify(self) -> None:
        with self.one_reading():
            self._rounds = None  # a change inside another's refresh (none is known) reads afresh
            self._info = None  # read again when a view asks (most refreshes after a result do not)
            self.changed.emit()

    @contextmanager
    def one_reading(self) -> Iterator[None]:
        """While the views answer one change (or the window opens the file), they share one reading
        of the group's rounds (:meth:`rounds`); it is dropped when the last of them is done, so a
        later change is always read afresh."""
        self._readings += 1
        try:
            yield
        finally:
            self._readings -= 1
            if not self._readings:
                self._rounds = None

    def rounds(self) -> list[RoundSummary]:
        """The shown group's rounds (``rounds_of``): read once per :meth:`one_reading` (every view
        refreshing after one change asks for them), read each time outside one."""
        if self._readings and self._rounds is not None and self._rounds[0] == self.group:
            return list(self._rounds[1])
        summaries = rounds_service.rounds_of(self.db, self.group)
        if self._readings:
            self._rounds = (self.group, summaries)
            return list(summaries)
        return summaries

    def report(self, error: UserError) -> None:
        self.failed.emit(error)

    def announce(self, text: str) -> None:
        """Say what was just done (``已撤销：…``) wherever the window shows messages."""
        self.announced.emit(text)

    def close(self) -> None:
        if self.command_line is not None:  # the command line's channel goes before the file
            self.command_line.close()
            self.command_line = None
        self.undo_stack.blockSignals(True)
        self.undo_stack.clear()
        self.db.close()
