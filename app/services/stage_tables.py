"""A group's stages read from its state alone, with no SQLAlchemy: the stage plan, the round-robin tables
and their rankings (:mod:`app.services.stages` re-exports them; the command line's standings read
through :mod:`sqlite3` use them without the ORM)."""

from __future__ import annotations

from dataclasses import dataclass

from app.engine import standings as ranking
from app.engine.event import GroupState
from app.engine.formats import Stage, StageKind, StagePlan, WithdrawalRule, default_chain
from app.engine.regulations import Regulations
from app.engine.round_robin import annuls_games
from app.engine.stages import group_plan
from app.engine.types import PlayerStatus, RoundRecord, ViolationKind

POOL_NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def pool_name(pool: int) -> str:
    """``A组``, ``B组`` … (the pools of a pooled round robin)."""
    return f"{POOL_NAMES[pool]}组" if pool < len(POOL_NAMES) else f"第{pool + 1}组"


def may_play(state: GroupState) -> int:
    """How many of the group's numbered players may be paired now (for the plan's estimates)."""
    return sum(1 for e in state.entrants if e.may_be_paired)


def plan_of(state: GroupState) -> tuple[StagePlan, ...]:
    return group_plan(state, may_play(state))


def rounds_known(state: GroupState) -> int | None:
    plans = plan_of(state)
    if any(p.rounds is None for p in plans):
        return None
    return max((p.last_round for p in plans), default=0)


def last_round(state: GroupState) -> int:
    """The group's last round; a round count still open counts as far as it can be known (for the
    questions "is this the last round", "which rounds may an absence be for")."""
    known = rounds_known(state)
    if known is not None:
        return known
    return max((p.last_round for p in plan_of(state) if p.rounds is not None), default=0)


# --------------------------------------------------------------------------- round-robin tables


_COUNTING = {k.value for k in ViolationKind if k.counts_in_tiebreak}


@dataclass(frozen=True, slots=True)
class PoolTable:
    """One round-robin table (a pool, or the whole stage) and its ranking."""

    stage: int
    pool: int
    numbers: dict[int, int]  # player → table number
    rounds: tuple[RoundRecord, ...]  # the table's games by stage round (scored: annulments applied)
    standings: ranking.Standings
    annulled: frozenset[int]  # withdrawn players whose games are annulled
    first_round: int  # the group's round number of the stage's round 1

    @property
    def name(self) -> str:
        return pool_name(self.pool)


def round_robin_tables(
    state: GroupState, reg: Regulations, index: int, after_round: int | None = None
) -> tuple[PoolTable, ...]:
    """The tables of a begun round-robin stage with their rankings after ``after_round`` (a round of the
    group; default: every round played). Rests are no byes (no points); a withdrawn player's games are
    annulled or stand as the stage's withdrawal rule says; a disqualified player is not ranked."""
    begun = state.begun_stage(index)
    if begun is None or begun.kind is not StageKind.ROUND_ROBIN:
        return ()
    plan = next(p for p in plan_of(state) if p.index == index)
    stage = state.format.stages[index]
    chain = default_chain(
        stage
        if stage.kind is StageKind.ROUND_ROBIN
        else Stage(StageKind.ROUND_ROBIN, tiebreaks=stage.tiebreaks),
        reg.tiebreaks.chain,
    )
    rule = stage.withdrawal if stage.kind is StageKind.ROUND_ROBIN else WithdrawalRule.HALF
    cycles = stage.cycles if stage.kind is StageKind.ROUND_ROBIN else 1
    last = plan.last_round if after_round is None else min(after_round, plan.last_round)
    entrant = {e.no: e for e in state.entrants}
    out = []
    for pool, members in enumerate(begun.pools()):
        nos = {e.no for e in members}
        records: list[RoundRecord] = []
        for r in state.scored_rounds:
            if plan.first_round <= r.number <= last:
                games = tuple(g for g in r.games if g.red in nos and g.black in nos)
                records.append(RoundRecord(r.number - plan.first_round + 1, games))
        total = (len(members) - 1) * cycles
        annulled = frozenset(
            no
            for no in nos
            if entrant[no].status is PlayerStatus.WITHDRAWN
            and annuls_games(rule, _played(records, no), total)
        )
        if annulled:
            records = [
                RoundRecord(
                    r.number, tuple(g for g in r.games if g.red not in annulled and g.black not in annulled)
                )
                for r in records
            ]
        players = [
            ranking.Entrant(no, entrant[no].status, entrant[no].team)
            for no in sorted(nos)
            if no not in annulled
        ]
        violations = [
            ranking.Violation(v.no, max(0, v.round - plan.first_round + 1))
            for v in state.violations
            if v.no in nos and v.no not in annulled and v.kind in _COUNTING and v.round >= plan.first_round
        ]
        lots = {e.no: e.lot for e in members}
        stage_after = min(max(0, last - plan.first_round + 1), max((r.number for r in records), default=0))
        standings = ranking.standings(
            players,
            [r for r in records if r.number <= stage_after],
            reg,
            violations,
            after_round=stage_after if stage_after else 0,
            chain=chain,
            lots=lots,
        )
        out.append(
            PoolTable(
                index,
                pool,
                {e.no: e.number for e in members},
                tuple(records),
                standings,
                annulled,
                plan.first_round,
            )
        )
    return tuple(out)


def _played(records: list[RoundRecord], no: int) -> int:
    return sum(1 for r in records for g in r.games if no in (g.red, g.black) and g.result.played_over_board)


def pool_order(tables: tuple[PoolTable, ...], points_win: int) -> list[int]:
    """A pooled stage's ranking as one order: by place in the pool, then (for equal places) by the share
    of the possible points scored, then by pool."""
    rows = []
    for t in tables:
        games = max(1, (len(t.numbers) - 1))
        for place, line in enumerate(t.standings.rows, start=1):
            rows.append((place, -line.score / (games * max(1, points_win)), t.pool, line.no))
    rows.sort()
    return [no for *_, no in rows]
