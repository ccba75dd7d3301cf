"""Rounds: reading a round's pairings as the arbiter sees them, closing a round.

Pairing a round (``pair_next_round``), unpairing and manual overrides live here too.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session

from app.db.mapping import load_group_state, load_running_scores, read_group_state
from app.db.models import Bye, GameRow, Group, KnockoutMatch, Player, Round
from app.db.session import Database, kept
from app.engine.event import Entrant, GroupState
from app.engine.formats import Entrants, StageKind, StagePlan, source_stage
from app.engine.pairing import Pairing, pair_round
from app.engine.regulations import Regulations, RoundOnePairing, ScoreGroupOrder
from app.engine.text import count_en
from app.engine.types import AbsenceKind, GameResult, PlayerStatus, RoundStage, UserError
from app.services import audit
from app.services.backups import automatic_backup
from app.services.brackets import knockout_players
from app.services.constraints import constraints_in_round
from app.services.pairing_plan import (
    PairingOutcome,
    adjacent_colours,
    audit_after,
    explanation_of,
    forfeit_streaks,
    new_pairing_seed,
    next_swiss_round,
    pool_for,
    round_one_keys,
    round_to_pair,
)
from app.services.results import round_row
from app.services.tournaments import group_row, player_numbers, regulations_of


@dataclass(frozen=True, slots=True)
class Seat:
    """A player at a board: number, name, unit and score before the round."""

    no: int
    name: str
    unit: str
    score: int


@dataclass(frozen=True, slots=True)
class BoardLine:
    """A board of the round: a Swiss game, or the current game of a knockout match."""

    board: int
    red: Seat
    black: Seat
    result: GameResult
    match: str | None = None  # knockout match code (QF1, SF2, F …) or None for a Swiss game
    game_no: int = 1  # game within the knockout match
    kind: str = "swiss"  # swiss / slow / rapid / deciding


@dataclass(frozen=True, slots=True)
class RoundView:
    group: str
    number: int
    stage: RoundStage
    boards: tuple[BoardLine, ...]
    byes: tuple[Seat, ...]
    closed: bool
    excused: tuple[Seat, ...] = ()  # 请假: excused from this round (not paired, 0 points)

    @property
    def pending_boards(self) -> tuple[int, ...]:
        return tuple(b.board for b in self.boards if b.result is GameResult.PENDING)


@dataclass(frozen=True, slots=True)
class RoundSummary:
    number: int
    stage: RoundStage
    boards: int
    pending: int
    closed: bool
    #: a knockout round whose continuing Swiss (the players outside the knockout) is not paired yet:
    #: the round is not complete even when every knockout game has its result
    swiss_due: bool = False


def group_state(db: Database, group: str) -> GroupState:
    with db.session() as s:
        return load_group_state(s, group_row(s, group), regulations_of(s))


def _seat(e: Entrant, score: dict[int, int]) -> Seat:
    return Seat(e.no, e.name, e.unit, score.get(e.no, 0))


# The reads of the round views, built once (the values bound per call; the same SQL as built per call).
_RESTS = select(
    func.json_type(Round.explanation, "$.rests"), func.json_extract(Round.explanation, "$.rests")
).where(Round.id == bindparam("round_id"))
_KNOCKOUT_GAMES = select(GameRow).where(
    GameRow.round_id == bindparam("round_id"), GameRow.match_id.is_not(None)
)
_CODES = select(KnockoutMatch.id, KnockoutMatch.code).where(KnockoutMatch.group_id == bindparam("group_id"))
_ROUND_SUMMARIES = (
    select(
        Round.id,
        Round.number,
        Round.stage,
        func.count(GameRow.id),
        func.count(GameRow.id).filter(GameRow.result == GameResult.PENDING.value),
        func.count(GameRow.id).filter(GameRow.match_id.is_(None)),
        Round.closed_at,
    )
    .outerjoin(GameRow, GameRow.round_id == Round.id)
    .where(Round.group_id == bindparam("group_id"))
    .group_by(Round.id)
    .order_by(Round.number)
)


def round_view(db: Database, group: str, number: int) -> RoundView:
    with db.session() as s:
        reg = regulations_of(s)
        g = group_row(s, group)
        state = load_group_state(s, g, reg)
        rnd = round_row(s, g, number, explanation=False)
        stage, closed = RoundStage(rnd.stage), rnd.closed_at is not None
        # the rests only, not the whole explanation (SQLite reads it without parsing it here); a snapshot
        # keeps the explanation as given, so anything but an object there reads as no rest
        rests_type, rests_json = s.execute(_RESTS, {"round_id": rnd.id}).one()
        rests_seen = json.loads(rests_json) if rests_type == "object" else {}
        rests = [int(no) for no in _json_object(rests_seen) if str(no).isdecimal()]
        no_of, codes = _numbers_and_codes(s, g)
        latest: dict[int, GameRow] = {}
        # the knockout games only (the Swiss ones come from the group's state, already read)
        ko_games = s.scalars(_KNOCKOUT_GAMES, {"round_id": rnd.id})
        for gm in ko_games:
            if gm.match_id is not None and (gm.board not in latest or gm.game_no > latest[gm.board].game_no):
                latest[gm.board] = gm
        knockout = [
            (
                gm.board,
                no_of[gm.red_id],
                no_of[gm.black_id],
                GameResult(gm.result),
                codes[gm.match_id],
                gm.game_no,
                gm.kind,
            )
            for gm in sorted(latest.values(), key=lambda x: x.board)
            if gm.match_id is not None
        ]
        before = load_running_scores(s, g, reg, number - 1, state=state).after(number - 1)
    record = next(r for r in state.rounds if r.number == number)
    by_no = {e.no: e for e in state.entrants}
    return RoundView(
        group=group,
        number=number,
        stage=stage,
        boards=tuple(
            BoardLine(b, _seat(by_no[red], before), _seat(by_no[black], before), res, code, game_no, kind)
            for b, red, black, res, code, game_no, kind in knockout
        )
        + tuple(
            BoardLine(gm.board, _seat(by_no[gm.red], before), _seat(by_no[gm.black], before), gm.result)
            for gm in record.games
        ),
        byes=tuple(_seat(by_no[no], before) for no in (*record.byes, *sorted(rests)) if no in by_no),
        closed=closed,
        excused=tuple(_seat(by_no[a.no], before) for a in record.absent if a.kind is AbsenceKind.EXCUSED),
    )


def _numbers_and_codes(s: Session, g: Group) -> tuple[dict[int, int], dict[int, str]]:
    """The group's player id → sequence number (a game's players are numbered) and knockout match id →
    code; read once inside :meth:`Database.one_reading` (a workbook's every round asks)."""
    memo = kept(s)
    key = ("numbers_and_codes", g.id)
    if memo is not None and key in memo:
        found: tuple[dict[int, int], dict[int, str]] = memo[key]
        return found
    no_of = player_numbers(s, g)
    codes = dict(s.execute(_CODES, {"group_id": g.id}).all())
    if memo is not None:
        memo[key] = (no_of, codes)
    return no_of, codes


def rounds_of(db: Database, group: str) -> list[RoundSummary]:
    with db.session() as s:
        g = group_row(s, group)
        rows = s.execute(_ROUND_SUMMARIES, {"group_id": g.id}).all()
        # a knockout round without Swiss games: is its continuing Swiss still to be paired?
        bare = [
            (rid, number)
            for rid, number, stage, _b, _p, swiss, closed in rows
            if stage == RoundStage.KNOCKOUT.value and not swiss and closed is None
        ]
        due = _swiss_due(s, g, bare) if bare else set()
        return [
            RoundSummary(number, RoundStage(stage), boards, waiting, closed is not None, number in due)
            for _rid, number, stage, boards, waiting, _swiss, closed in rows
        ]


def _swiss_due(s: Session, g: Group, rounds: list[tuple[int, int]]) -> set[int]:
    """Which of these knockout rounds (id, number) still wait for their continuing Swiss pairing."""
    with_byes = set(s.scalars(select(Bye.round_id).where(Bye.round_id.in_([rid for rid, _ in rounds]))))
    reg = regulations_of(s)
    fmt = reg.group(g.name)
    ko = knockout_players(s, g, reg)
    if ko is None:
        return set()
    state = load_group_state(s, g, reg)
    following = next_swiss_round(state)
    due = set()
    for rid, number in rounds:
        if rid in with_byes or number != following or number > fmt.rounds:
            continue
        left_out = set(ko.players) | state.excused_in(number)
        if any(e.may_be_paired and e.no not in left_out for e in state.entrants):
            due.add(number)
    return due


def close_round(db: Database, group: str, number: int, *, who: str = audit.DEFAULT_ARBITER) -> str:
    """Close a round once every result is in (record-duty refusals are confirmed separately).

    Returns a warning when the automatic backup after closing failed ("" when it worked).
    """
    with db.session() as s:
        g = group_row(s, group)
        rnd = round_row(s, g, number)
        pending = sorted(gm.board for gm in rnd.games if gm.result == GameResult.PENDING.value)
        if pending:
            raise UserError(
                f"第 {number} 轮还有 {len(pending)} 台未录入成绩：{'、'.join(map(str, pending))}",
                f"round {number} still has {count_en(len(pending), 'board')} without a result: {', '.join(map(str, pending))}",
            )
        if rnd.closed_at is not None:
            return ""
        rnd.closed_at = datetime.now().replace(microsecond=0)
        audit.record(s, "close_round", entity=f"{group} 第{number}轮", who=who)
    return automatic_backup(db, f"closed-{group}-r{number}")


# --------------------------------------------------------------------------- pairing


# the names of the group's active players still without a number, in the order the group's players are
# read (by id): two columns of those few, not every player's row
_UNNUMBERED = (
    select(Player.name)
    .where(
        Player.group_id == bindparam("group_id"),
        Player.no.is_(None),
        Player.status == PlayerStatus.ACTIVE.value,
    )
    .order_by(Player.id)
)


def pair_next_round(
    db: Database, group: str, *, seed: int | None = None, who: str = audit.DEFAULT_ARBITER
) -> PairingOutcome:
    """Pair the group's next round and store it (docs/rules.md §5; the stages of :mod:`app.engine.formats`).

    The round's Swiss stages are paired by the pairing engine, its round-robin stages take their games
    from the table (the stage begins — pools, numbers and the tiebreak lot drawn — when its first round
    is paired); a round with only a knockout in it draws the lots its matches wait for (the knockout is
    created first when it has not been). Refused while the previous round has boards without a result
    (they are listed), before the numbers are drawn, past the last round, and while a stage of the rest
    waits for the knockout of the top players. Players who forfeited the set number of rounds in a row
    are withdrawn first (logged). The other stages' boards come after the knockout boards.
    """
    used_seed = new_pairing_seed() if seed is None else seed
    with db.session() as s:
        reg = regulations_of(s)
        if reg.group(group).team_event is not None:
            raise UserError(
                f"{group}是团体赛：请用团体编排（xqarbiter team-pair）",
                f"{group} is a team competition: pair it with team-pair",
            )
        g = group_row(s, group)
        state = load_group_state(s, g, reg)
        number = next_swiss_round(state)
        plans = stage_plans(state)
        now = [p for p in plans if p.covers(number)]
        if not now:
            total = rounds_known(state) or number - 1
            raise UserError(f"{group}共 {total} 轮，已全部编排", f"{group} has only {total} rounds")
        knockout_round = all(p.stage.kind is StageKind.KNOCKOUT for p in now)
        unnumbered = list(s.scalars(_UNNUMBERED, {"group_id": g.id}))
        round_to_pair(group, state, reg.group(group), unnumbered)  # the previous round done, numbers drawn
    if knockout_round:
        from app.services.knockout import pair_knockout_round

        return pair_knockout_round(db, group, seed=seed, who=who)
    with db.session() as s:
        reg = regulations_of(s)
        g = group_row(s, group)
        state = load_group_state(s, g, reg)
        withdrawn = _withdraw_consecutive_forfeits(s, g, state, reg, who)
        if withdrawn:
            state = read_group_state(s, g, reg)
        begun_now = _begin_point_stages(s, g, reg, state, number, used_seed, who)
        if begun_now:
            state = read_group_state(s, g, reg)
        plans = stage_plans(state)
        point = [p for p in plans if p.covers(number) and p.stage.kind is not StageKind.KNOCKOUT]
        knockout_now = any(p.covers(number) and p.stage.kind is StageKind.KNOCKOUT for p in plans)
        offset = _knockout_boards(s, g, number)
        ids = {no: pid for pid, no in player_numbers(s, g).items()}
        rnd = s.scalars(select(Round).where(Round.group_id == g.id, Round.number == number)).one_or_none()
        if rnd is None:
            if knockout_now:
                stage = RoundStage.KNOCKOUT
            elif any(p.stage.kind is StageKind.ROUND_ROBIN for p in point):
                stage = RoundStage.ROUND_ROBIN
            else:
                stage = RoundStage.SWISS
            rnd = Round(
                group_id=g.id,
                number=number,
                stage=stage.value,
                paired_at=datetime.now().replace(microsecond=0),
            )
            s.add(rnd)
            s.flush()
        rnd.seed = used_seed
        board = offset
        explanation: dict[str, Any] = {"games": {}, "bye": None}
        bye: int | None = None
        after: dict[str, Any] = {"seed": used_seed, "boards": 0, "bye": None}
        for p in point:
            if p.stage.kind is StageKind.ROUND_ROBIN:
                games, rests = _round_robin_games(state, reg, p, number)
                explanation.setdefault("rests", {}).update(
                    {str(no): {"zh": zh, "en": en} for no, (zh, en) in rests.items()}
                )
                for red, black, result, text_zh, text_en in games:
                    board += 1
                    s.add(
                        GameRow(
                            round_id=rnd.id,
                            board=board,
                            red_id=ids[red],
                            black_id=ids[black],
                            result=result.value,
                            kind="swiss",
                        )
                    )
                    explanation["games"][str(board)] = {
                        "red": red,
                        "black": black,
                        "zh": text_zh,
                        "en": text_en,
                        "colour": "table",
                    }
                after["boards"] += len(games)
                continue
            pairing = _pair_swiss_stage(s, g, reg, state, p, number, set(withdrawn), used_seed)
            part = explanation_of(pairing, board)
            explanation["games"].update(part["games"])
            if part["bye"] is not None:
                explanation["bye"] = part["bye"]
            for pg in pairing.games:
                s.add(
                    GameRow(
                        round_id=rnd.id,
                        board=pg.board + board,
                        red_id=ids[pg.red],
                        black_id=ids[pg.black],
                        result=GameResult.PENDING.value,
                        kind="swiss",
                    )
                )
            board += len(pairing.games)
            if pairing.bye is not None:
                bye = pairing.bye
                s.add(Bye(round_id=rnd.id, player_id=ids[pairing.bye]))
            after = {**audit_after(pairing, used_seed), "boards": after["boards"] + len(pairing.games)}
        rnd.explanation = explanation
        audit.record(s, "pair_round", entity=f"{group} 第{number}轮", after=after, who=who)
    warning = automatic_backup(db, f"paired-{group}-r{number}")
    return PairingOutcome(group, number, board, bye, used_seed, withdrawn, warning, offset)


def stage_plans(state: GroupState) -> tuple[StagePlan, ...]:
    from app.services.stages import plan_of

    return plan_of(state)


def rounds_known(state: GroupState) -> int | None:
    from app.services.stages import rounds_known as known

    return known(state)


def _begin_point_stages(
    s: Session, g: Group, reg: Regulations, state: GroupState, number: int, seed: int, who: str
) -> bool:
    """Begin the round's round-robin stages (and Swiss stages of the top players) that have not begun;
    a Swiss stage of the rest waits for the stage that took the top."""
    from app.engine.stages import plays_as_round_robin
    from app.services.stages import begin
    from app.services.standings import stage_entry_order

    stages = state.format.stages
    begun_any = False
    for p in stage_plans(state):
        if not p.covers(number) or p.first_round != number or state.begun_stage(p.index) is not None:
            continue
        stage = stages[p.index]
        if stage.kind is StageKind.KNOCKOUT:
            continue
        if stage.entrants is Entrants.REST:
            waiting = [
                j
                for j, st in enumerate(stages)
                if st.entrants is Entrants.TOP
                and source_stage(stages, j) == source_stage(stages, p.index)
                and state.begun_stage(j) is None
            ]
            if waiting:
                kind = stages[waiting[0]].kind
                if kind is StageKind.KNOCKOUT and knockout_players(s, g, reg) is None:
                    raise UserError(
                        f"{g.name}前 {p.first_round - 1} 轮已结束，请先产生淘汰赛对阵，再编排其余棋手",
                        f"{g.name}: create the knockout bracket before pairing the continuing Swiss",
                    )
            if not stage.count:
                continue  # the rest is what the other stages left: never recorded
        order = stage_entry_order(s, g, reg, state, p.index)
        swiss = stage.kind is StageKind.SWISS and not plays_as_round_robin(stage, len(order))
        if swiss and stage.entrants is Entrants.ALL:
            continue  # a Swiss of everyone: the pool is whoever may play in each round
        begin(s, g, reg, state, p.index, order, seed, who)
        state = read_group_state(s, g, reg)
        begun_any = True
    return begun_any


def _round_robin_games(
    state: GroupState, reg: Regulations, plan: StagePlan, number: int
) -> tuple[list[tuple[int, int, GameResult, str, str]], dict[int, tuple[str, str]]]:
    """The round's games from the round-robin table: (red, black, result, why zh, why en), and who rests
    (轮空 in a round robin: no game, no points) with why. A game against a player who withdrew is a
    forfeit at once when his games stand; not played at all when they are annulled (the opponent
    rests)."""
    from app.engine.stages import round_robin_round
    from app.services.stages import annulled_in, pool_name, withdrawn_forfeit

    begun = state.begun_stage(plan.index)
    assert begun is not None
    stage_round = number - plan.first_round + 1
    games, table_rests = round_robin_round(begun, state.format.stages[plan.index], stage_round)
    annulled = annulled_in(state, reg, plan.index)
    pools = len(begun.pools())
    out = []
    rests: dict[int, tuple[str, str]] = {}
    for no in table_rests:
        if no not in annulled:
            rests[no] = (
                f"循环赛对局秩序表第 {stage_round} 轮：{begun.entrant(no).number} 号轮空（不计分）",
                f"round-robin table, round {stage_round}: no. {begun.entrant(no).number} rests (no points)",
            )
    for game in games:
        if game.red in annulled or game.black in annulled:
            for no in (game.red, game.black):
                if no not in annulled:
                    rests[no] = (
                        f"第 {stage_round} 轮对手已退赛（成绩取消），本轮轮空（不计分）",
                        f"round {stage_round}: the opponent withdrew (games annulled): a rest, no points",
                    )
            continue
        result = withdrawn_forfeit(state, plan.index, game.red, game.black) or GameResult.PENDING
        where = f"{pool_name(game.pool)}" if pools > 1 else ""
        red_n, black_n = begun.entrant(game.red).number, begun.entrant(game.black).number
        zh = f"{where}循环赛对局秩序表第 {stage_round} 轮：{red_n} 号（红）对 {black_n} 号（黑）"
        en = (
            f"{'pool ' + where[0] + ', ' if pools > 1 else ''}round-robin table, round {stage_round}: "
            f"no. {red_n} (Red) v no. {black_n} (Black)"
        )
        out.append((game.red, game.black, result, zh, en))
    return out, rests


def _pair_swiss_stage(
    s: Session,
    g: Group,
    reg: Regulations,
    state: GroupState,
    plan: StagePlan,
    number: int,
    withdrawn: set[int],
    seed: int,
) -> Pairing:
    """Pair the players of one Swiss stage for the round (the others play other stages)."""
    from app.services.standings import stage_players_of

    players = stage_players_of(s, g, reg, state, plan.index)
    others = {e.no for e in state.entrants} - set(players)
    rank_keys: dict[int, tuple[int, ...]] | None = None
    if reg.pairing.score_group_order is ScoreGroupOrder.TIEBREAKS and number > 1:
        from app.services.standings import ranking_after

        order = ranking_after(s, g, reg, number - 1)
        rank_keys = {no: (i,) for i, no in enumerate(order)}
    first = number == 1 and reg.pairing.round_one is not RoundOnePairing.HALVES
    if first:  # round 1 by lot or by neighbours: the order that makes the engine's natural pairs those
        pool = pool_for(state, reg, number, others | withdrawn, None)
        numbers = sorted(p.no for p in pool)  # sequence numbers (drawn by rating first where so set)
        rank_keys = round_one_keys(numbers, reg.pairing.round_one, seed)
    pool = pool_for(state, reg, number, others | withdrawn, rank_keys)  # less the excused (请假)
    constraints = constraints_in_round(s, g, reg, number)  # 同单位 / 同地区 / 指定回避
    rules = reg.pairing
    if first:  # the order just made is the one inside the (only) score group
        rules = dataclasses.replace(rules, score_group_order=ScoreGroupOrder.TIEBREAKS)
    pairing = pair_round(pool, number, rules, seed, constraints)
    if first and reg.pairing.round_one is RoundOnePairing.ADJACENT:
        pairing = adjacent_colours(pairing)
    return pairing


def _knockout_boards(s: Session, g: Group, number: int) -> int:
    """How many boards the knockout uses in this round (the Swiss boards come after them)."""
    return len(
        list(
            s.scalars(
                select(KnockoutMatch.id).where(
                    KnockoutMatch.group_id == g.id, KnockoutMatch.round_number == number
                )
            )
        )
    )


def _withdraw_consecutive_forfeits(
    s: Session, g: Group, state: GroupState, reg: Regulations, who: str
) -> tuple[int, ...]:
    """连续弃权: players who forfeited the set number of rounds in a row are not paired again."""
    out = []
    for streak in forfeit_streaks(state, reg):
        p = next(p for p in g.players if p.no == streak.no)
        p.status, p.status_round = PlayerStatus.WITHDRAWN.value, next_swiss_round(state)
        audit.record(
            s,
            "withdraw_consecutive_forfeits",
            entity=f"{g.name} {p.no}号 {p.name}",
            before="active",
            after="withdrawn",
            reason=f"连续 {reg.discipline.consecutive_forfeits_withdraw} 轮弃权",
            who=who,
        )
        out.append(streak.no)
    return tuple(out)


def unpair_round(db: Database, group: str, number: int, *, who: str = audit.DEFAULT_ARBITER) -> None:
    """Delete a round's Swiss pairing, only while none of its results is entered."""
    with db.session() as s:
        g = group_row(s, group)
        rnd = round_row(s, g, number)
        later = s.scalars(select(Round.id).where(Round.group_id == g.id, Round.number > number)).first()
        swiss = [gm for gm in rnd.games if gm.kind == "swiss"]
        if later is not None and any(
            r.games for r in s.scalars(select(Round).where(Round.group_id == g.id, Round.number > number))
        ):
            raise UserError(
                f"第 {number} 轮之后已有编排，不能撤销", f"rounds after {number} exist; it cannot be unpaired"
            )
        entered = sorted(gm.board for gm in swiss if gm.result != GameResult.PENDING.value)
        if entered:
            raise UserError(
                f"第 {number} 轮已录入成绩（第 {'、'.join(map(str, entered))} 台），不能撤销编排",
                f"round {number} has results (boards {', '.join(map(str, entered))}); it cannot be unpaired",
            )
        if not swiss and not rnd.byes:
            raise UserError(f"第 {number} 轮没有积分编排的对局", f"round {number} has no Swiss pairing")
        if any(gm.kind != "swiss" for gm in rnd.games):  # knockout games stay in the round
            for gm in swiss:
                rnd.games.remove(gm)
            rnd.byes.clear()
            rnd.explanation = None
        else:
            s.delete(rnd)  # its games and byes go with it
        audit.record(
            s, "unpair_round", entity=f"{group} 第{number}轮", before={"boards": len(swiss)}, who=who
        )


def pairing_explanation(db: Database, group: str, number: int, no: int, english: bool = False) -> str:
    """Why this player got this opponent and colour (or the bye), as the engine explained it.

    Boards the arbiter changed by hand say so instead of repeating the engine's reasons.
    ``english``: the English text where the engine stored one (rounds paired before it had
    English fall back to the Chinese).
    """
    with db.session() as s:
        g = group_row(s, group)
        rnd = round_row(s, g, number)
        data = dict(rnd.explanation or {})
        ids = {p.id: p.no for p in g.players}
        board = next(
            (gm.board for gm in rnd.games if gm.kind == "swiss" and no in (ids[gm.red_id], ids[gm.black_id])),
            None,
        )
        has_bye = any(ids[b.player_id] == no for b in rnd.byes)
    overridden = data.get("overridden")
    if board is not None and isinstance(overridden, list) and board in overridden:
        if english:
            return f"Board {board}: changed by hand by the arbiter (see the audit log)"
        return f"第 {board} 台：本台由裁判手工调整编排（见审计日志）"
    item = _json_object(data.get("games")).get(str(board)) if board is not None else None
    if isinstance(item, dict):
        if english and item.get("en"):
            return f"Board {board}: {item['en']}"
        return f"第 {board} 台：{item.get('zh', '')}"
    rest = _json_object(data.get("rests")).get(str(no))
    if isinstance(rest, dict):
        return str(rest.get("en") or rest.get("zh", "")) if english else str(rest.get("zh", ""))
    bye = data.get("bye")
    if has_bye and isinstance(bye, dict) and bye.get("player") == no:
        return str(bye.get("en") or bye.get("zh", "")) if english else str(bye.get("zh", ""))
    if has_bye:
        return (
            "Bye set by hand by the arbiter (see the audit log)"
            if english
            else "本轮轮空：由裁判手工调整（见审计日志）"
        )
    absent = _absence_of(db, group, number, no, english)
    if absent:
        return absent
    raise UserError(
        f"第 {number} 轮没有 {no} 号的编排说明", f"round {number} has no explanation for player {no}"
    )


def _json_object(value: object) -> dict[str, object]:
    """A part of a round's stored explanation that the program writes as a JSON object; a snapshot keeps
    the explanation as given, so anything else there reads as empty."""
    return value if isinstance(value, dict) else {}


def _absence_of(db: Database, group: str, number: int, no: int, english: bool = False) -> str:
    """Why a player without a board has none: excused (请假) or not yet entered (后报名); "" otherwise."""
    state = group_state(db, group)
    record = next((r for r in state.rounds if r.number == number), None)
    for a in () if record is None else record.absent:
        if a.no == no:
            if english:
                what_en = (
                    "excused by the chief arbiter"
                    if a.kind is AbsenceKind.EXCUSED
                    else "not yet entered (late entry)"
                )
                return f"Round {number}: {what_en}, not paired; {a.points} points for the round"
            what = "请假（经裁判长准许）" if a.kind is AbsenceKind.EXCUSED else "尚未报名（后报名）"
            return f"第 {number} 轮{what}，未参加编排，本轮计 {a.points} 分"
    return ""
