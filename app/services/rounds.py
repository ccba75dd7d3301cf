"""Rounds: reading a round's pairings as the arbiter sees them, closing a round.

Pairing a round (``pair_next_round``), unpairing and manual overrides live here too.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from app.db.mapping import load_group_state
from app.db.models import Round
from app.db.session import Database
from app.engine.event import Entrant, GroupState, scores_after
from app.engine.types import GameResult, RoundStage, UserError
from app.services import audit
from app.services.results import round_row
from app.services.tournaments import group_row, regulations_of


@dataclass(frozen=True, slots=True)
class Seat:
    """A player at a board: number, name, unit and score before the round."""

    no: int
    name: str
    unit: str
    score: int


@dataclass(frozen=True, slots=True)
class BoardLine:
    board: int
    red: Seat
    black: Seat
    result: GameResult


@dataclass(frozen=True, slots=True)
class RoundView:
    group: str
    number: int
    stage: RoundStage
    boards: tuple[BoardLine, ...]
    byes: tuple[Seat, ...]
    closed: bool

    @property
    def pending_boards(self) -> tuple[int, ...]:
        return tuple(b.board for b in self.boards if b.result is GameResult.PENDING)


@dataclass(frozen=True, slots=True)
class RoundSummary:
    number: int
    stage: RoundStage
    boards: int
    pending: int
    closed: bool


def group_state(db: Database, group: str) -> GroupState:
    with db.session() as s:
        return load_group_state(s, group_row(s, group), regulations_of(s))


def _seat(e: Entrant, scores: dict[int, int]) -> Seat:
    return Seat(e.no, e.name, e.unit, scores.get(e.no, 0))


def round_view(db: Database, group: str, number: int) -> RoundView:
    with db.session() as s:
        reg = regulations_of(s)
        g = group_row(s, group)
        state = load_group_state(s, g, reg)
        rnd = round_row(s, g, number)
        stage, closed = RoundStage(rnd.stage), rnd.closed_at is not None
    record = next(r for r in state.rounds if r.number == number)
    scores = scores_after(state.swiss_rounds, reg.points, number - 1)
    by_no = {e.no: e for e in state.entrants}
    return RoundView(
        group=group,
        number=number,
        stage=stage,
        boards=tuple(
            BoardLine(gm.board, _seat(by_no[gm.red], scores), _seat(by_no[gm.black], scores), gm.result)
            for gm in record.games
        ),
        byes=tuple(_seat(by_no[no], scores) for no in record.byes),
        closed=closed,
    )


def rounds_of(db: Database, group: str) -> list[RoundSummary]:
    with db.session() as s:
        g = group_row(s, group)
        return [
            RoundSummary(
                r.number,
                RoundStage(r.stage),
                len(r.games),
                sum(1 for gm in r.games if gm.result == GameResult.PENDING.value),
                r.closed_at is not None,
            )
            for r in s.scalars(select(Round).where(Round.group_id == g.id).order_by(Round.number))
        ]


def close_round(db: Database, group: str, number: int, *, who: str = audit.DEFAULT_ARBITER) -> None:
    """Close a round once every result is in (record-duty refusals are confirmed separately)."""
    with db.session() as s:
        g = group_row(s, group)
        rnd = round_row(s, g, number)
        pending = sorted(gm.board for gm in rnd.games if gm.result == GameResult.PENDING.value)
        if pending:
            raise UserError(
                f"第 {number} 轮还有 {len(pending)} 台未录入成绩：{'、'.join(map(str, pending))}",
                f"round {number} still has {len(pending)} boards without a result: {', '.join(map(str, pending))}",
            )
        if rnd.closed_at is None:
            rnd.closed_at = datetime.now().replace(microsecond=0)
            audit.record(s, "close_round", entity=f"{group} 第{number}轮", who=who)
