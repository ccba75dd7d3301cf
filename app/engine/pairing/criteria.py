"""The criteria of docs/rules.md §5 for one pair, each defined once.

Every function takes per-player facts of the :class:`~app.engine.pairing.pool.OrderedPool` —
plain ints, or numpy arrays of them: the same expression then runs element-wise — and gives one
criterion of the pair. The scalar pool methods (:meth:`OrderedPool.legal`, ``colour_cost`` …),
the numpy edge builder of large blocks (:func:`app.engine.pairing.arrays.pair_fields`) and the
large-block path (:mod:`app.engine.pairing.large`, which splits a cross pair's cost into its two
players' parts) all call these, so no criterion is written twice.

Facts: ``allowed`` is the bit mask of the colours a player may take (H3, :data:`RED` |
:data:`BLACK`); ``due`` the colour they are due (0: none yet); ``group``/``rank`` the score group
(0 = top) and the place inside it (0 = highest); ``size`` a group's size; a *class* is a team or an
avoidance class coded as an int, −1 for none; ``down``/``up`` whether the last float was down/up
(0 or 1).

>>> may_meet(RED | BLACK, RED), may_meet(RED, RED)
(True, False)
>>> order_cost(True, 0, 2, 4), order_cost(True, 0, 1, 4), order_cost(False, 3, 0, 4)
(0, 3, 0)
>>> colour_cost(RED | BLACK, RED | BLACK, RED, RED)
1
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar, overload

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Ints = npt.NDArray[np.int64]
    Flags = npt.NDArray[np.bool_]

RED, BLACK = 1, 2  # bit masks of the colours a player may take; also the codes of a due colour

N = TypeVar("N", int, "Ints")


# --------------------------------------------------------------------------- legality (H1–H3, avoidances)


@overload
def may_meet(allowed_i: int, allowed_j: int) -> bool: ...
@overload
def may_meet(allowed_i: Ints, allowed_j: Ints) -> Flags: ...
def may_meet(allowed_i: int | Ints, allowed_j: int | Ints) -> bool | Flags:
    """H3 for the pair: some colour assignment gives each a colour they may take."""
    i_red, i_black = (allowed_i & RED) != 0, (allowed_i & BLACK) != 0
    j_red, j_black = (allowed_j & RED) != 0, (allowed_j & BLACK) != 0
    return (i_red & j_black) | (i_black & j_red)


@overload
def same_class(a: int, b: int) -> bool: ...
@overload
def same_class(a: Ints, b: Ints) -> Flags: ...
def same_class(a: int | Ints, b: int | Ints) -> bool | Flags:
    """Both in one team (H2) or one class of an avoidance rule; −1 is nobody's class."""
    return (a == b) & (a >= 0)


# A pair is legal when it has never met (H1, and no absolutely avoided named pair: the pool keeps
# both as one set of barred partners), is not two teammates where teams are avoided (H2), shares no
# class of an absolute avoidance rule, and ``may_meet`` (H3).


# --------------------------------------------------------------------------- S1: score groups


def skipped_groups(group_i: N, group_j: N) -> N:
    """L of a pair (group_i ≤ group_j): the whole score groups between them (0 inside one group)."""
    return (group_j - group_i - 1) * (group_j > group_i)


# --------------------------------------------------------------------------- S2: colours


def misses(due: N, colour: int) -> N:
    """1 when a player due a colour is given ``colour`` instead (no due colour: never), else 0."""
    return ((due != 0) & (due != colour)) * 1  # type: ignore[no-any-return]


def colour_cost(allowed_i: int, allowed_j: int, due_i: int, due_j: int) -> int:
    """S2 of a legal pair: the fewest players not getting their due colour, over H3-allowed ways."""
    best = 2
    if allowed_i & RED and allowed_j & BLACK:  # i red
        best = misses(due_i, RED) + misses(due_j, BLACK)
    if allowed_i & BLACK and allowed_j & RED:  # i black
        best = min(best, misses(due_i, BLACK) + misses(due_j, RED))
    return best


def colour_kind(allowed: int, due: int) -> int:
    """One code per (allowed, due) for :func:`colour_table` (0 … 15)."""
    return allowed * 4 + due


def colour_table() -> list[list[int]]:
    """``colour_cost`` of every pair of kinds, for lookup (``table[kind_i][kind_j]``)."""
    return [[colour_cost(ka >> 2, kb >> 2, ka & 3, kb & 3) for kb in range(16)] for ka in range(16)]


#: :func:`colour_cost` and :func:`may_meet` by table: what the scalar methods of the pool read, pair by pair
COLOUR_TABLE = colour_table()
MEET_TABLE = [[may_meet(a, b) for b in range(4)] for a in range(4)]


# --------------------------------------------------------------------------- S3: order


def order_within(rank_i: N, rank_j: N, size: N) -> N:
    """S3 of a pair of one score group of ``size``, ranks r < q, h = size // 2: |q − r − h|, plus h when
    both are in the same half (not r < h ≤ q). 1 vs h+1, 2 vs h+2 … cost 0."""
    h = size // 2
    same_half = (rank_i >= h) | (h > rank_j)
    return abs(rank_j - rank_i - h) + h * same_half


def floater_order(rank: N, size: N | int) -> N:
    """The higher player's part of a cross-group pair's S3: places from the bottom of its group."""
    return size - 1 - rank


def opponent_order(rank: N) -> N:
    """The lower player's part of a cross-group pair's S3: places from the top of its group."""
    return rank


@overload
def order_cost(same_group: bool, rank_i: int, rank_j: int, size_i: int) -> int: ...
@overload
def order_cost(same_group: Flags, rank_i: Ints, rank_j: Ints, size_i: Ints) -> Ints: ...
def order_cost(
    same_group: bool | Flags, rank_i: int | Ints, rank_j: int | Ints, size_i: int | Ints
) -> int | Ints:
    """S3 of a pair, i before j in the order (``size_i``: the size of i's group). Across groups the
    natural floater is the lowest-ranked of the higher group meeting the highest of the lower."""
    # the pair's facts are all ints or all arrays (the overloads): the same expressions serve both
    if same_group is True:
        return order_within(rank_i, rank_j, size_i)  # type: ignore[type-var]
    if same_group is False:
        return floater_order(rank_i, size_i) + opponent_order(rank_j)  # type: ignore[type-var]
    within = order_within(rank_i, rank_j, size_i)  # type: ignore[type-var]
    across = floater_order(rank_i, size_i) + opponent_order(rank_j)  # type: ignore[type-var]
    return _pick(same_group, within, across)


# --------------------------------------------------------------------------- S4: floats


@overload
def float_cost(same_group: bool, down_i: int, up_j: int) -> int: ...
@overload
def float_cost(same_group: Flags, down_i: Ints, up_j: Ints) -> Ints: ...
def float_cost(same_group: bool | Flags, down_i: int | Ints, up_j: int | Ints) -> int | Ints:
    """S4 of a pair, i before j: the higher player floated down last round, the lower one up."""
    if same_group is True:
        return 0
    if same_group is False:
        return down_i + up_j
    return _pick(same_group, 0 * down_i, down_i + up_j)


def _pick(flag: bool | Flags, if_true: int | Ints, if_false: int | Ints) -> int | Ints:
    if isinstance(flag, bool):
        return if_true if flag else if_false
    import numpy as np  # only reached with arrays: numpy is already loaded

    return np.where(flag, if_true, if_false)


# --------------------------------------------------------------------------- a cross pair, player by player


def floater_parts(due: N, colour: int, rank: N, size: N | int, down: N) -> tuple[N, N, N]:
    """The higher player's share of a cross-group pair's (S2, S3, S4) once it takes ``colour``.

    With :func:`opponent_parts` (the other colour) it sums to the pair's S3 and S4, and to its S2
    for that colour assignment: the colour gadgets and the large-block ports split each cross pair
    into these two halves.
    """
    return misses(due, colour), floater_order(rank, size), down


def opponent_parts(due: N, colour: int, rank: N, up: N) -> tuple[N, N, N]:
    """The lower player's share of a cross-group pair's (S2, S3, S4) once it takes ``colour``."""
    return misses(due, colour), opponent_order(rank), up
