"""Team ranking (团体成绩, docs/rules.md §9): the sum of the members' final places, lower first; no ties.

A team's score is the sum of the final individual places of its ``counted_members`` best-placed
members; a tie goes to the team whose best member placed higher. Teams with fewer than
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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from app.engine.regulations import TeamRules
from app.engine.types import UserError

__all__ = ["TeamRanking", "TeamStanding", "UnrankedTeam", "rank_teams"]


@dataclass(frozen=True, slots=True)
class TeamStanding:
    rank: int
    team: str
    members: tuple[tuple[int, int], ...]  # counted members as (no, place), best place first
    total: int  # sum of the counted places, lower is better
    best_place: int
    separated_by: str | None  # "total" or "best_place" against the next team; None for the last

    @property
    def separated_by_zh(self) -> str | None:
        return {None: None, "total": "名次之和", "best_place": "最高个人名次"}[self.separated_by]


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
) -> TeamRanking:
    """Rank the teams of a group.

    ``places``: final individual place of every ranked player (no → place; disqualified players are
    simply absent). ``team_of``: each registered player's team (None or absent = no team).
    ``teams``: team names to list even if none of their players appear in ``team_of``.
    """
    if len(set(places.values())) != len(places):
        raise UserError("个人名次有重复，无法计算团体成绩", "individual places repeat: cannot rank teams")
    members: dict[str, list[int]] = {name: [] for name in teams}
    for no, team in team_of.items():
        if team is not None:
            members.setdefault(team, [])
            if no in places:
                members[team].append(places[no])
    ranked: list[tuple[int, int, str, tuple[tuple[int, int], ...]]] = []
    unranked: list[UnrankedTeam] = []
    by_place = {place: no for no, place in places.items()}
    for name in sorted(members):
        team_places = sorted(members[name])
        if len(team_places) < rules.min_members or not team_places:
            unranked.append(UnrankedTeam(name, len(team_places), rules.min_members))
            continue
        counted = team_places[: rules.counted_members]
        ranked.append((sum(counted), counted[0], name, tuple((by_place[p], p) for p in counted)))
    ranked.sort()
    rows = []
    for rank, (total, best, name, counted_members) in enumerate(ranked, start=1):
        separated_by = None
        if rank < len(ranked):
            separated_by = "total" if ranked[rank][0] != total else "best_place"
        rows.append(TeamStanding(rank, name, counted_members, total, best, separated_by))
    return TeamRanking(tuple(rows), tuple(unranked))
