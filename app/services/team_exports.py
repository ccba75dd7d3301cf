"""The team competition documents' read models (:mod:`app.reports.team_model`), built from the services'
views: table cards and score sheets of a round, line-up forms, the team crosstable, the team standings,
board prizes. Names, teams and numbers only: no ID or phone number."""

from __future__ import annotations

from app.db.session import Database
from app.engine.team_match import home_is_red
from app.engine.team_rules import LineupOrder, TeamSystem
from app.engine.types import GameResult, UserError
from app.reports import team_model as tm
from app.reports.model import EventHeader, RoundRobinSchedule, SchedulePool, ScheduleRound
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
            tuple(view.matches.get(r.team, {}).get(n) for n in range(1, view.total_rounds + 1)),
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


def team_order_of_play(db: Database, group: str) -> RoundRobinSchedule:
    """对局秩序表 of a team round robin: the team numbers, then every round's matches (主队 first), fixed by
    the team numbers before round 1; the note says how home and away go and whether the first cycle's last
    two rounds were swapped. Refused, named, for another system or before the team numbers are drawn."""
    from app.engine.round_robin import schedule

    event = team_event_of(load_regulations(db), group)
    if event.system is not TeamSystem.ROUND_ROBIN:
        raise UserError(
            f"{group}不是团体循环赛，没有对局秩序表", f"{group} is not a team round robin: no order of play"
        )
    teams = [t for t in teams_of(db, group) if t.no is not None]
    if len(teams) < 2 or len(teams) != len(teams_of(db, group)):
        raise UserError(
            f"{group}的队号尚未抽定，还没有对局秩序表", f"{group}: the team numbers are not drawn yet"
        )
    name = {t.no: t.name for t in teams if t.no is not None}

    def label(no: int) -> str:
        return f"{no} {name[no]}"

    rounds = tuple(
        ScheduleRound(
            r.number,
            r.number,
            tuple((label(home), label(away)) for home, away in r.pairs),
            "" if r.bye is None else label(r.bye),
        )
        for r in schedule(len(teams), event.cycles, event.swap_last_rounds)
    )
    numbers = tuple((t.no, t.name) for t in teams if t.no is not None)
    note = (
        "每场中前一队为主队。"
        + ("第二循环主客场互换。" if event.cycles > 1 else "")
        + (
            "第一循环最后两轮按国际棋联 C.05 建议互换次序（避免连续三场同为主队或客队）。"
            if event.swap_last_rounds
            else ""
        )
    )
    head = _header(db, group, None, event.describe_zh().split("，")[0])
    return RoundRobinSchedule(head, (SchedulePool("", numbers, rounds),), note, teams=True)


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


def _outcome(ours: str, theirs: str) -> str:
    """胜 / 和 / 负 from the two sides' points ("" while not played)."""
    if not ours or not theirs:
        return ""
    a, b = float(ours), float(theirs)
    return "胜" if a > b else "和" if a == b else "负"


def _team_round_line(
    number: int, m: tm.MatchSheet, home: bool
) -> tuple[tm.TeamRoundLine, list[tuple[int, int, bool]]]:
    """Team ``home``'s side of match ``m``; also (player, 局分, played over the board) of each board."""
    seated = any(b.home.no is not None or b.away.no is not None for b in m.boards)
    boards, scored = [], []
    for b in m.boards:
        ours, theirs = (b.home, b.away) if home else (b.away, b.home)
        p_ours, p_theirs = (b.home_points, b.away_points) if home else (b.away_points, b.home_points)
        red = b.home_red == home
        boards.append(
            tm.TeamBoardLine(
                b.board,
                "红" if red else "黑",
                ours if seated else tm.SheetSeat(None, ""),
                theirs if seated else tm.SheetSeat(None, ""),
                b.result,
                _outcome(p_ours, p_theirs),
                f"{p_ours}:{p_theirs}" if p_ours else "",
                b.ties,
            )
        )
        if ours.no is not None and b.result and p_ours:
            scored.append((ours.no, int(float(p_ours)), "弃权" not in b.result))
    decided = bool(m.home_match_points)
    gp = (m.home_points, m.away_points) if home else (m.away_points, m.home_points)
    mp = (m.home_match_points, m.away_match_points) if home else (m.away_match_points, m.home_match_points)
    outcome = _outcome(*mp) if decided else ("进行中" if seated else "待排阵")
    other = m.away_no if home else m.home_no
    line = tm.TeamRoundLine(
        number,
        m.number,
        other,
        m.away if home else m.home,
        home,
        tuple(boards),
        f"{gp[0]}:{gp[1]}" if decided else "",
        mp[0] if decided else "",
        outcome,
        m.outcome if decided else "",
    )
    return line, scored


def team_book(
    db: Database,
    group: str,
    rounds: tuple[tm.TeamRoundDoc, ...] | None = None,
    standings: tm.TeamEventStandings | None = None,
) -> tm.TeamBook:
    """Every team's own page: its roster in registered order (captain, leader), its matches round by
    round seen from its side, and once a round is complete its place, 场分, 局分 and tiebreaks.

    ``rounds`` and ``standings``: the round documents and standings already built (the hall's snapshot
    has them), else they are built here. Names and numbers only — no ID or phone number."""
    from app.services.team_events import team_round_numbers

    teams = teams_of(db, group)
    if rounds is None:
        rounds = tuple(team_round_doc(db, group, n) for n in team_round_numbers(db, group))
    complete = [d for d in rounds if d.matches and all(m.home_match_points for m in d.matches)]
    if standings is None and complete:
        standings = team_event_standings(db, group)
    by_name = {t.name: t for t in teams}
    lines: dict[int, list[tm.TeamRoundLine]] = {t.no or 0: [] for t in teams}
    scored: dict[int, list[tuple[int, int, bool]]] = {}
    for d in rounds:
        number = d.header.round or 0
        for m in d.matches:
            for home in (True, False):
                team_no = m.home_no if home else m.away_no
                if team_no is None:
                    continue
                line, boards = _team_round_line(number, m, home)
                lines.setdefault(team_no, []).append(line)
                for no, points, played in boards:
                    scored.setdefault(no, []).append((no, points, played))
        for name in d.byes:
            t = by_name.get(name)
            if t is not None and t.no is not None:
                lines[t.no].append(tm.TeamRoundLine(number, None, None, "", True, outcome="轮空"))
    rows = {r.no: r for r in standings.rows} if standings is not None and complete else {}
    more = [i for i, name in enumerate(standings.chain) if name != "局分"] if standings else []
    cards = []
    for t in teams:
        if t.no is None:
            continue
        roster = tuple(
            tm.TeamMember(
                p.order,
                p.no,
                p.name,
                p.reserve,
                {"withdrawn": "退赛", "disqualified": "取消成绩"}.get(p.status.value, ""),
                sum(1 for _, _, played in scored.get(p.no or -1, []) if played),
                sum(points for _, points, _ in scored.get(p.no or -1, [])),
            )
            for p in t.roster
        )
        row = rows.get(t.no)
        cards.append(
            tm.TeamCard(
                t.no,
                t.name,
                t.leader,
                t.captain,
                roster,
                tuple(sorted(lines.get(t.no, []), key=lambda x: x.round)),
                row.rank if row else None,
                row.match_points if row else 0,
                row.game_points if row else 0,
                tuple((standings.chain[i], row.tiebreaks[i]) for i in more) if row and standings else (),
                row.note if row else "",
            )
        )
    if complete and standings is not None:
        basis = standings.header.round_label.strip("（）") or "最终名次"
    else:
        basis = ""
    return tm.TeamBook(_header(db, group), tuple(cards), basis)
