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
from app.engine.formats import Entrants
from app.engine.knockout import (
    Bracket,
    ColourState,
    GameKind,
    create_bracket,
    knockout_seeds,
    remove_last_game,
    time_control,
)
from app.engine.regulations import Regulations
from app.engine.text import count_en
from app.engine.types import Colour, GameResult, UserError
from app.services import audit
from app.services.brackets import (
    bracket_options,
    knockout_stage,
    load_bracket,
    rows_of,
    save_bracket,
    split_round_of,
)
from app.services.pairing_plan import PairingOutcome
from app.services.stages import begin
from app.services.standings import stage_entry_order
from app.services.tournaments import group_row, regulations_of


def create_knockout(
    db: Database, group: str, *, seed: int | None = None, who: str = audit.DEFAULT_ARBITER
) -> Bracket:
    """Create the bracket of the group's knockout stage: after the stage before it is complete, from its
    ranking (the top N, or the top of each pool); a knockout of everyone from the group's players. The
    seeds follow the stage's seeding (the ranking before, by rating, or by lot with a recorded seed)."""
    used = new_colour_seed() if seed is None else seed
    with db.session() as s:
        reg = regulations_of(s)
        g = group_row(s, group)
        index = knockout_stage(reg, group)
        if index is None:
            raise UserError(f"{group}不设淘汰赛", f"{group} has no knockout stage")
        if rows_of(s, g):
            raise UserError(f"{group}的淘汰赛对阵已经产生", f"the knockout of {group} already exists")
        state = load_group_state(s, g, reg)
        split = split_round_of(s, g, reg)
        if split:
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
        else:
            unnumbered = [p.name for p in g.players if p.no is None and p.status == "active"]
            if unnumbered:
                raise UserError(
                    f"{group}还有 {len(unnumbered)} 名棋手没有序号（如 {unnumbered[0]}），请先抽签",
                    f"{group}: {count_en(len(unnumbered), 'player')} without a sequence number yet; "
                    "draw the numbers first",
                )
        order = stage_entry_order(s, g, reg, state, index)
        stage = reg.group(group).stages[index]
        if stage.entrants is Entrants.TOP:
            order = list(knockout_seeds(order, stage.count))
        begun = begin(s, g, reg, state, index, order, used, who)
        seeds = tuple(e.no for e in sorted(begun.entrants, key=lambda e: e.number))
        bracket = create_bracket(seeds, split, reg.knockout, **bracket_options(reg, group))
        save_bracket(s, g, bracket)
        audit.record(s, "create_knockout", entity=group, after={"seeds": list(seeds)}, who=who)
        return bracket


def pair_knockout_round(
    db: Database, group: str, *, seed: int | None = None, who: str = audit.DEFAULT_ARBITER
) -> PairingOutcome:
    """A round with only the knockout in it: create the bracket if it is not there yet, then draw the lots
    the matches of its current round wait for (the games follow by themselves once colours are known)."""
    if bracket_of(db, group) is None:
        create_knockout(db, group, seed=seed, who=who)
    bracket = bracket_of(db, group)
    assert bracket is not None
    due_rounds = [r for r in bracket.round_numbers if bracket.due_games(r)]
    if not due_rounds:
        raise UserError(f"{group}的淘汰赛已全部结束", f"the knockout of {group} is over")
    number = min(due_rounds)
    due = bracket.due_games(number)
    used = new_colour_seed() if seed is None else seed
    if any(d.colours is ColourState.LOT_NEEDED for d in due):
        bracket = draw_round_colours(db, group, number, seed=used, who=who)
    elif all(d.colours is ColourState.SET for d in due):
        raise UserError(
            f"{group}第 {number} 轮淘汰赛的对局已经安排，请录入成绩",
            f"{group} round {number}: the knockout games are paired; enter their results",
        )
    drawn = bracket_of(db, group)
    assert drawn is not None
    boards = len([m for m in drawn.matches_in_round(number) if m.games])
    from app.services.backups import automatic_backup

    warning = automatic_backup(db, f"paired-{group}-r{number}")
    return PairingOutcome(group, number, boards, None, used, (), warning, boards)


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
    """The lots the round's matches wait for: the colours of game 1 (or who chooses them), or a later
    step's colours, by lot with a recorded seed; or a physical draw of game 1.

    ``manual`` maps match codes to the number of the player who drew Red in game 1; the other matches of
    the round (if any) are drawn with the seed.
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
        open_matches = [d for d in bracket.due_games(round_number) if d.colours is ColourState.LOT_NEEDED]
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
        due = bracket.next_game(code)
        if due is None or due.colours is not ColourState.CHOICE_NEEDED:
            raise UserError(
                f"{code} 现在不需要选择附加赛先后手", f"{code} does not need a deciding-game choice now"
            )
        bracket = bracket.choose_colour(code, colour)
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


def time_control_label(bracket: Bracket, kind: GameKind, code: str | None = None, number: int = 0) -> str:
    """A game's time control as printed: its step's, when the match and game are given."""
    if code is not None and number:
        return bracket.time_control_of(code, number).label
    return time_control(kind, bracket.ladder_of(code) if code else bracket.rules).label
