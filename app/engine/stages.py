"""A group's stages at play: which stage a round belongs to, who is in each stage, how a stage begins,
and how the stages' rankings make the group's final ranking.

:mod:`app.engine.formats` says what the stages *are* (the regulation); this module works on a group's
state (:class:`~app.engine.event.GroupState`): the stages begun so far (their entrants fixed and
recorded), the rounds played. The services read the state, call these functions and store what they
return.

**The final ranking** (:func:`compose_final`): a stage's entrants are ordered by the stages that took
players from it — the stage that took its top first (its own final ranking), then the stage that took
the rest, then those who went on to no further stage, in the order the stage ranked them ("players
leaving after an earlier stage keep their places"). For the 2024 event: places 1–8 from the knockout,
then the others by the Swiss chain over every round they played.

>>> from app.engine.formats import legacy_stages
>>> stages = legacy_stages(11, 8, 8)
>>> rankings = {0: [5, 1, 2, 3, 4, 6, 7, 8, 9, 10], 1: [2, 5, 1, 8, 7, 4, 3, 6], 2: [10, 9]}
>>> entrants = {1: {5, 1, 2, 3, 4, 6, 7, 8}, 2: {9, 10}}
>>> compose_final(stages, rankings, entrants)
[2, 5, 1, 8, 7, 4, 3, 6, 10, 9]
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from app.engine.event import BegunStage, GroupState, StageEntrant
from app.engine.formats import (
    Entrants,
    Seeding,
    Stage,
    StageKind,
    StagePlan,
    plan_stages,
    round_robin_rounds,
    source_stage,
    stages_in_round,
)
from app.engine.round_robin import lot_order, make_pools, units_round
from app.engine.types import UserError


def played_stages(state: GroupState) -> tuple[Stage, ...]:
    """The group's stages as played: a Swiss begun as a round robin counts as one."""
    stages = list(state.format.stages)
    for b in state.begun:
        if (
            b.index < len(stages)
            and b.kind is StageKind.ROUND_ROBIN
            and stages[b.index].kind is StageKind.SWISS
        ):
            st = stages[b.index]
            stages[b.index] = Stage(
                StageKind.ROUND_ROBIN,
                name=st.name,
                entrants=st.entrants,
                count=st.count,
                alongside=st.alongside,
                tiebreaks=st.tiebreaks,
            )
    return tuple(stages)


def group_plan(state: GroupState, group_size: int | None = None) -> tuple[StagePlan, ...]:
    """The group's stages in its rounds, with the begun stages' real sizes; ``group_size`` (the players who
    may play) estimates the others (by default the numbered players of the group)."""
    size = group_size if group_size is not None else len(state.entrants)
    known = {b.index: len(b.entrants) for b in state.begun}
    return plan_stages(played_stages(state), size, known)


def planned_rounds(state: GroupState, group_size: int | None = None) -> int | None:
    """The group's last round as far as it is known (None while a stage's length depends on entrants
    still to be decided)."""
    plans = group_plan(state, group_size)
    if any(p.rounds is None for p in plans):
        return None
    return max((p.last_round for p in plans), default=0)


def stage_at(state: GroupState, round_number: int, kind: StageKind | None = None) -> tuple[StagePlan, ...]:
    """The stages played in a round (several when stages run alongside each other)."""
    plans = stages_in_round(group_plan(state), round_number)
    return tuple(p for p in plans if kind is None or p.stage.kind is kind)


def stage_players(
    state: GroupState, index: int, taken: Mapping[int, Collection[int]] | None = None
) -> frozenset[int]:
    """Who plays in stage ``index``: the recorded entrants of a begun stage; every numbered player for the
    first stage; for a stage of the rest, the players of its source stage that no other stage took."""
    begun = state.begun_stage(index)
    if begun is not None:
        return begun.players
    stages = state.format.stages
    stage = stages[index]
    if stage.entrants is Entrants.ALL:
        return frozenset(e.no for e in state.entrants)
    if stage.entrants is Entrants.REST and stage.count:
        return frozenset()  # the rest below a place: fixed when the stage begins
    if stage.entrants is Entrants.REST:
        source = source_stage(stages, index)
        pool = stage_players(state, source) if source >= 0 else frozenset(e.no for e in state.entrants)
        others: set[int] = set()
        for j, st in enumerate(stages):
            if j != index and st.entrants is Entrants.TOP and source_stage(stages, j) == source:
                b = state.begun_stage(j)
                if b is not None:
                    others |= b.players
                elif taken and j in taken:
                    others |= set(taken[j])
        return pool - others
    return frozenset()


# --------------------------------------------------------------------------- beginning a stage


def entrants_of(
    stage: Stage, source_ranking: Sequence[int], pool_rankings: Sequence[Sequence[int]] = ()
) -> tuple[int, ...]:
    """The entrants of a stage in seeding order, from the ranking of its source stage (players who may
    still play, best first) or, for the top of each pool, from the pools' rankings: the pool winners in
    pool order, then the runners-up, … (so that a knockout seeded in this order keeps players of one
    pool apart in its first round)."""
    if stage.entrants is Entrants.ALL or stage.entrants is Entrants.REST:
        return tuple(source_ranking)
    if stage.entrants is Entrants.TOP:
        if len(source_ranking) < stage.count:
            raise UserError(
                f"可进入下一阶段的棋手只有 {len(source_ranking)} 名，不足 {stage.count} 名",
                f"only {len(source_ranking)} players can enter the next stage, not {stage.count}",
            )
        return tuple(source_ranking[: stage.count])
    order: list[int] = []
    for place in range(stage.count):
        order += [pool[place] for pool in pool_rankings if place < len(pool)]
    return tuple(order)


def seeded(
    order: Sequence[int], seeding: Seeding, ratings: Mapping[int, int | None], seed: int
) -> tuple[int, ...]:
    """The entrants numbered by the stage's seeding: as they come (the ranking before, or sequence
    numbers), by rating (unrated after, in the order they came), or by lot."""
    if seeding is Seeding.RATING:
        position = {no: i for i, no in enumerate(order)}
        return tuple(
            sorted(order, key=lambda no: (ratings.get(no) is None, -(ratings.get(no) or 0), position[no]))
        )
    if seeding is Seeding.LOT:
        return lot_order(order, seed)
    return tuple(order)


def begin_stage(
    stage: Stage, index: int, order: Sequence[int], seed: int, kind: StageKind | None = None
) -> BegunStage:
    """The stage begun with ``order`` (its entrants in seeding order): pools drawn (a round robin in
    pools), numbers 1… in each pool, and a tiebreak lot for everybody. ``seed`` makes every draw
    reproducible."""
    played = kind or stage.kind
    if played is StageKind.ROUND_ROBIN:
        pools = make_pools(
            order, stage.pools if stage.kind is StageKind.ROUND_ROBIN else 1, stage.pool_draw, seed
        )
    else:
        pools = (tuple(order),)
    lots = {no: i for i, no in enumerate(_tiebreak_lot(order, seed), start=1)}
    entrants = tuple(
        StageEntrant(no, pool, number, lots[no])
        for pool, members in enumerate(pools)
        for number, no in enumerate(members, start=1)
    )
    return BegunStage(index, played, seed, entrants)


def _tiebreak_lot(order: Sequence[int], seed: int) -> list[int]:
    out = list(order)
    random.Random(f"tiebreak:{seed}").shuffle(out)
    return out


def plays_as_round_robin(stage: Stage, entrants: int) -> bool:
    """A Swiss stage with ``round_robin_up_to`` and few enough entrants is played as a round robin."""
    if stage.kind is StageKind.ROUND_ROBIN:
        return True
    return stage.kind is StageKind.SWISS and 2 <= entrants <= stage.round_robin_up_to


# --------------------------------------------------------------------------- round-robin rounds


@dataclass(frozen=True, slots=True)
class TableGame:
    """A game the round-robin table fixes for a round: pool, red and black (sequence numbers)."""

    pool: int
    red: int
    black: int


def round_robin_round(
    begun: BegunStage, stage: Stage, stage_round: int
) -> tuple[tuple[TableGame, ...], tuple[int, ...]]:
    """The games of round ``stage_round`` (1-based within the stage) of a begun round robin, pool by pool,
    and the players who sit out (odd pools)."""
    cycles = stage.cycles if stage.kind is StageKind.ROUND_ROBIN else 1
    games: list[TableGame] = []
    rests: list[int] = []
    for pool, members in enumerate(begun.pools()):
        if len(members) < 2:
            continue
        rounds = round_robin_rounds(len(members), cycles)
        if stage_round > rounds:  # a smaller pool has finished
            rests += [e.no for e in members]
            continue
        swap = stage.kind is StageKind.ROUND_ROBIN and stage.swap_last_rounds
        pairs, bye = units_round({e.no: e.number for e in members}, stage_round, cycles, swap)
        games += [TableGame(pool, red, black) for red, black in pairs]
        if bye is not None:
            rests.append(bye)
    return tuple(games), tuple(rests)


# --------------------------------------------------------------------------- the final ranking


def compose_final(
    stages: Sequence[Stage],
    rankings: Mapping[int, Sequence[int]],
    entrants: Mapping[int, Collection[int]],
    removed: Collection[int] = (),
) -> list[int]:
    """The group's final order: see the module's docstring. ``rankings`` maps a stage to its own ranking
    of its entrants (best first); ``entrants`` a later stage to its entrants; ``removed`` players
    (disqualified, 计成绩不计名次) take no place.

    A stage's ranking is walked from the top: where the first player who went on to a later stage
    stands, that stage's whole final order is placed; a player who went no further keeps his place.
    So the top 4's knockout takes places 1–4, places 5–16 stay as they were, and the rest who played on
    follow from 17.

    >>> from app.engine.formats import Entrants, Stage, StageKind
    >>> stages = (Stage(StageKind.SWISS, rounds=5), Stage(StageKind.KNOCKOUT, entrants=Entrants.TOP, count=2),
    ...           Stage(StageKind.SWISS, entrants=Entrants.REST, count=4, alongside=True, rounds=2))
    >>> compose_final(stages, {0: [1, 2, 3, 4, 5, 6], 1: [2, 1], 2: [6, 5]}, {1: {1, 2}, 2: {5, 6}})
    [2, 1, 3, 4, 6, 5]
    """

    def order_of(index: int) -> list[int]:
        own = list(rankings.get(index, ()))
        successors = [
            j for j in range(len(stages)) if j != index and source_stage(stages, j) == index and j in entrants
        ]
        went = {no: j for j in successors for no in entrants[j]}
        out: list[int] = []
        placed: set[int] = set()
        done: set[int] = set()
        for no in own:
            j = went.get(no)
            if j is None:
                if no not in placed:
                    out.append(no)
                    placed.add(no)
            elif j not in done:
                done.add(j)
                for later in order_of(j):
                    if later not in placed:
                        out.append(later)
                        placed.add(later)
        for j in successors:  # a later stage's player missing from this ranking: after it
            if j not in done:
                out += [no for no in order_of(j) if no not in placed]
        return out

    gone = set(removed)
    return [no for no in order_of(0) if no not in gone]
