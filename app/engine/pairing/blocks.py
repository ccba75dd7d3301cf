"""Blocks: the round split into runs of score groups, each solved exactly (docs/rules.md §5).

**Decomposition into blocks (proved).** For every perfect pairing, ``x_c ≥ π_c`` where ``π_c`` is
the parity of the number of players above cut c. Blocks are runs of score groups between cuts
with ``π_c = 0``, taken from the top: the block ``G_s … G_e`` (s just below an accepted cut) is
solved exactly on every legal edge; it is *accepted* — the round splits at cut e — when the rest
of the pool below e has a legal perfect pairing and either

- (a) the block's optimum crosses each of its inner cuts exactly ``π_c`` times: the prefix of the
  cut vector down to e then equals the lower bound ``π`` (the cut e itself: 0), so every optimum
  of the whole round crosses cut e zero times, and the lexicographic optimum of a pairing that
  does not cross e is the union of the optima of the two sides (every field is a sum; the set of
  such pairings is a product); or
- (b) a relaxation says so: the block's players may each float below e at the cost of crossing
  every cut from their group through e (a relaxation of every real pairing of the rest of the
  pool); if its lexicographic optimum of ``(x_s … x_{e-1}, x_e)`` floats nobody, the real prefix
  optimum is reached without crossing e, and the round splits at e as in (a).

Otherwise the block grows to the next cut with ``π_c = 0``; the last block is the rest of the
pool, solved exactly. So the answer is the lexicographic optimum of the whole round — the tests
compare it with exhaustive enumeration on small pools with many score groups, with and without
avoidances.

**The proofs under avoidances.** (a) needs only that every field after the cuts is a sum over
pairs (W is) and that feasibility of the rest is checked on the legal edges (absolute avoidances
removed). (b) relaxes the block's floaters only; the pairs inside the block are the legal ones, so
every real pairing still maps into the relaxation with the same cut prefix. The two shortcuts
inside a block are relaxations whose answer is accepted only when it is real and costs what the
relaxation says: the colour gadgets (:func:`solve_chain`) drop W on the pairs they join, so their
answer is accepted only when each joined pair is legal *and* breaks no weak avoidance (then the
relaxed cost is the real cost, and the relaxed optimum is a lower bound of every real pairing
with the same cuts); the band of one score group (:func:`solve_group_banded`) is accepted only
when it reaches the lower bounds W = 0 and the colour bound. Anything else falls back to the
block on every legal edge.

**Large blocks** (beyond :attr:`Tuning.exact_block_limit` **in pools larger than** :attr:`Tuning.exact_pool_limit`:
score groups of a thousand occur in pools of several thousand players). A block whose inner cuts
are all odd is solved by :mod:`app.engine.pairing.large` on sparse candidate pairs: each score
group on its own, with the cross pair at each cut split into two ports, its optimum proved by an
LP duality certificate checked over every legal pair; the colours and cross pairs are then chosen
exactly across the groups (the proof is in that module's docstring). An absolutely avoided pair is
an illegal pair of its group, W one more packed field; a cross pair that may not meet or breaks a
weak avoidance is branched on. The answer is the block's lexicographic optimum and is accepted as
any other block (test (a)).
"""

from __future__ import annotations

from collections.abc import Sequence

from app.engine.pairing import criteria
from app.engine.pairing.criteria import BLACK, RED
from app.engine.pairing.edges import LOW_FIELDS, edge_set, edges_of
from app.engine.pairing.lexmatch import EdgeSet, lex_perfect_matching, max_gain_matching
from app.engine.pairing.pool import OrderedPool
from app.engine.records import frozen


@frozen
class Block:
    """A block's optimum: its pairs, the pairs crossing each inner cut, who is left over (odd steps)."""

    pairs: list[tuple[int, int]]  # pool indices, i < j
    cuts: list[int]
    left_over: int | None
    solves: int


def whole_pool_optimum(pool: OrderedPool) -> list[tuple[int, int]] | None:
    """The lexicographic optimum of the whole (even) pool in one matching on every legal pair.

    No decomposition and no shortcut: slow on large pools, it is the reference the decomposition
    is proved against (the tests compare the engine's answer with it on pools far too large to
    enumerate). None when the pool has no legal perfect pairing.
    """
    block = solve_block(pool, list(range(pool.n)), 0, pool.k - 1)
    return None if block is None else block.pairs


def solve_block(
    pool: OrderedPool,
    members: list[int],
    glo: int,
    ghi: int,
    sparse: bool = False,
    dummy_group: int | None = None,
) -> Block | None:
    """The exact lexicographic optimum of ``members`` (groups glo..ghi) on their edge set."""
    edges = edge_set(pool, members, glo, sparse, dummy_group)
    sizes = [0] * (ghi - glo + 1)
    for x in members:
        sizes[pool.grp[x] - glo] += 1
    result = lex_perfect_matching(len(members), sizes, edges, pool.tuning.weight_limit)
    if result is None:
        return None
    pairs = [(members[a], members[b]) for a, b in result.pairs]
    left = None if result.left_over is None else members[result.left_over]
    return Block(pairs, result.cuts, left, result.solves)


def solve_chain(pool: OrderedPool, start: int, end: int) -> Block | None:
    """A block whose inner cuts are all odd, without its dense cross edges, where a proof allows.

    If the block's optimum crosses each inner cut once between neighbouring groups (cuts = π,
    L = 0: the lower bounds), its cross pair at a cut costs a part that depends on the floater
    alone (S3: distance from the bottom of its group; S4; its colour miss once the colour it gets
    is fixed) plus a part that depends on its opponent alone. So every cross edge is replaced by a
    gadget per colour the floater may get: floater — P, P — Q, Q — opponent (the floater's part
    on the first edge, which crosses the cut; the opponent's part on the last; P — Q free, taken
    when the gadget is unused). This is a relaxation (it does not check H1/H2 or the absolute
    avoidances between the two players it joins, and it counts no W on that pair): if its optimum
    crosses each cut once, uses no long float, and every pair it joins is legal and breaks no weak
    avoidance (so that its real cost is the relaxed cost), that pairing is the block's
    lexicographic optimum. Otherwise None (the caller solves the block on every legal edge).
    """
    members = pool.group_members(start, end)
    local = {x: t for t, x in enumerate(members)}
    ii: list[int] = []
    jj: list[int] = []
    gi: list[int] = []
    gj: list[int] = []
    low: list[list[int]] = [[] for _ in range(LOW_FIELDS)]
    for g in range(start, end + 1):
        group = pool.group_members(g, g)
        edges = edge_set(pool, group, g)
        offset = local[group[0]]
        ii.extend(t + offset for t in edges.i)
        jj.extend(t + offset for t in edges.j)
        gi.extend([g - start] * len(edges.i))
        gj.extend([g - start] * len(edges.i))
        for f in range(LOW_FIELDS):
            low[f].extend(edges.low[f])
    sizes = [pool.group_size[g] for g in range(start, end + 1)]
    node = len(members)
    gadgets: list[tuple[int, int]] = []  # (P, Q) nodes
    for c in range(start, end):
        upper = range(pool.group_start[c], pool.group_start[c] + pool.group_size[c])
        lower = range(pool.group_start[c + 1], pool.group_start[c + 1] + pool.group_size[c + 1])
        for mask in (RED, BLACK):
            p_node, q_node = node, node + 1
            node += 2
            sizes[c + 1 - start] += 2
            gadgets.append((p_node, q_node))

            def add(a: int, b: int, g_a: int, g_b: int, fields: tuple[int, int, int, int, int]) -> None:
                ii.append(a)
                jj.append(b)
                gi.append(g_a)
                gj.append(g_b)
                for f in range(LOW_FIELDS):
                    low[f].append(fields[f])

            add(p_node, q_node, c + 1 - start, c + 1 - start, (0, 0, 0, 0, 0))
            size = pool.group_size[c]
            for v in upper:
                if pool.allowed[v] & mask:
                    part = criteria.floater_parts(pool.due[v], mask, pool.rank[v], size, pool.down[v])
                    add(local[v], p_node, c - start, c + 1 - start, (0, 0, *part))
            other = BLACK if mask == RED else RED
            for u in lower:
                if pool.allowed[u] & other:
                    part = criteria.opponent_parts(pool.due[u], other, pool.rank[u], pool.up[u])
                    add(local[u], q_node, c + 1 - start, c + 1 - start, (0, 0, *part))
    result = lex_perfect_matching(node, sizes, EdgeSet(ii, jj, gi, gj, tuple(low)), pool.tuning.weight_limit)
    if result is None or any(x != 1 for x in result.cuts) or result.low[0]:
        return None
    partner: dict[int, int] = {}
    pairs: list[tuple[int, int]] = []
    for a, b in result.pairs:
        if a < len(members) and b < len(members):
            pairs.append((members[a], members[b]))
        else:
            partner[a] = b
            partner[b] = a
    for p_node, q_node in gadgets:
        if partner.get(p_node) == q_node:
            continue
        v, u = members[partner[p_node]], members[partner[q_node]]
        if not pool.legal(v, u) or pool.weak_cost(v, u):
            return None
        pairs.append((v, u))
    return Block(pairs, list(result.cuts), None, result.solves)


def colour_lower_bound(pool: OrderedPool, members: Sequence[int]) -> int:
    """S2 ≥ this for any pairing of ``members`` inside one score group: two players due the same
    colour cannot both get it, and a player due red can meet at most one player not due red."""
    red = sum(1 for x in members if pool.due[x] == RED)
    black = sum(1 for x in members if pool.due[x] == BLACK)
    free = len(members) - red - black
    return max(0, red - black - free + 1) // 2 + max(0, black - red - free + 1) // 2


def solve_group_banded(pool: OrderedPool, g: int) -> Block | None:
    """One score group on the pairs near the natural ones, where a proof allows.

    Within one group S1, L and S4 are 0. If a pairing on the band of pairs with order cost ≤ T
    breaks no weak avoidance (W = 0, its lower bound) and reaches the colour lower bound
    (:func:`colour_lower_bound`), every optimum has W = 0, that S2 and an order cost S3 ≤ the band
    pairing's; every pair's S3 is ≥ 0, so every pair of an optimum
    costs ≤ that S3 and lies in the band of that width. So: solve on a narrow band; if S2 is at
    the bound and S3 ≤ the band's width, that is the optimum; if S3 is larger but the band of
    that width is still small, solve once more on it. Otherwise None (solve on every edge).
    """
    members = pool.group_members(g, g)
    m = len(members)
    if m < 2:
        return None
    bound = colour_lower_bound(pool, members)
    width = 8
    solves = 0
    while True:
        edges = band_edges(pool, g, width)
        block = solve_block_on(pool, members, g, g, edges)
        if block is None:
            return None
        solves += block.solves
        if pool.weak and any(pool.weak_cost(i, j) for i, j in block.pairs):
            return None
        s2 = sum(pool.colour_cost(i, j) for i, j in block.pairs)
        s3 = sum(pool.order_cost(i, j) for i, j in block.pairs)
        if s2 != bound or s3 >= m // 2:
            return None
        if s3 <= width:
            return Block(block.pairs, [], None, solves)
        if m * (2 * s3 + 1) > 40 * m + 200_000:
            return None
        width = s3


def band_edges(pool: OrderedPool, g: int, width: int) -> list[tuple[int, int]]:
    """Legal pairs of group g whose order cost is ≤ width (< half the group): top half vs bottom half."""
    start, m = pool.group_start[g], pool.group_size[g]
    h = m // 2
    legal = pool.legal
    return [
        (start + r, start + q)
        for r in range(h)
        for q in range(max(h, r + h - width), min(m, r + h + width + 1))
        if legal(start + r, start + q)
    ]


def solve_block_on(
    pool: OrderedPool, members: list[int], glo: int, ghi: int, pairs: list[tuple[int, int]]
) -> Block | None:
    """The exact lexicographic optimum of ``members`` on the given legal ``pairs`` only."""
    edges = edges_of(pool, members, glo, pairs)
    sizes = [0] * (ghi - glo + 1)
    for x in members:
        sizes[pool.grp[x] - glo] += 1
    result = lex_perfect_matching(len(members), sizes, edges, pool.tuning.weight_limit)
    if result is None:
        return None
    return Block([(members[a], members[b]) for a, b in result.pairs], result.cuts, None, result.solves)


def solve_large(pool: OrderedPool, start: int, end: int) -> Block | None:
    """A block too large for every legal pair, proved exactly on sparse candidates, or None.

    Only a first try (inner cuts all odd): :func:`app.engine.pairing.large.solve_block` returns
    the block's lexicographic optimum with an LP duality certificate over every legal pair.
    """
    if not pool.tuning.large_blocks or end != next_even_cut(pool, start):
        return None
    from app.engine.pairing import large  # numpy: imported for large pools only

    result = large.solve_block(pool, start, end)
    if result is None:
        return None
    cuts = [0] * (end - start)
    for i, j in result.pairs:
        for c in range(pool.grp[i], pool.grp[j]):
            cuts[c - start] += 1
    return Block(result.pairs, cuts, None, result.solves)


def next_even_cut(pool: OrderedPool, g: int) -> int:
    """The first group from g whose lower cut has an even number of players above it (or the last)."""
    while g < pool.k - 1 and not pool.even_cut(g):
        g += 1
    return g


def parity_optimal(pool: OrderedPool, block: Block, start: int) -> bool:
    """Test (a): each inner cut of the block is crossed exactly π_c times (the lower bound)."""
    return all(x == (0 if pool.even_cut(start + t) else 1) for t, x in enumerate(block.cuts))


def relaxed_split(pool: OrderedPool, members: list[int], start: int, end: int) -> bool:
    """Test (b): in the relaxation where any block player may float below ``end``, nobody does.

    Fields, top first: the cuts start..end (the last is the block's lower boundary), each bounded
    by the players above it; a floater from group g crosses cuts g..end. A maximum-gain matching
    (gain of a pair = what its two players would cost floating − what the pair costs) leaves
    exactly the relaxation's floaters unmatched.
    """
    ncut = end - start + 1
    bounds = []
    above = 0
    for t in range(ncut):
        above += pool.group_size[start + t]
        bounds.append(above)
    mults: list[int] = [0] * ncut
    below = 0
    for t in range(ncut - 1, -1, -1):
        mults[t] = below + 1
        below += mults[t] * bounds[t]
    if 4 * below >= pool.tuning.weight_limit:
        return False  # too many cuts for one relaxed solve: grow the block instead (always sound)
    cum = [0]
    for x in mults:
        cum.append(cum[-1] + x)
    grp = pool.grp
    fc = [cum[ncut] - cum[grp[x] - start] for x in members]
    edges = edge_set(pool, members, start)
    gains = [
        (a, b, fc[a] + fc[b] - (cum[gb] - cum[ga]))
        for a, b, ga, gb in zip(edges.i, edges.j, edges.gi, edges.gj, strict=True)
    ]
    return 2 * len(max_gain_matching(len(members), gains)) == len(members)
