"""The stored knockout bracket: reading a group's bracket rows into the engine's ``Bracket`` and writing
it back whole, and what the rest of the services ask of it (who left the Swiss pool at the split, the
places once the knockout is over).

Kept apart from :mod:`app.services.knockout` (the arbiter's knockout actions) so that the ranking
(:mod:`app.services.standings`, which owns every standing, including the one the seeds come from) and
the knockout can both read the bracket without importing each other: the knockout asks the standings
for the seeds; the standings ask this module, never the knockout service.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db.models import GameRow, Group, GroupStage, KnockoutMatch, Player, Round, StageEntry
from app.db.session import kept
from app.engine.formats import Stage, StageKind, plan_stages
from app.engine.knockout import (
    Bracket,
    ColourMethod,
    ColourState,
    GameKind,
    KnockoutGame,
    Match,
    create_bracket,
    final_places,
    match_result,
    next_game,
    restore_bracket,
)
from app.engine.regulations import Regulations
from app.engine.types import GameResult, RoundStage, UserError


def _ids(s: Session, group: Group) -> tuple[dict[int, int], dict[int, int]]:
    # two columns, not the players' rows (5,000 ORM objects to read two numbers)
    players = s.execute(select(Player.id, Player.no).where(Player.group_id == group.id)).all()
    return {pid: no for pid, no in players if no is not None}, {
        no: pid for pid, no in players if no is not None
    }


def rows_of(s: Session, group: Group) -> list[KnockoutMatch]:
    return list(
        s.scalars(select(KnockoutMatch).where(KnockoutMatch.group_id == group.id).order_by(KnockoutMatch.id))
    )


def load_bracket(s: Session, group: Group, reg: Regulations) -> Bracket | None:
    """The group's bracket as the engine sees it, or None before the split (read once inside
    :meth:`Database.one_reading`)."""
    memo = kept(s)
    if memo is None:
        return _read_bracket(s, group, reg)
    key = ("bracket", group.id)
    if key not in memo:
        memo[key] = _read_bracket(s, group, reg)
    bracket: Bracket | None = memo[key]
    return bracket


def knockout_stage(reg: Regulations, group: str) -> int | None:
    """The index of the group's knockout stage (a group has at most one), or None."""
    fmt = reg.group(group)
    return next((i for i, st in enumerate(fmt.stages) if st.kind is StageKind.KNOCKOUT), None)


def bracket_options(reg: Regulations, group: str) -> dict[str, Any]:
    """The keyword arguments of :func:`app.engine.knockout.create_bracket` for the group's knockout stage."""
    index = knockout_stage(reg, group)
    if index is None:
        return {}
    stage = reg.group(group).stages[index]
    return {
        "elimination": stage.elimination,
        "placement": stage.places if stage.places is not None else reg.knockout.placement,
        "ladders": stage.matches,
        "qualifier": stage.qualifier,
        "grand_final_reset": stage.grand_final_reset,
    }


def _begun_rows(s: Session, group: Group) -> dict[int, tuple[str, list[tuple[int, int]]]]:
    """The begun stages of a group, read directly: stage → (kind, [(player id, number)])."""
    rows = s.execute(
        select(GroupStage.id, GroupStage.stage, GroupStage.kind).where(GroupStage.group_id == group.id)
    ).all()
    out: dict[int, tuple[str, list[tuple[int, int]]]] = {stage: (kind, []) for _, stage, kind in rows}
    index = {sid: stage for sid, stage, _ in rows}
    if index:
        for stage_id, player_id, number in s.execute(
            select(StageEntry.stage_id, StageEntry.player_id, StageEntry.number).where(
                StageEntry.stage_id.in_(list(index))
            )
        ).all():
            out[index[stage_id]][1].append((player_id, number))
    return out


def split_round_of(s: Session, group: Group, reg: Regulations) -> int:
    """The last round before the knockout stage begins (0 for a knockout from round 1)."""
    index = knockout_stage(reg, group.name)
    if index is None:
        return 0
    begun = _begun_rows(s, group)
    stages = list(reg.group(group.name).stages)
    for i, (kind, _) in begun.items():
        if i < len(stages) and kind == StageKind.ROUND_ROBIN.value and stages[i].kind is StageKind.SWISS:
            stages[i] = Stage(StageKind.ROUND_ROBIN, entrants=stages[i].entrants, count=stages[i].count)
    size = s.scalar(select(func.count(Player.id)).where(Player.group_id == group.id, Player.no.is_not(None)))
    plans = plan_stages(tuple(stages), size, {i: len(e) for i, (_, e) in begun.items()})
    return max(0, plans[index].first_round - 1)


def _read_bracket(s: Session, group: Group, reg: Regulations) -> Bracket | None:
    rows = rows_of(s, group)
    if not rows:
        return None
    no_of, _ = _ids(s, group)
    index = knockout_stage(reg, group.name)
    if index is None:
        raise UserError(
            f"{group.name}的赛制中没有淘汰赛阶段，但文件中有淘汰赛对阵",
            f"{group.name}: the file has a knockout bracket but the format has no knockout stage",
        )
    options = bracket_options(reg, group.name)
    split = split_round_of(s, group, reg)
    begun = _begun_rows(s, group).get(index)
    if begun is not None:
        seeds = [no_of[pid] for pid, _ in sorted(begun[1], key=lambda e: e[1])]
    else:  # a knockout created before stages were recorded: its seeds are in the first round's matches
        size = reg.group(group.name).stages[index].count
        template = create_bracket(tuple(range(1, size + 1)), split, reg.knockout, **options)
        by_code = {r.code: r for r in rows}
        seeds = [0] * size
        for plan in template.plans:
            if all(isinstance(src, int) for src in plan.sources) and plan.code in by_code:
                row = by_code[plan.code]
                lo, hi = sorted(src for src in plan.sources if isinstance(src, int))
                if row.high_id is not None:
                    seeds[lo - 1] = no_of[row.high_id]
                if row.low_id is not None and hi <= size:
                    seeds[hi - 1] = no_of[row.low_id]
    template = create_bracket(seeds, split, reg.knockout, **options)
    games = _match_games(s, group, no_of)
    matches = []
    for r in rows:
        ladder = template.ladder_of(r.code) if r.code in template.positions else reg.knockout.match_format
        choices = {
            int(k): no_of[v] for k, v in (r.colour_choices or {}).items() if isinstance(v, int) and v in no_of
        }
        if r.deciding_red_id is not None and not choices:  # written before colour choices (0007)
            choices = {len(ladder.steps) - 1: no_of[r.deciding_red_id]}
        matches.append(
            Match(
                code=r.code,
                round_number=r.round_number,
                high=no_of.get(r.high_id) if r.high_id else None,
                low=no_of.get(r.low_id) if r.low_id else None,
                colour_method=ColourMethod(r.colour_method) if r.colour_method else None,
                colour_seed=r.colour_seed,
                first_red=no_of.get(r.first_red_id) if r.first_red_id else None,
                games=games.get(r.id, ()),
            ).with_colour_choices(choices, ladder)
        )
    return restore_bracket(seeds, split, reg.knockout, matches, **options)


def _match_games(s: Session, group: Group, no_of: dict[int, int]) -> dict[int, tuple[KnockoutGame, ...]]:
    out: dict[int, list[KnockoutGame]] = {}
    query = (
        select(GameRow)
        .join(Round, GameRow.round_id == Round.id)
        .where(Round.group_id == group.id, GameRow.match_id.is_not(None))
        .order_by(GameRow.game_no)
    )
    for g in s.scalars(query):
        assert g.match_id is not None
        out.setdefault(g.match_id, []).append(
            KnockoutGame(
                g.game_no, GameKind(g.kind), no_of[g.red_id], no_of[g.black_id], GameResult(g.result)
            )
        )
    return {k: tuple(v) for k, v in out.items()}


def _round(s: Session, group: Group, number: int) -> Round:
    rnd = s.scalars(select(Round).where(Round.group_id == group.id, Round.number == number)).one_or_none()
    if rnd is None:
        rnd = Round(
            group_id=group.id,
            number=number,
            stage=RoundStage.KNOCKOUT.value,
            paired_at=datetime.now().replace(microsecond=0),
        )
        s.add(rnd)
        s.flush()
    return rnd


def _with_due_games(bracket: Bracket) -> Bracket:
    """Pair the next game of every match whose colours are known (a pending game)."""
    for m in bracket.matches:
        due = next_game(m, bracket.ladder_of(m.code))
        if due is None or due.colours is not ColourState.SET:
            continue
        if m.games and m.games[-1].result.is_pending:
            continue
        bracket = bracket.enter_result(m.code, due.number, GameResult.PENDING)
    return bracket


def save_bracket(s: Session, group: Group, bracket: Bracket) -> None:
    """Write the whole bracket back: match rows and their games (created, updated or removed)."""
    bracket = _with_due_games(bracket)
    _, id_of = _ids(s, group)
    rows = {r.code: r for r in rows_of(s, group)}
    for plan, m in zip(bracket.plans, bracket.matches, strict=True):
        row = rows.get(m.code)
        if row is None:
            row = KnockoutMatch(group_id=group.id, code=m.code, round_number=m.round_number)
            s.add(row)
            s.flush()
        row.high_id = id_of[m.high] if m.high is not None else None
        row.low_id = id_of[m.low] if m.low is not None else None
        row.colour_method = m.colour_method.value if m.colour_method else ""
        row.colour_seed = m.colour_seed
        row.first_red_id = id_of[m.first_red] if m.first_red is not None else None
        choices = m.colour_choices(bracket.ladder_of(m.code))
        row.colour_choices = {str(k): id_of[red] for k, red in sorted(choices.items())} or None
        row.deciding_red_id = None
        result = match_result(m, bracket.ladder_of(m.code))
        row.winner_id = id_of[result.winner] if result and result.winner is not None else None
        existing = {g.game_no: g for g in s.scalars(select(GameRow).where(GameRow.match_id == row.id))}
        wanted = {g.number: g for g in m.games}
        for number, g in existing.items():
            if number not in wanted:
                s.delete(g)
        if not wanted:
            continue
        rnd = _round(s, group, m.round_number)
        for number, kg in wanted.items():
            game = existing.get(number)
            if game is None:
                game = GameRow(round_id=rnd.id, board=plan.board, game_no=number, match_id=row.id)
                s.add(game)
            game.kind, game.red_id, game.black_id, game.result = (
                kg.kind.value,
                id_of[kg.red],
                id_of[kg.black],
                kg.result.value,
            )
    s.flush()


@dataclass(frozen=True, slots=True)
class KnockoutPlayers:
    """Who left the Swiss pool at the split, and from which round."""

    split_round: int
    players: frozenset[int]


def knockout_players(s: Session, group: Group, reg: Regulations) -> KnockoutPlayers | None:
    bracket = load_bracket(s, group, reg)
    if bracket is None:
        return None
    return KnockoutPlayers(bracket.split_round, frozenset(bracket.seeds))


def knockout_places(s: Session, group: Group, reg: Regulations) -> dict[int, int] | None:
    """Places 1…size once the knockout is finished, else None."""
    bracket = load_bracket(s, group, reg)
    if bracket is None or not bracket.is_complete:
        return None
    return final_places(bracket)
