"""Edge sets: the candidate pairs of a set of players, each with its fields (L, W, S2, S3, S4).

Dense: every legal pair (built pair by pair for small sets, element-wise with numpy from
:attr:`Tuning.numpy_from` players). Sparse (bounded steps and completability in large pools): the
:attr:`Tuning.window` nearest players by order and those around each player's natural partner.
"""

from __future__ import annotations

import bisect

from app.engine.pairing import criteria
from app.engine.pairing.criteria import MEET_TABLE
from app.engine.pairing.lexmatch import EdgeSet
from app.engine.pairing.pool import OrderedPool

LOW_FIELDS = 5  # the fields after the cuts: L, W, S2, S3, S4


def dense_edges(pool: OrderedPool, members: list[int]) -> list[tuple[int, int]]:
    """Every legal pair of ``members`` (ascending): :meth:`OrderedPool.legal`'s tests (H1 and the
    named bars, H3, H2 when in force, the absolute avoidances when any) applied a player ``i`` at a
    time — what ``i`` brings to each test read once, not once per pair."""
    blocked, allowed, team = pool.blocked, pool.allowed, pool.team
    avoided = pool.avoided if pool.constraints is not None else None
    edges: list[tuple[int, int]] = []
    for a, i in enumerate(members):
        barred, meets = blocked[i], MEET_TABLE[allowed[i]]
        later = [j for j in members[a + 1 :] if j not in barred and meets[allowed[j]]]
        own = team[i] if pool.avoid_teams else -1
        if own >= 0:  # criteria.same_class: one team, −1 being nobody's
            later = [j for j in later if team[j] != own]
        if avoided is not None:
            later = [j for j in later if not avoided(i, j)]
        edges += [(i, j) for j in later]
    return edges


def sparse_edges(pool: OrderedPool, members: list[int]) -> list[tuple[int, int]]:
    """Legal edges to the nearest players by order and around each player's natural partner."""
    legal = pool.legal
    window = pool.tuning.window
    edges: set[tuple[int, int]] = set()
    m = len(members)
    for a, i in enumerate(members):
        for j in members[a + 1 : a + 1 + window]:
            if legal(i, j):
                edges.add((i, j))
        g = pool.grp[i]
        size = pool.group_size[g]
        h = size // 2
        r = pool.rank[i]
        partner = pool.group_start[g] + (r + h if r < h else r - h)
        lo = bisect.bisect_left(members, partner - window)
        hi = min(m, bisect.bisect_right(members, partner + window))
        for j in members[lo:hi]:
            if j != i and legal(i, j):
                edges.add((min(i, j), max(i, j)))
    return sorted(edges)


def edge_set(
    pool: OrderedPool, members: list[int], glo: int, sparse: bool = False, dummy_group: int | None = None
) -> EdgeSet:
    """Every legal pair of ``members`` (or the sparse candidates) with its fields, by local index.

    ``dummy_group``: an odd step may leave one player of that group over (meeting a dummy, at the
    cost of floating to the bottom of the group).
    """
    if not sparse and len(members) >= pool.tuning.numpy_from:
        edges = _dense_edge_set_numpy(pool, members, glo)
    else:
        pairs = sparse_edges(pool, members) if sparse else dense_edges(pool, members)
        edges = edges_of(pool, members, glo, pairs)
    if dummy_group is None:
        return edges
    dummy = [
        (t, (0, 0, 0, criteria.floater_order(pool.rank[x], pool.group_size[dummy_group]), 0))
        for t, x in enumerate(members)
        if pool.grp[x] == dummy_group
    ]
    return EdgeSet(edges.i, edges.j, edges.gi, edges.gj, edges.low, dummy)


def edges_of(pool: OrderedPool, members: list[int], glo: int, pairs: list[tuple[int, int]]) -> EdgeSet:
    """The edge set of the given legal ``pairs`` of ``members`` (groups from ``glo``), every field."""
    local = {x: t for t, x in enumerate(members)}
    grp, rank, size, kind, down, up = pool.grp, pool.rank, pool.group_size, pool.kind, pool.down, pool.up
    weak = [pool.weak_cost(i, j) for i, j in pairs] if pool.weak else [0] * len(pairs)
    # the pool's criteria (OrderedPool.skipped_groups, colour_cost …), read pair by pair without the
    # method calls: this is the hot loop of every block solved pair by pair
    skipped_groups, order_cost, float_cost = criteria.skipped_groups, criteria.order_cost, criteria.float_cost
    table = criteria.COLOUR_TABLE
    return EdgeSet(
        i=[local[i] for i, _ in pairs],
        j=[local[j] for _, j in pairs],
        gi=[grp[i] - glo for i, _ in pairs],
        gj=[grp[j] - glo for _, j in pairs],
        low=(
            [skipped_groups(grp[i], grp[j]) for i, j in pairs],
            weak,
            [table[kind[i]][kind[j]] for i, j in pairs],
            [order_cost(grp[i] == grp[j], rank[i], rank[j], size[grp[i]]) for i, j in pairs],
            [float_cost(grp[i] == grp[j], down[i], up[j]) for i, j in pairs],
        ),
    )


def _dense_edge_set_numpy(pool: OrderedPool, members: list[int], glo: int) -> EdgeSet:
    from app.engine.pairing.arrays import pair_fields  # numpy: imported for large blocks only

    f = pair_fields(pool, members)
    return EdgeSet(
        i=f.a.tolist(),
        j=f.b.tolist(),
        gi=(f.gi - glo).tolist(),
        gj=(f.gj - glo).tolist(),
        low=(
            f.skip.tolist(),
            [0] * len(f.a) if f.w is None else f.w.tolist(),
            f.s2.tolist(),
            f.s3.tolist(),
            f.s4.tolist(),
        ),
    )
