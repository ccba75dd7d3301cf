"""Game records (棋谱) attached to the games of a round: import, checks, storage and export.

A record comes in as PGN (xqbase style, UTF-8 or GBK bytes, moves in Chinese, WXF or ICCS). Every
move is replayed by the Xiangqi engine; an illegal one is refused with its move number and side and
nothing is stored. The record's Red/Black/Result headers must agree with the pairing and the entered
result; missing ones are filled in. The stored text is the normalised export in Chinese notation with
Event/Round/Board/Date/Red/Black from the tournament, handed in through
:func:`app.services.records.hand_in_record` so the record-duty violations (short draw) follow from
its move count. Natural-limit findings (自然限着) are reported back, not charged.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import GameRecord as GameRecordRow
from app.db.models import GameRow, Group, Player, Round
from app.db.session import Database
from app.engine.record_duty import Violation as ViolationValue
from app.engine.text import text_problem
from app.engine.types import GameResult, UserError
from app.engine.xiangqi import (
    GameRecord,
    MoveFormat,
    RecordFinding,
    RecordFindingKind,
    check_record,
    export_pgn,
    export_pgn_games,
    parse_pgn,
    parse_pgn_bytes,
    parse_pgn_games,
)
from app.engine.xiangqi.record import PGN_RESULTS
from app.reports.model import EventHeader
from app.services import audit
from app.services.records import hand_in_record
from app.services.results import game_row, round_row
from app.services.tournaments import group_row, regulations_of, tournament_row

if TYPE_CHECKING:  # ReportLab only when a game sheet is printed (not for the public pages)
    from app.reports.pdf.base import Output

#: a game record file larger than this is refused before it is read (a real game is a few kilobytes)
PGN_MAX_BYTES = 1_000_000

# Headers the tournament writes, in this order, before any others the record brings along.
_TOURNAMENT_HEADERS = ("Event", "Round", "Board", "Date", "Red", "RedTeam", "Black", "BlackTeam")


@dataclass(frozen=True, slots=True)
class AttachedRecord:
    """What attaching a record did: the normalised record, its stored PGN, the violations it raised
    (short draw, through the record duty) and the natural-limit findings (to know, not charged)."""

    record: GameRecord
    pgn: str
    full_moves: int
    violations: tuple[ViolationValue, ...]
    natural_limit: tuple[RecordFinding, ...]


@dataclass(frozen=True, slots=True)
class BoardRecord:
    """A board of a round as the records view lists it."""

    board: int
    game_no: int
    red: str
    black: str
    result: GameResult
    recorder: str  # who owes the record ("" when nobody does)
    reason: str
    received: bool  # the record duty is fulfilled (a PGN attached, or a paper record registered)
    moves: int | None
    has_pgn: bool = False  # the moves themselves are stored (can be printed and exported)


def _read(pgn: str | bytes) -> GameRecord:
    games = parse_pgn_bytes(pgn) if isinstance(pgn, bytes) else parse_pgn_games(pgn)
    if len(games) != 1:
        raise UserError(
            f"应为一局棋谱，实际有 {len(games)} 局", f"expected one game, the text holds {len(games)}"
        )
    return games[0]


def _same_name(a: str, b: str) -> bool:
    return "".join(a.split()) == "".join(b.split())


def _check_names(record: GameRecord, red: str, black: str, board: int) -> None:
    got_red, got_black = record.header("Red"), record.header("Black")
    swapped = (
        got_red is not None
        and got_black is not None
        and _same_name(got_red, black)
        and _same_name(got_black, red)
    )
    if swapped:
        raise UserError(
            f"棋谱红黑方与第 {board} 台对阵相反：红方应为{red}，黑方应为{black}",
            f"the record has the colours swapped: board {board} is {red} (red) vs {black} (black)",
        )
    for side_zh, side_en, got, want in (("红", "red", got_red, red), ("黑", "black", got_black, black)):
        if got is not None and got.strip() and not _same_name(got, want):
            raise UserError(
                f"棋谱{side_zh}方为“{got}”，第 {board} 台{side_zh}方是“{want}”",
                f"the record's {side_en} is {got!r}, board {board} has {want!r}",
            )


def _check_result(record: GameRecord, entered: GameResult, board: int) -> None:
    if record.result is GameResult.PENDING:
        return  # the record states no result: the entered one is written
    if PGN_RESULTS[record.result] != PGN_RESULTS[entered]:
        raise UserError(
            f"棋谱结果 {PGN_RESULTS[record.result]} 与第 {board} 台录入的成绩 {PGN_RESULTS[entered]} 不符",
            f"the record's result {PGN_RESULTS[record.result]} differs from board {board}'s "
            f"entered result {PGN_RESULTS[entered]}",
        )


def _game(s: Session, group: str, number: int, board: int, game_no: int) -> tuple[Group, Round, GameRow]:
    g = group_row(s, group)
    rnd = round_row(s, g, number)
    return g, rnd, game_row(s, rnd, board, game_no)


def _normalised(s: Session, record: GameRecord, rnd: Round, game: GameRow) -> GameRecord:
    t = tournament_row(s)
    ours: dict[str, str] = {
        "Event": t.name,
        "Round": str(rnd.number),
        "Board": str(game.board),
        "Date": f"{rnd.paired_at:%Y.%m.%d}",
        "Red": game.red.name,
        "Black": game.black.name,
    }
    if game.red.team is not None:
        ours["RedTeam"] = game.red.team.name
    if game.black.team is not None:
        ours["BlackTeam"] = game.black.team.name
    headers = [(k, ours[k]) for k in _TOURNAMENT_HEADERS if k in ours]
    headers += [(k, v) for k, v in record.headers if k not in _TOURNAMENT_HEADERS]
    return GameRecord(tuple(headers), record.moves, GameResult(game.result), record.fen)


def attach_record(
    db: Database,
    group: str,
    number: int,
    board: int,
    pgn: str | bytes,
    *,
    game_no: int = 1,
    who: str = audit.DEFAULT_ARBITER,
) -> AttachedRecord:
    """Check a record against board ``board`` of round ``number`` and store it (replacing any earlier).

    Raises :class:`UserError` (nothing stored) for an illegal or unreadable move (with its number and
    side), a Red/Black header naming other players, a result other than the entered one, or a board
    with no result yet.
    """
    record = _read(pgn)  # replays every move: RecordError names the move
    for key, value in record.headers:
        bad = text_problem(f"{key}{value}")
        if bad is not None or len(value) > 500:
            raise UserError(
                f"棋谱头信息 [{key[:20]}] 含有控制字符或不可见字符，或过长（{bad or len(value)}）",
                f"the record's header [{key[:20]}] holds a control or invisible character, or is too long "
                f"({bad or len(value)})",
            )
    with db.session() as s:
        _g, rnd, game = _game(s, group, number, board, game_no)
        entered = GameResult(game.result)
        if entered is GameResult.PENDING:
            raise UserError(
                f"第 {board} 台尚无成绩，请先录入成绩再附棋谱",
                f"board {board} has no result yet: enter it before attaching the record",
            )
        _check_names(record, game.red.name, game.black.name, board)
        _check_result(record, entered, board)
        normal = _normalised(s, record, rnd, game)
        regs = regulations_of(s)
    text = export_pgn(normal, MoveFormat.CHINESE)
    checked = check_record(
        normal,
        min_draw_moves=regs.record_duty.min_draw_moves,
        natural_limit_moves=regs.discipline.natural_limit_moves,
    )
    if game_no == 1:
        violations = tuple(hand_in_record(db, group, number, board, normal.full_moves, pgn=text, who=who))
    else:
        violations = ()
        _store_knockout_game(db, group, number, board, game_no, normal.full_moves, text, who)
    return AttachedRecord(
        normal,
        text,
        normal.full_moves,
        violations,
        tuple(f for f in checked.findings if f.kind is RecordFindingKind.NATURAL_LIMIT),
    )


def _store_knockout_game(
    db: Database, group: str, number: int, board: int, game_no: int, moves: int, text: str, who: str
) -> None:
    """A later game of a knockout match (rapid, deciding): stored, outside the record duty."""
    with db.session() as s:
        _g, _rnd, game = _game(s, group, number, board, game_no)
        row = s.scalars(select(GameRecordRow).where(GameRecordRow.game_id == game.id)).one_or_none()
        if row is None:
            row = GameRecordRow(game_id=game.id, designated=False, received=False, pgn="")
            s.add(row)
        row.received, row.moves, row.pgn = True, moves, text
        row.received_at = datetime.now().replace(microsecond=0)
        audit.record(
            s,
            "hand_in_record",
            entity=f"{group} 第{number}轮 第{board}台 第{game_no}局",
            after={"moves": moves},
            who=who,
        )


def record_of(db: Database, group: str, number: int, board: int, *, game_no: int = 1) -> GameRecord | None:
    """The record stored for a game, or ``None`` when none was attached."""
    with db.session() as s:
        _g, _rnd, game = _game(s, group, number, board, game_no)
        row = s.scalars(select(GameRecordRow).where(GameRecordRow.game_id == game.id)).one_or_none()
        text = row.pgn if row is not None else ""
    return parse_pgn(text) if text.strip() else None


def export_round_records(db: Database, group: str | None = None, number: int | None = None) -> str:
    """Every stored record (of a group, of a round) as one PGN text, xqbase style, Chinese moves.

    Ordered by group, round, board and game; an empty string when there is none.
    """
    with db.session() as s:
        query = (
            select(GameRecordRow.pgn)
            .join(GameRow, GameRow.id == GameRecordRow.game_id)
            .join(Round, Round.id == GameRow.round_id)
            .join(Group, Group.id == Round.group_id)
            .where(GameRecordRow.pgn != "")
            .order_by(Group.position, Round.number, GameRow.board, GameRow.game_no)
        )
        if group is not None:
            query = query.where(Group.id == group_row(s, group).id)
        if number is not None:
            query = query.where(Round.number == number)
        texts = list(s.scalars(query))
    return export_pgn_games([parse_pgn(t) for t in texts], MoveFormat.CHINESE)


def print_game(
    db: Database,
    group: str,
    number: int,
    board: int,
    out: Output,
    *,
    printed_at: datetime,
    ply: int | None = None,
    game_no: int = 1,
) -> None:
    """The stored record of a game as a PDF page with a diagram (the final position, or after ``ply``)."""
    record = record_of(db, group, number, board, game_no=game_no)
    if record is None:
        raise UserError(f"第 {board} 台还没有棋谱", f"board {board} has no record yet")
    with db.session() as s:
        name = tournament_row(s).name
    from app.reports.pdf.game import GameSheet, render_game

    render_game(GameSheet(EventHeader(name, group, number), record, ply), out, printed_at)


def board_records(db: Database, group: str, number: int) -> list[BoardRecord]:
    """Every board of a round with its record duty and whether a record was handed in."""
    from app.services.records import record_duty_list

    duties = {d.board: d for d in record_duty_list(db, group, number)}
    with db.session() as s:
        g = group_row(s, group)
        rnd = round_row(s, g, number)
        rows = {
            r.game_id: r
            for r in s.scalars(
                select(GameRecordRow).where(GameRecordRow.game_id.in_([gm.id for gm in rnd.games]))
            )
        }
        no_of = {p.id: p.no for p in s.scalars(select(Player).where(Player.group_id == g.id))}
        lines = []
        for gm in sorted(rnd.games, key=lambda x: (x.board, x.game_no)):
            row = rows.get(gm.id)
            duty = duties.get(gm.board) if gm.game_no == 1 else None
            lines.append(
                BoardRecord(
                    gm.board,
                    gm.game_no,
                    f"{no_of[gm.red_id]} {gm.red.name}",
                    f"{no_of[gm.black_id]} {gm.black.name}",
                    GameResult(gm.result),
                    duty.recorder_name if duty else "",
                    duty.reason if duty else "",
                    bool(row and row.received),
                    row.moves if row is not None else None,
                    bool(row and row.pgn),
                )
            )
        return lines


__all__ = [
    "AttachedRecord",
    "BoardRecord",
    "attach_record",
    "board_records",
    "export_round_records",
    "print_game",
    "record_of",
]
