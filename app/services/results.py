"""Entering and correcting results (docs/rules.md §4).

A result goes into one game of a paired round. Entering a result where one is already recorded is a
*correction*: it needs a reason once the round is closed or a later round exists, and it is logged
with the value before and after. Standings are always computed from the games, so every later
standing and tiebreak follows a correction by itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import GameRow, Group, Round
from app.db.session import Database
from app.engine.types import GameResult, UserError
from app.services import audit
from app.services.tournaments import find_round, group_row


@dataclass(frozen=True, slots=True)
class ResultEntry:
    board: int
    result: GameResult


def round_row(session: Session, group: Group, number: int, *, explanation: bool = True) -> Round:
    """The round's row; ``explanation=False`` leaves out its pairing explanation (a megabyte of JSON
    at 5,000 players), which then cannot be read from the row."""
    row = find_round(session, group, number, explanation=explanation)
    if row is None:
        raise UserError(
            f"{group.name}第 {number} 轮尚未编排", f"{group.name} round {number} has not been paired"
        )
    return row


def game_row(session: Session, rnd: Round, board: int, game_no: int | None = None) -> GameRow:
    games = [g for g in rnd.games if g.board == board]
    if game_no is not None:
        games = [g for g in games if g.game_no == game_no]
    if not games:
        boards = sorted({g.board for g in rnd.games})
        last = f"1–{boards[-1]}" if boards else "无"
        raise UserError(
            f"第 {rnd.number} 轮没有第 {board} 台（本轮台次：{last}）",
            f"round {rnd.number} has no board {board} (boards: {last})",
        )
    return max(games, key=lambda g: g.game_no)


def _set(
    session: Session,
    group: Group,
    rnd: Round,
    entry: ResultEntry,
    *,
    reason: str,
    who: str,
    game_no: int | None = None,
) -> bool:
    game = game_row(session, rnd, entry.board, game_no)
    if game.match_id is not None:
        raise UserError(
            f"第 {entry.board} 台是淘汰赛对局，请单独录入（系统据此安排下一局）",
            f"board {entry.board} is a knockout game: enter it on its own (the match decides the next game)",
        )
    before = GameResult(game.result)
    if before is entry.result:
        return False
    is_correction = before is not GameResult.PENDING
    if (
        is_correction
        and not reason.strip()
        and (rnd.closed_at is not None or _later_round(session, group, rnd))
    ):
        raise UserError(
            f"更正第 {rnd.number} 轮第 {entry.board} 台的成绩须注明理由",
            f"correcting round {rnd.number} board {entry.board} needs a reason",
        )
    game.result = entry.result.value
    audit.record(
        session,
        "correct_result" if is_correction else "enter_result",
        entity=f"{group.name} 第{rnd.number}轮 第{entry.board}台"
        + (f" 第{game.game_no}局" if game.kind != "swiss" else ""),
        before=before.value,
        after=entry.result.value,
        reason=reason,
        who=who,
    )
    return True


def _later_round(session: Session, group: Group, rnd: Round) -> bool:
    """Whether the group has a round after ``rnd`` (a result there is corrected with a reason)."""
    later = session.scalars(
        select(Round.id).where(Round.group_id == group.id, Round.number > rnd.number)
    ).first()
    return later is not None


def enter_result(
    db: Database,
    group: str,
    round_number: int,
    board: int,
    result: GameResult | str,
    *,
    reason: str = "",
    who: str = audit.DEFAULT_ARBITER,
    game_no: int | None = None,
) -> GameResult:
    """Enter (or correct) one board's result; returns the result that was there before."""
    value = result if isinstance(result, GameResult) else GameResult.from_code(result)
    with db.session() as s:
        g = group_row(s, group)
        rnd = round_row(s, g, round_number)
        game = game_row(s, rnd, board, game_no)
        match = None if game.match is None else game.match.code
        if match is None:
            before = GameResult(game.result)
            _set(s, g, rnd, ResultEntry(board, value), reason=reason, who=who, game_no=game_no)
            return before
        number = game.game_no
    # a knockout board: the match decides what follows (the next game, the next round's players)
    from app.services.knockout import enter_match_result

    return enter_match_result(db, group, match, number, value, reason=reason, who=who)


def enter_results(
    db: Database,
    group: str,
    round_number: int,
    entries: list[ResultEntry],
    *,
    reason: str = "",
    who: str = audit.DEFAULT_ARBITER,
) -> int:
    """Enter many results at once, all or nothing; returns how many changed.

    Setting an entered result back to *pending* needs a reason here (a bulk file is no place for an
    unexplained reset)."""
    boards = [e.board for e in entries]
    duplicates = sorted({b for b in boards if boards.count(b) > 1})
    if duplicates:
        raise UserError(
            f"同一台次出现多次：{'、'.join(map(str, duplicates))}",
            f"boards given more than once: {', '.join(map(str, duplicates))}",
        )
    with db.session() as s:
        g = group_row(s, group)
        rnd = round_row(s, g, round_number)
        if not reason.strip():
            resets = [
                e.board
                for e in entries
                if e.result is GameResult.PENDING
                and GameResult(game_row(s, rnd, e.board).result) is not GameResult.PENDING
            ]
            if resets:
                raise UserError(
                    f"把已录入的成绩改回“未录入”须注明理由（第 {'、'.join(map(str, resets))} 台）",
                    f"resetting entered results to pending needs a reason (boards {', '.join(map(str, resets))})",
                )
        return sum(_set(s, g, rnd, e, reason=reason, who=who) for e in entries)


def parse_result_entries(data: object) -> list[ResultEntry]:
    """Validate the bulk-entry JSON whole: a list of ``{"board": int, "result": code}`` (the schema in
    :func:`app.services.schemas.validate_results`; every error named with its JSON path)."""
    from app.services.schemas import validate_results

    return [ResultEntry(board, result) for board, result in validate_results(data)]
