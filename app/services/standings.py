"""Standings, final ranking, team ranking and prizes of a group (docs/rules.md §6, §9, §10).

Everything is computed from the games on every call (no stored ranking), so a corrected result
changes every later standing and tiebreak by itself.

**Which round.** Unless a round is asked for, a standing is the one *after the last round with every
result in* (:func:`complete_through`): while round N is paired and being played, the standings are
those after round N − 1 — an unplayed game would otherwise count as a loss and its opponent in
对手分. Every value says which round it is after (``after_round``) and whether that round is
complete; before any round is complete it is the list before round 1 (``after_round == 0``).

The computation itself is :mod:`app.services.standings_core`, which imports no SQLAlchemy: this
module hands it the group as the ORM session reads it; the command line's ``standings`` hands it
the group as :mod:`sqlite3` reads it (:mod:`app.services.faststandings`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.mapping import load_group_state
from app.db.models import Group, Player, Team
from app.db.session import Database, kept
from app.engine import standings as ranking
from app.engine.event import GroupState
from app.engine.knockout import Bracket
from app.engine.prizes import PrizeCandidate, PrizeList, award_prizes
from app.engine.registration import age_on
from app.engine.regulations import PrizeKind, Regulations, TeamMethod, TeamRules
from app.engine.teams import TeamRanking, rank_teams
from app.engine.types import Gender, IdDocument, UserError
from app.services import standings_core as core
from app.services.brackets import load_bracket
from app.services.collector import collection_paused
from app.services.standings_core import FinalSeparation as FinalSeparation
from app.services.standings_core import StandingLine as StandingLine
from app.services.standings_core import StandingsView as StandingsView
from app.services.standings_core import _Final, final_of, final_view, group_view, standings_of
from app.services.standings_core import complete_through as complete_through
from app.services.standings_core import unranked_players as unranked_players
from app.services.tournaments import group_row, regulations_of


class _OrmGroup:
    """A group read through the ORM session for one computation (a standing, a final ranking, a stage's
    order): its state and bracket read once, and each ranking made once, for that computation, as
    :class:`app.services.faststandings.LiteGroup` keeps them. A computation only reads, so what it
    reads twice is the same; the next call makes a new one and reads the file afresh. Inside
    :meth:`Database.one_reading` the reading's own kept values are used (shared by every computation
    of the reading)."""

    __slots__ = ("_bracket", "_memo", "_state", "g", "reg", "s")

    def __init__(self, s: Session, g: Group, reg: Regulations) -> None:
        self.s = s
        self.g = g
        self.reg = reg
        self._state: GroupState | None = None
        self._bracket: tuple[Bracket | None] | None = None
        self._memo: dict[object, Any] | None = None

    @property
    def name(self) -> str:
        return self.g.name

    @property
    def key(self) -> int:
        return self.g.id

    def state(self) -> GroupState:
        if self._state is None:
            self._state = load_group_state(self.s, self.g, self.reg)
        return self._state

    def bracket(self) -> Bracket | None:
        if self._bracket is None:
            self._bracket = (load_bracket(self.s, self.g, self.reg),)
        return self._bracket[0]

    def memo(self) -> dict[object, Any] | None:
        if self._memo is None:
            kept_values = kept(self.s)
            self._memo = kept_values if kept_values is not None else {}
        return self._memo


def _standings(
    s: Session, group: Group, reg: Regulations, after_round: int | None, state: GroupState | None = None
) -> tuple[GroupState, ranking.Standings]:
    """The ranking after ``after_round``; ``None``: after the last round with every result in.

    Inside :meth:`Database.one_reading` each ranking is computed once (the final standings read the
    group's standings twice: as they are, and for the final order)."""
    return standings_of(_OrmGroup(s, group, reg), after_round, state)


def ranking_after(s: Session, group: Group, reg: Regulations, after_round: int) -> list[int]:
    """Sequence numbers in rank order after a round (used for the knockout seeds)."""
    return list(_standings(s, group, reg, after_round)[1].order)


@collection_paused()
def group_standings(db: Database, group: str, after_round: int | None = None) -> StandingsView:
    """The standings of a group after a round (default: the last round with every result in): the Swiss
    standings, or a round robin's, pool by pool, when a round-robin stage is what the group plays."""
    with db.one_reading(), db.session() as s:
        return group_view(_OrmGroup(s, group_row(s, group), regulations_of(s)), after_round)


def why_above(
    db: Database,
    group: str,
    a: int,
    b: int,
    after_round: int | None = None,
    *,
    final: bool = False,
    language: str = "zh",
) -> str:
    """ "Why is A above B": the first criterion where they differ, with both values (``zh`` or ``en``).

    ``final``: in the final ranking — knockout places first (by the matches that decided them),
    then the others by the chain over every round they played.
    """
    if final:
        sep = _final_why(db, group, a, b)
        return sep.en_sentence if language == "en" else sep.zh_sentence
    with db.session() as s:
        reg = regulations_of(s)
        _state, table = _standings(s, group_row(s, group), reg, after_round)
    swiss = table.why(a, b)
    if language == "en":
        return f"No. {swiss.upper_no} ranks above no. {swiss.lower_no}: {swiss.en}"
    return f"{swiss.upper_no} 号排在 {swiss.lower_no} 号之前：{swiss.zh}"


def final_places(db: Database, group: str) -> dict[int, int]:
    """The final ranking of a group: knockout places first, then the rest by the chain (no → place)."""
    with db.session() as s:
        reg = regulations_of(s)
        return _final_places(s, group_row(s, group), reg)


def _final_places(s: Session, g: Group, reg: Regulations) -> dict[int, int]:
    return dict(_final(s, g, reg).places)  # a copy: the ranking may be kept for the whole reading


def stage_order(s: Session, g: Group, reg: Regulations, state: GroupState, index: int) -> list[int]:
    """A stage's own ranking of its entrants, best first (:func:`app.services.standings_core.stage_order`)."""
    return core.stage_order(_OrmGroup(s, g, reg), state, index)


def stage_players_of(s: Session, g: Group, reg: Regulations, state: GroupState, index: int) -> frozenset[int]:
    """A stage's players (a knockout created before stages were recorded has them in its bracket)."""
    return core.stage_players_of(_OrmGroup(s, g, reg), state, index)


def stage_entry_order(s: Session, g: Group, reg: Regulations, state: GroupState, index: int) -> list[int]:
    """The entrants of stage ``index`` before its own seeding
    (:func:`app.services.standings_core.stage_entry_order`)."""
    return core.stage_entry_order(_OrmGroup(s, g, reg), state, index)


def _final(s: Session, g: Group, reg: Regulations) -> _Final:
    """The final ranking with what separates any two players in it; refused before the end (made once
    per group inside :meth:`Database.one_reading`)."""
    return final_of(_OrmGroup(s, g, reg))


def is_final(db: Database, group: str) -> bool:
    """Whether the group's final ranking exists (every stage played to its end)."""
    try:
        final_places(db, group)
    except UserError:
        return False
    return True


def over_and_state(db: Database, group: str) -> tuple[bool, GroupState]:
    """:func:`is_final` and the group's state (:func:`app.services.rounds.group_state`) in one reading:
    what a simulation asks before each round."""
    with db.session() as s:
        src = _OrmGroup(s, group_row(s, group), regulations_of(s))
        state = src.state()
        try:
            final_of(src)
        except UserError:
            return False, state
        return True, state


def _final_why(db: Database, group: str, a: int, b: int) -> FinalSeparation:
    if a == b:
        raise UserError("请选择两名不同的棋手", "choose two different players")
    with db.session() as s:
        final = _final(s, group_row(s, group), regulations_of(s))
    for no in (a, b):
        if no not in final.places:
            raise UserError(f"序号 {no} 不在最终名次中", f"player {no} is not in the final ranking")
    upper, lower = sorted((a, b), key=lambda no: final.places[no])
    return final.separation(upper, lower)


@collection_paused()
def final_standings(db: Database, group: str) -> StandingsView:
    """The final ranking as standings lines: places 1–n, tiebreak values over every Swiss round (a round
    robin's player: over its table), and what separates each player from the next one **in the final
    order** (places 1–8 by the knockout)."""
    with db.one_reading(), db.session() as s:  # the group, its bracket and its standings read once
        return final_view(_OrmGroup(s, group_row(s, group), regulations_of(s)))


def final_if_over(db: Database, group: str) -> StandingsView | None:
    """The group's final ranking once it is over (its last round complete, the knockout decided);
    ``None`` before. Inside :meth:`Database.one_reading` it is made once per group (the workbook's
    standings and crosstable both ask for it)."""
    with db.session() as s:
        memo = kept(s)
    key = ("final_if_over", group)
    if memo is not None and key in memo:
        kept_view: StandingsView | None = memo[key]
        return kept_view
    try:
        view: StandingsView | None = final_standings(db, group)
    except UserError:
        view = None
    if memo is not None:
        memo[key] = view
    return view


def standings_view(db: Database, group: str, after_round: int | None = None) -> StandingsView:
    """The standings every list shows unless a round is asked for: once the group is over, its final
    ranking (knockout places first); before that, after the last round with every result in.

    The window, ``xqarbiter standings``, the hall's 名次 page and the printed 名次表 all ask this, so
    they tell the same order; ``after_round`` asks for the Swiss standings after that round instead.
    """
    if after_round is None:
        final = final_if_over(db, group)
        if final is not None:
            return final
    return group_standings(db, group, after_round)


@dataclass(frozen=True, slots=True)
class RankingBasis:
    """What a team ranking or a prize list of a group rests on: the final ranking, or (provisional)
    the standings after the last complete round — 0 when the group has not played a round yet."""

    group: str
    final: bool
    after_round: int

    @property
    def zh(self) -> str:
        if self.final:
            return "最终名次"
        if self.after_round == 0:
            return "暂列：尚未赛完一轮，按序号排列，不是名次"
        return f"暂列：按第 {self.after_round} 轮后名次"

    @property
    def en(self) -> str:
        if self.final:
            return "final ranking"
        if self.after_round == 0:
            return "provisional: no round complete yet, by sequence number (not a ranking)"
        return f"provisional: by the standings after round {self.after_round}"


def _ranking_for_prizes(s: Session, g: Group, reg: Regulations) -> tuple[list[int], RankingBasis]:
    """Final places where the group is over, the standing after its last complete round otherwise."""
    try:
        places = _final_places(s, g, reg)
    except UserError:
        state, table = _standings(s, g, reg, None)
        gone = unranked_players(state, reg)
        return [no for no in table.order if no not in gone], RankingBasis(g.name, False, table.after_round)
    return sorted(places, key=lambda no: places[no]), RankingBasis(g.name, True, 0)


@dataclass(frozen=True, slots=True)
class TeamsView:
    group: str
    ranking: TeamRanking
    names: dict[int, str]
    final: bool
    basis: RankingBasis | None = None
    rules: TeamRules = dataclasses.field(default_factory=TeamRules)

    @property
    def by_points(self) -> bool:
        return self.rules.method is TeamMethod.POINTS

    @property
    def rule_zh(self) -> str:
        """The regulation's rule in one sentence, as printed under the team standings."""
        r = self.rules
        ties = "，再比较".join(t.zh for t in r.ties)
        what = "个人名次之和，和小者列前" if not self.by_points else "个人积分之和，多者列前"
        return f"团体成绩按 {r.counted_members} 名队员{what}；相同则比较{ties}。"


def team_standings(db: Database, group: str, after_round: int | None = None) -> TeamsView:
    """The team ranking from the final places, or (provisional) from the standings after
    ``after_round`` — by default the last complete round; ``basis`` says which."""
    with db.session() as s:
        reg = regulations_of(s)
        g = group_row(s, group)
        if not g.teams:
            raise UserError(f"{group}不设团体", f"{group} has no team competition")
        state = load_group_state(s, g, reg)
        if after_round is None:
            order, basis = _ranking_for_prizes(s, g, reg)
        else:
            try:
                final_places_ = _final_places(s, g, reg)
                order = sorted(final_places_, key=lambda no: final_places_[no])
                basis = RankingBasis(g.name, True, 0)
            except UserError:
                _state, table = _standings(s, g, reg, after_round)
                order, basis = list(table.order), RankingBasis(g.name, False, table.after_round)
        places = {no: place for place, no in enumerate(order, start=1)}
        team_of = {e.no: e.team for e in state.entrants}
        teams = [t for t in {e.team for e in state.entrants} if t]
        points = _team_points(state, reg, after_round)
        result = rank_teams(places, team_of, reg.team, teams, points)
        return TeamsView(group, result, {e.no: e.name for e in state.entrants}, basis.final, basis, reg.team)


def _team_points(state: GroupState, reg: Regulations, after_round: int | None = None) -> dict[int, int]:
    """Every player's points (积分) for a team ranking by points: the points of every round played (up to
    ``after_round``); knockout games give none."""
    from app.engine.discipline import scores

    last = state.last_round if after_round is None else after_round
    return scores(state.scored_rounds, reg.points, last)


@dataclass(frozen=True, slots=True)
class PrizesView:
    prizes: PrizeList
    names: dict[tuple[str, int], str]  # (group, no) → name
    units: dict[tuple[str, int], str]
    basis: dict[str, RankingBasis] = dataclasses.field(default_factory=dict)  # group → what it rests on

    @property
    def final(self) -> bool:
        return all(b.final for b in self.basis.values())


def prize_list(db: Database) -> PrizesView:
    with db.session() as s:
        reg = regulations_of(s)
        individual: dict[str, list[int]] = {}
        teams: dict[str, list[str]] = {}
        unranked: set[str] = set()
        names: dict[tuple[str, int], str] = {}
        units: dict[tuple[str, int], str] = {}
        basis: dict[str, RankingBasis] = {}
        groups: dict[str, Group] = {}
        for g in s.scalars(select(Group).order_by(Group.position)):
            groups[g.name] = g
            state = load_group_state(s, g, reg)
            for e in state.entrants:
                names[(g.name, e.no)] = e.name
                units[(g.name, e.no)] = e.unit
            individual[g.name], basis[g.name] = _ranking_for_prizes(s, g, reg)
            if _is_team_competition(reg, g.name):
                # a team competition's prizes rest on its team standings, not on individual rounds
                order, basis[g.name] = _team_competition_order(s, g, reg)
                if reg.prize_tables(g.name, PrizeKind.TEAM):
                    teams[g.name] = order
            elif reg.prize_tables(g.name, PrizeKind.TEAM):
                places = {no: i for i, no in enumerate(individual[g.name], start=1)}
                tr = rank_teams(
                    places,
                    {e.no: e.team for e in state.entrants},
                    reg.team,
                    [t for t in {e.team for e in state.entrants} if t],
                    _team_points(state, reg),
                )
                teams[g.name] = list(tr.order)
                unranked |= {u.team for u in tr.unranked}
        candidates = {name: _prize_candidates(s, g, reg) for name, g in groups.items()}
        prizes = award_prizes(
            reg.prizes,
            individual,
            teams,
            unranked_teams=unranked,
            candidates=candidates,
            one_per_player=reg.prize_rules.one_per_player,
        )
        return PrizesView(prizes, names, units, basis)


def _is_team_competition(reg: Regulations, group: str) -> bool:
    return reg.group(group).team_event is not None


def _team_competition_order(s: Session, g: Group, reg: Regulations) -> tuple[list[str], RankingBasis]:
    """A team competition's teams in the order of its standings (场分, 局分, the chain; a finished knockout
    by its places), and what that order rests on: final once every round's matches are decided, else
    provisional after the last round whose matches all are (as the team standings say)."""
    from app.engine.knockout import final_places
    from app.engine.team_event import knockout_bracket, team_ranking
    from app.engine.team_match import score_match
    from app.engine.team_rules import TeamSystem
    from app.services.team_events import load_team_state

    state, _ids = load_team_state(s, g, reg)
    names = {t.no: t.name for t in state.teams}
    order = [r.team for r in team_ranking(state).rows]
    complete = sum(
        1 for r in state.rounds if all(score_match(m.match, state.event.match).decided for m in r.matches)
    )
    final = complete == state.total_rounds
    basis = RankingBasis(g.name, final, 0 if final else complete)
    if state.event.system is TeamSystem.KNOCKOUT and state.rounds:
        bracket = knockout_bracket(state)
        if bracket.is_complete:
            places = final_places(bracket)
            # the standings' order breaks ties of place (read before sorting: a list being sorted is empty)
            ranked = {t: i for i, t in enumerate(order)}
            unplaced = len(order) + 1
            order.sort(key=lambda t: (places.get(t, unplaced), ranked[t]))
    return [names[t] for t in order], basis


def _prize_candidates(s: Session, g: Group, reg: Regulations) -> dict[int, PrizeCandidate]:
    """Each numbered player's details for the category prizes (gender, age, region, unit, team, ID region)."""
    first_day = reg.registration.first_day_of_play
    out: dict[int, PrizeCandidate] = {}
    rows = s.execute(  # the columns only, not 5,000 players' rows as objects
        select(
            Player.no,
            Player.gender,
            Player.birth_date,
            Player.region,
            Player.unit,
            Player.id_type,
            Player.id_number,
            Team.name,
        )
        .outerjoin(Team, Player.team_id == Team.id)
        .where(Player.group_id == g.id, Player.no.is_not(None))
    )
    for no, gender, birth_date, region, unit, id_type, id_number, team in rows:
        assert no is not None
        resident = id_type == IdDocument.RESIDENT_ID.value and id_number[:6].isdigit()
        out[no] = PrizeCandidate(
            no,
            gender=Gender(gender) if gender else None,
            age=None if birth_date is None else age_on(birth_date, first_day),  # unknown: no age prize
            region=region,
            unit=unit,
            team=team or "",
            id_prefix=id_number[:6] if resident else "",
        )
    return out
