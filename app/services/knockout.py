"""The second stage: the knockout bracket after the split (docs/rules.md §7).

Stored as one ``knockout_matches`` row per match of the bracket (code, round, players, colour lot,
deciding colour) and the match's games as rows of their round (``games.match_id``, ``game_no``,
``kind`` slow / rapid / deciding), on boards 1… of the round; the continuing Swiss of the other
players is paired on the boards after them. The bracket is rebuilt by the engine from those rows
(:func:`app.engine.knockout.restore_bracket`) for every action, and written back whole — reading and
writing live in :mod:`app.services.brackets`. The seeds come from the ranking, which
:mod:`app.services.standings` owns: this module asks it, it never asks this one.

Once colours are known the due game of a match is created as a pending game, so table cards and
result entry work exactly as for the Swiss; a drawn game brings the next game of the match by
itself, and a decided match fills in the players of the matches it feeds.
"""

from __future__ import annotations

import random

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.mapping import load_group_state
from app.db.models import GameRow, Group, KnockoutMatch, Round
from app.db.session import Database
from app.engine.knockout import (
    Bracket,
    ColourState,
    GameKind,
    create_bracket,
    knockout_seeds,
    next_game,
    remove_last_game,
    time_control,
)
from app.engine.regulations import Regulations
from app.engine.text import count_en
from app.engine.types import Colour, GameResult, UserError
from app.services import audit
from app.services.brackets import load_bracket, rows_of, save_bracket
from app.services.standings import ranking_after
from app.services.tournaments import group_row, regulations_of


def create_knockout(db: Database, group: str, *, who: str = audit.DEFAULT_ARBITER) -> Bracket:
    """Create the bracket from the standing after the split round (once that round is complete)."""
    with db.session() as s:
        reg = regulations_of(s)
        g = group_row(s, group)
        fmt = reg.group(group)
        if not fmt.knockout_size:
            raise UserError(f"{group}不设淘汰赛", f"{group} has no knockout stage")
        if rows_of(s, g):
            raise UserError(f"{group}的淘汰赛对阵已经产生", f"the knockout of {group} already exists")
        state = load_group_state(s, g, reg)
        split = fmt.swiss_rounds
        done = [r for r in state.rounds if r.number == split]
        if not done:
            raise UserError(
                f"{group}第 {split} 轮尚未编排，不能产生淘汰赛对阵",
                f"{group} round {split} is not paired yet: no knockout before it is complete",
            )
        pending = [gm.board for gm in done[0].games if gm.result is GameResult.PENDING]
        if pending:
            raise UserError(
                f"{group}第 {split} 轮还有 {len(pending)} 台未录入成绩，不能产生淘汰赛对阵",
                f"{group} round {split} still has {count_en(len(pending), 'board')} without result",
            )
        order = ranking_after(s, g, reg, split)
        statuses = {e.no: e.status for e in state.entrants}
        seeds = knockout_seeds(order, fmt.knockout_size, statuses)
        bracket = create_bracket(seeds, split, reg.knockout)
        save_bracket(s, g, bracket)
        audit.record(s, "create_knockout", entity=group, after={"seeds": list(seeds)}, who=who)
        return bracket


def bracket_of(db: Database, group: str) -> Bracket | None:
    with db.session() as s:
        return load_bracket(s, group_row(s, group), regulations_of(s))


def _require(s: Session, group: str) -> tuple[Group, Regulations, Bracket]:
    g = group_row(s, group)
    reg = regulations_of(s)
    bracket = load_bracket(s, g, reg)
    if bracket is None:
        raise UserError(f"{group}尚未产生淘汰赛对阵", f"{group} has no knockout bracket yet")
    return g, reg, bracket


def new_colour_seed() -> int:
    return random.SystemRandom().randint(1, 999_999)


def draw_round_colours(
    db: Database,
    group: str,
    round_number: int,
    *,
    seed: int | None = None,
    manual: dict[str, int] | None = None,
    who: str = audit.DEFAULT_ARBITER,
) -> Bracket:
    """Colours of game 1 for the round's matches: by lot with a recorded seed, or a physical draw.

    ``manual`` maps match codes to the number of the player who drew Red; the other matches of the
    round (if any) are drawn with the seed.
    """
    with db.session() as s:
        g, _reg, bracket = _require(s, group)
        if round_number not in bracket.round_numbers:
            raise UserError(
                f"第 {round_number} 轮没有淘汰赛", f"round {round_number} has no knockout matches"
            )
        before = {m.code: m.first_red for m in bracket.matches_in_round(round_number)}
        for code, red in (manual or {}).items():
            if bracket.match(code).round_number != round_number:
                raise UserError(
                    f"{code} 不在第 {round_number} 轮", f"{code} is not played in round {round_number}"
                )
            bracket = bracket.set_first_red(code, red)
        open_matches = [
            m
            for m in bracket.matches_in_round(round_number)
            if m.high is not None and m.low is not None and not m.walkover and m.first_red is None
        ]
        if open_matches:
            used = new_colour_seed() if seed is None else seed
            bracket = bracket.draw_round_colours(round_number, used)
        else:
            used = None
        if not manual and not open_matches:
            raise UserError(
                f"第 {round_number} 轮没有待抽签的淘汰赛（对阵未定或已抽签）",
                f"round {round_number} has no match waiting for its colour lot",
            )
        save_bracket(s, g, bracket)
        after = {m.code: m.first_red for m in bracket.matches_in_round(round_number)}
        audit.record(
            s,
            "draw_colours",
            entity=f"{group} 第{round_number}轮淘汰赛",
            before=before,
            after={"seed": used, "manual": manual or {}, "first_red": after},
            who=who,
        )
        return bracket


def choose_deciding_colour(
    db: Database, group: str, code: str, colour: Colour, *, who: str = audit.DEFAULT_ARBITER
) -> Bracket:
    """The higher seed's choice of colour for the deciding game (附加赛)."""
    with db.session() as s:
        g, _reg, bracket = _require(s, group)
        due = next_game(bracket.match(code), bracket.rules)
        if due is None or due.colours is not ColourState.CHOICE_NEEDED:
            raise UserError(
                f"{code} 现在不需要选择附加赛先后手", f"{code} does not need a deciding-game choice now"
            )
        bracket = bracket.choose_deciding_colour(code, colour)
        save_bracket(s, g, bracket)
        audit.record(
            s,
            "choose_deciding_colour",
            entity=f"{group} {code}",
            after={"chooser": due.chooser, "colour": colour.value},
            who=who,
        )
        return bracket


def enter_match_result(
    db: Database,
    group: str,
    code: str,
    game_no: int,
    result: GameResult,
    *,
    reason: str = "",
    who: str = audit.DEFAULT_ARBITER,
) -> GameResult:
    """Enter (or correct, or reset to pending) a knockout game; returns the result before."""
    with db.session() as s:
        g, _reg, bracket = _require(s, group)
        m = bracket.match(code)
        current = next((kg for kg in m.games if kg.number == game_no), None)
        before = current.result if current else GameResult.PENDING
        if result is GameResult.PENDING and current is not None:
            if m.games[-1].number != game_no:
                raise UserError(
                    f"{code} 第 {game_no} 局之后还有对局，须先更正后面的对局",
                    f"{code}: later games exist; correct them first",
                )
            bracket = bracket.with_match(remove_last_game(m))
            # the game stays paired (pending) when its colours are known: _with_due_games re-adds it
        else:
            if current is not None and not current.result.is_pending and not reason.strip():
                later = any(kg.number > game_no for kg in m.games)
                if later:
                    raise UserError(
                        f"更正 {code} 第 {game_no} 局须注明理由",
                        f"correcting {code} game {game_no} needs a reason",
                    )
            bracket = bracket.enter_result(code, game_no, result)
        save_bracket(s, g, bracket)
        audit.record(
            s,
            "enter_knockout_result" if before.is_pending else "correct_knockout_result",
            entity=f"{group} {code} 第{game_no}局",
            before=before.value,
            after=result.value,
            reason=reason,
            who=who,
        )
        return before


def match_code_at(db: Database, group: str, round_number: int, board: int) -> str | None:
    """The knockout match played on a board of a round, or None for a Swiss board."""
    with db.session() as s:
        g = group_row(s, group)
        row = s.scalars(
            select(KnockoutMatch)
            .join(GameRow, GameRow.match_id == KnockoutMatch.id)
            .join(Round, GameRow.round_id == Round.id)
            .where(Round.group_id == g.id, Round.number == round_number, GameRow.board == board)
        ).first()
        return None if row is None else row.code


def time_control_label(bracket: Bracket, kind: GameKind) -> str:
    return time_control(kind, bracket.rules).label
