"""Team standings (团体名次) of a team competition, and the board prizes (台次奖).

Teams are ranked by 场分 (match points), then by the regulation's chain of team tiebreaks
(:class:`~app.engine.team_rules.TeamTiebreak`, each a setting): 局分, 直胜 (场分 among the tied teams, a
mini-table for three or more), 对手场分, 台次分 (board 1's 局分, then board 2's …), 胜场, 胜局, fewer 犯规,
and a play-off (加赛) whose order the arbiter enters. Teams still level after the chain are ordered by team
number and the standings say so ("所有名次均不并列"); where the chain ends with a play-off that has not been
entered, :attr:`TeamEventRanking.playoff_needed` names the teams that must play it. 全队轮赛制 ranks its two
sides by 局分 first.

A tied group is split by the first criterion that separates any of it; each part goes on down the chain (直胜
is computed among the teams of the part).

>>> records = [MatchRecord(1, 1, 2, 2, 0, 5, 3), MatchRecord(1, 3, 4, 1, 1, 4, 4),
...            MatchRecord(2, 1, 3, 1, 1, 4, 4), MatchRecord(2, 2, 4, 2, 0, 6, 2)]
>>> r = rank_team_event([1, 2, 3, 4], records)
>>> [(row.rank, row.team, row.match_points, row.game_points) for row in r.rows]
[(1, 1, 3, 9), (2, 2, 2, 9), (3, 3, 2, 8), (4, 4, 1, 6)]
>>> r.rows[1].separated_by
<TeamTiebreak.GAME_POINTS: 'game_points'>
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from app.engine.team_rules import DEFAULT_TEAM_CHAIN, BoardPrizeBasis, TeamTiebreak

__all__ = [
    "BoardGame",
    "BoardPrizeRow",
    "ByeRecord",
    "MatchRecord",
    "TeamEventRanking",
    "TeamRankRow",
    "board_prizes",
    "rank_team_event",
]


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A decided team match: round, home and away team numbers, 场分 and 局分 of each, the 局分 per board
    (home, away) and the games each side won."""

    round: int
    home: int
    away: int
    home_match_points: int
    away_match_points: int
    home_points: int
    away_points: int
    boards: tuple[tuple[int, int], ...] = ()
    home_wins: int = 0
    away_wins: int = 0
    winner: int | None = None  # the team that won the match (a tie decided by a ladder included)


@dataclass(frozen=True, slots=True)
class ByeRecord:
    """A team's bye (轮空): the 场分 and 局分 it scored."""

    round: int
    team: int
    match_points: int
    points: int


@dataclass(frozen=True, slots=True)
class TeamRankRow:
    """A team's line of the standings. ``values`` holds each tiebreak of the chain as shown; ``separated_by``
    says what put it above the next team (None for the last; ``None`` with ``by_number`` when only the team
    number did)."""

    rank: int
    team: int
    match_points: int
    game_points: int
    played: int
    won: int
    drawn: int
    lost: int
    values: tuple[tuple[TeamTiebreak, str], ...]
    separated_by: TeamTiebreak | None
    by_number: bool = False
    by_match_points: bool = False


@dataclass(frozen=True, slots=True)
class TeamEventRanking:
    rows: tuple[TeamRankRow, ...]
    chain: tuple[TeamTiebreak, ...]
    playoff_needed: tuple[tuple[int, ...], ...] = ()

    @property
    def order(self) -> tuple[int, ...]:
        return tuple(r.team for r in self.rows)


@dataclass
class _Stats:
    mp: int = 0
    gp: int = 0
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    game_wins: int = 0
    boards: list[int] = field(default_factory=list)
    opponents: list[int] = field(default_factory=list)
    against: dict[int, int] = field(default_factory=dict)  # opponent → 场分 scored against it


def _stats(
    teams: Sequence[int], records: Sequence[MatchRecord], byes: Sequence[ByeRecord]
) -> dict[int, _Stats]:
    stats = {t: _Stats() for t in teams}
    for m in records:
        for team, other, mp, gp, wins, side in (
            (m.home, m.away, m.home_match_points, m.home_points, m.home_wins, 0),
            (m.away, m.home, m.away_match_points, m.away_points, m.away_wins, 1),
        ):
            st = stats.get(team)
            if st is None:
                continue
            st.mp += mp
            st.gp += gp
            st.played += 1
            st.game_wins += wins
            st.opponents.append(other)
            st.against[other] = st.against.get(other, 0) + mp
            if m.winner == team:
                st.won += 1
            elif m.winner is None:
                st.drawn += 1
            else:
                st.lost += 1
            for b, pts in enumerate(m.boards):
                while len(st.boards) <= b:
                    st.boards.append(0)
                st.boards[b] += pts[side]
    for bye in byes:
        st = stats.get(bye.team)
        if st is not None:  # a bye counts as a match won (轮空按胜一场计)
            st.mp += bye.match_points
            st.gp += bye.points
            st.played += 1
            st.won += 1
    return stats


def rank_team_event(
    teams: Sequence[int],
    records: Sequence[MatchRecord],
    byes: Sequence[ByeRecord] = (),
    chain: Sequence[TeamTiebreak] = DEFAULT_TEAM_CHAIN,
    violations: Mapping[int, int] | None = None,
    playoff: Mapping[int, int] | None = None,
    game_points_first: bool = False,
) -> TeamEventRanking:
    """Rank the teams (see the module's docstring). ``violations``: a team's 犯规 (its players' counted
    violations); ``playoff``: the order of a play-off the arbiter entered (1 = first); ``game_points_first``:
    局分 before 场分 (全队轮赛制)."""
    stats = _stats(teams, records, byes)
    fouls = violations or {}
    play = playoff or {}

    def value(t: TeamTiebreak, team: int, group: Sequence[int]) -> tuple[int, ...]:
        st = stats[team]
        match t:
            case TeamTiebreak.GAME_POINTS:
                return (st.gp,)
            case TeamTiebreak.OPPONENT_MATCH_POINTS:
                return (sum(stats[o].mp for o in st.opponents if o in stats),)
            case TeamTiebreak.HEAD_TO_HEAD:
                return (sum(v for o, v in st.against.items() if o in group and o != team),)
            case TeamTiebreak.BOARD_ORDER:
                width = max((len(stats[g].boards) for g in group), default=0)
                return tuple(st.boards) + (0,) * (width - len(st.boards))
            case TeamTiebreak.MATCH_WINS:
                return (st.won,)
            case TeamTiebreak.GAME_WINS:
                return (st.game_wins,)
            case TeamTiebreak.VIOLATIONS:
                return (-fouls.get(team, 0),)
            case TeamTiebreak.PLAYOFF:
                return (-play[team],) if team in play else (-(10**6),)
        raise AssertionError(t)  # pragma: no cover

    first: Callable[[int], tuple[int, ...]] = (
        (lambda team: (stats[team].gp, stats[team].mp))
        if game_points_first
        else (lambda team: (stats[team].mp,))
    )
    separated: dict[int, TeamTiebreak | None] = {}
    by_mp: set[int] = set()
    by_number: set[int] = set()
    needs_playoff: list[tuple[int, ...]] = []

    def split(group: list[int], k: int) -> list[int]:
        if len(group) == 1:
            return group
        for j in range(k, len(chain)):
            t = chain[j]
            keys = {team: value(t, team, group) for team in group}
            if t is TeamTiebreak.PLAYOFF and not all(team in play for team in group):
                needs_playoff.append(tuple(sorted(group)))
                break
            if len(set(keys.values())) > 1:
                parts: dict[tuple[int, ...], list[int]] = {}
                for team in group:
                    parts.setdefault(keys[team], []).append(team)
                out: list[int] = []
                for key in sorted(parts, reverse=True):
                    part = split(parts[key], j + 1)
                    if out:
                        separated[out[-1]] = t
                    out += part
                return out
        ordered = sorted(group)
        for team in ordered[:-1]:
            separated[team] = None
            by_number.add(team)
        return ordered

    top: dict[tuple[int, ...], list[int]] = {}
    for team in teams:
        top.setdefault(first(team), []).append(team)
    order: list[int] = []
    for key in sorted(top, reverse=True):
        part = split(top[key], 0)
        if order:
            by_mp.add(order[-1])
            separated[order[-1]] = None
        order += part
    rows = []
    for rank, team in enumerate(order, start=1):
        st = stats[team]
        shown = tuple((t, _shown(value(t, team, _group_of(team, order, stats, first)), t)) for t in chain)
        last = rank == len(order)
        rows.append(
            TeamRankRow(
                rank,
                team,
                st.mp,
                st.gp,
                st.played,
                st.won,
                st.drawn,
                st.lost,
                shown,
                None if last else separated.get(team),
                by_number=not last and team in by_number,
                by_match_points=not last and team in by_mp,
            )
        )
    return TeamEventRanking(tuple(rows), tuple(chain), tuple(needs_playoff))


def _group_of(
    team: int, order: Sequence[int], stats: Mapping[int, _Stats], first: Callable[[int], tuple[int, ...]]
) -> list[int]:
    """The teams level with ``team`` on the first criterion (the group 直胜 is shown for)."""
    return [t for t in order if first(t) == first(team)]


def _shown(value: tuple[int, ...], t: TeamTiebreak) -> str:
    if t is TeamTiebreak.BOARD_ORDER:
        return "/".join(str(v) for v in value)
    if t is TeamTiebreak.VIOLATIONS:
        return str(-value[0])
    if t is TeamTiebreak.PLAYOFF:
        return "" if value[0] == -(10**6) else str(-value[0])
    return str(value[0])


# --------------------------------------------------------------------------- board prizes


@dataclass(frozen=True, slots=True)
class BoardGame:
    """A player's game on a board of a team match: the 局分 scored and the most it could score."""

    round: int
    board: int
    player: int
    team: int
    points: int
    max_points: int


@dataclass(frozen=True, slots=True)
class BoardPrizeRow:
    """A player's line in a board's table (台次奖): rank on the board, games, 局分, 得分率; ``eligible``
    when the player played enough games on that board."""

    board: int
    rank: int
    player: int
    team: int
    games: int
    points: int
    max_points: int
    eligible: bool

    @property
    def percentage(self) -> Fraction:
        return Fraction(self.points, self.max_points) if self.max_points else Fraction(0)

    @property
    def percentage_label(self) -> str:
        """``75.0%``."""
        return f"{float(self.percentage) * 100:.1f}%"


def board_prizes(
    games: Sequence[BoardGame],
    min_games: int,
    basis: BoardPrizeBasis = BoardPrizeBasis.PERCENTAGE,
    team_rank: Mapping[int, int] | None = None,
) -> tuple[BoardPrizeRow, ...]:
    """Every board's table: the players who played on it, eligible ones first (at least ``min_games``
    there), by 得分率 then 局分 then games (or 局分 first), then their team's place, then number.

    >>> games = [BoardGame(r, 1, p, t, pts, 2) for r, p, t, pts in
    ...          [(1, 11, 1, 2), (2, 11, 1, 1), (1, 21, 2, 0), (2, 21, 2, 2), (3, 21, 2, 2)]]
    >>> [(r.player, r.rank, r.games, r.percentage_label) for r in board_prizes(games, 3)]
    [(21, 1, 3, '66.7%'), (11, 2, 2, '75.0%')]
    """
    ranks = team_rank or {}
    totals: dict[tuple[int, int], list[int]] = {}
    team_of: dict[int, int] = {}
    for g in games:
        t = totals.setdefault((g.board, g.player), [0, 0, 0])
        t[0] += 1
        t[1] += g.points
        t[2] += g.max_points
        team_of[g.player] = g.team
    rows: list[BoardPrizeRow] = []
    for board in sorted({b for b, _ in totals}):
        entries = [(p, t) for (b, p), t in totals.items() if b == board]

        def key(item: tuple[int, list[int]]) -> tuple[object, ...]:
            player, (count, points, most) = item
            share = Fraction(points, most) if most else Fraction(0)
            primary = (-share, -points) if basis is BoardPrizeBasis.PERCENTAGE else (-points, -share)
            return (count < min_games, *primary, -count, ranks.get(team_of[player], 10**6), player)

        for rank, (player, (count, points, most)) in enumerate(sorted(entries, key=key), start=1):
            rows.append(
                BoardPrizeRow(board, rank, player, team_of[player], count, points, most, count >= min_games)
            )
    return tuple(rows)
