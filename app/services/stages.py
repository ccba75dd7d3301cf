"""A group's stages in the file: the plan of its rounds, beginning a stage (its entrants, pools and lots
recorded), the round-robin tables and their rankings.

The ranking of a Swiss stage and the composition of the final ranking live in
:mod:`app.services.standings` (which asks this module for round-robin tables); beginning a stage takes
the order of its entrants from the caller, so that this module never asks the standings.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.mapping import load_group_state
from app.db.models import Group as GroupRow
from app.db.models import GroupStage, Player, StageEntry
from app.db.session import Database, kept
from app.engine import standings as ranking
from app.engine.event import BegunStage, GroupState
from app.engine.formats import Stage, StageKind, StagePlan, WithdrawalRule, default_chain
from app.engine.regulations import Regulations
from app.engine.round_robin import annuls_games
from app.engine.stages import begin_stage, group_plan, played_stages, plays_as_round_robin, seeded
from app.engine.types import Game, GameResult, PlayerStatus, RoundRecord, UserError, ViolationKind
from app.services import audit
from app.services.tournaments import group_row, regulations_of

POOL_NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def pool_name(pool: int) -> str:
    """``A组``, ``B组`` … (the pools of a pooled round robin)."""
    return f"{POOL_NAMES[pool]}组" if pool < len(POOL_NAMES) else f"第{pool + 1}组"


def new_stage_seed() -> int:
    return random.SystemRandom().randint(1, 999_999)


def may_play(state: GroupState) -> int:
    """How many of the group's numbered players may be paired now (for the plan's estimates)."""
    return sum(1 for e in state.entrants if e.may_be_paired)


def plan_of(state: GroupState) -> tuple[StagePlan, ...]:
    return group_plan(state, may_play(state))


@dataclass(frozen=True, slots=True)
class StageInfo:
    """A stage of a group as the window and the documents show it."""

    index: int
    title_zh: str
    description_zh: str
    kind: StageKind  # as played
    first_round: int  # 0: not placed yet (an earlier stage's length is still open)
    last_round: int
    entrants: int | None
    begun: bool


def stages_of(db: Database, group: str) -> tuple[StageInfo, ...]:
    with db.session() as s:
        reg = regulations_of(s)
        state = load_group_state(s, group_row(s, group), reg)
    return stage_infos(state)


def stage_infos(state: GroupState) -> tuple[StageInfo, ...]:
    plans = plan_of(state)
    stages = played_stages(state)
    return tuple(
        StageInfo(
            p.index,
            f"第{p.index + 1}阶段 {stages[p.index].title_zh}",
            stages[p.index].describe_zh(),
            stages[p.index].kind,
            p.first_round,
            p.last_round,
            p.entrants,
            state.begun_stage(p.index) is not None,
        )
        for p in plans
    )


def planned_rounds(db: Database, group: str) -> int | None:
    """The group's last round as far as it is known; None while it depends on a stage not begun."""
    with db.session() as s:
        reg = regulations_of(s)
        state = load_group_state(s, group_row(s, group), reg)
    return rounds_known(state)


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


# --------------------------------------------------------------------------- beginning a stage


def begin(
    s: Session,
    g: GroupRow,
    reg: Regulations,
    state: GroupState,
    index: int,
    order: list[int],
    seed: int,
    who: str,
) -> BegunStage:
    """Begin stage ``index`` with its entrants in ``order`` (before seeding): numbers, pools and the
    tiebreak lot drawn with ``seed`` and recorded. Refused when the stage has begun already."""
    if state.begun_stage(index) is not None:
        raise UserError(
            f"{g.name}第{index + 1}阶段已经开始", f"{g.name}: stage {index + 1} has begun already"
        )
    stage = state.format.stages[index]
    kind = StageKind.ROUND_ROBIN if plays_as_round_robin(stage, len(order)) else stage.kind
    if kind is StageKind.ROUND_ROBIN:
        from app.engine.formats import MAX_ROUND_ROBIN

        pools = stage.pools if stage.kind is StageKind.ROUND_ROBIN else 1
        if len(order) > MAX_ROUND_ROBIN * pools:
            raise UserError(
                f"{g.name}第{index + 1}阶段有 {len(order)} 人，每个循环组最多 {MAX_ROUND_ROBIN} 人",
                f"{g.name} stage {index + 1}: {len(order)} players, at most {MAX_ROUND_ROBIN} a table",
            )
        if len(order) < 2 * pools:
            raise UserError(
                f"{g.name}第{index + 1}阶段只有 {len(order)} 人，不够分成 {pools} 个循环组",
                f"{g.name} stage {index + 1}: {len(order)} players cannot make {pools} round-robin tables",
            )
    ratings = {e.no: e.rating for e in state.entrants}
    numbered = seeded(order, stage.seeding, ratings, seed)
    begun = begin_stage(stage, index, numbered, seed, kind)
    row = GroupStage(
        group_id=g.id,
        stage=index,
        kind=kind.value,
        seed=seed,
        started_at=datetime.now().replace(microsecond=0),
    )
    s.add(row)
    s.flush()
    ids = dict(s.execute(select(Player.no, Player.id).where(Player.group_id == g.id)).all())
    for e in begun.entrants:
        s.add(StageEntry(stage_id=row.id, player_id=ids[e.no], pool=e.pool, number=e.number, lot=e.lot))
    s.flush()
    memo = kept(s)
    if memo is not None:
        memo.pop(("group_state", g.id), None)
    audit.record(
        s,
        "begin_stage",
        entity=f"{g.name} 第{index + 1}阶段（{kind.zh}）",
        after={
            "seed": seed,
            "entrants": [e.no for e in begun.entrants],
            "pools": [[e.no for e in pool] for pool in begun.pools()] if len(begun.pools()) > 1 else [],
        },
        who=who,
    )
    return begun


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


def withdrawn_forfeit(state: GroupState, index: int, red: int, black: int) -> GameResult | None:
    """The result a table game gets at once because a player has withdrawn from the round robin and his
    games stand (the rest are forfeits); None for a game to be played."""
    gone = {e.no for e in state.entrants if e.status is not PlayerStatus.ACTIVE or not e.may_be_paired}
    if red in gone and black in gone:
        return GameResult.DOUBLE_FORFEIT
    if red in gone:
        return GameResult.RED_FORFEIT
    if black in gone:
        return GameResult.BLACK_FORFEIT
    del index
    return None


def annulled_in(state: GroupState, reg: Regulations, index: int) -> frozenset[int]:
    """The withdrawn players of a round-robin stage whose games are annulled (their later games are not
    played at all: their opponents rest)."""
    return frozenset(no for t in round_robin_tables(state, reg, index) for no in t.annulled)


def games_of(record: RoundRecord, players: frozenset[int]) -> tuple[Game, ...]:
    return tuple(g for g in record.games if g.red in players and g.black in players)


def round_robin_rests(db: Database, group: str) -> dict[int, frozenset[int]]:
    """Who rests in each round of a round robin (the table's bye: no game, no points), by round."""
    from app.db.models import Round

    with db.session() as s:
        g = group_row(s, group)
        rows = s.execute(select(Round.number, Round.explanation).where(Round.group_id == g.id)).all()
    out: dict[int, frozenset[int]] = {}
    for number, explanation in rows:
        rests = (explanation or {}).get("rests")
        if isinstance(rests, dict) and rests:
            out[number] = frozenset(int(no) for no in rests)
    return out
