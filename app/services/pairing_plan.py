"""What pairing a round needs besides the file: the pool, the stored explanation, the outcome.

Shared by :func:`app.services.rounds.pair_next_round` (SQLAlchemy) and the command line's fast path
(:mod:`app.services.fastpair`, sqlite3 only), so that both store the same round. No SQLAlchemy here.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from typing import Any

from app.engine.discipline import ForfeitStreak, consecutive_forfeits
from app.engine.event import GroupState
from app.engine.pairing import Pairing, PairingPlayer
from app.engine.pairing.constraints import (
    ConstraintFacts,
    NamedAvoidance,
    RoundConstraints,
    round_constraints,
)
from app.engine.pairing.history import Entrant as PoolEntrant
from app.engine.pairing.history import pool_from_history
from app.engine.records import frozen, replace
from app.engine.regulations import AvoidanceStrength, GroupFormat, Regulations, RoundOnePairing
from app.engine.text import count_en
from app.engine.types import GameResult, PlayerStatus, UserError


@frozen
class PairingOutcome:
    group: str
    number: int
    boards: int  # every board of the round: the knockout boards (after the split) and the Swiss ones
    bye: int | None
    seed: int
    withdrawn: tuple[int, ...]  # withdrawn before pairing for consecutive forfeits
    backup_warning: str = ""  # the pairing is saved, but its automatic backup failed
    knockout_boards: int = 0  # boards 1 … k of the round are knockout matches

    @property
    def swiss_boards(self) -> int:
        return self.boards - self.knockout_boards


def next_swiss_round(state: GroupState) -> int:
    """The next Swiss round: one after the last round with Swiss games or a bye."""
    played = [r.number for r in state.rounds if r.games or r.byes]
    return max(played, default=0) + 1


def round_to_pair(group: str, state: GroupState, fmt: GroupFormat, unnumbered: Sequence[str]) -> int:
    """The group's next Swiss round, once it may be paired; else :class:`UserError` saying what must
    come first: every round is already paired, the previous round has boards without a result (they
    are listed), or ``unnumbered`` players (active, without a sequence number) are still to be drawn.

    Both pairing paths ask this: the full service shows the message, the command line's fast path
    leaves the refusal to it.
    """
    number = next_swiss_round(state)
    if number > fmt.rounds:
        raise UserError(f"{group}共 {fmt.rounds} 轮，已全部编排", f"{group} has only {fmt.rounds} rounds")
    previous = next((r for r in state.rounds if r.number == number - 1), None)
    pending = [] if previous is None else [g.board for g in previous.games if g.result is GameResult.PENDING]
    if pending:
        raise UserError(
            f"第 {number - 1} 轮还有 {len(pending)} 台未录入成绩：{'、'.join(map(str, pending))}",
            f"round {number - 1} still has boards without a result: {', '.join(map(str, pending))}",
        )
    if unnumbered:
        raise UserError(
            f"{group}还有 {len(unnumbered)} 名棋手没有序号（如 {unnumbered[0]}），请先抽签",
            f"{group}: {count_en(len(unnumbered), 'player')} without a sequence number yet; "
            "draw the numbers first",
        )
    return number


def after_split(fmt: GroupFormat, number: int) -> bool:
    """Round ``number`` is not the first stage's Swiss alone (after the split, or another stage): the
    command line's fast path leaves it to the full service."""
    return number > fmt.first_swiss_rounds


def round_one_keys(
    pool_numbers: Sequence[int], method: RoundOnePairing, seed: int
) -> dict[int, tuple[int, ...]] | None:
    """The order inside round 1's one score group that makes the engine's natural pairs (rank r against
    rank r + n/2) the ones the regulation asks for; None for the usual halves (1 against n/2+1).

    By lot: the bottom half in an order drawn by lot. Neighbours: 1 takes rank 0 and 2 rank n/2, 3 rank 1
    and 4 rank n/2+1 …, so that 1 meets 2, 3 meets 4 (a team clash moves as little as the engine's order
    allows). ``pool_numbers`` are in sequence-number order (an odd player out gets the bye as usual).

    >>> round_one_keys([1, 2, 3, 4, 5, 6], RoundOnePairing.ADJACENT, 1)
    {1: (0,), 3: (1,), 5: (2,), 2: (3,), 4: (4,), 6: (5,)}
    """
    if method is RoundOnePairing.HALVES:
        return None
    numbers = list(pool_numbers)
    half = len(numbers) // 2
    if method is RoundOnePairing.ADJACENT:
        pairs = len(numbers) // 2
        order = numbers[0 : 2 * pairs : 2] + numbers[1 : 2 * pairs : 2] + numbers[2 * pairs :]
    else:
        top, bottom = numbers[:half], numbers[half:]
        random.Random(f"round-one:{seed}").shuffle(bottom)
        order = top + bottom
    return {no: (i,) for i, no in enumerate(order)}


def adjacent_colours(pairing: Pairing) -> Pairing:
    """Round 1 by neighbours: board 1's lower number is Red, then the colours alternate by board
    (1–2, 4–3, 5–6, 8–7 …); no player has a colour history yet, so nothing else constrains them."""
    games = []
    for g in pairing.games:
        low, high = sorted((g.red, g.black))
        red, black = (low, high) if g.board % 2 else (high, low)
        why = replace(
            g.explanation,
            zh=f"第1轮相邻序号配对（{low}对{high}）；{'单' if g.board % 2 else '双'}数台序号{'小' if g.board % 2 else '大'}者执红",
            en=f"round 1 by neighbouring numbers ({low} v {high}); on an {'odd' if g.board % 2 else 'even'} board "
            f"the {'lower' if g.board % 2 else 'higher'} number is Red",
        )
        games.append(replace(g, red=red, black=black, explanation=why))
    return replace(pairing, games=tuple(games))


def new_pairing_seed() -> int:
    return random.SystemRandom().randint(1, 999_999)


def pool_for(
    state: GroupState,
    reg: Regulations,
    number: int,
    left_out: set[int],
    rank_keys: dict[int, tuple[int, ...]] | None,
) -> list[PairingPlayer]:
    """The round's pool: the players who may be paired, less ``left_out``, those excused from the
    round (请假: not paired, 0 points, no forfeit) and those re-entered from a later round (退赛后
    恢复参赛 from round N: not paired before N), with their history."""
    left_out = left_out | state.excused_in(number)
    eligible = [
        e
        for e in state.entrants
        if e.may_be_paired and e.no not in left_out and (e.reentry_round is None or e.reentry_round <= number)
    ]
    history = [r for r in state.rounds if r.number < number]
    scored = [r for r in state.scored_rounds if r.number < number]  # as the standings count them
    pool = pool_from_history(
        [PoolEntrant(e.no, e.team, e.rating) for e in eligible], history, reg.points, rank_keys, scored
    )
    limits = (reg.pairing.colour_run_limit, reg.pairing.colour_difference_limit)
    if limits != (2, 2):  # H3 as the regulation sets it (a league allows three in a row …)
        pool = [replace(p, run_limit=limits[0], difference_limit=limits[1]) for p in pool]
    if len(pool) < 2:
        raise UserError(
            f"{state.name}可编排的棋手不足 2 名", f"{state.name} has fewer than 2 players to pair"
        )
    return pool


def forfeit_streaks(state: GroupState, reg: Regulations) -> tuple[ForfeitStreak, ...]:
    """连续弃权: the active players who forfeited the set number of rounds in a row (a re-entered
    player counts only from the round they play again from)."""
    if not reg.discipline.consecutive_forfeits_withdraw:
        return ()
    reentered = {e.no: e.reentry_round for e in state.entrants if e.reentry_round is not None}
    active = {e.no for e in state.entrants if e.status is PlayerStatus.ACTIVE}
    streaks = consecutive_forfeits(state.rounds, reg.discipline, reentered)
    return tuple(s for s in streaks if s.no in active)


def constraints_from_rows(
    reg: Regulations,
    round_number: int,
    players: Iterable[tuple[int, str, str, str]],
    named: Iterable[tuple[int, int, str, int, int, str]],
) -> RoundConstraints:
    """The avoidances in force in ``round_number`` (pairing constraints): the regulation's unit and region rules
    on each numbered player's ``(no, unit, team name, region)`` — the team's name where no unit is
    given — and the named pairs ``(first, second, strength, from, to, reason)``."""
    facts = [ConstraintFacts(no, unit or team or "", region or "") for no, unit, team, region in players]
    pairs = [
        NamedAvoidance(first, second, AvoidanceStrength(strength), from_round, to_round, reason)
        for first, second, strength, from_round, to_round, reason in named
    ]
    return round_constraints(reg.pairing.avoidances, facts, pairs, round_number)


def explanation_of(pairing: Pairing, offset: int) -> dict[str, Any]:
    """The round's stored explanation: per board (after ``offset`` knockout boards) and the bye."""
    return {
        "games": {
            str(pg.board + offset): {
                "red": pg.red,
                "black": pg.black,
                "zh": pg.explanation.zh,
                "en": pg.explanation.en,
                "colour": pg.explanation.colour_reason.value,
            }
            for pg in pairing.games
        },
        "bye": None
        if pairing.bye_explanation is None
        else {
            "player": pairing.bye,
            "zh": pairing.bye_explanation.zh,
            "en": pairing.bye_explanation.en,
        },
    }


def audit_after(pairing: Pairing, seed: int) -> dict[str, Any]:
    return {"boards": len(pairing.games), "bye": pairing.bye, "seed": seed}


def audit_text(value: Any) -> str:
    """An audit log field: text as is, anything else as sorted JSON (Chinese kept readable)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
