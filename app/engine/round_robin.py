"""Round robin (循环赛): the rulebook's order-of-play tables, schedules, pools and withdrawals.

**The table** (《象棋竞赛规则》, 循环赛对局秩序表; the same table as FIDE's Berger tables). Units are
numbered 1…n by lot (or by seeding). The *largest number* (最大号) is n, or n + 1 for an odd n — then
whoever meets it sits out that round (轮空). The table is built by the rulebook's own rules:

1. Round 1: "首尾相对，依次靠拢" — 1 meets the largest number, 2 the second largest, and so on inwards.
2. In every later round the largest number meets the number that stood **last** in the table of the
   round before, and its pair is always listed **first**; the other numbers follow that opponent in
   cyclic order (…, n−1, 1, 2, …) and pair "首尾相对" again.
3. The number listed first in a pair plays Red. The largest number is Black in round 1, Red in round 2,
   and alternates from then on.

>>> [list(r) for r in berger_table(4)]
[[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]

A double round robin (双循环) plays the table twice, the second cycle with the colours swapped. The
schedule of a stage is fixed and printed before it starts (对局秩序表): :func:`schedule`.

Everything here works on abstract numbers 1…n, so a team round robin uses the same tables.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.engine.formats import MAX_ROUND_ROBIN, PoolDraw, WithdrawalRule
from app.engine.types import UserError

Pair = tuple[int, int]  # (red, black) table numbers


def largest_number(n: int) -> int:
    """最大号: n for an even number of units, n + 1 for an odd one (its opponent sits out)."""
    return n + n % 2


def berger_table(n: int) -> tuple[tuple[Pair, ...], ...]:
    """The rulebook's table for ``n`` units (2…24): per round the pairs (red, black), the pair of the
    largest number first. For an odd ``n`` the pairs with ``n + 1`` are listed too (that round's bye)."""
    if not 2 <= n <= MAX_ROUND_ROBIN:
        raise UserError(
            f"循环赛每组人数应在 2–{MAX_ROUND_ROBIN} 之间，不能是 {n}",
            f"a round robin needs 2-{MAX_ROUND_ROBIN} units, not {n}",
        )
    m = largest_number(n)
    rounds: list[tuple[Pair, ...]] = []
    opponent = 1  # round 1: the largest number meets 1 (首尾相对)
    for r in range(m - 1):
        if r:
            opponent = rounds[-1][-1][1]  # the number that stood last in the round before
        head: Pair = (opponent, m) if r % 2 == 0 else (m, opponent)
        rest = [(opponent - 1 + k) % (m - 1) + 1 for k in range(1, m - 1)]  # its cyclic successors
        pairs = [(rest[i], rest[-1 - i]) for i in range(len(rest) // 2)]
        rounds.append((head, *pairs))
    return tuple(rounds)


@dataclass(frozen=True, slots=True)
class TableRound:
    """One round of a round robin in table numbers: ``number`` counts from 1 within the stage."""

    number: int
    cycle: int
    pairs: tuple[Pair, ...]  # (red, black), without the bye
    bye: int | None  # who sits out (odd number of units), else None


def schedule(n: int, cycles: int = 1, swap_last_rounds: bool = False) -> tuple[TableRound, ...]:
    """Every round of a round robin of ``n`` units, ``cycles`` times through the table (the second cycle
    with the colours swapped, the third as the first …).

    ``swap_last_rounds`` (a double round robin only): the last two rounds of the *first* cycle are played
    in the other order, as FIDE Handbook C.05 Annex 1 recommends, so that no one has the same colour three
    games running across the two cycles (with an even number the rulebook's plain order gives #1 three
    Blacks and #n/2+1 three Reds; with an odd number the rests already break those runs). The second
    cycle is the plain table with colours swapped.

    >>> [r.pairs for r in schedule(4, cycles=2, swap_last_rounds=True)][:4]
    [((1, 4), (2, 3)), ((2, 4), (3, 1)), ((4, 3), (1, 2)), ((4, 1), (3, 2))]

    >>> [(r.number, r.pairs, r.bye) for r in schedule(3)]
    [(1, ((2, 3),), 1), (2, ((1, 2),), 3), (3, ((3, 1),), 2)]
    >>> schedule(4, cycles=2)[3].pairs
    ((4, 1), (3, 2))
    """
    if not 1 <= cycles <= 4:
        raise UserError(f"循环次数应在 1–4 之间，不能是 {cycles}", f"cycles must be 1-4, not {cycles}")
    if swap_last_rounds and cycles != 2:
        raise UserError(
            "交换第一循环最后两轮只用于双循环",
            "swapping the first cycle's last two rounds is for a double round robin",
        )
    table = berger_table(n)
    out: list[TableRound] = []
    for cycle in range(1, cycles + 1):
        order = list(table)
        if swap_last_rounds and cycle == 1 and len(order) >= 2:
            order[-2], order[-1] = order[-1], order[-2]
        for pairs in order:
            swapped = cycle % 2 == 0
            games: list[Pair] = []
            bye = None
            for red, black in pairs:
                if max(red, black) > n:
                    bye = min(red, black)
                    continue
                games.append((black, red) if swapped else (red, black))
            out.append(TableRound(len(out) + 1, cycle, tuple(games), bye))
    return tuple(out)


def units_round(
    numbers: Mapping[int, int], stage_round: int, cycles: int = 1, swap_last_rounds: bool = False
) -> tuple[tuple[tuple[int, int], ...], int | None]:
    """The games of round ``stage_round`` of a pool whose table numbers are ``numbers`` (unit → number):
    ((red unit, black unit), …) and the unit that sits out (or None)."""
    by_number = {number: unit for unit, number in numbers.items()}
    if sorted(by_number) != list(range(1, len(by_number) + 1)):
        raise UserError("循环赛的台号（抽签号）须为 1 起连续", "round-robin numbers must be 1, 2, 3 …")
    rounds = schedule(len(by_number), cycles, swap_last_rounds)
    if not 1 <= stage_round <= len(rounds):
        raise UserError(
            f"这一循环赛只有 {len(rounds)} 轮，没有第 {stage_round} 轮",
            f"this round robin has {len(rounds)} rounds, not {stage_round}",
        )
    r = rounds[stage_round - 1]
    games = tuple((by_number[red], by_number[black]) for red, black in r.pairs)
    return games, None if r.bye is None else by_number[r.bye]


# --------------------------------------------------------------------------- pools (分组循环)


def snake_pools(order: Sequence[int], pools: int) -> tuple[tuple[int, ...], ...]:
    """蛇形分组: the seeding order dealt to the pools 1, 2 … k, then k … 1, then 1 … k again.

    >>> snake_pools(range(1, 11), 3)
    ((1, 6, 7), (2, 5, 8), (3, 4, 9, 10))
    """
    if pools < 1:
        raise UserError("小组数至少为 1", "at least one pool")
    out: list[list[int]] = [[] for _ in range(pools)]
    for i, unit in enumerate(order):
        row, col = divmod(i, pools)
        out[col if row % 2 == 0 else pools - 1 - col].append(unit)
    return tuple(tuple(p) for p in out)


def lot_pools(order: Sequence[int], pools: int, seed: int) -> tuple[tuple[int, ...], ...]:
    """抽签分组 with a recorded seed: the units in a random order, dealt to the pools in turn (sizes differ
    by at most one). The same seed gives the same pools."""
    units = list(order)
    random.Random(f"pools:{seed}").shuffle(units)
    out: list[list[int]] = [[] for _ in range(max(1, pools))]
    for i, unit in enumerate(units):
        out[i % len(out)].append(unit)
    return tuple(tuple(sorted(p, key=list(order).index)) for p in out)


def make_pools(order: Sequence[int], pools: int, draw: PoolDraw, seed: int) -> tuple[tuple[int, ...], ...]:
    """The pools of a pooled round robin; each pool keeps the seeding order of ``order``."""
    if pools > 1 and len(order) < 2 * pools:
        raise UserError(
            f"{len(order)} 人不够分成 {pools} 个小组（每组至少 2 人）",
            f"{len(order)} units cannot make {pools} pools of at least 2",
        )
    if draw is PoolDraw.SNAKE:
        return snake_pools(order, pools)
    return lot_pools(order, pools, seed)


def lot_order(units: Sequence[int], seed: int) -> tuple[int, ...]:
    """Units in an order drawn by lot (抽签) with a recorded seed."""
    out = list(units)
    random.Random(f"lot:{seed}").shuffle(out)
    return tuple(out)


# --------------------------------------------------------------------------- withdrawals


def annuls_games(rule: WithdrawalRule, played: int, total: int) -> bool:
    """Whether a withdrawn unit's games are annulled (成绩取消) rather than standing with the rest forfeited.

    Under the rulebook's rule (``HALF``) a unit that withdraws before playing half of its games has all of
    them annulled; from half on, the games played stand and the rest are forfeits.

    >>> annuls_games(WithdrawalRule.HALF, 3, 7), annuls_games(WithdrawalRule.HALF, 4, 7)
    (True, False)
    >>> annuls_games(WithdrawalRule.HALF, 3, 6)
    False
    """
    if rule is WithdrawalRule.ANNUL:
        return True
    if rule is WithdrawalRule.STAND:
        return False
    return 2 * played < total
