"""A group's stages in the file: the plan of its rounds, beginning a stage (its entrants, pools and lots
recorded), the round-robin tables and their rankings (these, with the stage plan, are in
:mod:`app.services.stage_tables`, which imports no SQLAlchemy, and are re-exported here).

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
from app.engine.event import BegunStage, GroupState
from app.engine.formats import StageKind
from app.engine.regulations import Regulations
from app.engine.stages import begin_stage, played_stages, plays_as_round_robin, seeded
from app.engine.types import Game, GameResult, PlayerStatus, RoundRecord, UserError
from app.services import audit
from app.services.stage_tables import POOL_NAMES as POOL_NAMES
from app.services.stage_tables import PoolTable as PoolTable
from app.services.stage_tables import last_round as last_round
from app.services.stage_tables import may_play as may_play
from app.services.stage_tables import plan_of as plan_of
from app.services.stage_tables import pool_name as pool_name
from app.services.stage_tables import pool_order as pool_order
from app.services.stage_tables import round_robin_tables as round_robin_tables
from app.services.stage_tables import rounds_known as rounds_known
from app.services.tournaments import group_row, regulations_of


def new_stage_seed() -> int:
    return random.SystemRandom().randint(1, 999_999)


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
