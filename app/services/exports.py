"""Exports: the read models of every printed document, built from the services for a tournament file.

Each function reads the file through the services and returns one read model of
:mod:`app.reports.model`; :func:`write_document`, :func:`write_result_workbook` and
:func:`write_public_site` render them. A document that cannot exist yet (the results of an
unpaired round, a bracket before the split, team standings of a group without teams, record sheets
when none are due) raises :class:`UserError` before anything is written.

Privacy is structural (RULES.md §11): only :func:`payout_sheet` and :func:`internal_entry_list`
read ID and phone numbers; every other document is built from values that have no such field.
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from pathlib import Path

from app.db.session import Database
from app.engine.discipline import scores
from app.engine.event import ViolationFact
from app.engine.knockout import Bracket as EngineBracket
from app.engine.knockout import (
    Feed,
    GameKind,
    KnockoutGame,
    Match,
    MatchPlan,
    match_result,
    short_title_zh,
)
from app.engine.privacy import mask_personal
from app.engine.regulations import DecidingDraw, Regulations, Tiebreak
from app.engine.types import (
    AbsenceKind,
    Colour,
    GameResult,
    PlayerStatus,
    UserError,
    ViolationKind,
)
from app.reports import model
from app.reports.html import PublicSite
from app.reports.pdf import DOCUMENTS as PDF_DOCUMENTS
from app.reports.team_model import TeamEventBook
from app.services import hall, paperwork_docs
from app.services.audit import audit_log
from app.services.constraints import pair_avoidances
from app.services.knockout import bracket_of
from app.services.records import record_duty_list, recorded_boards
from app.services.registration import PlayerView, list_players
from app.services.rounds import Seat, group_state, round_view, rounds_of
from app.services.standings import (
    PrizesView,
    StandingsView,
    final_standings,
    group_standings,
    is_final,
    prize_list,
    team_standings,
)
from app.services.tournaments import TournamentInfo, tournament_info

#: The documents ``xqarbiter print`` knows, in the order of OUTPUTS.md.
DOCUMENTS = PDF_DOCUMENTS
#: Documents of the whole event (no group needed).
EVENT_DOCUMENTS = ("prizes", "payout", "results-book", "certificates")
#: Lists that can be ordered by number, name or rating (``order``), issue 16.
ORDERED_DOCUMENTS = ("entry-list", "check-in")
#: Documents that carry the officials' signature and seal lines (issue 16).
SIGNED_DOCUMENTS = (
    "pairings",
    "results",
    "standings",
    "crosstable",
    "teams",
    "prizes",
    "payout",
    "entry-list",
    "check-in",
    "team-crosstable",
    "team-standings",
    "board-prizes",
)
#: Documents of one round of one group.
ROUND_DOCUMENTS = ("table-cards", "pairings", "results", "record-sheets")

_GENDER_ZH = {"male": "男", "female": "女"}
_STATUS_NOTE = {PlayerStatus.WITHDRAWN: "退赛", PlayerStatus.DISQUALIFIED: "取消资格"}
_MAIN_ROUND_NAMES = {"R16": "1/8决赛", "QF": "1/4决赛", "SF": "半决赛", "F": "决赛"}


def _game_name(bracket: EngineBracket, code: str, number: int) -> str:
    """The name of a knockout game as cards and pairing lists print it: its kind, and 换先 where its
    colours are the previous game's swapped at the start of a step (快棋（换先）)."""
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


# --------------------------------------------------------------------------- common parts


def _dates(start: date, end: date) -> str:
    """``2024年7月26日—28日`` (the month and year are not repeated)."""
    first = f"{start.year}年{start.month}月{start.day}日"
    if start == end:
        return first
    if (start.year, start.month) == (end.year, end.month):
        return f"{first}—{end.day}日"
    if start.year == end.year:
        return f"{first}—{end.month}月{end.day}日"
    return f"{first}—{end.year}年{end.month}月{end.day}日"


def _header(
    info: TournamentInfo, group: str = "", number: int | None = None, round_label: str = ""
) -> model.EventHeader:
    reg = info.regulations
    return model.EventHeader(
        event_name=info.name,
        group=group,
        round=number,
        venue=reg.venue,
        dates=_dates(reg.start_date, reg.end_date),
        time_control=reg.swiss_time_control.label,
        round_label=round_label,
    )


def group_names(db: Database) -> list[str]:
    return [g.name for g in tournament_info(db).groups]


def resolve_group(db: Database, group: str | None) -> str:
    """The group asked for, or the only group; with several groups one must be named."""
    names = group_names(db)
    if group:
        if group not in names:
            raise UserError(
                f"没有名为“{group}”的组别（现有：{'、'.join(names)}）",
                f"no group named {group!r} (groups: {', '.join(names)})",
            )
        return group
    if len(names) == 1:
        return names[0]
    raise UserError(
        f"本赛事有多个组别，请用 --group 指定：{'、'.join(names)}",
        f"the tournament has several groups; name one with --group: {', '.join(names)}",
    )


def latest_round(db: Database, group: str) -> int:
    """The group's latest paired round."""
    paired = [r.number for r in rounds_of(db, group)]
    if not paired:
        raise UserError(f"{group}尚未编排任何轮次", f"{group} has no paired round yet")
    return max(paired)


def _require_round(db: Database, group: str, number: int) -> None:
    summaries = {r.number: r for r in rounds_of(db, group)}
    if number not in summaries:
        raise UserError(f"{group}第 {number} 轮尚未编排", f"{group} round {number} has not been paired")


def _unit(unit: str, team: str | None = None) -> str:
    return unit or (team or "")


# --------------------------------------------------------------------------- rounds


@dataclass(frozen=True, slots=True)
class _RoundRows:
    rows: tuple[model.PairingRow, ...]
    byes: tuple[model.PlayerLine, ...]
    excused: tuple[model.PlayerLine, ...] = ()


def _round_rows(
    db: Database, group: str, number: int, *, with_results: bool, current_only: bool = False
) -> _RoundRows:
    _require_round(db, group, number)
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
    reg_points = tournament_info(db).regulations.points
    before = scores(state.scored_rounds, reg_points, number - 1)
    by_no = {e.no: e for e in state.entrants}

    def line(no: int) -> model.PlayerLine:
        e = by_no[no]
        return model.PlayerLine(no, e.name, _unit(e.unit, e.team), before.get(no, 0))

    rows = []
    for m in bracket.matches_in_round(number):
        plan = bracket.plan(m.code)
        for g in m.games[-1:] if current_only else m.games:
            result = g.result if with_results else GameResult.PENDING
            game = f"第{g.number}局 {_game_name(bracket, m.code, g.number)}"
            rows.append(
                model.PairingRow.with_result(
                    plan.board,
                    line(g.red),
                    line(g.black),
                    result,
                    (plan.title_zh, game),
                    match=short_title_zh(plan.code),
                    game=game,
                    time_control=bracket.time_control_of(m.code, g.number).label,
                )
            )
    return rows


def table_cards(db: Database, group: str, number: int, per_page: int = 2) -> model.TableCards:
    """台卡 of one round: one card per board (knockout games included)."""
    info = tournament_info(db)
    rr = _round_rows(db, group, number, with_results=False, current_only=True)
    if not rr.rows:
        raise UserError(f"{group}第 {number} 轮只有轮空，没有台卡", f"{group} round {number} has no boards")
    return model.TableCards(_header(info, group, number), rr.rows, per_page)


def pairing_list(db: Database, group: str, number: int) -> model.PairingList:
    """对阵表 of one round (result column blank)."""
    info = tournament_info(db)
    rr = _round_rows(db, group, number, with_results=False)
    return model.PairingList(_header(info, group, number), rr.rows, rr.byes, excused=rr.excused)


def round_results(db: Database, group: str, number: int) -> model.PairingList:
    """成绩公告 of one round: results, forfeits and the round's violations marked."""
    info = tournament_info(db)
    rr = _round_rows(db, group, number, with_results=True)
    return model.PairingList(_header(info, group, number), rr.rows, rr.byes, excused=rr.excused)


def record_sheets(db: Database, group: str, number: int) -> model.RecordSheets:
    """录谱纸 for the boards whose records are due in a round — printable when the round starts.

    A board whose game has no result yet gets a sheet for each player (the winner, or Black after a
    draw, hands theirs in); once the result is in, one sheet for the player who owes the record; a
    forfeited game none.
    """
    info = tournament_info(db)
    _require_round(db, group, number)
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
    return model.RecordSheets(_header(info, group, number), tuple(sheets))


# --------------------------------------------------------------------------- standings


def _chain_columns(chain: Sequence[Tiebreak]) -> tuple[Tiebreak, ...]:
    """The chain links that have a value column (前轮成绩 is a procedure, not a value)."""
    return tuple(t for t in chain if not t.expands)


def _plays_round_robin(db: Database, group: str, after_round: int | None) -> bool:
    """Whether the group's standings after the round are a round robin's (its crosstable is square)."""
    return group_standings(db, group, after_round).round_robin


def _complete(db: Database, group: str) -> int:
    """The last round with every round before it and every result in it complete."""
    complete = 0
    for r in rounds_of(db, group):
        if r.number != complete + 1 or r.pending:
            break
        complete = r.number
    return complete


def _standing_round(db: Database, group: str, after_round: int | None) -> tuple[int, str]:
    """The round a standing is after, and its label for the page header (``第3轮后``).

    Default: the last round with every result in. A round asked for that is not complete is printed
    as provisional (暂列, with the boards still open); before any complete round there is nothing to
    rank — the entry list is the document for that.
    """
    summaries = rounds_of(db, group)
    complete = 0
    for r in summaries:
        if r.number != complete + 1 or r.pending:
            break
        complete = r.number
    if after_round is None:
        after_round = complete
        if not complete:
            if not summaries:
                raise UserError(f"{group}尚未编排任何轮次", f"{group} has no paired round yet")
            raise UserError(
                f"{group}第 1 轮的成绩尚未录齐，还没有名次（赛前请用参赛名单）",
                f"{group}: round 1 is not complete yet, so there is no ranking (print the entry list)",
            )
    if after_round == 0:
        raise UserError(
            "“第 0 轮后”没有名次：请指定已赛的轮次（赛前请用参赛名单）",
            "there is no ranking after round 0: name a round played (before round 1, the entry list)",
        )
    _require_round(db, group, after_round)
    pending = next(r.pending for r in summaries if r.number == after_round)
    label = f"第{after_round}轮后"
    if pending:
        label += f"（暂列：本轮尚有{pending}台未录入）"
    return after_round, label


def _final_view(db: Database, group: str) -> StandingsView | None:
    """The final ranking once the group is over (every round complete, the knockout decided)."""
    try:
        return final_standings(db, group)
    except UserError:
        return None


def standings(db: Database, group: str, after_round: int | None = None) -> model.Standings:
    """名次表 after a round (default: the last round with every result in, and once the group is over
    the final ranking, knockout places first): every value column of the chain; the header says
    after which round, or 最终名次."""
    info = tournament_info(db)
    final = _final_view(db, group) if after_round is None else None
    if final is not None:
        view, label = final, "最终名次"
    else:
        number, label = _standing_round(db, group, after_round)
        view = group_standings(db, group, number)
    columns = _chain_columns(view.chain)
    rows = []
    ties = []
    for i, line in enumerate(view.lines):
        values = {
            Tiebreak.OPPONENT_SCORE: line.opponent_score,
            Tiebreak.WINS: line.wins,
            Tiebreak.VIOLATIONS: line.violations,
            Tiebreak.BLACK_GAMES: line.black_games,
            Tiebreak.BLACK_WINS: line.black_wins,
            Tiebreak.PROGRESSIVE: line.progressive,
            Tiebreak.HEAD_TO_HEAD: line.head_to_head,
            Tiebreak.SONNEBORN_BERGER: line.sonneborn_berger,
            Tiebreak.LOT: line.lot,
        }
        rows.append(
            model.StandingRow(
                rank=line.rank,
                no=line.no,
                name=line.name,
                unit=_unit(line.unit, line.team),
                score=line.score,
                tiebreaks=tuple((t.zh, _value(values[t])) for t in columns),
                separated_by=line.separated_by_zh,
                note="，".join(x for x in (line.pool, _STATUS_NOTE.get(line.status, "")) if x),
            )
        )
        if line.separated_by == "sequence_number" and i + 1 < len(view.lines):
            ties.append((line.no, view.lines[i + 1].no))
    if view.final:
        return model.Standings(
            _header(info, group, round_label=label), tuple(t.zh for t in columns), tuple(rows), tuple(ties)
        )
    return model.Standings(
        _header(info, group, view.after_round, label), tuple(t.zh for t in columns), tuple(rows), tuple(ties)
    )


def _value(v: int | None) -> int | str:
    return "" if v is None else v


def crosstable(db: Database, group: str, after_round: int | None = None) -> model.Crosstable:
    """个人成绩总表: per round opponent 序号, colour and result; score and place after the round
    (default: the last round with every result in)."""
    info = tournament_info(db)
    number, label = _standing_round(db, group, after_round)
    final = _final_view(db, group) if number == _complete(db, group) else None
    state = group_state(db, group)
    total = scores(state.scored_rounds, info.regulations.points, number)
    places = {line.no: line.rank for line in (final or group_standings(db, group, number)).lines}
    if final is not None:
        label += "（名次为最终名次）"
    cells: dict[int, list[model.CrossCell]] = {e.no: [] for e in state.entrants}
    knockout = _knockout_cells(db, group)
    for rnd in (r for r in state.scored_rounds if r.number <= number):  # as the standings count them
        seen = set()
        for g in rnd.games:
            cells[g.red].append(model.CrossCell.from_game(g.black, Colour.RED, g.result))
            cells[g.black].append(model.CrossCell.from_game(g.red, Colour.BLACK, g.result))
            seen |= {g.red, g.black}
        for no, cell in knockout.get(rnd.number, {}).items():
            cells[no].append(cell)
            seen.add(no)
        for no in rnd.byes:
            cells[no].append(model.CrossCell.bye())
            seen.add(no)
        for absence in rnd.absent:
            excused = absence.kind is AbsenceKind.EXCUSED
            cells[absence.no].append(model.CrossCell.absent(excused, absence.points))
            seen.add(absence.no)
        for no, row in cells.items():
            if no not in seen:
                row.append(model.CrossCell(None))
    rows = tuple(
        model.CrosstableRow(
            e.no, e.name, _unit(e.unit, e.team), tuple(cells[e.no]), total.get(e.no, 0), places.get(e.no)
        )
        for e in sorted(state.entrants, key=lambda e: e.no)
    )
    rounds = len([r for r in state.rounds if r.number <= number])
    return model.Crosstable(_header(info, group, number, label), rounds, rows)


def _knockout_cells(db: Database, group: str) -> dict[int, dict[int, model.CrossCell]]:
    """The knockout matches in the crosstable: opponent and 淘胜 / 淘负 (淘 while undecided), by round."""
    bracket = bracket_of(db, group)
    out: dict[int, dict[int, model.CrossCell]] = {}
    if bracket is None:
        return out
    for m in bracket.matches:
        if m.high is None or m.low is None:
            continue
        res = match_result(m, bracket.ladder_of(m.code))
        for me, other in ((m.high, m.low), (m.low, m.high)):
            if res is None:
                outcome = "淘"
            elif res.winner == me:
                outcome = "淘胜"
            else:
                outcome = "淘负"
            out.setdefault(m.round_number, {})[me] = model.CrossCell(other, "", outcome)
    return out


def team_standings_model(db: Database, group: str, after_round: int | None = None) -> model.TeamStandings:
    """团体名次表 (refused for a group without teams); before the final places, after ``after_round``."""
    info = tournament_info(db)
    latest_round(db, group)
    view = team_standings(db, group, after_round)
    rows = [
        model.TeamRow(
            r.rank,
            r.team,
            tuple((view.names[no], place) for no, place in r.members),
            r.total,
            r.best_place,
            points=r.member_points,
        )
        for r in view.ranking.rows
    ]
    rows += [
        model.TeamRow(
            None, u.team, (), None, None, f"不计名次：仅{u.ranked_members}人有名次（需{u.needed}人）"
        )
        for u in view.ranking.unranked
    ]
    label = ""
    if view.basis is not None and not view.final:
        label = f"（{view.basis.zh}）"
    return model.TeamStandings(
        _header(info, group, round_label=label), tuple(rows), by_points=view.by_points, rule=view.rule_zh
    )


# --------------------------------------------------------------------------- prizes


def _prize_label(db: Database) -> str:
    """Refuse before any round; "暂列" until every group has played its last round in full."""
    info = tournament_info(db)
    played = {g.name: rounds_of(db, g.name) for g in info.groups if g.players}
    if not any(played.values()):
        raise UserError(
            "尚未编排任何轮次，还没有获奖名单", "no round has been paired yet: there are no prizes"
        )
    for name, summaries in played.items():
        if summaries and not is_final(db, name):
            return "（暂列，比赛尚未结束）"
    return ""


def _table_name(view: PrizesView, table: str, group: str) -> str:
    """A prize table's name, marked 暂列 while its group's ranking is not final."""
    basis = view.basis.get(group)
    return table if basis is None or basis.final else f"{table}（暂列）"


def _prize_notes(view: PrizesView, group: str | None) -> tuple[str, ...]:
    """One line per group whose prizes are provisional: what they rest on."""
    return tuple(
        f"{name}：{basis.zh}。"
        for name, basis in view.basis.items()
        if not basis.final and (group is None or name == group)
    )


def prize_list_model(db: Database, group: str | None = None) -> model.PrizeList:
    """奖励名单 (public): place, name, unit, amount — no ID, no phone. The tables of a group whose
    ranking is not final are marked 暂列, with what they rest on."""
    info = tournament_info(db)
    label = _prize_label(db)
    view = prize_list(db)
    lines = []
    for t in view.prizes.tables:
        if group and t.table.group != group:
            continue
        name = _table_name(view, t.table.name, t.table.group)
        for x in t.lines:
            if x.no is not None:
                key = (t.table.group, x.no)
                lines.append(
                    model.PrizeLine(name, x.place, view.names[key], view.units[key], x.amount, x.item)
                )
            elif x.team is not None:
                lines.append(model.PrizeLine(name, x.place, x.team, "", x.amount, x.item))
    if not lines:
        raise UserError("还没有可发放的奖项", "there are no prizes to list yet")
    return model.PrizeList(
        _header(info, group or "", round_label=label), tuple(lines), _prize_notes(view, group)
    )


def payout_sheet(db: Database, group: str | None = None) -> model.PayoutSheet:
    """奖金发放签收表 (内部): the prize lines with the full ID number and phone of each winner."""
    info = tournament_info(db)
    label = _prize_label(db)
    view = prize_list(db)
    people = {(p.group, p.no): p for p in list_players(db) if p.no is not None}
    lines = []
    for t in view.prizes.tables:
        if group and t.table.group != group:
            continue
        name = _table_name(view, t.table.name, t.table.group)
        for x in t.lines:
            if x.no is not None:
                p = people[(t.table.group, x.no)]
                lines.append(
                    model.PayoutLine(name, x.place, p.name, p.unit, x.amount, p.id_number, p.phone, x.item)
                )
            elif x.team is not None:
                lines.append(model.PayoutLine(name, x.place, x.team, "", x.amount, "", "", x.item))
    if not lines:
        raise UserError("还没有可发放的奖项", "there are no prizes to pay yet")
    return model.PayoutSheet(
        _header(info, group or "", round_label=label),
        tuple(lines),
        withholding_percent=info.regulations.prize_rules.withholding_percent,
    )


# --------------------------------------------------------------------------- entry lists


def _entry_players(db: Database, group: str, order: str = "") -> list[PlayerView]:
    """The group's registered players in the list order asked (default: by team (players without a team
    last), then 序号 (players without one after)); refused for an empty group."""
    resolve_group(db, group)
    players = paperwork_docs.ordered(list_players(db, group), order)
    if not players:
        raise UserError(f"{group}还没有报名的棋手", f"{group} has no players yet")
    return players


def _order_label(order: str) -> str:
    return paperwork_docs.ORDER_LABELS[order] if order else ""


def entry_list(db: Database, group: str, order: str = "") -> model.EntryList:
    """参赛名单 (public) of a group, by team and 序号 (or by number, name or rating: ``order``)."""
    info = tournament_info(db)
    players = _entry_players(db, group, order)
    lines = tuple(
        model.EntryLine(p.no or 0, p.name, p.unit, _GENDER_ZH.get(p.gender, ""), p.team) for p in players
    )
    return model.EntryList(_header(info, group), lines, _order_label(order))


def check_in_sheet(db: Database, group: str, order: str = "") -> model.CheckInSheet:
    """报到表 (内部): insurance, pledge, fee and check-in of every registered player, paid / owed totals."""
    info = tournament_info(db)
    players = _entry_players(db, group, order)
    fee = info.regulations.registration.fee_yuan
    return paperwork_docs.check_in_sheet(
        _header(info, group), players, fee, order, paperwork_docs.signoff(db)
    )


def internal_entry_list(db: Database, group: str, order: str = "") -> model.InternalEntryList:
    """参赛名单 (内部): check-in, fee, insurance, the full ID number and the phone."""
    info = tournament_info(db)
    players = _entry_players(db, group, order)
    lines = tuple(
        model.InternalEntryLine(
            p.no or 0,
            p.name,
            p.unit,
            _GENDER_ZH.get(p.gender, ""),
            p.team,
            p.checked_in,
            p.fee_paid,
            p.insurance,
            p.id_number,
            p.phone,
        )
        for p in players
    )
    return model.InternalEntryList(_header(info, group), lines, _order_label(order))


# --------------------------------------------------------------------------- knockout


def bracket(db: Database, group: str) -> model.Bracket:
    """淘汰赛对阵图 with every game (slow / rapid / deciding) and its result; refused before the split."""
    info = tournament_info(db)
    resolve_group(db, group)
    eb = bracket_of(db, group)
    if eb is None:
        raise UserError(
            f"{group}尚未产生淘汰赛对阵（分段之后才有）",
            f"{group} has no knockout bracket yet (only after the split)",
        )
    names = {e.no: e.name for e in group_state(db, group).entrants}
    columns: dict[int, list[model.BracketMatch]] = {}
    extra = []
    for plan in eb.plans:
        m = _bracket_match(eb, plan, eb.match(plan.code), names, info.regulations)
        prefix = plan.code.split("_")[0].rstrip("0123456789")
        if prefix in _MAIN_ROUND_NAMES:
            columns.setdefault(plan.round_number, []).append(m)
        else:
            extra.append(m)
    rounds = eb.round_numbers
    label = f"淘汰赛（第{rounds[0]}—{rounds[-1]}轮）" if len(rounds) > 1 else f"淘汰赛（第{rounds[0]}轮）"
    return model.Bracket(
        _header(info, group, round_label=label),
        tuple(tuple(columns[r]) for r in sorted(columns)),
        tuple(extra),
    )


def _bracket_match(
    eb: EngineBracket, plan: MatchPlan, m: Match, names: dict[int, str], reg: Regulations
) -> model.BracketMatch:
    def label(no: int) -> str:
        return f"{eb.seed_rank(no)} {names.get(no, '')}"

    def slot(i: int) -> str:
        player = (m.high, m.low)[i]
        if player is not None:
            return label(player)
        source = plan.sources[i]
        return source.label_zh if isinstance(source, Feed) else f"第{source}名"

    result = match_result(m, eb.rules)
    winner = "" if result is None or result.winner is None else label(result.winner)
    if m.walkover and result is not None:
        winner = f"{winner}（{result.reason_zh}）"
    prefix = plan.code.split("_")[0].rstrip("0123456789")
    round_name = _MAIN_ROUND_NAMES.get(prefix, "排位赛")
    return model.BracketMatch(
        plan.code,
        round_name,
        slot(0),
        slot(1),
        tuple(_bracket_game(g, names, eb) for g in m.games),
        winner,
        plan.title_zh,
    )


def _bracket_game(g: KnockoutGame, names: dict[int, str], eb: EngineBracket) -> model.BracketGame:
    text = g.result.zh
    if (
        g.kind is GameKind.DECIDING
        and g.result is GameResult.DRAW
        and eb.rules.deciding_draw is DecidingDraw.BLACK_WINS
    ):
        text = "和（黑胜）"
    return model.BracketGame(g.kind.zh, names.get(g.red, str(g.red)), names.get(g.black, str(g.black)), text)


# --------------------------------------------------------------------------- whole event


def _scrub(text: str, known: Sequence[str] = ()) -> str:
    """Mask every personal number (the event's own in any spelling, and anything shaped like an ID,
    permit, passport or phone number) and cut absolute paths to the file name: audit details may
    quote them (:func:`app.engine.privacy.mask_personal`)."""
    return mask_personal(text, known)


def _personal_numbers(db: Database) -> tuple[str, ...]:
    """Every ID and phone number registered in the event (to recognise them however they are written)."""
    return tuple(n for p in list_players(db) for n in (p.id_number, p.phone) if n)


def _audit_lines(db: Database) -> tuple[model.AuditLine, ...]:
    """The audit log for the workbook: when, who, what and why — never the before/after values, never
    a personal number or a folder."""
    known = _personal_numbers(db)
    return tuple(
        model.AuditLine(
            f"{a.at:%Y-%m-%d %H:%M:%S}",
            _scrub(a.who, known),
            a.action,
            _scrub("；".join(part for part in (a.entity, a.reason) if part), known),
        )
        for a in audit_log(db)
    )


def _paired_groups(db: Database) -> list[tuple[str, list[int]]]:
    """Each group with its individual rounds (a team competition's rounds are matches: see
    :func:`_team_event_books`)."""
    from app.services.team_events import is_team_group

    out = []
    for name in group_names(db):
        numbers = [] if is_team_group(db, name) else sorted(r.number for r in rounds_of(db, name))
        out.append((name, numbers))
    return out


def _team_event_books(db: Database) -> tuple[TeamEventBook, ...]:
    """The team competitions that have paired a round, for the workbook."""
    from app.services.team_events import is_team_group, team_round_numbers
    from app.services.team_exports import team_event_book

    return tuple(
        team_event_book(db, name)
        for name in group_names(db)
        if is_team_group(db, name) and team_round_numbers(db, name)
    )


def _optional_prizes(db: Database) -> model.PrizeList | None:
    try:
        return prize_list_model(db)
    except UserError:
        return None


def _event_parts(
    db: Database,
) -> tuple[
    list[model.EntryList],
    list[model.PairingList],
    list[model.Standings],
    list[model.Crosstable],
    list[model.TeamStandings],
    list[str],
]:
    info = tournament_info(db)
    entries, rounds, tables, crosstables, teams, with_bracket = [], [], [], [], [], []
    for name, numbers in _paired_groups(db):
        if any(g.name == name and g.players for g in info.groups):
            entries.append(entry_list(db, name))
        for n in numbers:
            rounds.append(round_results(db, name, n))
        if numbers:
            if any(r.pending == 0 for r in rounds_of(db, name)[:1]):  # round 1 complete: a ranking exists
                tables.append(standings(db, name))
                crosstables.append(crosstable(db, name))
            if any(g.name == name and g.teams for g in info.groups):
                teams.append(team_standings_model(db, name))
            if bracket_of(db, name) is not None:
                with_bracket.append(name)
    return entries, rounds, tables, crosstables, teams, with_bracket


def result_workbook(db: Database) -> model.ResultWorkbook:
    """The Excel result workbook: entry list, every round, standings, crosstable, teams, prizes, audit log.

    One reading of the file: each group's state and bracket are read once for all the sheets.
    """
    with db.one_reading():
        entries, rounds, tables, crosstables, teams, _ = _event_parts(db)
        return model.ResultWorkbook(
            event_name=tournament_info(db).name,
            entries=tuple(entries),
            rounds=tuple(rounds),
            standings=tuple(tables),
            crosstables=tuple(crosstables),
            teams=tuple(teams),
            prizes=_optional_prizes(db),
            audit=_audit_lines(db),
            round_robins=_round_robin_tables(db),
            team_events=_team_event_books(db),
        )


def _round_robin_tables(db: Database) -> tuple[model.RoundRobinTable, ...]:
    """The square tables of the groups playing (or having played) a round robin."""
    from app.services.round_robin_docs import round_robin_table

    info = tournament_info(db)
    out = []
    for g in info.groups:
        state = group_state(db, g.name)
        if any(b.kind.value == "round_robin" for b in state.begun) and state.rounds:
            name = g.name
            out.append(round_robin_table(db, name, lambda n, label, name=name: _header(info, name, n, label)))
    return tuple(out)


def public_site(db: Database) -> PublicSite:
    """The public web pages: entry lists, every round, standings, crosstables, teams, prizes, brackets
    (one reading of the file, as for the workbook)."""
    with db.one_reading():
        entries, rounds, tables, crosstables, teams, with_bracket = _event_parts(db)
        return PublicSite(
            event_name=tournament_info(db).name,
            entries=tuple(entries),
            rounds=tuple(rounds),
            standings=tuple(tables),
            crosstables=tuple(crosstables),
            teams=tuple(teams),
            prizes=_optional_prizes(db),
            brackets=tuple(bracket(db, name) for name in with_bracket),
        )


# --------------------------------------------------------------------------- results book, certificates


def results_book(db: Database) -> model.ResultsBook:
    """成绩册: regulation summary, officials, then for each group every round's results, the final
    standings (the current ones, marked 暂列, before the end), the teams and the knockout; the prizes."""
    info = tournament_info(db)
    label = _prize_label(db)
    groups = []
    for name, numbers in _paired_groups(db):
        if not numbers:
            continue
        # the final ranking once the group is over (its places explained against the next player, the
        # knockout places first), else the current standings, marked 暂列 — the 名次表 the lists print
        final = _final_view(db, name) is not None
        try:
            table = standings(db, name)
        except UserError:
            table = None  # round 1 not complete yet: the results of the rounds only
        teams = (
            team_standings_model(db, name) if any(g.name == name and g.teams for g in info.groups) else None
        )
        groups.append(
            model.BookGroup(
                name,
                tuple(round_results(db, name, n) for n in numbers),
                table,
                final,
                teams,
                bracket(db, name) if bracket_of(db, name) is not None else None,
            )
        )
    if not groups:
        raise UserError(
            "尚未编排任何轮次，还没有成绩册", "no round has been paired yet: there is no results book"
        )
    header = _header(info, round_label="成绩册" + ("（暂列，比赛尚未结束）" if label else ""))
    return paperwork_docs.results_book(db, header, groups, _optional_prizes(db), bool(label))


def avoidance_list(db: Database, group: str) -> model.AvoidanceList:
    """回避名单 (内部): the regulation's unit / region rules and the group's named pairs kept apart."""
    info = tournament_info(db)
    rules = tuple(
        f"{r.basis.zh}{r.strength.zh}（{r.rounds_zh}）" for r in info.regulations.pairing.avoidances
    )
    pairs = tuple(
        model.AvoidanceLine(
            f"{v.first} {v.first_name}", f"{v.second} {v.second_name}", v.strength.zh, v.rounds_zh, v.reason
        )
        for v in pair_avoidances(db, group)
    )
    return model.AvoidanceList(_header(info, group), rules, pairs, paperwork_docs.signoff(db))


def certificates(db: Database, group: str | None = None) -> model.Certificates:
    """获奖证书 of every prize awarded (of one group, if given), from the editable template — only for the
    groups whose last round is complete (a certificate is never printed for a provisional place)."""
    info = tournament_info(db)
    _prize_label(db)  # refused before any round
    finished = set()
    for g in info.groups:
        if g.players and is_final(db, g.name):
            finished.add(g.name)
    if (group is not None and group not in finished) or not finished:
        raise UserError(
            f"{group or '各组'}比赛尚未结束，还不能打印获奖证书",
            f"{group or 'no group'} has not finished its last round: no certificates yet",
        )
    return paperwork_docs.certificates(db, _header(info, group or ""), finished if group is None else {group})


# --------------------------------------------------------------------------- documents by name


def document(
    db: Database,
    name: str,
    *,
    group: str | None = None,
    round_number: int | None = None,
    per_page: int = 2,
    internal: bool = False,
    base_url: str | None = None,
    order: str = "",
) -> object:
    """The read model of document ``name`` (one of :data:`DOCUMENTS`), as ``xqarbiter print`` asks
    (one reading of the file). ``order``: the entry list's or check-in sheet's order (issue 16).

    Table cards, the pairing list and the round results carry links to the hall network's pages
    (printed as QR codes) under ``base_url``; ``None`` takes the address the window recorded when it
    served the hall on a network (:func:`app.services.hall.hall_base_url`), "" prints no QR code.
    """
    with db.one_reading():
        doc = _document(
            db,
            name,
            group=group,
            round_number=round_number,
            per_page=per_page,
            internal=internal,
            order=order,
        )
        if name in LINKED_DOCUMENTS:
            base = hall.hall_base_url(db) if base_url is None else hall.normalise_base_url(base_url)
            if base:
                doc = _with_links(db, doc, base)
        return doc


#: The documents that carry QR codes to the hall network when its address is known.
LINKED_DOCUMENTS = ("table-cards", "pairings", "results")


def _with_links(db: Database, doc: object, base: str) -> object:
    """The document with its round's and boards' hall pages filled in."""
    assert isinstance(doc, model.PairingList | model.TableCards)
    header = doc.header
    assert header.round is not None
    gi = hall.group_index(db, header.group)
    rows = tuple(replace(r, link=base + hall.board_path(gi, header.round, r.board)) for r in doc.rows)
    if isinstance(doc, model.TableCards):
        return replace(doc, rows=rows)
    return replace(doc, rows=rows, link=base + hall.round_path(gi, header.round))


def _document(
    db: Database,
    name: str,
    *,
    group: str | None,
    round_number: int | None,
    per_page: int,
    internal: bool,
    order: str = "",
) -> object:
    """The document's read model; the lists get the officials' signature and seal lines (issue 16)."""
    paperwork_docs.check_order(order)
    if order and name not in ORDERED_DOCUMENTS:
        raise UserError(
            f"只有{'、'.join(ORDERED_DOCUMENTS)}可以指定排列方式",
            f"only {', '.join(ORDERED_DOCUMENTS)} can be ordered",
        )
    if name == "check-in":
        return check_in_sheet(db, resolve_group(db, group), order)
    if name == "results-book":
        return results_book(db)
    if name == "certificates":
        return certificates(db, resolve_group(db, group) if group else None)
    if name == "avoidances":
        return avoidance_list(db, resolve_group(db, group))
    if name == "entry-list" and order:
        g = resolve_group(db, group)
        doc: object = internal_entry_list(db, g, order) if internal else entry_list(db, g, order)
    else:
        doc = _built_document(
            db, name, group=group, round_number=round_number, per_page=per_page, internal=internal
        )
    if name in SIGNED_DOCUMENTS and dataclasses.is_dataclass(doc) and hasattr(doc, "signoff"):
        doc = dataclasses.replace(doc, signoff=paperwork_docs.signoff(db))  # type: ignore[type-var]
    return doc


def _built_document(
    db: Database, name: str, *, group: str | None, round_number: int | None, per_page: int, internal: bool
) -> object:
    from app.services.team_exports import TEAM_DOCUMENTS, team_document

    if name in TEAM_DOCUMENTS:
        return team_document(db, name, resolve_group(db, group), round_number)
    if name not in DOCUMENTS:
        raise UserError(
            f"未知的文档“{name}”，可选：{'、'.join(DOCUMENTS)}",
            f"unknown document {name!r}; choose one of {', '.join(DOCUMENTS)}",
        )
    if internal and name != "entry-list":
        raise UserError(
            "只有参赛名单有内部版本（--internal）", "only the entry list has an internal variant (--internal)"
        )
    if per_page not in (1, 2, 4):
        raise UserError(
            f"每页台卡数应为 1、2 或 4，而不是 {per_page}",
            f"cards per page must be 1, 2 or 4, not {per_page}",
        )
    if name in EVENT_DOCUMENTS:
        chosen = resolve_group(db, group) if group else None
        return prize_list_model(db, chosen) if name == "prizes" else payout_sheet(db, chosen)
    g = resolve_group(db, group)
    if name == "entry-list":
        return internal_entry_list(db, g) if internal else entry_list(db, g)
    if name == "bracket":
        return bracket(db, g)
    if name == "teams":
        return team_standings_model(db, g)
    if name == "standings":  # after the last complete round unless a round is named
        return standings(db, g, round_number)
    if name == "crosstable":
        if _plays_round_robin(db, g, round_number):
            from app.services.round_robin_docs import round_robin_table

            info = tournament_info(db)
            return round_robin_table(db, g, lambda n, label: _header(info, g, n, label), round_number)
        return crosstable(db, g, round_number)
    if name == "schedule":
        from app.services.round_robin_docs import round_robin_schedule

        info = tournament_info(db)
        return round_robin_schedule(db, g, lambda n, label: _header(info, g, n, label))
    number = latest_round(db, g) if round_number is None else round_number
    if name == "table-cards":
        return table_cards(db, g, number, per_page)
    if name == "pairings":
        return pairing_list(db, g, number)
    if name == "results":
        return round_results(db, g, number)
    return record_sheets(db, g, number)


def render_pdf(
    db: Database,
    name: str,
    *,
    group: str | None = None,
    round_number: int | None = None,
    per_page: int = 2,
    by_name: bool = False,
    internal: bool = False,
    printed_at: datetime | None = None,
    base_url: str | None = None,
    order: str = "",
) -> bytes:
    """The PDF of document ``name`` as bytes (nothing is written if the document cannot exist).

    ``base_url``: the hall network's address for the QR codes (see :func:`document`). ``by_name`` sorts
    pairings and results by name, and orders the entry list and the check-in sheet by name unless
    ``order`` (no, name, rating, team) says otherwise."""
    from app.reports.pdf import render_document

    if by_name and not order and name in ORDERED_DOCUMENTS:
        order = "name"
    inputs = document(
        db,
        name,
        group=group,
        round_number=round_number,
        per_page=per_page,
        internal=internal,
        base_url=base_url,
        order=order,
    )
    options = {"sort_by_name": True} if by_name and name in ("pairings", "results") else {}
    buf = io.BytesIO()
    render_document(name, inputs, buf, printed_at=printed_at or datetime.now(), **options)
    return buf.getvalue()


#: The public lists that can be made into one tall picture (for a WeChat group).
IMAGE_DOCUMENTS = (
    "pairings",
    "results",
    "standings",
    "crosstable",
    "teams",
    "prizes",
    "entry-list",
    "bracket",
)


def render_image(db: Database, name: str, *, scale: float | None = None, **options: object) -> bytes:
    """Public list ``name`` as one tall PNG (its PDF pages stacked), for a WeChat group.

    ``options`` as for :func:`render_pdf`; refused for the table cards, record sheets and the internal
    documents (they are not lists to post).
    """
    from app.reports.image import DEFAULT_SCALE, tall_png

    if name not in IMAGE_DOCUMENTS:
        raise UserError(
            f"“{name}”不能做成图片；可选：{'、'.join(IMAGE_DOCUMENTS)}",
            f"{name!r} cannot be made into a picture; choose one of {', '.join(IMAGE_DOCUMENTS)}",
        )
    if options.get("internal"):
        raise UserError("内部名单不能做成公开图片", "an internal list cannot be made into a public picture")
    if scale is not None and not 0.5 <= scale <= 4:
        raise UserError(f"缩放比例 {scale} 无效（0.5–4）", f"invalid scale {scale} (0.5–4)")
    pdf = render_pdf(db, name, **options)  # type: ignore[arg-type]
    return tall_png(pdf, DEFAULT_SCALE if scale is None else scale)


def write_document(db: Database, name: str, out: str | Path, **options: object) -> Path:
    """Render document ``name`` (see :func:`render_pdf`) and write it to ``out`` in one go (a temporary
    file renamed into place: a failure leaves no truncated PDF)."""
    from app.files import check_output_path, write_atomic

    check_output_path(out)
    data = render_pdf(db, name, **options)  # type: ignore[arg-type]
    return write_atomic(out, data)


def write_result_workbook(db: Database, out: str | Path) -> Path:
    from app.files import check_output_path, write_atomic
    from app.reports.excel import write_workbook

    check_output_path(out)
    data = result_workbook(db)
    buf = io.BytesIO()
    write_workbook(data, buf)
    return write_atomic(out, buf.getvalue())


def write_public_site(db: Database, out_dir: str | Path, printed_at: datetime | None = None) -> list[Path]:
    """The public pages in the folder ``out_dir`` (created if missing; pages of an earlier export are
    replaced). They are written into a fresh folder beside it first and renamed in one by one, so a
    failure leaves no half-written page."""
    import os
    import tempfile

    from app.files import os_error
    from app.reports.html import write_site

    out = Path(out_dir)
    if not str(out_dir).strip() or "\x00" in str(out_dir):
        raise UserError("没有给出网页要导出到的文件夹", "no output folder was given")
    if out.exists() and not out.is_dir():
        raise UserError(
            f"{out} 是一个文件；网页要导出到一个文件夹", f"{out} is a file; the pages go into a folder"
        )
    if not out.parent.is_dir():
        raise UserError(f"文件夹 {out.parent} 不存在", f"the folder {out.parent} does not exist")
    site = public_site(db)
    written: list[Path] = []
    try:
        with tempfile.TemporaryDirectory(dir=out.parent, prefix=f".{out.name}.") as tmp:
            files = write_site(site, tmp, printed_at or datetime.now())
            out.mkdir(exist_ok=True)
            for f in files:
                target = out / f.name
                if target.is_dir():
                    raise UserError(
                        f"{target} 是文件夹，无法写入网页",
                        f"{target} is a folder; the page cannot be written",
                    )
                os.chmod(f, 0o644)
                os.replace(f, target)
                written.append(target)
    except OSError as exc:
        raise os_error(exc, out) from None
    return written
