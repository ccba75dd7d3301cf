"""Team ranking (团体成绩, docs/rules.md §9) in an individual event: the sum of the members' final places,
lower first, or the sum of their points (积分总和), higher first; no ties.

By places (today's default) a team's score is the sum of the final individual places of its
``counted_members`` best-placed members; a tie goes to the team whose best member placed higher. By
points, the sum of its best ``counted_members`` players' points; a tie follows the regulation's
``ties`` (the best player's points, then the next …; the sum of places; the best place). Teams with fewer than
``min_members`` ranked members (a disqualified player has no place) are unranked. Because no two
players share a place and a player is in one team only, two teams can never tie completely.

>>> from app.engine.regulations import TeamRules
>>> places = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6}
>>> ranking = rank_teams(places, {1: "A", 4: "A", 2: "B", 3: "B", 5: "C"}, TeamRules(2, 2))
>>> [(t.rank, t.team, t.total, t.best_place) for t in ranking.rows]
[(1, 'A', 5, 1), (2, 'B', 5, 2)]
>>> ranking.rows[0].separated_by, ranking.unranked[0].team
('best_place', 'C')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from app.engine.regulations import TeamMethod, TeamRules, TeamTie
from app.engine.types import UserError

__all__ = ["TeamRanking", "TeamStanding", "UnrankedTeam", "rank_teams"]


@dataclass(frozen=True, slots=True)
class TeamStanding:
    rank: int
    team: str
    members: tuple[tuple[int, int], ...]  # counted members as (no, place), best first
    total: int  # the sum of the counted places (lower is better) or points (higher is better)
    best_place: int
    separated_by: str | None  # "total" or a TeamTie value against the next team; None for the last
    member_points: tuple[int, ...] = ()  # the counted members' points, in the order of ``members``
    method: TeamMethod = TeamMethod.PLACES

    @property
    def separated_by_zh(self) -> str | None:
        if self.separated_by is None:
            return None
        if self.separated_by == "total":
            return "名次之和" if self.method is TeamMethod.PLACES else "积分之和"
        return TeamTie(self.separated_by).zh

    @property
    def separated_by_en(self) -> str | None:
        if self.separated_by is None:
            return None
        if self.separated_by == "total":
            return "sum of places" if self.method is TeamMethod.PLACES else "sum of points"
        return TeamTie(self.separated_by).value.replace("_", " ")


@dataclass(frozen=True, slots=True)
class UnrankedTeam:
    team: str
    ranked_members: int
    needed: int

    @property
    def reason_zh(self) -> str:
        return f"有名次的队员只有 {self.ranked_members} 名，不足 {self.needed} 名，不计算团体成绩"

    @property
    def reason_en(self) -> str:
        return f"only {self.ranked_members} ranked members, fewer than {self.needed}: no team result"


@dataclass(frozen=True, slots=True)
class TeamRanking:
    rows: tuple[TeamStanding, ...]
    unranked: tuple[UnrankedTeam, ...]  # by team name

    @property
    def order(self) -> tuple[str, ...]:
        return tuple(t.team for t in self.rows)


def rank_teams(
    places: Mapping[int, int],
    team_of: Mapping[int, str | None],
    rules: TeamRules,
    teams: Iterable[str] = (),
    points: Mapping[int, int] | None = None,
) -> TeamRanking:
    """Rank the teams of a group.

    ``places``: final individual place of every ranked player (no → place; disqualified players are
    simply absent). ``team_of``: each registered player's team (None or absent = no team).
    ``teams``: team names to list even if none of their players appear in ``team_of``.
    ``points``: every ranked player's points (needed for :attr:`TeamMethod.POINTS`).

    By places (名次之和) the counted members are the best-placed; by points (积分总和) the highest-scoring
    (the better place first among equal points). Teams level on the sum are compared by ``rules.ties`` in
    order, and finally by the best place among the counted members, which always separates them.
    """
    if len(set(places.values())) != len(places):
        raise UserError("个人名次有重复，无法计算团体成绩", "individual places repeat: cannot rank teams")
    by_points = rules.method is TeamMethod.POINTS
    if by_points and points is None:
        raise UserError("按积分计算团体成绩需要个人积分", "ranking teams by points needs the players' points")
    score = points or {}
    members: dict[str, list[int]] = {name: [] for name in teams}
    for no, team in team_of.items():
        if team is not None:
            members.setdefault(team, [])
            if no in places:
                members[team].append(no)
    ties = [*rules.ties, *(() if TeamTie.BEST_PLACE in rules.ties else (TeamTie.BEST_PLACE,))]
    entries: list[tuple[tuple[tuple[int, ...], ...], str, tuple[int, ...]]] = []
    unranked: list[UnrankedTeam] = []
    for name in sorted(members):
        nos = members[name]
        if len(nos) < rules.min_members or not nos:
            unranked.append(UnrankedTeam(name, len(nos), rules.min_members))
            continue
        if by_points:
            nos = sorted(nos, key=lambda no: (-score.get(no, 0), places[no]))
        else:
            nos = sorted(nos, key=lambda no: places[no])
        counted = tuple(nos[: rules.counted_members])
        total = sum(score.get(no, 0) for no in counted) if by_points else sum(places[no] for no in counted)
        key: list[tuple[int, ...]] = [(-total,) if by_points else (total,)]
        key += [_tie_key(tie, counted, places, score) for tie in ties]
        entries.append((tuple(key), name, counted))
    entries.sort()
    labels = ["total", *(t.value for t in ties)]
    rows = []
    for rank, (sort_key, name, counted) in enumerate(entries, start=1):
        separated_by = None
        if rank < len(entries):
            following = entries[rank][0]
            separated_by = next(
                label for label, a, b in zip(labels, sort_key, following, strict=True) if a != b
            )
        total = -sort_key[0][0] if by_points else sort_key[0][0]
        rows.append(
            TeamStanding(
                rank,
                name,
                tuple((no, places[no]) for no in counted),
                total,
                min(places[no] for no in counted),
                separated_by,
                tuple(score.get(no, 0) for no in counted) if by_points else (),
                rules.method,
            )
        )
    return TeamRanking(tuple(rows), tuple(unranked))


def _tie_key(
    tie: TeamTie, counted: Sequence[int], places: Mapping[int, int], score: Mapping[int, int]
) -> tuple[int, ...]:
    """A criterion's key for the counted members (smaller sorts first)."""
    if tie is TeamTie.BEST_PLACE:
        return (min(places[no] for no in counted),)
    if tie is TeamTie.PLACES_SUM:
        return (sum(places[no] for no in counted),)
    if tie is TeamTie.MEMBER_PLACES:
        return tuple(sorted(places[no] for no in counted))
    return tuple(sorted(-score.get(no, 0) for no in counted))
