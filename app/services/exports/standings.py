"""Standings, crosstable and team standings of a group, after a round or final (docs/rules.md §6, §9)."""

from __future__ import annotations

from collections.abc import Sequence

from app.db.session import Database
from app.engine.discipline import scores
from app.engine.knockout import (
    match_result,
)
from app.engine.regulations import Tiebreak
from app.engine.types import (
    AbsenceKind,
    Colour,
    PlayerStatus,
    UserError,
)
from app.reports import model
from app.services.exports.common import event_header, event_info, latest_round, require_round, unit_or_team
from app.services.knockout import bracket_of
from app.services.rounds import group_state, rounds_of
from app.services.standings import (
    StandingsView,
    final_if_over,
    group_standings,
    team_standings,
)

_STATUS_NOTE = {PlayerStatus.WITHDRAWN: "退赛", PlayerStatus.DISQUALIFIED: "取消资格"}


def _chain_columns(chain: Sequence[Tiebreak]) -> tuple[Tiebreak, ...]:
    """The chain links that have a value column (前轮成绩 is a procedure, not a value)."""
    return tuple(t for t in chain if not t.expands)


def plays_round_robin(db: Database, group: str, after_round: int | None) -> bool:
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
    require_round(db, group, after_round)
    pending = next(r.pending for r in summaries if r.number == after_round)
    label = f"第{after_round}轮后"
    if pending:
        label += f"（暂列：本轮尚有{pending}台未录入）"
    return after_round, label


def final_view(db: Database, group: str) -> StandingsView | None:
    """The final ranking once the group is over (every round complete, the knockout decided)."""
    return final_if_over(db, group)


def standings(db: Database, group: str, after_round: int | None = None) -> model.Standings:
    """名次表 after a round (default: the last round with every result in, and once the group is over
    the final ranking, knockout places first): every value column of the chain; the header says
    after which round, or 最终名次."""
    info = event_info(db)
    final = final_view(db, group) if after_round is None else None
    if final is not None:
        view, label = final, "最终名次"
    else:
        number, label = _standing_round(db, group, after_round)
        view = group_standings(db, group, number)
    columns = _chain_columns(view.chain)
    rows = []
    ties = []
    named = [(t, t.zh) for t in columns]
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
                unit=unit_or_team(line.unit, line.team),
                score=line.score,
                tiebreaks=tuple((zh, _value(values[t])) for t, zh in named),
                separated_by=line.separated_by_zh,
                note="，".join(x for x in (line.pool, _STATUS_NOTE.get(line.status, "")) if x),
            )
        )
        if line.separated_by == "sequence_number" and i + 1 < len(view.lines):
            ties.append((line.no, view.lines[i + 1].no))
    if view.final:
        return model.Standings(
            event_header(info, group, round_label=label),
            tuple(t.zh for t in columns),
            tuple(rows),
            tuple(ties),
        )
    return model.Standings(
        event_header(info, group, view.after_round, label),
        tuple(t.zh for t in columns),
        tuple(rows),
        tuple(ties),
    )


def _value(v: int | float | None) -> int | float | str:
    return "" if v is None else v


def crosstable(db: Database, group: str, after_round: int | None = None) -> model.Crosstable:
    """个人成绩总表: per round opponent 序号, colour and result; score and place after the round
    (default: the last round with every result in)."""
    info = event_info(db)
    number, label = _standing_round(db, group, after_round)
    final = final_view(db, group) if number == _complete(db, group) else None
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
            e.no,
            e.name,
            unit_or_team(e.unit, e.team),
            tuple(cells[e.no]),
            total.get(e.no, 0),
            places.get(e.no),
        )
        for e in sorted(state.entrants, key=lambda e: e.no)
    )
    rounds = len([r for r in state.rounds if r.number <= number])
    return model.Crosstable(event_header(info, group, number, label), rounds, rows)


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
    info = event_info(db)
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
            member_nos=tuple(no for no, _ in r.members),
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
        event_header(info, group, round_label=label), tuple(rows), by_points=view.by_points, rule=view.rule_zh
    )
