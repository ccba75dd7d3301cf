"""The team competition documents' read models (:mod:`app.reports.team_model`), built from the services'
views: table cards and score sheets of a round, line-up forms, the team crosstable, the team standings,
board prizes. Names, teams and numbers only: no ID or phone number."""

from __future__ import annotations

from app.db.session import Database
from app.engine.team_match import home_is_red
from app.engine.team_rules import LineupOrder, TeamSystem
from app.engine.types import GameResult, UserError
from app.reports import team_model as tm
from app.reports.model import EventHeader
from app.services.team_events import (
    MatchView,
    team_event_of,
    team_round_view,
    team_standings_view,
    teams_of,
)
from app.services.tournaments import load_regulations, tournament_info

#: the team documents ``xqarbiter print`` knows (after the individual ones)
TEAM_DOCUMENTS = (
    "team-cards",
    "team-sheets",
    "lineup-forms",
    "team-crosstable",
    "team-standings",
    "board-prizes",
)
#: those that belong to one round
TEAM_ROUND_DOCUMENTS = ("team-cards", "team-sheets", "lineup-forms")


def _header(db: Database, group: str, number: int | None = None, label: str = "") -> EventHeader:
    from app.services.exports.common import event_header

    return event_header(tournament_info(db), group, number, label)


def latest_team_round(db: Database, group: str) -> int:
    from app.services.team_events import load_team_state
    from app.services.tournaments import group_row, regulations_of

    with db.session() as s:
        state, _ids = load_team_state(s, group_row(s, group), regulations_of(s))
    if not state.rounds:
        raise UserError(f"{group}尚未编排任何轮次", f"{group} has no rounds yet")
    return state.rounds[-1].number


def _seat(no: int | None, name: str) -> tm.SheetSeat:
    """A seat of a set board (an empty one reads 空台)."""
    return tm.SheetSeat(no, name) if no is not None else tm.SheetSeat(None, "（空台）")


def _match_sheet(m: MatchView) -> tm.MatchSheet:
    boards = []
    for b in m.boards:
        played = b.result is not GameResult.PENDING
        boards.append(
            tm.SheetBoard(
                b.table,
                b.board,
                _seat(b.home.no, b.home.name),
                _seat(b.away.no, b.away.name),
                b.home_red,
                b.result.zh if played else "",
                "" if b.points is None else str(b.points[0]),
                "" if b.points is None else str(b.points[1]),
                tuple(
                    tm.SheetTie(
                        t.number,
                        t.kind_zh,
                        t.time_control,
                        _seat(t.red.no, t.red.name),
                        _seat(t.black.no, t.black.name),
                        t.result.zh,
                    )
                    for t in b.ties
                ),
            )
        )
    score = m.score
    decided = score is not None and score.decided
    return tm.MatchSheet(
        m.number,
        m.home,
        m.away or "",
        m.home_no,
        m.away_no,
        tuple(boards),
        m.home_captain,
        m.away_captain,
        str(score.home_points) if decided and score else "",
        str(score.away_points) if decided and score else "",
        str(score.home_match_points) if decided and score else "",
        str(score.away_match_points) if decided and score else "",
        score.reason_zh if decided and score else "",
        m.why_zh if m.code else "",  # a knockout match by its name (1/4决赛第1场 …)
    )


def team_round_doc(db: Database, group: str, number: int | None = None) -> tm.TeamRoundDoc:
    """A round's matches for the table cards and the score sheets (boards set or not)."""
    reg = load_regulations(db)
    event = team_event_of(reg, group)
    number = latest_team_round(db, group) if number is None else number
    view = team_round_view(db, group, number)
    matches = []
    byes = []
    for m in view.matches:
        if m.bye:
            byes.append(m.home)
            continue
        sheet = _match_sheet(m)
        if not m.seated:  # the boards are not set yet: the cards show the boards and colours, no players
            first = (m.number - 1) * event.match.boards + 1
            sheet = tm.MatchSheet(
                m.number,
                m.home,
                m.away or "",
                m.home_no,
                m.away_no,
                tuple(
                    tm.SheetBoard(
                        first + b - 1, b, _seat(None, ""), _seat(None, ""), home_is_red(b, event.match)
                    )
                    for b in range(1, event.match.boards + 1)
                ),
                m.home_captain,
                m.away_captain,
                code=m.why_zh if m.code else "",
            )
        matches.append(sheet)
    gp, mp = event.match.game_points, event.match.match_points
    return tm.TeamRoundDoc(
        _header(db, group, number),
        tuple(matches),
        tuple(byes),
        event.match.boards,
        reg.swiss_time_control.label,
        event.match.tie.zh,
        f"局分 胜{gp.win}和{gp.draw}负{gp.loss}；场分 胜{mp.win}和{mp.draw}负{mp.loss}",
    )


def lineup_forms(db: Database, group: str, number: int | None = None) -> tm.LineupForms:
    """Each team's line-up form for round ``number`` (the line-up handed in, if any, is filled in)."""
    from app.db.models import Player, Round, TeamLineup
    from app.services.tournaments import group_row

    reg = load_regulations(db)
    event = team_event_of(reg, group)
    if event.system is TeamSystem.ALL_PLAY_ALL:
        raise UserError("全队轮赛制不需排阵单", "all-play-all needs no line-up forms")
    number = latest_team_round(db, group) if number is None else number
    view = team_round_view(db, group, number)
    teams = {t.name: t for t in teams_of(db, group)}
    handed: dict[str, tuple[tuple[tm.SheetSeat, ...], str, str]] = {}
    with db.session() as s:
        g = group_row(s, group)
        rnd = s.query(Round).filter(Round.group_id == g.id, Round.number == number).one()
        names = {p.id: (p.no, p.name) for p in s.query(Player).filter(Player.group_id == g.id)}
        for lu in s.query(TeamLineup).filter(TeamLineup.round_id == rnd.id, TeamLineup.method == "captain"):
            team = next(t for t in teams.values() if t.id == lu.team_id)
            seats = tuple(
                tm.SheetSeat(*names[b.player_id]) if b.player_id else tm.SheetSeat(None, "")
                for b in lu.boards
            )
            handed[team.name] = (seats, lu.handed_in_by, f"{lu.handed_in_at:%m-%d %H:%M}")
    rule = (
        "须按报名顺序排阵（替补可上场，但不得排在报名在前的队员之前）"
        if event.match.lineup_order is LineupOrder.REGISTERED
        else "排阵顺序不限"
    )
    forms = []
    for m in view.matches:
        if m.bye or m.away is None:
            continue
        for name, other, home in ((m.home, m.away, True), (m.away, m.home, False)):
            t = teams[name]
            colours = tuple(
                "红" if home_is_red(b, event.match) == home else "黑"
                for b in range(1, event.match.boards + 1)
            )
            seats, by, at = handed.get(name, ((), "", ""))
            forms.append(
                tm.LineupForm(
                    name,
                    t.no or 0,
                    other,
                    home,
                    colours,
                    tuple((p.no, p.name, p.reserve) for p in t.roster if p.status.value == "active"),
                    seats,
                    by,
                    at,
                    t.captain,
                    rule,
                )
            )
    return tm.LineupForms(_header(db, group, number), tuple(forms))


def team_crosstable(db: Database, group: str) -> tm.TeamCrosstable:
    view = team_standings_view(db, group)
    rows = tuple(
        tm.TeamCrossRow(
            r.rank,
            r.team,
            view.names[r.team],
            tuple(view.crosstable.get(r.team, {}).get(n, "") for n in range(1, view.total_rounds + 1)),
            r.match_points,
            r.game_points,
        )
        for r in view.ranking.rows
    )
    label = "" if view.final else f"（暂列：{view.rounds_played} 轮后）"
    return tm.TeamCrosstable(_header(db, group, label=label), view.total_rounds, rows)


def team_event_standings(db: Database, group: str) -> tm.TeamEventStandings:
    view = team_standings_view(db, group)
    rows = []
    for r in view.ranking.rows:
        note = ""
        if r.by_number:
            note = "各项相同，按队号"
        elif r.separated_by is not None:
            note = f"以{r.separated_by.zh}列前"
        rows.append(
            tm.TeamEventRow(
                r.rank,
                r.team,
                view.names[r.team],
                r.played,
                r.won,
                r.drawn,
                r.lost,
                r.match_points,
                r.game_points,
                tuple(v for _, v in r.values),
                note,
            )
        )
    notes = ["名次依次比较：场分、" + "、".join(t.zh for t in view.chain) + "。"]
    for g in view.ranking.playoff_needed:
        notes.append("须加赛决定名次：" + "、".join(view.names[t] for t in g) + "。")
    label = "" if view.final else f"（暂列：{view.rounds_played} 轮后）"
    return tm.TeamEventStandings(
        _header(db, group, label=label), tuple(t.zh for t in view.chain), tuple(rows), tuple(notes)
    )


def board_prizes_doc(db: Database, group: str) -> tm.BoardPrizes:
    reg = load_regulations(db)
    event = team_event_of(reg, group)
    view = team_standings_view(db, group)
    tables = []
    for board in sorted({p.board for p in view.board_prizes}):
        lines = tuple(
            tm.BoardPrizeLine(
                p.rank,
                p.player,
                view.player_names.get(p.player, ""),
                view.names.get(p.team, ""),
                p.games,
                p.points,
                p.percentage_label,
                p.eligible,
            )
            for p in view.board_prizes
            if p.board == board
        )
        tables.append(tm.BoardPrizeTable(board, lines))
    label = "" if view.final else f"（暂列：{view.rounds_played} 轮后）"
    return tm.BoardPrizes(
        _header(db, group, label=label),
        tuple(tables),
        view.min_games,
        event.board_prize_basis.zh,
        event.board_prizes,
    )


def team_document(db: Database, name: str, group: str, round_number: int | None = None) -> object:
    """The read model of a team document (one of :data:`TEAM_DOCUMENTS`)."""
    if name == "team-cards" or name == "team-sheets":
        return team_round_doc(db, group, round_number)
    if name == "lineup-forms":
        return lineup_forms(db, group, round_number)
    if name == "team-crosstable":
        return team_crosstable(db, group)
    if name == "team-standings":
        return team_event_standings(db, group)
    if name == "board-prizes":
        return board_prizes_doc(db, group)
    raise UserError(f"未知的团体赛文档“{name}”", f"unknown team document {name!r}")


def team_event_book(db: Database, group: str) -> tm.TeamEventBook:
    """A team competition for the result workbook: every round paired so far, standings, crosstable,
    board prizes."""
    from app.services.team_events import team_round_numbers

    return tm.TeamEventBook(
        group,
        tuple(team_round_doc(db, group, n) for n in team_round_numbers(db, group)),
        team_event_standings(db, group),
        team_crosstable(db, group),
        board_prizes_doc(db, group),
    )
