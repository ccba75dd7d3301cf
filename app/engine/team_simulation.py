"""A random team competition played through in the engine: for the property tests and the benchmarks.

:func:`simulate_team_event` registers ``teams`` teams (rated players in registered order, one reserve),
pairs every round with :func:`app.engine.team_event.next_round`, seats the line-ups (now and then a reserve
comes in, keeping the registered order; now and then a team does not appear or leaves a board empty), plays
every board with results that follow the ratings, and plays every tie-break ladder game until each match is
decided. The same seed gives the same event.

>>> from app.engine.team_rules import TeamEvent, TeamSystem
>>> state = simulate_team_event(TeamEvent(TeamSystem.SWISS, rounds=5), teams=7, seed=3)
>>> len(state.rounds), hard_rule_breaks(state)
(5, ())
"""

from __future__ import annotations

import random
from dataclasses import replace

from app.engine.knockout import ColourState, KnockoutGame
from app.engine.simulation import random_result
from app.engine.team_event import (
    MatchState,
    RoundState,
    TeamEntry,
    TeamEventState,
    hard_rule_breaks,
    next_round,
    seat,
)
from app.engine.team_match import RosterPlayer, TeamBoard, TeamMatch, board_colours, due_tie_games, lot_red
from app.engine.team_rules import TeamEvent, TeamSystem

__all__ = ["hard_rule_breaks", "random_teams", "simulate_team_event"]


def random_teams(event: TeamEvent, teams: int, seed: int) -> tuple[tuple[TeamEntry, ...], dict[int, int]]:
    """``teams`` teams of ``boards + 1`` players (the last a reserve), and every player's rating."""
    rng = random.Random(f"teams:{seed}")
    size = max(event.match.boards + 1, event.roster_min)
    size = min(size, event.roster_max)
    out = []
    ratings: dict[int, int] = {}
    for t in range(1, teams + 1):
        roster = tuple(
            RosterPlayer(100 * t + i, i, reserve=i > event.match.boards) for i in range(1, size + 1)
        )
        for p in roster:
            ratings[p.no] = rng.randint(1500, 2300)
        out.append(TeamEntry(t, f"{t}号队", roster, seed_rank=t))
    return tuple(out), ratings


def simulate_team_event(
    event: TeamEvent, teams: int = 8, seed: int = 1, absent_rate: float = 0.0, forfeit_rate: float = 0.0
) -> TeamEventState:
    """Play a whole team event (see the module's docstring)."""
    entries, ratings = random_teams(event, teams, seed)
    state = TeamEventState(event, entries)
    rng = random.Random(f"team-event:{seed}")
    while len(state.rounds) < state.total_rounds:
        number = len(state.rounds) + 1
        pairing = next_round(state, seed + number)
        matches = []
        for i, p in enumerate(pairing.matches, start=1):
            lineups = {}
            if event.system is not TeamSystem.ALL_PLAY_ALL:
                for team in (p.home, p.away):
                    lineups[team] = _lineup(state.team(team), event, rng)
            match = seat(state, number, p.home, p.away, lineups, seed)
            if absent_rate and rng.random() < absent_rate:
                match = (
                    replace(match, away_absent=True)
                    if rng.random() < 0.8
                    else replace(match, home_absent=True, away_absent=True)
                )
            match = _play(match, event, ratings, rng, forfeit_rate, seed + number)
            matches.append(MatchState(i, p.home, p.away, match, p.code))
        state = replace(state, rounds=(*state.rounds, RoundState(number, tuple(matches), pairing.bye)))
    return state


def _lineup(team: TeamEntry, event: TeamEvent, rng: random.Random) -> tuple[int | None, ...]:
    """The team's first players in registered order; a reserve replaces a random one now and then."""
    boards = event.match.boards
    players = sorted(team.roster, key=lambda p: p.order)
    chosen = players[:boards]
    if len(players) > boards and rng.random() < 0.3:
        out = rng.randrange(boards)
        chosen = [p for i, p in enumerate(chosen) if i != out] + [players[boards]]
    return tuple(p.no for p in sorted(chosen, key=lambda p: p.order))


def _play(
    match: TeamMatch,
    event: TeamEvent,
    ratings: dict[int, int],
    rng: random.Random,
    forfeit_rate: float,
    seed: int,
) -> TeamMatch:
    rules = event.match
    boards = []
    for b in match.boards:
        red, black = board_colours(b, rules)
        if red is None or black is None:
            boards.append(b)
            continue
        boards.append(replace(b, result=random_result(rng, ratings[red], ratings[black], forfeit_rate)))
    match = replace(match, boards=tuple(boards))
    for _ in range(200):
        due = due_tie_games(match, rules)
        if not due:
            return match
        for d in due:
            b = match.board(d.board)
            if d.colours is ColourState.LOT_NEEDED:
                b = replace(b, tie_reds=(*b.tie_reds, (d.step, lot_red(b, d.step, seed))))
            elif d.colours is ColourState.CHOICE_NEEDED:
                b = replace(b, tie_reds=(*b.tie_reds, (d.step, d.chooser or 0)))
            else:
                assert d.red is not None and d.black is not None
                result = random_result(rng, ratings[d.red], ratings[d.black])
                b = replace(
                    b, tie_games=(*b.tie_games, KnockoutGame(d.number, d.kind, d.red, d.black, result))
                )
            match = _with_board(match, b)
    raise AssertionError("a tie-break that never ends")  # pragma: no cover


def _with_board(match: TeamMatch, board: TeamBoard) -> TeamMatch:
    return replace(match, boards=tuple(board if b.board == board.board else b for b in match.boards))
