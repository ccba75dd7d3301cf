"""Undo and redo of arbiter actions (modelled on orange-canvas-core ``document/commands.py``).

Each command's ``redo``/``undo`` calls a service, never a widget. A command is *performed* once
before it is pushed (:func:`perform`), so a refusal by the service (a ``UserError``) reaches the
arbiter and nothing lands on the stack; the stack's first automatic ``redo`` is then skipped.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from PySide6.QtGui import QUndoCommand

from app.engine.types import GameResult, UserError
from app.services import rounds as rounds_service
from app.services.audit import REDO_MARK, UNDO_MARK, audit_log, replaying
from app.services.discipline import disqualify, lift_disqualification, record_violation, remove_violation
from app.services.overrides import SetPair, SwapColours, SwapPlayers, apply_override
from app.services.pairing_plan import PairingOutcome
from app.services.registration import reinstate_player, withdraw_player
from app.services.results import enter_result
from app.ui.document import TournamentDocument
from app.ui.i18n import tr, translate_noop

UNDO_REASON = UNDO_MARK

Change = SwapPlayers | SwapColours | SetPair


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

    def _run(self, action: Callable[[], None], mark: str, said: str) -> None:
        """Undo or redo: the audit lines written are marked, the window says what was done."""
        try:
            with replaying(mark):
                action()
        except UserError as error:
            self.setObsolete(True)
            self.document.report(error)
            self.document.notify()
            return
        self.document.notify()
        self.document.announce(tr("UndoCommands", said).replace("%1", self.text()))

    def redo(self) -> None:
        if self._performed:
            self._performed = False  # performed by perform() already
            return
        self._run(self.apply, REDO_MARK, translate_noop("UndoCommands", "已重做：%1"))

    def undo(self) -> None:
        self._run(self.revert, UNDO_MARK, translate_noop("UndoCommands", "已撤销：%1"))


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
        text = tr("UndoCommands", "%4 第 %1 轮第 %2 台：%3")
        super().__init__(
            document,
            text.replace("%1", str(round_number))
            .replace("%2", str(board))
            .replace("%3", label)
            .replace("%4", group),
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


# --------------------------------------------------------------------------- pairing


def _round_label(text: str, group: str, number: int) -> str:
    return text.replace("%1", group).replace("%2", str(number))


Seats = tuple[tuple[tuple[int, int, int], ...], tuple[int, ...]]


def current_seats(document: TournamentDocument, group: str, number: int) -> Seats:
    """The round's Swiss games as ``(board, red, black)`` and its byes, by sequence number."""
    view = rounds_service.round_view(document.db, group, number)
    games = tuple(sorted((b.board, b.red.no, b.black.no) for b in view.boards if b.match is None))
    return games, tuple(sorted(s.no for s in view.byes))


def restore_seats(document: TournamentDocument, group: str, number: int, target: Seats) -> None:
    """Put every player back on the seat ``target`` gives them, one :class:`SwapPlayers` at a time.

    Used to undo a 指定对阵 (SetPair has no one-step inverse) and to restore a hand-edited pairing
    after an unpair is undone. Each swap goes through :func:`apply_override` with ``confirm=True``:
    the seats being restored were the arbiter's own, confirmed when they were made.
    """
    seats = current_seats(document, group, number)
    for _ in range(4 * (len(target[0]) + len(target[1])) + 1):
        games, byes = seats
        seat_of: dict[int, tuple[int, int]] = {}
        for board, red, black in games:
            seat_of[red], seat_of[black] = (board, 0), (board, 1)
        for no in byes:
            seat_of[no] = (0, 0)
        wanted: dict[int, tuple[int, int]] = {}
        for board, red, black in target[0]:
            wanted[red], wanted[black] = (board, 0), (board, 1)
        for no in target[1]:
            wanted[no] = (0, 0)
        occupant = {seat: no for no, seat in seat_of.items() if seat != (0, 0)}
        wrong = next(((no, seat) for no, seat in sorted(wanted.items()) if seat_of.get(no) != seat), None)
        if wrong is None:
            return
        no, seat = wrong
        other = occupant.get(seat) if seat != (0, 0) else next(b for b in byes if wanted.get(b) != (0, 0))
        if other is None:
            raise UserError("无法恢复原编排", "the former pairing cannot be restored")
        done = apply_override(
            document.db, group, number, SwapPlayers(no, other), reason=UNDO_REASON, confirm=True
        )
        # The seats after the swap are the two players exchanged. The service says what it stored:
        # where that is exactly the exchange (the round's seats as the service and the round's view
        # see them are the same — no players resting outside them), it is the round as it is now,
        # and the next step needs no second reading of the whole round; otherwise it is read again.
        exchanged = _exchanged(seats, no, other)
        seats = (
            exchanged
            if (done.games, tuple(sorted(done.byes))) == exchanged
            else current_seats(document, group, number)
        )
    raise UserError("无法恢复原编排", "the former pairing cannot be restored")


def _exchanged(seats: Seats, a: int, b: int) -> Seats:
    """``seats`` with players ``a`` and ``b`` on each other's seat (a bye counts as a seat)."""

    def other(no: int) -> int:
        return b if no == a else a if no == b else no

    games, byes = seats
    return (
        tuple(sorted((board, other(red), other(black)) for board, red, black in games)),
        tuple(sorted(other(no) for no in byes)),
    )


def _seed_of(document: TournamentDocument, group: str, number: int) -> int | None:
    """The seed the round was last paired with, from the audit log (``None`` if not found)."""
    entity = f"{group} 第{number}轮"
    for line in reversed(audit_log(document.db, action="pair_round")):
        if line.entity != entity:
            continue
        try:
            after = json.loads(line.after)
        except ValueError:
            return None
        seed = after.get("seed") if isinstance(after, dict) else None
        return int(seed) if isinstance(seed, int) else None
    return None


class PairRoundCommand(ServiceCommand):
    """编排下一轮; undo unpairs the round, redo pairs it again with the same seed (same boards)."""

    def __init__(self, document: TournamentDocument, group: str, seed: int | None = None) -> None:
        super().__init__(document, tr("UndoCommands", "编排%1下一轮").replace("%1", group))
        self.group, self.seed = group, seed
        self.outcome: PairingOutcome | None = None

    def apply(self) -> None:
        self.outcome = rounds_service.pair_next_round(self.document.db, self.group, seed=self.seed)
        self.seed = self.outcome.seed
        self.setText(_round_label(tr("UndoCommands", "编排%1第 %2 轮"), self.group, self.outcome.number))

    def revert(self) -> None:
        assert self.outcome is not None
        rounds_service.unpair_round(self.document.db, self.group, self.outcome.number)


class UnpairRoundCommand(ServiceCommand):
    """撤销本轮编排; undo pairs the round again with its seed and puts back any hand-made changes."""

    def __init__(self, document: TournamentDocument, group: str, number: int) -> None:
        super().__init__(document, _round_label(tr("UndoCommands", "撤销%1第 %2 轮编排"), group, number))
        self.group, self.number = group, number
        self.seats: Seats | None = None
        self.seed: int | None = None

    def apply(self) -> None:
        self.seats = current_seats(self.document, self.group, self.number)
        self.seed = _seed_of(self.document, self.group, self.number)
        rounds_service.unpair_round(self.document.db, self.group, self.number)

    def revert(self) -> None:
        assert self.seats is not None
        rounds_service.pair_next_round(self.document.db, self.group, seed=self.seed)
        restore_seats(self.document, self.group, self.number, self.seats)


class OverrideCommand(ServiceCommand):
    """A manual pairing change (交换棋手 / 交换先后手 / 指定对阵) with the arbiter's reason.

    Undo: :class:`SwapPlayers` and :class:`SwapColours` are their own inverses and are applied
    again; :class:`SetPair` is undone by restoring the seats stored before it (:func:`restore_seats`).
    """

    def __init__(
        self,
        document: TournamentDocument,
        group: str,
        number: int,
        change: Change,
        text: str,
        reason: str = "",
        confirm: bool = False,
    ) -> None:
        super().__init__(document, text)
        self.group, self.number, self.change = group, number, change
        self.reason, self.confirm = reason, confirm
        self.before: Seats | None = None

    def apply(self) -> None:
        self.before = current_seats(self.document, self.group, self.number)
        apply_override(
            self.document.db, self.group, self.number, self.change, reason=self.reason, confirm=self.confirm
        )

    def revert(self) -> None:
        assert self.before is not None
        if isinstance(self.change, SetPair):
            restore_seats(self.document, self.group, self.number, self.before)
        else:
            apply_override(
                self.document.db, self.group, self.number, self.change, reason=UNDO_REASON, confirm=True
            )


# --------------------------------------------------------------------------- discipline


class GameDecisionCommand(ServiceCommand):
    """A discipline action that decides a game (迟到/离席/手机判负, 双方弃权).

    Undo enters the game's former result again through ``enter_result`` (audited as an undo); the
    violation row the action wrote stays in the record, as every audited action does.
    """

    def __init__(
        self,
        document: TournamentDocument,
        group: str,
        number: int,
        board: int,
        action: Callable[[], object],
        text: str,
    ) -> None:
        super().__init__(document, text)
        self.group, self.number, self.board, self.action = group, number, board, action
        self.previous: GameResult | None = None

    def apply(self) -> None:
        if self.previous is None:
            view = rounds_service.round_view(self.document.db, self.group, self.number)
            line = next(b for b in view.boards if b.board == self.board)
            self.previous = line.result
        self.action()

    def revert(self) -> None:
        assert self.previous is not None
        enter_result(self.document.db, self.group, self.number, self.board, self.previous, reason=UNDO_REASON)


class WithdrawCommand(ServiceCommand):
    """退赛; undo reinstates the player (``reinstate_player``)."""

    def __init__(self, document: TournamentDocument, player_id: int, reason: str, text: str) -> None:
        super().__init__(document, text)
        self.player_id, self.reason = player_id, reason

    def apply(self) -> None:
        withdraw_player(self.document.db, self.player_id, reason=self.reason)

    def revert(self) -> None:
        reinstate_player(self.document.db, self.player_id, reason=UNDO_REASON)


class ViolationCommand(ServiceCommand):
    """记犯规; undo removes that violation again (logged with the undo reason)."""

    def __init__(
        self,
        document: TournamentDocument,
        group: str,
        no: int,
        round_number: int,
        kind: str,
        reason: str,
        text: str,
    ) -> None:
        super().__init__(document, text)
        self.group, self.no, self.round_number, self.kind, self.reason = group, no, round_number, kind, reason
        self.violation_id: int | None = None

    def apply(self) -> None:
        self.violation_id = record_violation(
            self.document.db, self.group, self.no, self.round_number, self.kind, self.reason
        )

    def revert(self) -> None:
        if self.violation_id is not None:
            remove_violation(self.document.db, self.violation_id, UNDO_REASON)
            self.violation_id = None


class DisqualifyCommand(ServiceCommand):
    """取消成绩 with the arbiter's choice for the games; undo lifts it again (logged)."""

    def __init__(
        self, document: TournamentDocument, group: str, no: int, games: str, reason: str, text: str
    ) -> None:
        super().__init__(document, text)
        self.group, self.no, self.games, self.reason = group, no, games, reason

    def apply(self) -> None:
        disqualify(self.document.db, self.group, self.no, self.games, self.reason)

    def revert(self) -> None:
        lift_disqualification(self.document.db, self.group, self.no, UNDO_REASON)
