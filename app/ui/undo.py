"""Undo and redo of arbiter actions (modelled on orange-canvas-core ``document/commands.py``).

Each command's ``redo``/``undo`` calls a service, never a widget. A command is *performed* once
before it is pushed (:func:`perform`), so a refusal by the service (a ``UserError``) reaches the
arbiter and nothing lands on the stack; the stack's first automatic ``redo`` is then skipped.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QUndoCommand

from app.engine.types import GameResult, UserError
from app.services.results import enter_result
from app.ui.document import TournamentDocument
from app.ui.i18n import tr

UNDO_REASON = "撤销 (undo)"


class ServiceCommand(QUndoCommand):
    """A command whose effects are service calls; subclasses give ``apply`` and ``revert``."""

    def __init__(self, document: TournamentDocument, text: str) -> None:
        super().__init__(text)
        self.document = document
        self._performed = False

    def apply(self) -> None:
        raise NotImplementedError

    def revert(self) -> None:
        raise NotImplementedError

    def _run(self, action: Callable[[], None]) -> None:
        try:
            action()
        except UserError as error:
            self.setObsolete(True)
            self.document.report(error)
        self.document.notify()

    def redo(self) -> None:
        if self._performed:
            self._performed = False  # performed by perform() already
            return
        self._run(self.apply)

    def undo(self) -> None:
        self._run(self.revert)


def perform(document: TournamentDocument, command: ServiceCommand) -> None:
    """Run ``command`` now (a ``UserError`` propagates, nothing is pushed), then push it for undo."""
    command.apply()
    command._performed = True
    document.undo_stack.push(command)
    document.notify()


class EnterResultCommand(ServiceCommand):
    """Enter one board's result; undo puts back the result that was there before."""

    def __init__(
        self,
        document: TournamentDocument,
        group: str,
        round_number: int,
        board: int,
        result: GameResult,
        reason: str = "",
    ) -> None:
        from app.ui.models.pairings import result_name

        label = result_name(result)
        text = tr("UndoCommands", "第 %1 轮第 %2 台：%3")
        super().__init__(
            document, text.replace("%1", str(round_number)).replace("%2", str(board)).replace("%3", label)
        )
        self.group, self.round_number, self.board = group, round_number, board
        self.result, self.reason = result, reason
        self.previous: GameResult | None = None

    def apply(self) -> None:
        before = enter_result(
            self.document.db, self.group, self.round_number, self.board, self.result, reason=self.reason
        )
        if self.previous is None:
            self.previous = before

    def revert(self) -> None:
        assert self.previous is not None
        enter_result(
            self.document.db, self.group, self.round_number, self.board, self.previous, reason=UNDO_REASON
        )


class SetFlagCommand(ServiceCommand):
    """Tick or untick a registration flag (fee, insurance, pledge, check-in) through its service."""

    def __init__(
        self,
        document: TournamentDocument,
        setter: Callable[[object, int, bool], None],
        player_id: int,
        value: bool,
        text: str,
    ) -> None:
        super().__init__(document, text)
        self.setter, self.player_id, self.value = setter, player_id, value

    def apply(self) -> None:
        self.setter(self.document.db, self.player_id, self.value)

    def revert(self) -> None:
        self.setter(self.document.db, self.player_id, not self.value)
