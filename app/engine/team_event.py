"""A team competition's state and what the rules make of it: the next round, the scores, the standings,
the board prizes, and the hard rules checked over the whole event.

``app/services/team_events.py`` reads a :class:`TeamEventState` from the file, calls these functions and
stores what they return; the simulations and the property tests build states directly. Teams are known by
their team number (队号, 1 … n), players by their sequence number in the group.

>>> from app.engine.team_rules import TeamEvent, TeamSystem
>>> teams = tuple(TeamEntry(t, f"{t}队", tuple(RosterPlayer(10 * t + i, i) for i in range(1, 5))) for t in (1, 2, 3))
>>> state = TeamEventState(TeamEvent(TeamSystem.ROUND_ROBIN), teams)
>>> r = next_round(state, seed=1)
>>> [(m.home, m.away) for m in r.matches], r.bye
([(2, 3)], 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from app.engine.knockout import Bracket, final_places
from app.engine.team_formats import (
    PlayedMatch,
    TeamPairing,
    TeamRound,
    all_play_all_round,
    bracket_result,
    bye_game_points,
    pair_team_swiss,
    round_robin_matches,
    team_bracket,
    team_rounds,
)
from app.engine.team_match import (
    MatchScore,
    RosterPlayer,
    Side,
    TeamBoard,
    TeamMatch,
    board_colours,
    default_lineup,
    game_result_of,
    score_match,
)
from app.engine.team_rules import TeamEvent, TeamSystem
from app.engine.team_standings import (
    BoardGame,
    BoardPrizeRow,
    ByeRecord,
    MatchRecord,
    TeamEventRanking,
    board_prizes,
    rank_team_event,
)
from app.engine.types import Colour, UserError

__all__ = [
    "MatchState",
    "RoundState",
    "TeamEntry",
    "TeamEventState",
    "board_prize_table",
    "hard_rule_breaks",
    "match_records",
    "next_round",
    "player_colours",
    "seat",
    "team_ranking",
]


@dataclass(frozen=True, slots=True)
class TeamEntry:
    """A team: number (队号), name, registered players in order, the earlier season's rank, withdrawn."""

    no: int
    name: str
    roster: tuple[RosterPlayer, ...]
    seed_rank: int | None = None
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class MatchState:
    """A match of a round: its number in the round (1 …), home and away teams, its boards, and its code
    in a knockout bracket."""

    number: int
    home: int
    away: int
    match: TeamMatch
    code: str = ""


@dataclass(frozen=True, slots=True)
class RoundState:
    number: int
    matches: tuple[MatchState, ...]
    bye: int | None = None


@dataclass(frozen=True, slots=True)
class TeamEventState:
    """Everything the rules need to know about a team competition: its settings, its teams, its rounds,
    the violations of each team's players and a play-off order the arbiter entered (team → place)."""

    event: TeamEvent
    teams: tuple[TeamEntry, ...]
    rounds: tuple[RoundState, ...] = ()
    violations: Mapping[int, int] | None = None
    playoff: Mapping[int, int] | None = None

    def team(self, no: int) -> TeamEntry:
        for t in self.teams:
            if t.no == no:
                return t
        raise UserError(f"没有 {no} 号队", f"no team number {no}")

    @property
    def total_rounds(self) -> int:
        return team_rounds(self.event, len(self.teams))

    @property
    def team_of_player(self) -> dict[int, int]:
        return {p.no: t.no for t in self.teams for p in t.roster}


# --------------------------------------------------------------------------- scores and records


def scores(state: TeamEventState) -> dict[tuple[int, int], MatchScore]:
    """(round, match number) → the match's score."""
    rules = state.event.match
    return {(r.number, m.number): score_match(m.match, rules) for r in state.rounds for m in r.matches}


def match_records(state: TeamEventState) -> tuple[tuple[MatchRecord, ...], tuple[ByeRecord, ...]]:
    """The decided matches and the byes as the standings count them."""
    rules = state.event.match
    records = []
    for r in state.rounds:
        for m in r.matches:
            s = score_match(m.match, rules)
            if not s.decided:
                continue
            wins = [0, 0]  # boards won (in the game, by forfeit or in a board's ladder)
            for pts in s.board_points:
                if pts is not None and pts[0] != pts[1]:
                    wins[0 if pts[0] > pts[1] else 1] += 1
            winner_team = None if s.winner is None else m.home if s.winner is Side.HOME else m.away
            records.append(
                MatchRecord(
                    r.number,
                    m.home,
                    m.away,
                    s.home_match_points or 0,
                    s.away_match_points or 0,
                    s.home_points,
                    s.away_points,
                    tuple(p or (0, 0) for p in s.board_points),
                    wins[0],
                    wins[1],
                    winner_team,
                )
            )
    byes = tuple(
        ByeRecord(r.number, r.bye, state.event.match.match_points.bye, bye_game_points(state.event))
        for r in state.rounds
        if r.bye is not None and state.event.system is TeamSystem.SWISS
    )
    return tuple(records), byes


def _played(state: TeamEventState) -> tuple[PlayedMatch, ...]:
    rules = state.event.match
    out = []
    for r in state.rounds:
        for m in r.matches:
            s = score_match(m.match, rules)
            out.append(
                PlayedMatch(
                    r.number,
                    m.home,
                    m.away,
                    s.home_match_points or 0,
                    s.away_match_points or 0,
                    s.home_points,
                    s.away_points,
                    not m.match.home_absent,
                    not m.match.away_absent,
                )
            )
    return tuple(out)


# --------------------------------------------------------------------------- the next round


def knockout_bracket(state: TeamEventState) -> Bracket:
    """The team knockout as it stands: seeds in team-number order, the decided matches entered."""
    bracket = team_bracket([t.no for t in sorted(state.teams, key=lambda t: t.no)], state.event)
    rules = state.event.match
    for r in state.rounds:
        for m in r.matches:
            s = score_match(m.match, rules)
            if not m.code or not s.decided:
                continue
            winner = None if s.winner is None else m.home if s.winner is Side.HOME else m.away
            current = bracket.match(m.code)
            bracket = bracket.with_match(
                bracket_result(current, winner, m.match.home_absent, m.match.away_absent)
            )
    return bracket


def next_round(state: TeamEventState, seed: int) -> TeamRound:
    """Who meets whom in the next round (the first-named at home), and the team with the bye. Refused while
    a match of the round before is undecided, and after the last round."""
    number = len(state.rounds) + 1
    if number > state.total_rounds:
        raise UserError(
            f"团体赛共 {state.total_rounds} 轮，已全部编排",
            f"the team event has only {state.total_rounds} rounds",
        )
    pending = [
        (r.number, m.number)
        for r in state.rounds
        for m in r.matches
        if not score_match(m.match, state.event.match).decided
    ]
    if pending:
        rnd, match = pending[0]
        raise UserError(
            f"第 {rnd} 轮第 {match} 场比赛尚未结束，不能编排下一轮",
            f"round {rnd} match {match} is not decided yet: the next round cannot be paired",
        )
    event = state.event
    playing = [t.no for t in sorted(state.teams, key=lambda t: t.no) if not t.withdrawn]
    if event.system is TeamSystem.SWISS:
        byes = {r.bye: r.number for r in state.rounds if r.bye is not None}
        return pair_team_swiss(playing, _played(state), byes, number, event, seed)
    if event.system is TeamSystem.ROUND_ROBIN:
        numbers = {t.no: t.no for t in state.teams}
        return round_robin_matches(numbers, number, event.cycles, event.swap_last_rounds)
    if event.system is TeamSystem.ALL_PLAY_ALL:
        if len(state.teams) != 2:
            raise UserError(
                f"全队轮赛制只能在两队之间进行（现有 {len(state.teams)} 队）",
                f"all-play-all is between two sides, not {len(state.teams)}",
            )
        a, b = sorted(t.no for t in state.teams)
        return TeamRound(
            number, (TeamPairing(a, b, f"全队轮赛制第 {number} 轮", f"all-play-all round {number}"),)
        )
    bracket = knockout_bracket(state)
    matches = []
    for m in bracket.matches_in_round(number):
        if m.walkover or m.high is None or m.low is None:
            continue
        plan = bracket.plan(m.code)
        matches.append(TeamPairing(m.high, m.low, plan.title_zh, plan.title_en, m.code))
    return TeamRound(number, tuple(matches))


def knockout_codes(state: TeamEventState, number: int) -> dict[tuple[int, int], str]:
    """(home, away) → bracket code of the knockout matches of round ``number``."""
    bracket = knockout_bracket(state)
    return {
        (m.high, m.low): m.code
        for m in bracket.matches_in_round(number)
        if m.high is not None and m.low is not None and not m.walkover
    }


def seat(
    state: TeamEventState,
    number: int,
    home: int,
    away: int,
    lineups: Mapping[int, Sequence[int | None]],
    seed: int = 0,
) -> TeamMatch:
    """The boards of a match from the teams' line-ups (a team without one: :func:`default_lineup`); in
    全队轮赛制 the sides keep their board order and the schedule turns side B round."""
    rules = state.event.match

    def lineup(team: int) -> tuple[int | None, ...]:
        given = lineups.get(team)
        if given is not None:
            return tuple(given)
        return default_lineup(state.team(team).roster, rules, seed + team)

    a, b = lineup(home), lineup(away)
    if state.event.system is TeamSystem.ALL_PLAY_ALL:
        first = {t: lineup(t) for t in (home, away)}
        if any(p is None for p in (*first[home], *first[away])):
            raise UserError(
                "全队轮赛制双方各台须有棋手", "all-play-all needs a player on every board of both sides"
            )
        pairs = all_play_all_round(
            [p for p in first[home] if p is not None], [p for p in first[away] if p is not None], number
        )
        return TeamMatch(
            tuple(TeamBoard(i, h, w, home_red=red) for i, (h, w, red) in enumerate(pairs, start=1))
        )
    return TeamMatch(tuple(TeamBoard(i, a[i - 1], b[i - 1]) for i in range(1, rules.boards + 1)))


# --------------------------------------------------------------------------- ranking and prizes


def team_ranking(state: TeamEventState) -> TeamEventRanking:
    """The standings; a knockout once finished ranks by its places (then the others by 场分)."""
    records, byes = match_records(state)
    teams = [t.no for t in state.teams]
    ranking = rank_team_event(
        teams,
        records,
        byes,
        state.event.chain,
        state.violations,
        state.playoff,
        game_points_first=state.event.system is TeamSystem.ALL_PLAY_ALL,
    )
    if state.event.system is not TeamSystem.KNOCKOUT:
        return ranking
    bracket = knockout_bracket(state)
    if not bracket.is_complete:
        return ranking
    places = final_places(bracket)
    rows = sorted(ranking.rows, key=lambda row: places.get(row.team, 10**6))
    return TeamEventRanking(
        tuple(
            replace(row, rank=i, separated_by=None, by_number=False, by_match_points=False)
            for i, row in enumerate(rows, 1)
        ),
        ranking.chain,
    )


def board_games(state: TeamEventState) -> tuple[BoardGame, ...]:
    """Every game played over the board on a board of a decided match, with the 局分 each player scored (a
    board decided in its ladder: the ladder's points). A board won or lost by forfeit (an empty seat, a team
    that did not appear, a forfeit) is no game for the board prizes."""
    rules = state.event.match
    most = max(rules.game_points.win, rules.ladder_points.win)
    out = []
    for r in state.rounds:
        for m in r.matches:
            s = score_match(m.match, rules)
            if not s.decided:
                continue
            for b, pts in zip(sorted(m.match.boards, key=lambda x: x.board), s.board_points, strict=True):
                result = game_result_of(b, rules, m.match.home_absent, m.match.away_absent)
                if pts is None or not result.played_over_board or b.home is None or b.away is None:
                    continue
                out.append(BoardGame(r.number, b.board, b.home, m.home, pts[0], most))
                out.append(BoardGame(r.number, b.board, b.away, m.away, pts[1], most))
    return tuple(out)


def board_prize_table(state: TeamEventState) -> tuple[BoardPrizeRow, ...]:
    """The board prizes' tables (台次奖), every board, the team's place breaking the last ties."""
    ranking = team_ranking(state)
    played = len(state.rounds)
    return board_prizes(
        board_games(state),
        state.event.min_games(played),
        state.event.board_prize_basis,
        {row.team: row.rank for row in ranking.rows},
    )


def player_colours(state: TeamEventState) -> dict[int, tuple[Colour, ...]]:
    """Each player's colours in the games played over the board, in order (the colour limit's history)."""
    rules = state.event.match
    out: dict[int, list[Colour]] = {}
    for r in state.rounds:
        for m in r.matches:
            for b in m.match.boards:
                if not game_result_of(b, rules, m.match.home_absent, m.match.away_absent).played_over_board:
                    continue
                red, black = board_colours(b, rules)
                if red is not None and black is not None:
                    out.setdefault(red, []).append(Colour.RED)
                    out.setdefault(black, []).append(Colour.BLACK)
    return {no: tuple(c) for no, c in out.items()}


# --------------------------------------------------------------------------- hard rules


def _round_robin_order_breaks(state: TeamEventState) -> list[str]:
    """A team round robin's rounds against its order of play (the table, with the last-two-rounds swap
    when set): each round's matches and home teams as the table says; with the swap, no team at home (or
    away) three matches running."""
    event = state.event
    numbers = {t.no: t.no for t in state.teams}
    out: list[str] = []
    sides: dict[int, list[bool]] = {}  # home (True) or away in each match, a no-show's included
    for r in sorted(state.rounds, key=lambda r: r.number):
        for m in r.matches:
            sides.setdefault(m.home, []).append(True)
            sides.setdefault(m.away, []).append(False)
        try:
            table = round_robin_matches(numbers, r.number, event.cycles, event.swap_last_rounds)
        except UserError:
            out.append(f"第{r.number}轮不在团体循环赛对局秩序表内")
            continue
        want = {(p.home, p.away) for p in table.matches}
        got = {(m.home, m.away) for m in r.matches}
        if got != want:
            out.append(f"第{r.number}轮的对阵或主客与团体循环赛对局秩序表不符")
    if event.swap_last_rounds:
        for team, homes in sorted(sides.items()):
            for i in range(2, len(homes)):
                if homes[i] == homes[i - 1] == homes[i - 2]:
                    out.append(f"{team} 号队连续三场{'主' if homes[i] else '客'}场（第一循环最后两轮已互换）")
                    break
    return out


def hard_rule_breaks(state: TeamEventState) -> tuple[str, ...]:
    """Every hard rule the event's rounds break, in words (empty when none): a team twice in a round, a
    player twice in a round or on the wrong team's board, a rematch in a Swiss, a second bye, home or away
    three times running or more than two apart in a Swiss, a round-robin pair meeting other than once a
    cycle (each way in a double round robin), a round-robin round other than its order of play (with the
    last-two-rounds swap: nobody at home or away three times running), an all-play-all pair meeting
    twice."""
    event = state.event
    team_of = state.team_of_player
    breaks: list[str] = []
    met: dict[frozenset[int], list[tuple[int, int]]] = {}
    byes: dict[int, int] = {}
    sides: dict[int, list[bool]] = {}
    pairs_met: set[tuple[int, int]] = set()
    for r in state.rounds:
        seen_teams: set[int] = set()
        seen_players: set[int] = set()
        for m in r.matches:
            for t in (m.home, m.away):
                if t in seen_teams:
                    breaks.append(f"第{r.number}轮 {t} 号队出场两次")
                seen_teams.add(t)
            met.setdefault(frozenset((m.home, m.away)), []).append((r.number, m.home))
            if not (m.match.home_absent or m.match.away_absent):
                sides.setdefault(m.home, []).append(True)
                sides.setdefault(m.away, []).append(False)
            for b in m.match.boards:
                for player, team in ((b.home, m.home), (b.away, m.away)):
                    if player is None:
                        continue
                    if player in seen_players:
                        breaks.append(f"第{r.number}轮 {player} 号棋手上场两次")
                    seen_players.add(player)
                    if team_of.get(player) != team:
                        breaks.append(f"第{r.number}轮 {player} 号棋手为非本队上场")
                if b.home is not None and b.away is not None and event.system is TeamSystem.ALL_PLAY_ALL:
                    if (b.home, b.away) in pairs_met:
                        breaks.append(f"全队轮赛制 {b.home} 号与 {b.away} 号相遇两次")
                    pairs_met.add((b.home, b.away))
        if r.bye is not None:
            if r.bye in seen_teams:
                breaks.append(f"第{r.number}轮轮空的 {r.bye} 号队又有比赛")
            byes[r.bye] = byes.get(r.bye, 0) + 1
    if event.system is TeamSystem.SWISS:
        for pair, times in met.items():
            if len(times) > 1:
                first, second = sorted(pair)
                breaks.append(
                    f"{first} 号队与 {second} 号队重复相遇（第{'、'.join(str(t[0]) for t in times)}轮）"
                )
        for team, count in byes.items():
            if count > 1:
                breaks.append(f"{team} 号队轮空 {count} 次")
        for team, homes in sides.items():
            for i in range(2, len(homes)):
                if homes[i] == homes[i - 1] == homes[i - 2]:
                    breaks.append(f"{team} 号队连续三轮{'主' if homes[i] else '客'}场（至第{i + 1}场）")
                    break
            diff = sum(1 if h else -1 for h in homes)
            if abs(diff) > 2:
                breaks.append(f"{team} 号队主客场相差 {abs(diff)}")
    if event.system is TeamSystem.ROUND_ROBIN:
        breaks += _round_robin_order_breaks(state)
    if event.system is TeamSystem.ROUND_ROBIN and len(state.rounds) == state.total_rounds:
        teams = sorted(t.no for t in state.teams)
        for i, one in enumerate(teams):
            for two in teams[i + 1 :]:
                times = met.get(frozenset((one, two)), [])
                if len(times) != event.cycles:
                    breaks.append(f"{one} 号队与 {two} 号队相遇 {len(times)} 次，应为 {event.cycles} 次")
                elif event.cycles == 2 and {h for _, h in times} != {one, two}:
                    breaks.append(f"{one} 号队与 {two} 号队双循环未各做一次主队")
    return tuple(breaks)
