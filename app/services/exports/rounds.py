"""Documents of one round: table cards, the pairing list, the round results, record sheets."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from app.db.mapping import load_running_scores
from app.db.session import Database
from app.engine.event import ViolationFact
from app.engine.knockout import Bracket as EngineBracket
from app.engine.knockout import short_title_zh
from app.engine.types import (
    GameResult,
    UserError,
    ViolationKind,
)
from app.reports import model
from app.services.exports.common import event_header, event_info, require_round, unit_or_team
from app.services.exports.knockout import knockout_game_text
from app.services.knockout import bracket_of
from app.services.records import record_duty_list, recorded_boards
from app.services.rounds import Seat, group_state, round_view
from app.services.tournaments import group_row, regulations_of


#: A knockout game as printed: slow game, rapid game with colours swapped, deciding game.
def game_name(bracket: EngineBracket, code: str, number: int) -> str:
    """The name of a knockout game as cards and pairing lists print it: its kind, and 换先 where its
    colours are the previous game's swapped at the start of a one-game step (快棋（换先）)."""
    from app.engine.formats import ColourRule
    from app.engine.knockout import game_kind

    ladder = bracket.ladder_of(code)
    kind = game_kind(number, ladder)
    start = 1
    for step in ladder.steps:
        if start == number and start > 1 and step.colours is ColourRule.SWAP and step.games == 1:
            return f"{kind.zh}（换先）"
        start += step.games
    return kind.zh


@dataclass(frozen=True, slots=True)
class _RoundRows:
    rows: tuple[model.PairingRow, ...]
    byes: tuple[model.PlayerLine, ...]
    excused: tuple[model.PlayerLine, ...] = ()


def _round_rows(
    db: Database, group: str, number: int, *, with_results: bool, current_only: bool = False
) -> _RoundRows:
    require_round(db, group, number)
    view = round_view(db, group, number)
    state = group_state(db, group)
    marks = _violation_marks(state.violations, number) if with_results else {}

    def line(seat: Seat) -> model.PlayerLine:
        return model.PlayerLine(seat.no, seat.name, seat.unit, seat.score)

    rows: list[model.PairingRow] = []
    for b in (b for b in view.boards if b.match is None):  # knockout games come from the bracket
        row_marks = tuple(f"红方{m}" for m in marks.get(b.red.no, ())) + tuple(
            f"黑方{m}" for m in marks.get(b.black.no, ())
        )
        result = b.result if with_results else GameResult.PENDING
        rows.append(model.PairingRow.with_result(b.board, line(b.red), line(b.black), result, row_marks))
    rows += _knockout_rows(db, group, number, with_results=with_results, current_only=current_only)
    rows.sort(key=lambda r: r.board)
    if not rows and not view.byes:
        raise UserError(f"{group}第 {number} 轮没有对局", f"{group} round {number} has no games")
    return _RoundRows(tuple(rows), tuple(line(s) for s in view.byes), tuple(line(s) for s in view.excused))


def _violation_marks(violations: Sequence[ViolationFact], number: int) -> dict[int, list[str]]:
    """Violations of a round by player: e.g. ``{17: ["迟到"]}``."""
    out: dict[int, list[str]] = {}
    for v in violations:
        if v.round != number:
            continue
        try:
            label = ViolationKind(v.kind).zh
        except ValueError:
            label = v.kind
        out.setdefault(v.no, []).append(label)
    return out


def _knockout_rows(
    db: Database, group: str, number: int, *, with_results: bool, current_only: bool
) -> list[model.PairingRow]:
    """The knockout games of a round after the split (boards 1…, before the continuing Swiss).

    Every game of each match (slow, rapid, deciding), or only its latest one (``current_only``, for
    the table cards of the game about to be played).
    """
    bracket = bracket_of(db, group)
    if bracket is None or number not in bracket.round_numbers:
        return []
    state = group_state(db, group)
    with db.session() as s:
        before = load_running_scores(s, group_row(s, group), regulations_of(s), number - 1).after(number - 1)
    by_no = {e.no: e for e in state.entrants}

    def line(no: int) -> model.PlayerLine:
        e = by_no[no]
        return model.PlayerLine(no, e.name, unit_or_team(e.unit, e.team), before.get(no, 0))

    rows = []
    for m in bracket.matches_in_round(number):
        plan = bracket.plan(m.code)
        for g in m.games[-1:] if current_only else m.games:
            result = g.result if with_results else GameResult.PENDING
            game = f"第{g.number}局 {game_name(bracket, m.code, g.number)}"
            row = model.PairingRow.with_result(
                plan.board,
                line(g.red),
                line(g.black),
                result,
                (plan.title_zh, game),
                match=short_title_zh(plan.code),
                game=game,
                time_control=bracket.time_control_of(m.code, g.number).label,
            )
            if with_results and not result.is_pending:
                row = replace(row, result_zh=knockout_game_text(g, bracket, m.code))
            rows.append(row)
    return rows


def table_cards(db: Database, group: str, number: int, per_page: int = 2) -> model.TableCards:
    """台卡 of one round: one card per board (knockout games included)."""
    info = event_info(db)
    rr = _round_rows(db, group, number, with_results=False, current_only=True)
    if not rr.rows:
        raise UserError(f"{group}第 {number} 轮只有轮空，没有台卡", f"{group} round {number} has no boards")
    return model.TableCards(event_header(info, group, number), rr.rows, per_page)


def pairing_list(db: Database, group: str, number: int) -> model.PairingList:
    """对阵表 of one round (result column blank)."""
    info = event_info(db)
    rr = _round_rows(db, group, number, with_results=False)
    return model.PairingList(event_header(info, group, number), rr.rows, rr.byes, excused=rr.excused)


def round_results(db: Database, group: str, number: int) -> model.PairingList:
    """成绩公告 of one round: results, forfeits and the round's violations marked."""
    info = event_info(db)
    rr = _round_rows(db, group, number, with_results=True)
    return model.PairingList(event_header(info, group, number), rr.rows, rr.byes, excused=rr.excused)


def record_sheets(db: Database, group: str, number: int) -> model.RecordSheets:
    """录谱纸 for the boards whose records are due in a round — printable when the round starts.

    A board whose game has no result yet gets a sheet for each player (the winner, or Black after a
    draw, hands theirs in); once the result is in, one sheet for the player who owes the record; a
    forfeited game none.
    """
    info = event_info(db)
    require_round(db, group, number)
    boards = recorded_boards(db, group, number)
    if not boards:
        raise UserError(
            f"{group}第 {number} 轮没有应录谱的台次（前 3 轮由裁判组指定）",
            f"{group} round {number} has no boards whose games are recorded (rounds 1–3: designated ones)",
        )
    duties = {d.board: d for d in record_duty_list(db, group, number)}
    rows = {r.board: r for r in _round_rows(db, group, number, with_results=False, current_only=True).rows}
    draw_side = info.regulations.record_duty.draw_recorder.zh
    sheets: list[model.RecordDuty] = []
    for b in boards:
        row = rows.get(b.board)
        if row is None:
            continue
        if b.board in duties:
            d = duties[b.board]
            sheets.append(
                model.RecordDuty(
                    b.board, row.red, row.black, f"{d.recorder_no} {d.recorder_name}（{d.reason}）"
                )
            )
        elif b.pending:
            rule = f"{b.why}：获胜方交谱，和棋由{draw_side}方交谱"
            for side, p in (("红方", row.red), ("黑方", row.black)):
                sheets.append(
                    model.RecordDuty(b.board, row.red, row.black, f"{side} {p.no}号 {p.name}（{rule}）")
                )
    if not sheets:
        raise UserError(
            f"{group}第 {number} 轮应录谱的对局均为弃权，不需要录谱纸",
            f"{group} round {number}: every game to be recorded was forfeited; no record sheets",
        )
    return model.RecordSheets(event_header(info, group, number), tuple(sheets))
