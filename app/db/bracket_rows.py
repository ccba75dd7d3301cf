"""Rows of a group's knockout to its :class:`Bracket`, shared by both readers of the file.

:func:`app.services.brackets.load_bracket` (SQLAlchemy, every service) and
:func:`app.db.lite.read_bracket` (sqlite3 only, the command line's standings) run the same queries —
the columns listed here, in this order — and hand the rows to :func:`bracket_from_rows`, so that the
two cannot read a bracket differently. No SQLAlchemy here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app.engine.formats import Stage, StageKind, plan_stages
from app.engine.knockout import (
    Bracket,
    ColourMethod,
    GameKind,
    KnockoutGame,
    Match,
    create_bracket,
    restore_bracket,
)
from app.engine.regulations import Regulations
from app.engine.types import GameResult, UserError

#: the knockout matches' columns, in the order both readers select them (ordered by id)
MATCH_COLUMNS = (
    "id",
    "code",
    "round_number",
    "high_id",
    "low_id",
    "colour_method",
    "colour_seed",
    "first_red_id",
    "deciding_red_id",
    "colour_choices",
)

#: the knockout games' columns (games with a match, ordered by game number)
MATCH_GAME_COLUMNS = ("match_id", "game_no", "kind", "red_id", "black_id", "result")

#: the begun stages of a group: stage index → (kind as played, [(player id, entry number)])
BegunRows = Mapping[int, tuple[str, Sequence[tuple[int, int]]]]


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


def begun_from_rows(
    stages: Iterable[Sequence[Any]], entries: Iterable[Sequence[Any]]
) -> dict[int, tuple[str, list[tuple[int, int]]]]:
    """The begun stages from the rows (id, stage, kind) and their entries (stage id, player id, number)."""
    rows = list(stages)
    out: dict[int, tuple[str, list[tuple[int, int]]]] = {stage: (kind, []) for _, stage, kind in rows}
    index = {sid: stage for sid, stage, _ in rows}
    for stage_id, player_id, number in entries:
        out[index[stage_id]][1].append((player_id, number))
    return out


def split_round_from_rows(name: str, reg: Regulations, begun: BegunRows, size: int) -> int:
    """The last round before the knockout stage begins (0 for a knockout from round 1); ``size``: the
    group's numbered players."""
    index = knockout_stage(reg, name)
    if index is None:
        return 0
    stages = list(reg.group(name).stages)
    for i, (kind, _) in begun.items():
        if i < len(stages) and kind == StageKind.ROUND_ROBIN.value and stages[i].kind is StageKind.SWISS:
            stages[i] = Stage(StageKind.ROUND_ROBIN, entrants=stages[i].entrants, count=stages[i].count)
    plans = plan_stages(tuple(stages), size, {i: len(e) for i, (_, e) in begun.items()})
    return max(0, plans[index].first_round - 1)


def bracket_from_rows(
    name: str,
    reg: Regulations,
    matches: Sequence[Sequence[Any]],
    no_of: Mapping[int, int],
    begun: BegunRows,
    games: Iterable[Sequence[Any]],
) -> Bracket | None:
    """The group's bracket as the engine sees it, or None before the split. ``matches``: the rows of
    :data:`MATCH_COLUMNS` by id (``colour_choices`` parsed from its JSON); ``no_of``:
    player id → sequence number of the numbered players; ``games``: rows of :data:`MATCH_GAME_COLUMNS`."""
    if not matches:
        return None
    index = knockout_stage(reg, name)
    if index is None:
        raise UserError(
            f"{name}的赛制中没有淘汰赛阶段，但文件中有淘汰赛对阵",
            f"{name}: the file has a knockout bracket but the format has no knockout stage",
        )
    options = bracket_options(reg, name)
    split = split_round_from_rows(name, reg, begun, len(no_of))
    entry = begun.get(index)
    if entry is not None:
        seeds = [no_of[pid] for pid, _ in sorted(entry[1], key=lambda e: e[1])]
    else:  # a knockout created before stages were recorded: its seeds are in the first round's matches
        size = reg.group(name).stages[index].count
        template = create_bracket(tuple(range(1, size + 1)), split, reg.knockout, **options)
        by_code = {r[1]: r for r in matches}
        seeds = [0] * size
        for plan in template.plans:
            if all(isinstance(src, int) for src in plan.sources) and plan.code in by_code:
                row = by_code[plan.code]
                lo, hi = sorted(src for src in plan.sources if isinstance(src, int))
                if row[3] is not None:
                    seeds[lo - 1] = no_of[row[3]]
                if row[4] is not None and hi <= size:
                    seeds[hi - 1] = no_of[row[4]]
    template = create_bracket(seeds, split, reg.knockout, **options)
    played: dict[int, list[KnockoutGame]] = {}
    for match_id, game_no, kind, red_id, black_id, result in games:
        played.setdefault(match_id, []).append(
            KnockoutGame(game_no, GameKind(kind), no_of[red_id], no_of[black_id], GameResult(result))
        )
    out = []
    for (
        match_id,
        code,
        round_number,
        high_id,
        low_id,
        colour_method,
        colour_seed,
        first_red_id,
        deciding_red_id,
        colour_choices,
    ) in matches:
        ladder = template.ladder_of(code) if code in template.positions else reg.knockout.match_format
        choices = {
            int(k): no_of[v] for k, v in (colour_choices or {}).items() if isinstance(v, int) and v in no_of
        }
        if deciding_red_id is not None and not choices:  # written before colour choices (0007)
            choices = {len(ladder.steps) - 1: no_of[deciding_red_id]}
        out.append(
            Match(
                code=code,
                round_number=round_number,
                high=no_of.get(high_id) if high_id else None,
                low=no_of.get(low_id) if low_id else None,
                colour_method=ColourMethod(colour_method) if colour_method else None,
                colour_seed=colour_seed,
                first_red=no_of.get(first_red_id) if first_red_id else None,
                games=tuple(played.get(match_id, ())),
            ).with_colour_choices(choices, ladder)
        )
    return restore_bracket(seeds, split, reg.knockout, out, **options)
