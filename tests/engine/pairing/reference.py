"""An independent, brute-force reading of docs/rules.md §5 and the objective in the engine's docstring.

Written without the engine's weight packing: legality, the bye, and the lexicographic objective
(S1 cut crossings from the top, then the score groups floated past — a chain of short floats
beats one long float, docs/rules.md §5; W weak avoidances broken (尽量回避); S2 players without their
due colour; S3 order cost; S4 repeated floats) are computed directly, and every perfect pairing
is considered: one by one (:func:`perfect_pairings`, :func:`best_objective_by_enumeration`), or
by exhaustive dynamic programming over the set of players still unpaired (:func:`has_pairing`,
:func:`best_objective`: the same answers, checked against the enumeration in test_reference.py, at
a fraction of the cost on 12 players). An absolutely avoided pair is illegal, like a rematch. The avoidances themselves are
read through :class:`RoundConstraints` (``forbidden`` / ``weak`` of a pair: what the regulation and
the arbiter said), never through the engine.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache

from app.engine.pairing import Float, PairingPlayer
from app.engine.pairing.constraints import RoundConstraints
from app.engine.types import Colour

R, B = Colour.RED, Colour.BLACK


def may_take(p: PairingPlayer, c: Colour) -> bool:
    seq = [*p.colours, c]
    if len(seq) >= 3 and seq[-1] == seq[-2] == seq[-3]:
        return False
    return abs(seq.count(R) - seq.count(B)) <= 2


def legal(
    p: PairingPlayer, q: PairingPlayer, avoid_teams: bool, constraints: RoundConstraints | None = None
) -> bool:
    if q.no in p.opponents or p.no in q.opponents:
        return False
    if avoid_teams and p.team is not None and p.team == q.team:
        return False
    if constraints is not None and constraints.forbidden(p.no, q.no) is not None:
        return False
    return (may_take(p, R) and may_take(q, B)) or (may_take(p, B) and may_take(q, R))


def ordered(players: Sequence[PairingPlayer], by_tiebreaks: bool) -> list[PairingPlayer]:
    return sorted(players, key=lambda p: (-p.score, p.rank_key if by_tiebreaks else (), p.no))


def perfect_pairings(
    players: list[PairingPlayer], avoid: bool, constraints: RoundConstraints | None = None
) -> Iterator[list[tuple[PairingPlayer, PairingPlayer]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for t, other in enumerate(rest):
        if legal(first, other, avoid, constraints):
            for tail in perfect_pairings(rest[:t] + rest[t + 1 :], avoid, constraints):
                yield [(first, other), *tail]


def _legal_pairs(
    players: Sequence[PairingPlayer], avoid: bool, constraints: RoundConstraints | None
) -> list[tuple[int, int]]:
    """The legal pairs (i, j), i < j, of the players by their positions in ``players``."""
    m = len(players)
    return [
        (i, j) for i in range(m) for j in range(i + 1, m) if legal(players[i], players[j], avoid, constraints)
    ]


def _least_sum(m: int, share: dict[tuple[int, int], tuple[int, ...]], width: int) -> tuple[int, ...] | None:
    """The least sum of the pairs' shares (equal-length integer vectors, compared lexicographically)
    over every perfect pairing of players 0..m-1 made of the pairs in ``share``; None if there is none.

    Every perfect pairing pairs the lowest unpaired player with one partner and the rest among
    themselves, so the least sum over a set of players is the least, over that player's partners, of
    the pair's share plus the least sum over the rest: adding one vector to two sums keeps their
    lexicographic order. Each set of unpaired players is solved once."""
    partners: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(m)]
    for (i, j), vector in share.items():
        partners[i].append((j, vector))
    zero = (0,) * width

    @cache
    def least(unpaired: int) -> tuple[int, ...] | None:
        if not unpaired:
            return zero
        i = (unpaired & -unpaired).bit_length() - 1
        best: tuple[int, ...] | None = None
        for j, vector in partners[i]:
            if unpaired >> j & 1:
                rest = least(unpaired & ~(1 << i | 1 << j))
                if rest is not None:
                    value = tuple(x + y for x, y in zip(vector, rest, strict=True))
                    if best is None or value < best:
                        best = value
        return best

    return least((1 << m) - 1)


def has_pairing(
    players: list[PairingPlayer], avoid: bool, constraints: RoundConstraints | None = None
) -> bool:
    """Whether some perfect pairing of ``players`` has only legal pairs."""
    return (
        _least_sum(len(players), dict.fromkeys(_legal_pairs(players, avoid, constraints), ()), 0) is not None
    )


def expected_bye(
    players: list[PairingPlayer], avoid: bool, by_tiebreaks: bool, constraints: RoundConstraints | None = None
) -> int | str | None:
    """The bye's sequence number, None for an even pool, or "impossible"."""
    order = ordered(players, by_tiebreaks)
    if len(order) % 2 == 0:
        return None if has_pairing(order, avoid, constraints) else "impossible"
    for cand in reversed(order):
        if cand.byes == 0 and has_pairing([p for p in order if p is not cand], avoid, constraints):
            return cand.no
    return "impossible"


def due(p: PairingPlayer) -> Colour | None:
    return None if not p.colours else (B if p.colours[-1] is R else R)


def unsatisfied(p: PairingPlayer, got: Colour) -> int:
    d = due(p)
    return int(d is not None and d is not got)


Objective = tuple[tuple[int, ...], int, int, int, int, int]


class _Pool:
    """What the objective reads of the whole pool: its score groups, each player's rank and group size."""

    def __init__(self, players: Sequence[PairingPlayer], by_tiebreaks: bool) -> None:
        pool = ordered(players, by_tiebreaks)
        scores = sorted({p.score for p in pool}, reverse=True)
        self.groups = len(scores)
        self.group = {p.no: scores.index(p.score) for p in pool}
        members = [[p for p in pool if self.group[p.no] == g] for g in range(len(scores))]
        self.rank = {p.no: members[self.group[p.no]].index(p) for p in pool}
        self.size = {p.no: len(members[self.group[p.no]]) for p in pool}
        self.position = {p.no: t for t, p in enumerate(pool)}


#: one pair's share of the objective: (the cuts it crosses as a range, groups floated past, W, S2, S3, S4)
_Terms = tuple[range, int, int, int, int, int]


def _terms(
    ctx: _Pool,
    a: PairingPlayer,
    b: PairingPlayer,
    colours: dict[int, Colour] | None,
    constraints: RoundConstraints | None,
) -> _Terms:
    w = len(constraints.weak(a.no, b.no)) if constraints is not None else 0
    group, rank, size = ctx.group, ctx.rank, ctx.size
    hi, lo = (a, b) if ctx.position[a.no] < ctx.position[b.no] else (b, a)
    crossed = range(group[hi.no], group[lo.no])
    # 近分者对弈: every whole score group strictly between the two players counts
    skipped = len([g for g in range(ctx.groups) if group[hi.no] < g < group[lo.no]])
    if colours is not None:
        s2 = unsatisfied(hi, colours[hi.no]) + unsatisfied(lo, colours[lo.no])
    else:
        options = [
            unsatisfied(hi, c) + unsatisfied(lo, c.other)
            for c in (R, B)
            if may_take(hi, c) and may_take(lo, c.other)
        ]
        s2 = min(options)
    s4 = 0
    if group[hi.no] == group[lo.no]:
        h = size[hi.no] // 2
        r, q = rank[hi.no], rank[lo.no]
        s3 = abs(q - r - h) + (0 if r < h <= q else h)
    else:
        s3 = (size[hi.no] - 1 - rank[hi.no]) + rank[lo.no]
        last_hi = hi.float_history[-1] if hi.float_history else Float.NONE
        last_lo = lo.float_history[-1] if lo.float_history else Float.NONE
        s4 = (last_hi is Float.DOWN) + (last_lo is Float.UP)
    return crossed, skipped, w, s2, s3, s4


def _total(ctx: _Pool, terms: Sequence[_Terms]) -> Objective:
    cuts = [0] * max(ctx.groups - 1, 0)
    skipped = w = s2 = s3 = s4 = 0
    for crossed, k, w_, s2_, s3_, s4_ in terms:
        for c in crossed:
            cuts[c] += 1
        skipped, w, s2, s3, s4 = skipped + k, w + w_, s2 + s2_, s3 + s3_, s4 + s4_
    return tuple(cuts), skipped, w, s2, s3, s4


def objective(
    pairs: Sequence[tuple[PairingPlayer, PairingPlayer]],
    colours: dict[int, Colour] | None,
    by_tiebreaks: bool,
    constraints: RoundConstraints | None = None,
) -> Objective:
    """(S1 cut vector, S1 groups floated past, W, S2, S3, S4) of a perfect pairing of the (bye-less)
    pool; W counts each weak avoidance a pair breaks.

    With ``colours`` given (sequence number → colour) S2 counts what was really allocated,
    otherwise the best allowed allocation of each pair. Each criterion is a sum over the pairs
    (S1's cuts too: a pair crosses each cut between its two groups once).
    """
    ctx = _Pool([p for e in pairs for p in e], by_tiebreaks)
    return _total(ctx, [_terms(ctx, a, b, colours, constraints) for a, b in pairs])


def best_objective(
    players: list[PairingPlayer], avoid: bool, by_tiebreaks: bool, constraints: RoundConstraints | None = None
) -> Objective | None:
    """The least objective over every perfect pairing, by :func:`_least_sum` over the pairs' shares
    flattened to one vector (the cut vector, then the five sums: its length is the same for every
    pair of the pool, so the flat vectors compare as the objectives do)."""
    ctx = _Pool(players, by_tiebreaks)
    order = ordered(players, by_tiebreaks)
    width = max(ctx.groups - 1, 0)
    share: dict[tuple[int, int], tuple[int, ...]] = {}
    for i, j in _legal_pairs(order, avoid, constraints):
        crossed, *sums = _terms(ctx, order[i], order[j], None, constraints)
        share[i, j] = tuple(int(c in crossed) for c in range(width)) + tuple(sums)
    flat = _least_sum(len(order), share, width + 5)
    if flat is None:
        return None
    skipped, w, s2, s3, s4 = flat[width:]
    return flat[:width], skipped, w, s2, s3, s4


def best_objective_by_enumeration(
    players: list[PairingPlayer], avoid: bool, by_tiebreaks: bool, constraints: RoundConstraints | None = None
) -> Objective | None:
    """The least objective over every perfect pairing, enumerated one by one (each pair's share
    computed once): the plain reading :func:`best_objective` is checked against."""
    ctx = _Pool(players, by_tiebreaks)
    shares: dict[tuple[int, int], _Terms] = {}
    best = None
    for pairs in perfect_pairings(ordered(players, by_tiebreaks), avoid, constraints):
        terms = []
        for a, b in pairs:
            key = (a.no, b.no)
            if key not in shares:
                shares[key] = _terms(ctx, a, b, None, constraints)
            terms.append(shares[key])
        value = _total(ctx, terms)
        if best is None or value < best:
            best = value
    return best
