"""Boards and colours: the pairs in board order, and who takes Red (docs/rules.md §5, colour allocation).

Boards run from the top score down. For each pair the colours follow (a) H3, (b) the larger
imbalance, (c) the higher-ranked player's due colour, (d) with no history for either, the lot
drawn from the seed (board 1's top player), alternating by board. The allocation always gives
the pair's S2 (:func:`app.engine.pairing.criteria.colour_cost`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from app.engine.pairing.explain import explain
from app.engine.pairing.model import ColourReason, PairedGame, PairingPlayer
from app.engine.pairing.pool import OrderedPool
from app.engine.types import Colour


def boards_and_colours(
    pool: OrderedPool, pairs: Sequence[tuple[int, int]], exact: bool, seed: int
) -> tuple[PairedGame, ...]:
    """The games of these pairs (pool indices), with boards, colours and why (``exact``: proved optimum)."""
    ordered = sorted(pairs, key=lambda e: (-pool.score[e[0]], -pool.score[e[1]], e[0]))
    partner = {i: j for i, j in ordered} | {j: i for i, j in ordered}
    lot = random.Random(seed).choice((Colour.RED, Colour.BLACK))
    # groups that send a floater down / receive one: a float between neighbours that continues
    # (or is continued) is part of a chain of short floats
    sends = {pool.grp[i] for i, j in ordered if pool.grp[j] == pool.grp[i] + 1}
    received = [0] * pool.k  # floaters each group received from above
    for i, j in ordered:
        if pool.grp[j] != pool.grp[i]:
            received[pool.grp[j]] += 1
    receives = {pool.grp[j] for i, j in ordered if pool.grp[j] == pool.grp[i] + 1}
    games = []
    for board, (i, j) in enumerate(ordered, start=1):
        i_red, reason = allocate_colours(pool.players[i], pool.players[j], board, lot)
        red, black = (i, j) if i_red else (j, i)
        chain = pool.grp[j] == pool.grp[i] + 1 and (pool.grp[i] in receives or pool.grp[j] in sends)
        games.append(
            PairedGame(
                board=board,
                red=pool.no[red],
                black=pool.no[black],
                explanation=explain(pool, i, j, red, reason, partner, chain, exact, received[pool.grp[i]]),
            )
        )
    return tuple(games)


def allocate_colours(
    higher: PairingPlayer, lower: PairingPlayer, board: int, lot: Colour
) -> tuple[bool, ColourReason]:
    """Whether ``higher`` (the higher-ranked of the pair) gets red, and why (docs/rules.md §5 (a)–(d)).

    >>> a = PairingPlayer(no=1, score=2, colours=(Colour.RED,))
    >>> b = PairingPlayer(no=2, score=2, colours=(Colour.RED,))
    >>> allocate_colours(a, b, board=1, lot=Colour.RED)
    (False, <ColourReason.HIGHER_RANKED: 'higher_ranked'>)
    """
    legal_red = higher.may_take(Colour.RED) and lower.may_take(Colour.BLACK)
    legal_black = higher.may_take(Colour.BLACK) and lower.may_take(Colour.RED)
    if legal_red != legal_black:
        return legal_red, ColourReason.HARD_CONSTRAINT
    hd, ld = higher.due_colour, lower.due_colour
    if hd is None and ld is None:
        parity = lot if board % 2 == 1 else lot.other
        return parity is Colour.RED, ColourReason.LOT
    if hd is None or ld is None or hd is not ld:
        red_for_higher = hd is Colour.RED if hd is not None else ld is Colour.BLACK
        return red_for_higher, ColourReason.BOTH_DUE
    hi_imb, lo_imb = higher.imbalance, lower.imbalance
    if abs(hi_imb) != abs(lo_imb):
        if abs(hi_imb) > abs(lo_imb):
            return hi_imb < 0, ColourReason.IMBALANCE
        return lo_imb > 0, ColourReason.IMBALANCE
    return hd is Colour.RED, ColourReason.HIGHER_RANKED
