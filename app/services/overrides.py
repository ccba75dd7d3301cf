"""The arbiter's manual pairing changes (docs/rules.md §5 "Arbiter overrides").

Each change is previewed first: :func:`preview_override` returns the pairing after the change and
every hard rule it would break (rematch, teammates in round 1, colour H3, second bye) and every
avoidance it breaks (absolute, or weak as a warning: pairing constraints). Applying it
with broken rules needs the arbiter's explicit confirmation (``confirm=True``) and a reason, and it
is written to the audit log. Only boards without a result may change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from sqlalchemy.orm import Session

from app.db.mapping import load_group_state
from app.db.models import Bye, Group, Round
from app.db.session import Database
from app.engine.pairing.history import Entrant as PoolEntrant
from app.engine.pairing.history import pool_from_history
from app.engine.pairing.overrides import (
    Change,
    RuleBreak,
    SetPair,
    SwapColours,
    SwapPlayers,
    apply_change,
    rule_breaks,
)
from app.engine.types import GameResult, UserError
from app.services import audit
from app.services.constraints import constraints_in_round
from app.services.results import round_row
from app.services.tournaments import group_row, regulations_of

__all__ = ["OverridePreview", "SetPair", "SwapColours", "SwapPlayers", "apply_override", "preview_override"]


@dataclass(frozen=True, slots=True)
class OverridePreview:
    games: tuple[tuple[int, int, int], ...]  # (board, red, black) after the change
    byes: tuple[int, ...]
    breaks: tuple[RuleBreak, ...]
    changed_boards: tuple[int, ...]


def _current(rnd: Round, no_of: dict[int, int]) -> tuple[tuple[tuple[int, int, int], ...], tuple[int, ...]]:
    games = tuple(
        sorted((g.board, no_of[g.red_id], no_of[g.black_id]) for g in rnd.games if g.kind == "swiss")
    )
    return games, tuple(sorted(no_of[b.player_id] for b in rnd.byes))


def _preview(s: Session, g: Group, number: int, change: Change) -> tuple[Round, OverridePreview]:
    reg = regulations_of(s)
    rnd = round_row(s, g, number)
    no_of = {p.id: p.no for p in g.players if p.no is not None}
    games, byes = _current(rnd, no_of)
    new_games, new_byes = apply_change(games, byes, change)
    changed = tuple(
        sorted({b for (b, *_rest), old in zip(new_games, games, strict=True) if (b, *_rest) != old})
    )
    entered = [gm.board for gm in rnd.games if gm.board in changed and gm.result != GameResult.PENDING.value]
    if entered:
        raise UserError(
            f"第 {'、'.join(map(str, sorted(entered)))} 台已有成绩，不能改动编排",
            f"boards {', '.join(map(str, sorted(entered)))} have results; their pairing cannot change",
        )
    state = load_group_state(s, g, reg)
    history = [r for r in state.rounds if r.number < number]
    scored = [r for r in state.scored_rounds if r.number < number]
    pool = pool_from_history(
        [PoolEntrant(e.no, e.team, e.rating) for e in state.entrants], history, reg.points, scored=scored
    )
    players = {p.no: p for p in pool}
    moved = {x for b, red, black in new_games if b in changed for x in (red, black)} | (
        set(new_byes) - set(byes)
    )
    constraints = constraints_in_round(s, g, reg, number)
    breaks = rule_breaks(
        players, new_games, new_byes, number, reg.pairing, only=moved, constraints=constraints
    )
    return rnd, OverridePreview(new_games, new_byes, breaks, changed)


def preview_override(db: Database, group: str, number: int, change: Change) -> OverridePreview:
    with db.session() as s:
        return _preview(s, group_row(s, group), number, change)[1]


def apply_override(
    db: Database,
    group: str,
    number: int,
    change: Change,
    *,
    reason: str = "",
    confirm: bool = False,
    who: str = audit.DEFAULT_ARBITER,
) -> OverridePreview:
    """Apply a change; with rule breaks it needs ``confirm=True`` and a reason (both logged)."""
    with db.session() as s:
        g = group_row(s, group)
        rnd, preview = _preview(s, g, number, change)
        if preview.breaks and not (confirm and reason.strip()):
            listed = "；".join(b.zh for b in preview.breaks)
            raise UserError(
                f"此改动违反编排规则：{listed}。须确认并注明理由",
                "this change breaks: " + "; ".join(b.en for b in preview.breaks) + ". Confirm with a reason",
            )
        id_of = {p.no: p.id for p in g.players if p.no is not None}
        by_board = {gm.board: gm for gm in rnd.games if gm.kind == "swiss"}
        before = [(b, by_board[b].red_id, by_board[b].black_id) for b in preview.changed_boards]
        for board, red, black in preview.games:
            gm = by_board[board]
            gm.red_id, gm.black_id = id_of[red], id_of[black]
        for bye in list(rnd.byes):
            s.delete(bye)
        s.flush()
        for no in preview.byes:
            s.add(Bye(round_id=rnd.id, player_id=id_of[no]))
        explanation = dict(rnd.explanation or {})
        overridden = set(cast(list[int], explanation.get("overridden", []))) | set(preview.changed_boards)
        explanation["overridden"] = sorted(overridden)
        rnd.explanation = explanation
        audit.record(
            s,
            "override_pairing",
            entity=f"{group} 第{number}轮",
            before={"change": repr(change), "boards": before},
            after={
                "games": [list(x) for x in preview.games if x[0] in preview.changed_boards],
                "byes": list(preview.byes),
                "breaks": [b.kind.value for b in preview.breaks],
            },
            reason=reason,
            who=who,
        )
        return preview
