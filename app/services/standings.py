"""Standings, final ranking, team ranking and prizes of a group (RULES.md §6, §9, §10).

Everything is computed from the games on every call (no stored ranking), so a corrected result
changes every later standing and tiebreak by itself.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.mapping import load_group_state
from app.db.models import Group, Player
from app.db.session import Database
from app.engine import standings as ranking
from app.engine.discipline import annul_games
from app.engine.event import GroupState
from app.engine.knockout import final_ranking
from app.engine.prizes import PrizeCandidate, PrizeList, award_prizes
from app.engine.registration import age_on
from app.engine.regulations import PrizeKind, Regulations, Tiebreak
from app.engine.teams import TeamRanking, rank_teams
from app.engine.types import (
    GameResult,
    Gender,
    IdDocument,
    PlayerStatus,
    RoundRecord,
    UserError,
    ViolationKind,
)
from app.services.brackets import knockout_places, knockout_players, load_bracket
from app.services.tournaments import group_row, regulations_of


def _swiss_input(
    state: GroupState,
) -> tuple[list[ranking.Entrant], tuple[RoundRecord, ...], list[ranking.Violation]]:
    rounds = state.rounds
    for e in state.entrants:
        if e.status is PlayerStatus.DISQUALIFIED and e.annul_games:
            rounds = annul_games(rounds, e.no)
    entrants = [ranking.Entrant(e.no, e.status, e.team) for e in state.entrants]
    violations = [ranking.Violation(v.no, v.round) for v in state.violations if v.kind in _COUNTING_KINDS]
    return entrants, rounds, violations


_COUNTING_KINDS = {k.value for k in ViolationKind if k.counts_in_tiebreak}


def _standings(
    s: Session, group: Group, reg: Regulations, after_round: int | None
) -> tuple[GroupState, ranking.Standings]:
    state = load_group_state(s, group, reg)
    entrants, rounds, violations = _swiss_input(state)
    ko = knockout_players(s, group, reg)
    table = ranking.standings(
        entrants,
        rounds,
        reg,
        violations,
        after_round=after_round,
        knockout_players=ko.players if ko else (),
        split_round=ko.split_round if ko else None,
        knockout_black=_knockout_black(s, group, reg) if ko else (),
    )
    return state, table


def _knockout_black(s: Session, group: Group, reg: Regulations) -> tuple[ranking.BlackGame, ...]:
    """The knockout games played as Black over the board, where the regulation counts them (后走局数)."""
    if not reg.tiebreaks.knockout_games_count_as_black:
        return ()
    bracket = load_bracket(s, group, reg)
    if bracket is None:
        return ()
    return tuple(
        ranking.BlackGame(m.round_number, g.black, g.result is GameResult.BLACK_WIN)
        for m in bracket.matches
        for g in m.games
        if g.result.played_over_board
    )


def ranking_after(s: Session, group: Group, reg: Regulations, after_round: int) -> list[int]:
    """Sequence numbers in rank order after a round (used for the knockout seeds)."""
    return list(_standings(s, group, reg, after_round)[1].order)


@dataclass(frozen=True, slots=True)
class StandingLine:
    rank: int
    no: int
    name: str
    unit: str
    standing: ranking.Standing  # the engine's row: every tiebreak value and what separated it

    def __getattr__(self, name: str) -> object:
        # team, status, score, opponent_score, wins, violations, black_games, black_wins, progressive
        return getattr(self.standing, name)

    @property
    def separated_by(self) -> str | None:
        """The code, e.g. ``wins``, ``round_6:opponent_score``, ``sequence_number``; None for the last row."""
        sep = self.standing.separated_by
        return None if sep is None else sep.code

    @property
    def separated_by_zh(self) -> str:
        sep = self.standing.separated_by
        return "" if sep is None else sep.zh

    @property
    def separated_by_en(self) -> str:
        sep = self.standing.separated_by
        return "" if sep is None else sep.en

    def as_json(self) -> dict[str, object]:
        return {
            "rank": self.rank,
            "no": self.no,
            "name": self.name,
            "team": self.standing.team,
            "score": self.standing.score,
            "tiebreaks": self.standing.tiebreak_values(),
            "separated_by": self.separated_by,
        }


@dataclass(frozen=True, slots=True)
class StandingsView:
    group: str
    after_round: int
    chain: tuple[Tiebreak, ...]
    lines: tuple[StandingLine, ...]
    disqualified: tuple[tuple[int, str], ...]
    decided_by_sequence_number: bool
    final: bool = False

    @property
    def chain_zh(self) -> str:
        return "、".join(["积分", *(t.zh for t in self.chain), "序号"])


def group_standings(db: Database, group: str, after_round: int | None = None) -> StandingsView:
    """The standings of a group after a round (default: the last paired round)."""
    with db.session() as s:
        reg = regulations_of(s)
        g = group_row(s, group)
        state, table = _standings(s, g, reg, after_round)
    by_no = {e.no: e for e in state.entrants}
    lines = tuple(StandingLine(r.rank, r.no, by_no[r.no].name, by_no[r.no].unit, r) for r in table.rows)
    return StandingsView(
        group=group,
        after_round=table.after_round,
        chain=reg.tiebreaks.chain,
        lines=lines,
        disqualified=tuple((no, by_no[no].name) for no in table.disqualified),
        decided_by_sequence_number=table.decided_by_sequence_number,
    )


def why_above(
    db: Database, group: str, a: int, b: int, after_round: int | None = None, *, language: str = "zh"
) -> str:
    """ "Why is A above B": the first criterion where they differ, with both values (``zh`` or ``en``)."""
    with db.session() as s:
        reg = regulations_of(s)
        _state, table = _standings(s, group_row(s, group), reg, after_round)
    sep = table.why(a, b)
    if language == "en":
        return f"No. {sep.upper_no} ranks above no. {sep.lower_no}: {sep.en}"
    return f"{sep.upper_no} 号排在 {sep.lower_no} 号之前：{sep.zh}"


def final_places(db: Database, group: str) -> dict[int, int]:
    """The final ranking of a group: knockout places first, then the rest by the chain (no → place)."""
    with db.session() as s:
        reg = regulations_of(s)
        return _final_places(s, group_row(s, group), reg)


def _final_places(s: Session, g: Group, reg: Regulations) -> dict[int, int]:
    _state, table = _standings(s, g, reg, None)
    fmt = reg.group(g.name)
    removed = set(table.disqualified)
    if not fmt.knockout_size:
        return {no: place for place, no in enumerate(table.order, start=1)}
    places = knockout_places(s, g, reg)
    if places is None:
        raise UserError(
            f"{g.name}的淘汰赛尚未结束，还不能排出最终名次", f"the knockout of {g.name} is not finished yet"
        )
    others = [no for no in table.order if no not in places]
    return final_ranking(places, others, removed)


def final_standings(db: Database, group: str) -> StandingsView:
    """The final ranking as standings lines: places 1–n, tiebreak values over every Swiss round."""
    view = group_standings(db, group)
    places = final_places(db, group)
    by_no = {line.no: line for line in view.lines}
    ordered = sorted(places, key=lambda no: places[no])
    lines = tuple(dataclasses.replace(by_no[no], rank=places[no]) for no in ordered)
    return StandingsView(
        view.group,
        view.after_round,
        view.chain,
        lines,
        view.disqualified,
        view.decided_by_sequence_number,
        final=True,
    )


def _places_for_prizes(s: Session, g: Group, reg: Regulations) -> list[int]:
    """Final places where the event is over, the current standing otherwise (for a preview)."""
    try:
        places = _final_places(s, g, reg)
    except UserError:
        _state, table = _standings(s, g, reg, None)
        return list(table.order)
    return sorted(places, key=lambda no: places[no])


@dataclass(frozen=True, slots=True)
class TeamsView:
    group: str
    ranking: TeamRanking
    names: dict[int, str]
    final: bool


def team_standings(db: Database, group: str, after_round: int | None = None) -> TeamsView:
    """The team ranking: from the final places once they exist, else from the standing after
    ``after_round`` (default: the last paired round), marked not final."""
    with db.session() as s:
        reg = regulations_of(s)
        g = group_row(s, group)
        if not g.teams:
            raise UserError(f"{group}不设团体", f"{group} has no team competition")
        state = load_group_state(s, g, reg)
        try:
            places = _final_places(s, g, reg)
            final = True
        except UserError:
            _state, table = _standings(s, g, reg, after_round)
            places = {no: place for place, no in enumerate(table.order, start=1)}
            final = False
        team_of = {e.no: e.team for e in state.entrants}
        teams = [t for t in {e.team for e in state.entrants} if t]
        result = rank_teams(places, team_of, reg.team, teams)
        return TeamsView(group, result, {e.no: e.name for e in state.entrants}, final)


@dataclass(frozen=True, slots=True)
class PrizesView:
    prizes: PrizeList
    names: dict[tuple[str, int], str]  # (group, no) → name
    units: dict[tuple[str, int], str]


def prize_list(db: Database) -> PrizesView:
    with db.session() as s:
        reg = regulations_of(s)
        individual: dict[str, list[int]] = {}
        teams: dict[str, list[str]] = {}
        unranked: set[str] = set()
        names: dict[tuple[str, int], str] = {}
        units: dict[tuple[str, int], str] = {}
        groups: dict[str, Group] = {}
        for g in s.scalars(select(Group).order_by(Group.position)):
            groups[g.name] = g
            state = load_group_state(s, g, reg)
            for e in state.entrants:
                names[(g.name, e.no)] = e.name
                units[(g.name, e.no)] = e.unit
            individual[g.name] = _places_for_prizes(s, g, reg)
            if reg.prize_tables(g.name, PrizeKind.TEAM):
                places = {no: i for i, no in enumerate(individual[g.name], start=1)}
                tr = rank_teams(
                    places,
                    {e.no: e.team for e in state.entrants},
                    reg.team,
                    [t for t in {e.team for e in state.entrants} if t],
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
        return PrizesView(prizes, names, units)


def _prize_candidates(s: Session, g: Group, reg: Regulations) -> dict[int, PrizeCandidate]:
    """Each numbered player's details for the category prizes (gender, age, region, unit, team, ID region)."""
    first_day = reg.registration.first_day_of_play
    out: dict[int, PrizeCandidate] = {}
    for p in s.scalars(select(Player).where(Player.group_id == g.id, Player.no.is_not(None))):
        assert p.no is not None
        resident = p.id_type == IdDocument.RESIDENT_ID.value and p.id_number[:6].isdigit()
        out[p.no] = PrizeCandidate(
            p.no,
            gender=Gender(p.gender) if p.gender else None,
            age=age_on(p.birth_date, first_day),
            region=p.region,
            unit=p.unit,
            team=p.team.name if p.team else "",
            id_prefix=p.id_number[:6] if resident else "",
        )
    return out
