"""The round-robin documents: 对局秩序表 (every round fixed and printed before the stage starts) and
循环赛成绩表 (the usual square crosstable, one per pool), as read models for PDF, Excel and the hall.

Beginning a round robin ahead of its first round (:func:`begin_round_robin`) fixes the draw — pools,
numbers, the tiebreak lot — so that the order of play can be printed in advance.
"""

from __future__ import annotations

from collections.abc import Callable

from app.db.mapping import load_group_state
from app.db.session import Database
from app.engine.event import BegunStage, GroupState
from app.engine.formats import Stage, StageKind, default_chain
from app.engine.regulations import Points
from app.engine.round_robin import schedule
from app.engine.types import Colour, GameResult, PlayerStatus, UserError
from app.reports import model
from app.services import audit
from app.services.stages import PoolTable, begin, new_stage_seed, plan_of, pool_name, round_robin_tables
from app.services.tournaments import group_row, regulations_of, tournament_info


def _round_robin_stage(state: GroupState, *, begun: bool = True) -> int:
    """The group's round-robin stage the documents are of: the latest begun one (or, with ``begun``
    False, the first one not begun yet)."""
    if begun:
        found = [b.index for b in state.begun if b.kind is StageKind.ROUND_ROBIN]
        if found:
            return found[-1]
        raise UserError(
            f"{state.name}还没有开始的循环赛：请先确定循环赛的抽签号（或编排其第一轮）",
            f"{state.name} has no round robin under way: draw its numbers (or pair its first round) first",
        )
    from app.engine.stages import plays_as_round_robin

    for p in plan_of(state):
        st = state.format.stages[p.index]
        if state.begun_stage(p.index) is None and (
            st.kind is StageKind.ROUND_ROBIN
            or (st.round_robin_up_to and plays_as_round_robin(st, p.entrants or 0))
        ):
            return p.index
    raise UserError(f"{state.name}没有待开始的循环赛阶段", f"{state.name} has no round robin to begin")


def begin_round_robin(
    db: Database, group: str, *, seed: int | None = None, who: str = audit.DEFAULT_ARBITER
) -> BegunStage:
    """Begin the group's next round-robin stage now (before pairing its first round): its entrants,
    pools, table numbers and tiebreak lot drawn with a recorded seed, so that 对局秩序表 can be printed.
    Refused while the stage before it is not over."""
    from app.services.standings import complete_through, stage_entry_order

    used = new_stage_seed() if seed is None else seed
    with db.session() as s:
        reg = regulations_of(s)
        g = group_row(s, group)
        state = load_group_state(s, g, reg)
        index = _round_robin_stage(state, begun=False)
        plan = plan_of(state)[index]
        if plan.first_round > 1 and complete_through(state.rounds) < plan.first_round - 1:
            raise UserError(
                f"{group}第 {plan.first_round - 1} 轮尚未全部结束，还不能确定下一阶段的参赛者",
                f"{group}: round {plan.first_round - 1} is not complete; the next stage's entrants are not known",
            )
        unnumbered = [p.name for p in g.players if p.no is None and p.status == PlayerStatus.ACTIVE.value]
        if unnumbered:
            raise UserError(
                f"{group}还有 {len(unnumbered)} 名棋手没有序号（如 {unnumbered[0]}），请先抽签",
                f"{group}: {len(unnumbered)} players have no sequence number yet; draw the numbers first",
            )
        order = stage_entry_order(s, g, reg, state, index)
        return begin(s, g, reg, state, index, order, used, who)


def _label(no: int, names: dict[int, str], number: int) -> str:
    return f"{number} {names.get(no, str(no))}"


HeaderOf = Callable[[int | None, str], model.EventHeader]  # (round, label) → the page header


def round_robin_schedule(db: Database, group: str, header: HeaderOf) -> model.RoundRobinSchedule:
    """对局秩序表 of the group's round robin (its latest begun one); ``header`` makes the page header."""
    with db.session() as s:
        state = load_group_state(s, group_row(s, group), regulations_of(s))
    index = _round_robin_stage(state)
    begun = state.begun_stage(index)
    assert begun is not None
    plan = plan_of(state)[index]
    stage = state.format.stages[index]
    cycles = stage.cycles if stage.kind is StageKind.ROUND_ROBIN else 1
    swap = stage.kind is StageKind.ROUND_ROBIN and stage.swap_last_rounds
    entrant = {e.no: e for e in state.entrants}
    pools = []
    for p, members in enumerate(begun.pools()):
        by_number = {e.number: e.no for e in members}
        names = {e.no: entrant[e.no].name for e in members}
        rounds = []
        for r in schedule(len(members), cycles, swap):
            pairs = tuple(
                (_label(by_number[a], names, a), _label(by_number[b], names, b)) for a, b in r.pairs
            )
            rest = "" if r.bye is None else _label(by_number[r.bye], names, r.bye)
            rounds.append(model.ScheduleRound(plan.first_round + r.number - 1, r.number, pairs, rest))
        numbers = tuple(
            (
                e.number,
                f"{e.no}号 {entrant[e.no].name}"
                + (f"（{entrant[e.no].unit}）" if entrant[e.no].unit else ""),
            )
            for e in members
        )
        pools.append(
            model.SchedulePool(pool_name(p) if len(begun.pools()) > 1 else "", numbers, tuple(rounds))
        )
    rounds_text = f"第{plan.first_round}—{plan.last_round}轮"
    note = (
        "每对中前一号执红先走。"
        + ("第二循环先后手互换。" if cycles > 1 else "")
        + ("第一循环最后两轮按国际棋联 C.05 建议互换次序（避免连续三局同色）。" if swap else "")
        + (f"抽签种子 {begun.seed}。" if begun.seed is not None else "")
    )
    return model.RoundRobinSchedule(header(None, f"循环赛（{rounds_text}）"), tuple(pools), note)


def _cell(
    state: GroupState, table: PoolTable, row: int, col: int, cycles: int, per_cycle: int, points: Points
) -> str:
    """The points ``row`` scored against ``col``, one value per cycle (``+``/``−`` a forfeit won/lost,
    ``×`` a game annulled by a withdrawal, empty while not played)."""
    if row == col:
        return "—"
    texts: list[str] = []
    for cycle in range(1, cycles + 1):
        found = ""
        for r in state.scored_rounds:
            stage_round = r.number - table.first_round + 1
            if not (cycle - 1) * per_cycle < stage_round <= cycle * per_cycle:
                continue
            for g in r.games:
                if {g.red, g.black} == {row, col}:
                    colour = Colour.RED if g.red == row else Colour.BLACK
                    found = _points_text(g.result, colour, row, col, table, points)
        texts.append(found)
    return " ".join(texts).strip()


def _points_text(
    result: GameResult, colour: Colour, row: int, col: int, table: PoolTable, points: Points
) -> str:
    if row in table.annulled or col in table.annulled:
        return "×"
    if result is GameResult.PENDING:
        return ""
    if result is GameResult.DOUBLE_FORFEIT:
        return "双弃"
    if result.is_forfeit:
        return "+" if result.winner() is colour else "−"
    red, black = points.for_result(result)
    return str(red if colour is Colour.RED else black)


def round_robin_table(
    db: Database, group: str, header: HeaderOf, after_round: int | None = None
) -> model.RoundRobinTable:
    """循环赛成绩表 (after a round of the group; default: every round played): one square table per pool —
    the points each player scored against each other (one value per cycle), 积分, the stage's
    tiebreaks and the place in the pool."""
    reg = tournament_info(db).regulations
    with db.session() as s:
        state = load_group_state(s, group_row(s, group), reg)
    index = _round_robin_stage(state)
    tables = round_robin_tables(state, reg, index, after_round)
    stage = state.format.stages[index]
    cycles = stage.cycles if stage.kind is StageKind.ROUND_ROBIN else 1
    played_as = (
        stage
        if stage.kind is StageKind.ROUND_ROBIN
        else Stage(StageKind.ROUND_ROBIN, tiebreaks=stage.tiebreaks)
    )
    chain = tuple(t for t in default_chain(played_as, reg.tiebreaks.chain) if not t.expands)
    entrant = {e.no: e for e in state.entrants}
    pools = []
    for t in tables:
        by_number = {number: no for no, number in t.numbers.items()}
        per_cycle = len(t.numbers) if len(t.numbers) % 2 else len(t.numbers) - 1
        places = {r.no: r.rank for r in t.standings.rows}
        values = {r.no: r.tiebreak_values() for r in t.standings.rows}
        scores = {r.no: r.score for r in t.standings.rows}
        rows = []
        for number in sorted(by_number):
            no = by_number[number]
            e = entrant[no]
            cells = tuple(
                _cell(state, t, no, by_number[k], cycles, per_cycle, reg.points) for k in sorted(by_number)
            )
            note = (
                "退赛，成绩取消"
                if no in t.annulled
                else ("退赛" if e.status is PlayerStatus.WITHDRAWN else "")
            )
            if e.status is PlayerStatus.DISQUALIFIED:
                note = "取消资格"
            rows.append(
                model.RoundRobinRow(
                    number,
                    no,
                    e.name,
                    e.unit or e.team or "",
                    cells,
                    scores.get(no, 0),
                    tuple((tb.zh, values.get(no, {}).get(tb.value, "")) for tb in chain),
                    places.get(no),
                    note,
                )
            )
        pools.append(model.RoundRobinPool(t.name if len(tables) > 1 else "", tuple(rows)))
    plan = plan_of(state)[index]
    last = plan.last_round if after_round is None else min(after_round, plan.last_round)
    done = max((r.number for r in state.rounds if plan.first_round <= r.number <= last), default=0)
    label = f"第{done}轮后" if done else "赛前"
    return model.RoundRobinTable(
        header(done or None, label), tuple(pools), cycles, tuple(t.zh for t in chain)
    )
