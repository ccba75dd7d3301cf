"""Exact lexicographic minimum-cost perfect matching, for any number of criteria.

The pairing objective (:mod:`app.engine.pairing.engine`) is a vector compared lexicographically:
one field per score cut (the pairs crossing it, top cut first), then the *low* fields — L, W, S2, S3,
S4 for the engine (any number of them here). Every field is
a sum over the pairs, so a vector packs into one integer per edge — but the matcher (rustworkx,
Edmonds' blossom algorithm on 128-bit integers) takes integers below 2**126, and one field per
score cut does not fit when there are many score groups. Nothing here folds fields together;
instead the fields are split across solves, each of which is exact:

**Packing.** Fields ``f_1 ≫ f_2 ≫ … ≫ f_m``; each has a bound ``B_j`` on its value in the optimum
and a step ``d_j`` (the smallest possible difference between two perfect matchings: 2 for a cut,
by parity — a cut with ``N`` players above it is crossed by ``N mod 2`` pairs plus an even number
— else 1). With multipliers ``mult_m = 1`` and ``mult_i = ⌊Σ_{j>i} mult_j·B_j / d_i⌋ + 1`` the
packed cost ``P = Σ mult_j f_j`` orders lexicographically: if ``M*`` is the lexicographic optimum
and ``M'`` is worse, first at field ``i``, then ``P(M') − P(M*) ≥ d_i·mult_i − Σ_{j>i} mult_j·f_j(M*)
≥ d_i·mult_i − Σ_{j>i} mult_j·B_j > 0`` (every field is ≥ 0). So the minimum of ``P`` is the
lexicographic optimum. ``B_j`` only has to bound the *optimum's* value: the whole range (the
number of pairs × the largest value on one edge) for a field not yet solved, and the exact
optimal value for a cut already solved.

**Stages.** If the whole vector fits, one solve. Otherwise a stage solves the fields already known
(bound = their optimal value, so a cut costs a bit or two) and the longest run of the next fields
that fits with their whole range; the optimum of that stage is the lexicographic optimum of that
prefix of the vector, whose values become known. The last stage holds every field. Each stage's
answer is exact by the inequality above, whatever the number of score groups.
"""

from __future__ import annotations

from collections.abc import Sequence

import rustworkx as rx

from app.engine.records import frozen

WEIGHT_LIMIT = 1 << 120  # rustworkx uses i128 and doubles weights inside; measured safe below 2**126


@frozen
class EdgeSet:
    """Candidate pairs of a block of ``m`` players, by local index (``i < j`` in pool order).

    ``gi``/``gj`` are the block-relative score groups of the two players (``gi ≤ gj``): the pair
    crosses the block's cuts ``gi … gj − 1``. ``low[f][e]`` is low field f of edge e, most
    significant first (the engine's L, W, S2, S3, S4); every field is ≥ 0.
    ``dummy`` lists players who may instead meet a dummy (an odd step leaving one player over),
    with their low fields for that: ``(player, (L, W, S2, S3, S4))``; the dummy crosses no cut.
    """

    i: Sequence[int]
    j: Sequence[int]
    gi: Sequence[int]
    gj: Sequence[int]
    low: tuple[Sequence[int], ...]
    dummy: Sequence[tuple[int, tuple[int, ...]]] = ()


@frozen
class LexResult:
    pairs: list[tuple[int, int]]  # local (i, j), i < j; a dummy pair is left out
    cuts: list[int]  # pairs crossing each block cut
    low: tuple[int, ...]  # the low fields of the matching (L, W, S2, S3, S4)
    left_over: int | None  # the player matched with the dummy, if any
    solves: int  # how many matchings it took


@frozen
class _Field:
    bound: int
    step: int
    edge_max: int


def multipliers(fields: Sequence[_Field], weight_limit: int | None = None) -> list[int] | None:
    """Multipliers for the packing above; None if the largest edge value reaches the weight limit."""
    mults = [0] * len(fields)
    below = 0  # Σ_{j>i} mult_j·B_j
    for t in range(len(fields) - 1, -1, -1):
        f = fields[t]
        mults[t] = below // f.step + 1
        below += mults[t] * f.bound
    top = sum(m * f.edge_max for m, f in zip(mults, fields, strict=True))
    return mults if top < (WEIGHT_LIMIT if weight_limit is None else weight_limit) else None


def lex_perfect_matching(
    m: int, group_sizes: Sequence[int], edges: EdgeSet, weight_limit: int | None = None
) -> LexResult | None:
    """The lexicographic optimum (cuts top down, then the low fields in order) over perfect matchings.

    ``group_sizes`` are the sizes of the block's score groups, top first (they give the cut
    ranges). With ``edges.dummy`` the block has an odd number of players and exactly one of
    those may be left over. None when no perfect matching exists on ``edges``. ``weight_limit``:
    the largest packed edge weight of one solve (default :data:`WEIGHT_LIMIT`; smaller values
    force the staged solves).
    """
    ncut = len(group_sizes) - 1
    half = (m + 1) // 2
    above = 0
    cut_range = []
    for t in range(ncut):
        above += group_sizes[t]
        cut_range.append(min(above, m - above, half))
    cut_step = 1 if edges.dummy else 2
    nlow = len(edges.low)
    low_max = [max(col, default=0) for col in edges.low]
    for f in range(nlow):
        low_max[f] = max([low_max[f]] + [d[1][f] for d in edges.dummy])
    step = [cut_step] * ncut + [1] * nlow
    edge_max = [1] * ncut + low_max
    full = cut_range + [half * x for x in low_max]
    total = ncut + nlow
    known: list[int] = []  # optimal values of the first fields, from earlier stages
    solves = 0
    while True:
        fields = [_Field(known[t] if t < len(known) else full[t], step[t], edge_max[t]) for t in range(total)]
        end = total
        mults = multipliers(fields, weight_limit)
        while mults is None and end > len(known) + 1:
            end -= 1
            mults = multipliers(fields[:end], weight_limit)
        if mults is None:  # pragma: no cover - one field of any range fits 2**120
            raise AssertionError("a single field does not fit the matcher's width")
        mults = mults + [0] * (total - end)
        result = _solve(m, edges, mults[:ncut], mults[ncut:])
        solves += 1
        if result is None:
            return None
        pairs, cuts, low, left = result
        if end == total:
            return LexResult(pairs, cuts, low, left, solves)
        known = (cuts + list(low))[:end]


def _solve(
    m: int, edges: EdgeSet, cut_mult: Sequence[int], low_mult: Sequence[int]
) -> tuple[list[tuple[int, int]], list[int], tuple[int, ...], int | None] | None:
    cum = [0]
    for c in cut_mult:
        cum.append(cum[-1] + c)
    nlow = len(low_mult)
    # the fields that can be non-zero (within one score group L, S4 and the cuts are 0), summed in one
    # pass over the edges: each pass of its own made a list of large integers per field
    crossing = list(edges.gi) != list(edges.gj)
    active = [
        (column, mult) for column, mult in zip(edges.low, low_mult, strict=True) if mult and any(column)
    ]
    cost = _packed_costs(
        [cum[b] - cum[a] for a, b in zip(edges.gi, edges.gj, strict=True)] if crossing else None,
        active,
        len(edges.i),
    )
    dummy_cost = [sum(x * y for x, y in zip(d, low_mult, strict=True)) for _, d in edges.dummy]
    top = max(cost + dummy_cost, default=0) + 1
    g = rx.PyGraph()
    g.add_nodes_from(range(m + (1 if edges.dummy else 0)))
    g.add_edges_from(list(zip(edges.i, edges.j, map(top.__sub__, cost), strict=True)))
    if edges.dummy:
        g.add_edges_from([(x, m, top - c) for (x, _), c in zip(edges.dummy, dummy_cost, strict=True)])
    matching = rx.max_weight_matching(g, max_cardinality=True, weight_fn=int)
    ncut = len(cut_mult)
    cuts = [0] * ncut
    low = [0] * nlow
    pairs: list[tuple[int, int]] = []
    left: int | None = None
    for u, v in matching:
        if u == m or v == m:
            left = v if u == m else u
            d = next(d for x, d in edges.dummy if x == left)
            for f in range(nlow):
                low[f] += d[f]
            continue
        a, b = min(u, v), max(u, v)
        e = g.edge_indices_from_endpoints(a, b)[0]  # edges were added in order: index = position
        for t in range(edges.gi[e], edges.gj[e]):
            cuts[t] += 1
        for f in range(nlow):
            low[f] += edges.low[f][e]
        pairs.append((a, b))
    if len(pairs) != m // 2 or (m % 2 == 1) != (left is not None):
        return None
    return pairs, cuts, tuple(low), left


def _packed_costs(cut_cost: list[int] | None, active: list[tuple[Sequence[int], int]], n: int) -> list[int]:
    """``cut_cost[e] + Σ column[e]·mult`` over the ``active`` (column, multiplier) pairs, for the ``n``
    edges (``cut_cost`` None: the cuts cost nothing). The same sums as a pass per field, computed
    edge by edge for up to three fields, then a field at a time."""
    if cut_cost is None:
        if not active:
            return [0] * n
        (c0, m0), *active = active
        cost = [y * m0 for y in c0]
    else:
        cost = cut_cost
    while len(active) >= 3:
        (c0, m0), (c1, m1), (c2, m2), *active = active
        cost = [x + a * m0 + b * m1 + c * m2 for x, a, b, c in zip(cost, c0, c1, c2, strict=True)]
    if len(active) == 2:
        (c0, m0), (c1, m1) = active
        cost = [x + a * m0 + b * m1 for x, a, b in zip(cost, c0, c1, strict=True)]
    elif active:
        (c0, m0) = active[0]
        cost = [x + a * m0 for x, a in zip(cost, c0, strict=True)]
    return cost


def max_gain_matching(m: int, edges: Sequence[tuple[int, int, int]]) -> list[tuple[int, int]]:
    """A maximum-weight (not necessarily perfect) matching on edges with positive integer gains."""
    g = rx.PyGraph()
    g.add_nodes_from(range(m))
    g.add_edges_from([e for e in edges if e[2] > 0])
    return [(min(u, v), max(u, v)) for u, v in rx.max_weight_matching(g, weight_fn=int)]
