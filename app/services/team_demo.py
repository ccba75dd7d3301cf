"""A demo team competition of each team format, and one played through and checked.

``xqarbiter demo FILE --format team-swiss`` makes the event (one group, 团体组: teams of the match's boards
plus a reserve, registered order set, team numbers drawn); ``xqarbiter simulate --format team-swiss`` plays
one to the end in a scratch file through the same services as the window — line-ups handed in (now and then
with a reserve), boards set, results by board, tie-break games until each match is decided — and reports
the hard-rule breaks (there must be none), byes, home and away, and the final ranking.
"""

from __future__ import annotations

import dataclasses
import random
import tempfile
from pathlib import Path
from typing import Any

from app.db.session import Database
from app.engine.knockout import ColourState
from app.engine.regulations import GroupFormat, PrizeKind, PrizeTable, Regulations, preset
from app.engine.simulation import random_result
from app.engine.team_match import Side
from app.engine.team_presets import TEAM_FORMATS, team_format_event
from app.engine.team_rules import TeamEvent, TeamSystem, TieRule
from app.engine.types import GameResult, UserError
from app.services import audit
from app.services.demo import PLAYED_TO_END, demo_field
from app.services.tournaments import create_tournament, discard_on_failure

GROUP = "团体组"
DEMO_ARBITER = "演示"


def team_format_regulations(name: str, rounds: int | None = None) -> Regulations:
    """The 2024 preset with one team group playing ``name``, and team prizes."""
    base = preset("tianshui-2024")
    event = team_format_event(name, rounds)
    return dataclasses.replace(
        base,
        groups=(GroupFormat(GROUP, True, team_event=event),),
        prizes=(PrizeTable("团体", GROUP, PrizeKind.TEAM, (3000, 2000, 1000)),),
    )


def create_team_demo(
    path: Path | str,
    name: str,
    *,
    teams: int | None = None,
    rounds: int | None = None,
    seed: int = 2024,
    played_to: int | str | None = None,
    who: str = audit.DEFAULT_ARBITER,
) -> Database:
    """A demo team competition of format ``name``: ``teams`` teams registered (boards + 1 players each, the
    last a reserve; captains named; an earlier season's rank for a seeded format), the numbers drawn; with
    ``played_to`` played through the services to round N or to the end (``"end"``). A round past the
    competition's last is refused; nothing is left behind when it cannot be made."""
    from app.services.team_events import draw_team_numbers

    reg = team_format_regulations(name, rounds)
    event = reg.groups[0].team_event
    assert event is not None
    count = teams if teams is not None else TEAM_FORMATS[name][2]
    low = 2 if event.system is not TeamSystem.SWISS else 3
    high = (
        2
        if event.system is TeamSystem.ALL_PLAY_ALL
        else 24
        if event.system is TeamSystem.ROUND_ROBIN
        else 128
    )
    if not low <= count <= high:
        raise UserError(
            f"团体赛制 {name} 的队数应在 {low}–{high} 之间（现为 {count}）",
            f"team format {name} needs {low}-{high} teams, not {count}",
        )
    last = _played_to_round(played_to)
    db = create_tournament(path, "tianshui-2024", regulations=reg, who=who)
    with discard_on_failure(db):
        _register(db, event, count, seed, who)
        draw_team_numbers(db, GROUP, seed=seed, who=who)
        if played_to is not None:
            total = _total_rounds(db)
            if last is not None and last > total:
                raise UserError(
                    f"--played-to 应为 1–{total} 的轮次或 end（现为 {last}）；该团体赛共 {total} 轮",
                    f"--played-to must be a round 1-{total} or end, not {last}; the competition has {total} rounds",
                )
            play_team_event_to_end(db, GROUP, seed=seed, last=last)
    return db


def _played_to_round(played_to: int | str | None) -> int | None:
    """The last round ``--played-to`` asks for (None: the end, or nothing to play)."""
    if played_to is None or played_to == PLAYED_TO_END:
        return None
    if not isinstance(played_to, int) or played_to < 1:
        raise UserError(
            f"--played-to 应为轮次或 end（现为 {played_to}）",
            f"--played-to must be a round or end, not {played_to}",
        )
    return played_to


def _total_rounds(db: Database) -> int:
    from app.services.team_events import load_team_state
    from app.services.tournaments import group_row, regulations_of

    with db.session() as s:
        state, _ids = load_team_state(s, group_row(s, GROUP), regulations_of(s))
    return state.total_rounds


def _register(db: Database, event: TeamEvent, teams: int, seed: int, who: str) -> None:
    from app.db.models import Player, Team
    from app.services.tournaments import group_row

    size = min(max(event.match.boards + 1, event.roster_min), event.roster_max)
    field = demo_field(seed, max(teams * size * 2, 40))
    rng = random.Random(f"team-demo:{seed}")
    team_names = [f"{city}队" for city in _CITIES][:teams]
    if len(team_names) < teams:
        team_names += [f"第{i}队" for i in range(len(team_names) + 1, teams + 1)]
    ranks = list(range(1, teams + 1))
    rng.shuffle(ranks)
    with db.session() as s:
        g = group_row(s, GROUP)
        k = 0
        for i, team_name in enumerate(team_names):
            members = field[k : k + size]
            k += size
            team = Team(
                group_id=g.id,
                name=team_name,
                leader=members[0].name,
                captain=members[1].name,
                seed_rank=ranks[i],
            )
            s.add(team)
            s.flush()
            for order, p in enumerate(sorted(members, key=lambda p: -(p.rating or 1600)), start=1):
                s.add(
                    Player(
                        group_id=g.id,
                        team_id=team.id,
                        name=p.name,
                        gender=p.gender,
                        id_type="resident_id",
                        id_number=p.id_number,
                        birth_date=p.birth_date,
                        phone=p.phone,
                        rating=p.rating,
                        unit=team_name,
                        notes="",
                        fee_paid=True,
                        insurance=True,
                        pledge=True,
                        checked_in=True,
                        status="active",
                        registered_at=p.registered_at,
                        team_order=order,
                        reserve=order > event.match.boards,
                    )
                )
        audit.record(s, "create_demo", entity=GROUP, after={"seed": seed, "teams": teams}, who=who)


_CITIES = (
    "天水",
    "兰州",
    "白银",
    "平凉",
    "庆阳",
    "定西",
    "陇南",
    "武威",
    "张掖",
    "酒泉",
    "嘉峪关",
    "金昌",
    "临夏",
    "甘南",
    "西安",
    "宝鸡",
    "咸阳",
    "银川",
    "西宁",
    "成都",
    "重庆",
    "郑州",
    "太原",
    "石家庄",
)


# --------------------------------------------------------------------------- playing an event through


def play_team_round(db: Database, group: str, number: int, seed: int, *, absent_rate: float = 0.0) -> int:
    """Play round ``number``: about half the teams hand in a line-up (now and then with a reserve, keeping
    the registered order), the boards are set, every board gets a result that follows the ratings, and every
    tie-break game is played until each match is decided. Returns the games entered."""
    from app.services.team_events import (
        enter_board_result,
        enter_tie_game,
        hand_in_lineup,
        seat_team_round,
        set_team_absent,
        team_round_view,
        teams_of,
    )

    rng = random.Random(f"{seed}:{group}:{number}:teams")
    teams = {t.name: t for t in teams_of(db, group)}
    ratings = {p.no: p.rating or 1600 for t in teams.values() for p in t.roster if p.no is not None}
    from app.services.tournaments import load_regulations

    event = load_regulations(db).group(group).team_event
    assert event is not None
    # an all-play-all team's line-up is its registered order: nobody hands one in
    view = None if event.system is TeamSystem.ALL_PLAY_ALL else team_round_view(db, group, number)
    for m in view.matches if view is not None else ():
        if m.bye:
            continue
        for name in (m.home, m.away):
            assert name is not None
            if rng.random() < 0.5:
                continue
            roster = [p for p in teams[name].roster if p.no is not None and p.status.value == "active"]
            chosen = roster[: event.match.boards]
            if len(roster) > event.match.boards and rng.random() < 0.4:
                out = rng.randrange(event.match.boards)
                chosen = sorted(
                    [p for i, p in enumerate(chosen) if i != out] + [roster[event.match.boards]],
                    key=lambda p: p.order,
                )
            hand_in_lineup(db, group, number, name, [p.no for p in chosen], who=DEMO_ARBITER)
    seat_team_round(db, group, number, who=DEMO_ARBITER)
    entered = 0
    for m in team_round_view(db, group, number).matches:
        if m.bye:
            continue
        if absent_rate and rng.random() < absent_rate:
            set_team_absent(db, group, number, m.number, Side.AWAY, reason="演示：未到场", who=DEMO_ARBITER)
            continue
        for b in m.boards:
            if b.home.no is None or b.away.no is None:
                continue
            red, black = (b.home.no, b.away.no) if b.home_red else (b.away.no, b.home.no)
            result = random_result(rng, ratings[red], ratings[black])
            enter_board_result(db, group, number, m.number, b.board, result, who=DEMO_ARBITER)
            entered += 1
    if event.match.tie is TieRule.DRAW:  # a drawn match stays drawn: no tie-break game is ever due
        return entered
    for _ in range(200):
        pending = [
            (m.number, b.board, b.due)
            for m in team_round_view(db, group, number).matches
            for b in m.boards
            if b.due is not None
        ]
        if not pending:
            return entered
        for match, board, due in pending:
            chooser = due.chooser if due.colours is ColourState.CHOICE_NEEDED else None
            players = (due.red, due.black)
            if None in players:
                result = rng.choice((GameResult.RED_WIN, GameResult.BLACK_WIN, GameResult.DRAW))
            else:
                assert due.red is not None and due.black is not None
                result = random_result(rng, ratings[due.red], ratings[due.black])
            enter_tie_game(db, group, number, match, board, result, red=chooser, who=DEMO_ARBITER)
            entered += 1
    raise UserError("加赛始终未能决出胜负", "a tie-break never ended")  # pragma: no cover


def play_team_event_to_end(
    db: Database, group: str, *, seed: int = 1, absent_rate: float = 0.0, last: int | None = None
) -> int:
    """Pair and play every round of the team competition (or up to round ``last``); returns the rounds
    played."""
    from app.services.team_events import (
        close_team_round,
        load_team_state,
        pair_team_round,
        team_round_numbers,
    )
    from app.services.tournaments import group_row, regulations_of

    with db.session() as s:
        state, _ids = load_team_state(s, group_row(s, group), regulations_of(s))
    total = state.total_rounds  # by the format and the number of teams, which playing does not change
    paired = len(state.rounds)
    played = 0
    while True:
        if paired >= (total if last is None else min(last, total)):
            return played
        outcome = pair_team_round(db, group, seed=seed + paired + 1, who=DEMO_ARBITER)
        play_team_round(db, group, outcome.number, seed, absent_rate=absent_rate)
        close_team_round(db, group, outcome.number, who=DEMO_ARBITER)
        played += 1
        paired = len(team_round_numbers(db, group))


def simulate_team_format(
    name: str, *, teams: int | None = None, rounds: int | None = None, seed: int = 1, absent_rate: float = 0.0
) -> dict[str, Any]:
    """Play a team competition of format ``name`` to its end in a scratch file and report the checks."""
    with tempfile.TemporaryDirectory(prefix="xqarbiter-simulate-") as folder:
        db = create_team_demo(Path(folder) / "simulate.xqt", name, teams=teams, rounds=rounds, seed=seed)
        db.keeps_backups = False  # the scratch file and its folder are removed when the report is made
        try:
            play_team_event_to_end(db, GROUP, seed=seed, absent_rate=absent_rate)
            return team_format_report(db, name, seed)
        finally:
            db.close()


def team_format_report(db: Database, name: str, seed: int) -> dict[str, Any]:
    """What an arbiter checks after the last round: the hard rules, byes, home and away, tie-breaks played,
    the final ranking."""
    from app.engine.team_event import hard_rule_breaks
    from app.engine.team_match import score_match
    from app.services.team_events import load_team_state, team_standings_view
    from app.services.tournaments import group_row, regulations_of

    with db.session() as s:
        state, _ids = load_team_state(s, group_row(s, GROUP), regulations_of(s))
    breaks = list(hard_rule_breaks(state))
    homes: dict[int, int] = {t.no: 0 for t in state.teams}
    aways: dict[int, int] = {t.no: 0 for t in state.teams}
    ladders = ties = 0
    undecided = 0
    for r in state.rounds:
        for m in r.matches:
            homes[m.home] += 1
            aways[m.away] += 1
            score = score_match(m.match, state.event.match)
            if not score.decided:
                undecided += 1
            if score.tie_board is not None:
                ladders += 1
            ties += sum(len(b.tie_games) for b in m.match.boards)
    if undecided:
        breaks.append(f"{undecided} 场比赛未决出结果")
    view = team_standings_view(db, GROUP)
    ranks = [row.rank for row in view.ranking.rows]
    if ranks != list(range(1, len(ranks) + 1)):
        breaks.append("团体名次有并列或空缺")
    for board in {row.board for row in view.board_prizes}:
        mine = [row.rank for row in view.board_prizes if row.board == board]
        if mine != list(range(1, len(mine) + 1)):
            breaks.append(f"第 {board} 台台次奖名次有并列或空缺")
    return {
        "format": name,
        "teams": len(state.teams),
        "boards": state.event.match.boards,
        "seed": seed,
        "rounds": len(state.rounds),
        "hard_rule_breaks": len(breaks),
        "breaks": breaks,
        "byes": sum(1 for r in state.rounds if r.bye is not None),
        "teams_with_two_byes": sum(
            1 for t in state.teams if sum(1 for r in state.rounds if r.bye == t.no) > 1
        ),
        "home_away": {
            "largest_difference": max((abs(homes[t] - aways[t]) for t in homes), default=0),
        },
        "matches_decided_by_a_board_ladder": ladders,
        "tie_break_games": ties,
        "final_ranking": [
            {
                "place": row.rank,
                "team": view.names[row.team],
                "match_points": row.match_points,
                "game_points": row.game_points,
            }
            for row in view.ranking.rows
        ],
        "board_prizes": [
            {
                "board": row.board,
                "player": view.player_names.get(row.player, ""),
                "games": row.games,
                "points": row.points,
            }
            for row in view.board_prizes
            if row.rank == 1
        ],
    }
