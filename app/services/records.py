"""Record duty (录谱, docs/rules.md §8): who owes which record, records handed in, refusals at closing.

Duties are recomputed from the round's results each time (a corrected result changes who owes
the record). The designated boards of rounds 1–3 and the records handed in are stored in
``game_records``; violations raised here are stored with ``source="auto"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import GameRecord, GameRow, Group, Player, Round, Violation
from app.db.session import Database
from app.engine.record_duty import (
    RecordDuty,
    boards_to_record,
    check_record,
    close_round_violations,
    outstanding_records,
    record_duties,
)
from app.engine.record_duty import Violation as ViolationValue
from app.engine.types import Game, GameResult, UserError
from app.services import audit
from app.services.results import game_row, round_row
from app.services.tournaments import group_row, player_numbers, regulations_of


@dataclass(frozen=True, slots=True)
class RecordDutyLine:
    round: int
    board: int
    recorder_no: int
    recorder_name: str
    reason: str
    received: bool
    moves: int | None


def _games(rnd: Round, no_of: dict[int, int]) -> list[Game]:
    return [
        Game(g.board, no_of[g.red_id], no_of[g.black_id], GameResult(g.result))
        for g in rnd.games
        if g.game_no == 1
    ]


def _context(
    s: Session, group: str, number: int
) -> tuple[Group, Round, dict[int, int], dict[int, GameRecord]]:
    g = group_row(s, group)
    rnd = round_row(s, g, number)
    no_of = player_numbers(s, g)
    game_ids = [gm.id for gm in rnd.games]
    records = {r.game_id: r for r in s.scalars(select(GameRecord).where(GameRecord.game_id.in_(game_ids)))}
    return g, rnd, no_of, records


@dataclass(frozen=True)
class _RoundDuties:
    group: Group
    by_board: dict[int, GameRow]
    records: dict[int, GameRecord]  # by game id
    duties: tuple[RecordDuty, ...]
    handed_in: set[int]  # boards


def _duties(s: Session, group: str, number: int) -> _RoundDuties:
    g, rnd, no_of, records = _context(s, group, number)
    by_board = {gm.board: gm for gm in rnd.games if gm.game_no == 1}
    designated = {b for b, gm in by_board.items() if gm.id in records and records[gm.id].designated}
    handed = {b for b, gm in by_board.items() if gm.id in records and records[gm.id].received}
    duties = record_duties(number, _games(rnd, no_of), regulations_of(s).record_duty, designated)
    return _RoundDuties(g, by_board, records, duties, handed)


def record_duty_list(db: Database, group: str, number: int) -> list[RecordDutyLine]:
    with db.session() as s:
        rd = _duties(s, group, number)
        names = {
            no: name
            for no, name in s.execute(select(Player.no, Player.name).where(Player.group_id == rd.group.id))
        }
        by_board, records = rd.by_board, rd.records
        return [
            RecordDutyLine(
                d.round,
                d.board,
                d.recorder_no,
                names.get(d.recorder_no, ""),
                d.reason,
                d.board in rd.handed_in,
                records[by_board[d.board].id].moves if by_board[d.board].id in records else None,
            )
            for d in rd.duties
        ]


@dataclass(frozen=True, slots=True)
class RecordedBoard:
    """A board whose game must be recorded, known from the start of the round; ``pending`` while its
    (first) game has no result — then the recorder is not known yet and both players keep a record."""

    board: int
    why: str  # 前10台 / 裁判组指定
    pending: bool


def recorded_boards(db: Database, group: str, number: int) -> list[RecordedBoard]:
    """The boards of a round whose records are due, before, during and after play (录谱纸 to print)."""
    with db.session() as s:
        _g, rnd, _no_of, records = _context(s, group, number)
        by_board = {gm.board: gm for gm in rnd.games if gm.game_no == 1}
        designated = {b for b, gm in by_board.items() if gm.id in records and records[gm.id].designated}
        rules = regulations_of(s).record_duty
        return [
            RecordedBoard(board, why, by_board[board].result == GameResult.PENDING.value)
            for board, why in boards_to_record(number, by_board, rules, designated)
        ]


def records_owed(db: Database, group: str, number: int) -> list[RecordDutyLine]:
    return [line for line in record_duty_list(db, group, number) if not line.received]


def _record_row(s: Session, game: GameRow) -> GameRecord:
    row = s.scalars(select(GameRecord).where(GameRecord.game_id == game.id)).one_or_none()
    if row is None:
        row = GameRecord(game_id=game.id, designated=False, received=False, pgn="")
        s.add(row)
    return row


def designate_records(
    db: Database, group: str, number: int, boards: list[int], *, who: str = audit.DEFAULT_ARBITER
) -> None:
    """The arbiter designates the games whose winners record (rounds 1–3, or any extra board)."""
    with db.session() as s:
        g = group_row(s, group)
        rnd = round_row(s, g, number)
        for board in boards:
            _record_row(s, game_row(s, rnd, board, 1)).designated = True
        audit.record(s, "designate_records", entity=f"{group} 第{number}轮", after=sorted(boards), who=who)


def hand_in_record(
    db: Database,
    group: str,
    number: int,
    board: int,
    moves: int,
    *,
    pgn: str = "",
    who: str = audit.DEFAULT_ARBITER,
) -> list[ViolationValue]:
    """Mark a record handed in with its move count (回合); returns the violations it raised."""
    if moves < 0:
        raise UserError(f"回合数不能为负数：{moves}", f"the move count cannot be negative: {moves}")
    with db.session() as s:
        g = group_row(s, group)
        rnd = round_row(s, g, number)
        game = game_row(s, rnd, board, 1)
        result = GameResult(game.result)
        if result is GameResult.PENDING:
            raise UserError(f"第 {board} 台尚无成绩，请先录入成绩", f"board {board} has no result yet")
        players = list(s.scalars(select(Player).where(Player.group_id == g.id)))
        no_of = {p.id: p.no for p in players if p.no is not None}
        ids = {p.no: p.id for p in players}
        row = _record_row(s, game)
        row.received, row.moves, row.received_at = True, moves, datetime.now().replace(microsecond=0)
        if pgn:
            row.pgn = pgn
        # a record handed in again replaces the automatic violations of the earlier one
        for old in s.scalars(
            select(Violation).where(
                Violation.game_id == game.id,
                Violation.source == "auto",
                Violation.kind == "short_draw_record",
            )
        ):
            s.delete(old)
        found = check_record(
            number,
            Game(board, no_of[game.red_id], no_of[game.black_id], result),
            moves,
            regulations_of(s).record_duty,
        )
        for v in found:
            s.add(
                Violation(
                    player_id=ids[v.player_no],
                    round_number=number,
                    game_id=game.id,
                    kind=v.kind.value,
                    reason=v.reason,
                    source="auto",
                    created_at=datetime.now().replace(microsecond=0),
                )
            )
        audit.record(
            s, "hand_in_record", entity=f"{group} 第{number}轮 第{board}台", after={"moves": moves}, who=who
        )
        return list(found)


def refusals_at_close(db: Database, group: str, number: int) -> list[ViolationValue]:
    """The refusals (拒不录谱) closing the round would record — shown to the arbiter to confirm."""
    with db.session() as s:
        rd = _duties(s, group, number)
        return list(close_round_violations(rd.duties, rd.handed_in))


def confirm_refusals(db: Database, group: str, number: int, *, who: str = audit.DEFAULT_ARBITER) -> int:
    """Store the refusals for records still owed (after the arbiter confirmed them); returns how many."""
    with db.session() as s:
        rd = _duties(s, group, number)
        ids = {p.no: p.id for p in s.scalars(select(Player).where(Player.group_id == rd.group.id))}
        existing = {
            (v.player_id, v.game_id)
            for v in s.scalars(
                select(Violation).where(Violation.kind == "refused_record", Violation.round_number == number)
            )
        }
        added = 0
        for v in close_round_violations(rd.duties, rd.handed_in):
            key = (ids[v.player_no], rd.by_board[v.board or 0].id)
            if key in existing:
                continue
            s.add(
                Violation(
                    player_id=key[0],
                    round_number=number,
                    game_id=key[1],
                    kind=v.kind.value,
                    reason=v.reason,
                    source="auto",
                    created_at=datetime.now().replace(microsecond=0),
                )
            )
            added += 1
        if added:
            audit.record(s, "refused_records", entity=f"{group} 第{number}轮", after=added, who=who)
        return added


__all__ = [
    "RecordDutyLine",
    "RecordedBoard",
    "confirm_refusals",
    "designate_records",
    "hand_in_record",
    "outstanding_records",
    "record_duty_list",
    "recorded_boards",
    "records_owed",
    "refusals_at_close",
]
