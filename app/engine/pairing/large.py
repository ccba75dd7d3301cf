"""Large blocks paired exactly: sparse candidate pairs, proved by an LP duality certificate.

A *block* here is a run of score groups ``G_s … G_e`` whose inner cuts are all odd (π_c = 1; a
single score group is the case s = e), too large to solve on every legal pair at once (a score
group of a 5,000-player event holds up to ~1,800 players: 1.7 million legal pairs). The answer is
the block's lexicographic optimum of (S1, W, S2, S3, S4) (criteria in :mod:`app.engine.pairing.engine`),
proved as follows; where a step cannot be proved, no answer is given and the caller pairs the
rest of the round by the bounded method, which says so (``PairingQuality.exact`` is False).

**1. S1.** The block starts below an even cut, so the players above each inner cut number an
odd count and every pairing crosses each inner cut at least once; L ≥ 0. The answer crosses each
inner cut exactly once, between neighbouring groups (L = 0): its S1 is that lower bound. So every
pairing at least as good has exactly one *cross pair* ``(v_c ∈ G_c, u_c ∈ G_{c+1})`` at each inner
cut c and every other pair inside a group — the set searched below.

**2. Splitting into groups.** Give each cut c a colour μ_c, the one the floater ``v_c`` takes (so
``u_c`` takes the other). A cross pair's S2 is the best over the colour assignments H3 allows, so
it is the minimum over μ_c of ``miss(v_c, μ_c) + miss(u_c, other(μ_c))``; its S3 is
``(|G_c| − 1 − rank v_c) + rank u_c``, its S4 ``down(v_c) + up(u_c)``: once μ is fixed every part
belongs to one player. So for fixed μ the cost of such a pairing is the sum over the groups of a
perfect matching of the *group graph* of G_g: its legal pairs, plus a port node Q joined to each
player who may take other(μ_{g−1}) (the opponent of the floater from above, at that player's part
of the cross pair's cost) and a port node P joined to each player who may take μ_g (the floater
below, at its part). The top group has no Q, the bottom group no P. Only what concerns the pair
``(v_c, u_c)`` itself is dropped: whether it may meet, and its W (below). The fields are packed into
one integer per edge, W·mw + S2·m2 + S3·m3 + S4, with the multipliers of
:mod:`app.engine.pairing.lexmatch` computed for sums over the whole block (B4 = the number of ports,
B3 = half the block's nodes × the largest order cost of an edge), so the smallest packed sum is the
lexicographic optimum. Hence, over the pairings of step 1,

    OPT ≥ min over μ of Σ_g F_g(μ_{g−1}, μ_g),      F_g = the optimum of group g's graph,

with equality for a μ whose minimising matchings give legal cross pairs without W (the real
pairing then costs at most the relaxed value, as a real cross pair's S2 is the minimum over its
colours).

**3. Each F_g, exactly.** A small group graph (up to :attr:`CertificateTuning.dense_group` nodes) is solved on every
legal pair (rustworkx's blossom algorithm: exact). A larger one is solved on candidate pairs E_s —
those near the natural pairs, per player the nearest pairs of each colour cost inside and across
the halves, and all port edges — and proved by numbers ``y`` (one per node, kept doubled as
integers) with

    y_a + y_b ≤ c_ab   for every legal pair of the group and every port edge,   Σ_a y_a = c(M).

Weak LP duality proves the matching M optimal over all perfect matchings of the group graph: for
any such M', ``c(M') = Σ_{ab∈M'} c_ab ≥ Σ_{ab∈M'} (y_a + y_b) = Σ_a y_a = c(M)``. Both conditions are
checked in integers over every legal pair (numpy), whatever produced ``y`` — that check is the
proof. ``y`` comes from shortest paths (Bellman–Ford) in the residual graph of the bipartite double
cover for an assignment σ: with distances d, ``2·y_a = c(a, σ(a)) − d(σ(a)) + d(a)``, feasible on
E_s and tight on σ. Pairs of the group that break the first condition are added to E_s and M is
solved again. If M has no such ``y`` on E_s (the double cover's optimum on E_s is fractional), the
fractional optimum σ is used; once its ``y`` is feasible on every legal pair, Σ y is the LP bound of
the whole group graph, every matching reaching it uses only pairs with ``y_a + y_b = c_ab``
(complementary slackness), and M is solved once more on those. If the bound is still not reached
(an integrality gap: the LP has no odd-set constraints), the graph is solved on every legal pair
when it has at most :attr:`CertificateTuning.dense_fallback` nodes; otherwise the block is not proved.

**4. The minimum over μ.** A dynamic programme along the chain of cuts picks the vector μ with the
least total, using exact F where solved and lower bounds elsewhere: a certificate ``y`` for one
colour choice of a group stays feasible for another once each port's value is lowered to
``min_v (c'_port,v − y_v)``, and its sum bounds that F from below. When every F on the cheapest
vector is exact, it is the minimum (every other vector costs at least its bound). A colour choice
whose port has no player who may take that colour, or whose group graph has no perfect matching,
is impossible and left out.

**5. Legal cross pairs.** If a cross pair of that optimum may not meet (a rematch, teammates, an
absolute avoidance), a best-first search branches on it: either ``v_c`` does not float at cut c or
``u_c`` is not its opponent (the port edge is removed) — every legal pairing stays in one branch,
each branch is solved exactly as above, and the first answer with legal cross pairs and no weak
avoidance between them is the optimum. After :attr:`CertificateTuning.search_nodes` branches the block is not proved.

**Avoidances (pairing constraints).** An absolutely avoided pair is one more illegal pair: it is not a legal
pair of its group (the certificate ranges over the others) and not a legal cross pair (step 5).
W, the weak avoidances broken, is a field between S1 and S2: one more packed term, W·mw with
mw = m2·B2 + m3·B3 + B4 + 1 (B2 = the block's nodes, 2 per pair at most), checked against the int64
bound. Inside a group it is part of ``c_ab``. A cross pair's W belongs to the pair, not to one
player, so the ports carry 0 for it: a lower bound. When the relaxation's answer has one cross pair
with W > 0 (and all legal), that answer is a real pairing costing its relaxed value + mw·W; every
pairing of the same branch keeping that pair costs at least as much, so it is kept as the
incumbent and the branch splits as in step 5 without it; the search stops when no branch's bound
is below the incumbent, which is then the optimum. Two cross pairs with W > 0 in one answer: the
block is not proved.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import rustworkx as rx

from app.engine.pairing import criteria
from app.engine.pairing.arrays import arrays_of, pair_fields
from app.engine.pairing.criteria import BLACK, RED
from app.engine.pairing.pool import OrderedPool
from app.engine.pairing.tuning import CertificateTuning

I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]
Mask = npt.NDArray[np.bool_]

_INT_LIMIT = 1 << 61  # every sum of doubled costs must stay below this (int64)


@dataclass(slots=True)
class LargeBlock:
    """The proved optimum of a block: pairs of pool indices (i < j), the matchings solved, and the
    search over cross pairs (step 5): branches solved, and the most cross pairs left out in one."""

    pairs: list[tuple[int, int]]
    solves: int
    branches: int = 0
    depth: int = 0


@dataclass(slots=True)
class Certified:
    """A group graph's optimum and the numbers y proving it (step 3)."""

    value: int  # packed cost of the group graph's optimum
    mate: I64  # partner of each node of the group graph
    y2: I64 | None  # the certificate, doubled (None: solved on every legal pair, LP not tight)


@dataclass(slots=True)
class GroupGraph:
    """One score group of the block: its legal pairs with their packed cost, and the candidates E_s.

    Built by :func:`build_group`; :func:`certify` gives its optimum with the certificate (step 3).
    """

    first: int  # pool index of its top-ranked player
    m: int
    allowed: I64
    due: I64
    down: I64
    up: I64
    a: I32  # legal pairs (local ranks, a < b)
    b: I32
    w: npt.NDArray[np.int16] | None  # weak avoidances broken by each legal pair (None: none in force)
    s2: npt.NDArray[np.int8]  # colour cost of each legal pair
    s3: I32  # order cost of each legal pair
    pack: Packing
    chosen: Mask  # the candidate pairs E_s (kept across the colour choices)
    tuning: CertificateTuning
    band: int
    solved: dict[_Key, Certified] = field(default_factory=dict)
    infeasible: set[_Key] = field(default_factory=set)  # colour choices without a perfect matching

    def cost(self, chosen: Mask | None = None) -> I64:
        """The packed cost W·mw + S2·m2 + S3·m3 of every legal pair (or of the chosen ones)."""
        s2, s3 = (self.s2, self.s3) if chosen is None else (self.s2[chosen], self.s3[chosen])
        cost = s2.astype(np.int64) * self.pack.m2 + s3.astype(np.int64) * self.pack.m3
        if self.w is not None:
            w = self.w if chosen is None else self.w[chosen]
            cost += w.astype(np.int64) * self.pack.mw
        return np.asarray(cost, dtype=np.int64)


@dataclass(frozen=True, slots=True)
class Packing:
    """Multipliers packing (W, S2, S3, S4) into one integer per edge: W·mw + S2·m2 + S3·m3 + S4."""

    mw: int  # 0 when no weak avoidance is in force
    m2: int
    m3: int


def solve_block(pool: OrderedPool, start: int, end: int) -> LargeBlock | None:
    """The proved lexicographic optimum of groups start..end (inner cuts odd), or None (module docstring)."""
    ncut = end - start
    if any(pool.even_cut(g) for g in range(start, end)):
        return None
    sizes = [pool.group_size[g] for g in range(start, end + 1)]
    nodes = sum(sizes) + 2 * ncut
    s3_max = max(sizes)  # an order cost inside a group of m is at most m − 1; a port's part too
    b4 = 2 * ncut  # S4 lives on port edges only, at most 1 each
    m3 = b4 + 1
    b3 = (nodes // 2) * s3_max
    m2 = m3 * b3 + b4 + 1
    b2 = nodes  # at most 2 per pair
    mw = m2 * b2 + m3 * b3 + b4 + 1 if pool.weak else 0
    groups = [build_group(pool, g, Packing(mw, m2, m3)) for g in range(start, end + 1)]
    w_max = max((int(grp.w.max()) for grp in groups if grp.w is not None and len(grp.w)), default=0)
    largest = max(sizes) + 2
    if 4 * largest * largest * (w_max * mw + 2 * m2 + s3_max * m3 + 1) >= _INT_LIMIT:
        return None  # the duals' sums might not fit int64
    pack = groups[0].pack
    search = _Search(groups, sizes, pack)
    try:
        return _best_first(pool, search)
    except _NotProved:
        return None


def _best_first(pool: OrderedPool, search: _Search) -> LargeBlock | None:
    """Best-first over the cross pairs the relaxation may not use as it does (module docstring, step 5)."""
    groups = search.groups
    root = search.optimum(tuple((frozenset(), frozenset()) for _ in range(search.ncut)))
    if root is None:
        return None
    heap = [(root[0], 0, root[1], root[2])]
    counter = 1
    depth = 0
    best: tuple[int, list[tuple[int, int]]] | None = None  # a real pairing found, with its real cost
    while heap and (best is None or heap[0][0] < best[0]):
        if counter > pool.tuning.certificates.search_nodes:
            return None
        value, _, excluded, mu = heapq.heappop(heap)
        pairs, cross = search.assemble(mu, excluded)
        illegal = [c for c, (v, u) in enumerate(cross) if not pool.legal(v, u)]
        weak = [c for c, (v, u) in enumerate(cross) if pool.weak_cost(v, u)]
        if not illegal and not weak:
            return LargeBlock(pairs + cross, search.solves[0], counter - 1, depth)
        if illegal:
            c = illegal[0]
        elif len(weak) == 1:
            # real cost = relaxed + this pair's W; every pairing of this branch that keeps the pair
            # costs at least that, so it is kept as the incumbent and the branch splits without it
            c = weak[0]
            real = value + search.pack.mw * pool.weak_cost(*cross[c])
            if best is None or real < best[0]:
                best = (real, pairs + cross)
        else:
            return None  # two cross pairs with W > 0: not proved here
        v, u = cross[c]
        floaters, opponents = excluded[c]
        for branch in (
            (floaters | {v - groups[c].first}, opponents),
            (floaters, opponents | {u - groups[c + 1].first}),
        ):
            child = (*excluded[:c], branch, *excluded[c + 1 :])
            depth = max(depth, sum(len(f) + len(o) for f, o in child))
            found = search.optimum(child)
            if found is not None:
                heapq.heappush(heap, (found[0], counter, found[1], found[2]))
                counter += 1
    return None if best is None else LargeBlock(best[1], search.solves[0], counter - 1, depth)


_Excluded = tuple[tuple[frozenset[int], frozenset[int]], ...]  # per cut: floaters, opponents left out
_Key = tuple[int, int, frozenset[int], frozenset[int]]  # colours (up, down), players left out (up, down)


class _Search:
    """F_g for each colour choice and exclusion, exact or bounded, and the minimum over the colours."""

    def __init__(self, groups: list[GroupGraph], sizes: list[int], pack: Packing) -> None:
        self.groups = groups
        self.sizes = sizes
        self.pack = pack
        self.ncut = len(groups) - 1
        self.solves = [0]

    def key(self, t: int, mu: tuple[int, ...], excluded: _Excluded) -> _Key:
        none: frozenset[int] = frozenset()
        return (
            mu[t - 1] if t > 0 else 0,
            mu[t] if t < self.ncut else 0,
            excluded[t - 1][1] if t > 0 else none,
            excluded[t][0] if t < self.ncut else none,
        )

    def edges(self, t: int, key: _Key) -> list[tuple[I64, I64]] | None:
        edges = _port_edges(self.groups[t], key, t > 0, t < self.ncut, self.sizes[t], self.pack)
        return None if any(len(p) == 0 for p, _ in edges) else edges

    def optimum(self, excluded: _Excluded) -> tuple[int, _Excluded, tuple[int, ...]] | None:
        """The exact minimum over the colour vectors of Σ F_g, with its vector; None if infeasible.

        The cheapest vector by exact values where known and lower bounds elsewhere (a dynamic
        programme along the chain of cuts); once every value on it is exact it is the minimum.
        """
        while True:
            path = self._cheapest(excluded)
            if path is None:
                return None
            total, pending, mu = path
            if pending == 0:
                return total, excluded, mu
            for t in range(self.ncut + 1):
                key = self.key(t, mu, excluded)
                grp = self.groups[t]
                if key not in grp.solved and key not in grp.infeasible:
                    edges = self.edges(t, key)
                    assert edges is not None, "bounded above, so its ports have edges"
                    try:
                        cert = certify(grp, ports_of(grp, edges), self.solves)
                    except _Infeasible:
                        grp.infeasible.add(key)
                        continue
                    if cert is None:
                        raise _NotProved
                    grp.solved[key] = cert

    def _cheapest(self, excluded: _Excluded) -> tuple[int, int, tuple[int, ...]] | None:
        """(total, values still bounds, vector) minimal in that order, or None if no vector is feasible."""
        none: frozenset[int] = frozenset()

        def value(t: int, up: int, down: int) -> tuple[int, int] | None:
            key = (up, down, excluded[t - 1][1] if t > 0 else none, excluded[t][0] if t < self.ncut else none)
            grp = self.groups[t]
            if key in grp.solved:
                return grp.solved[key].value, 0
            if key in grp.infeasible:
                return None
            edges = self.edges(t, key)
            return None if edges is None else (_bound(grp, edges), 1)

        paths: dict[int, tuple[int, int, tuple[int, ...]]] = {0: (0, 0, ())}  # by the last cut's colour
        for t in range(self.ncut + 1):
            downs = (RED, BLACK) if t < self.ncut else (0,)
            step: dict[int, tuple[int, int, tuple[int, ...]]] = {}
            for down in downs:
                for up, (total, pending, mu) in paths.items():
                    v = value(t, up, down)
                    if v is None:
                        continue
                    cand = (total + v[0], pending + v[1], mu + ((down,) if down else ()))
                    if down not in step or cand[:2] < step[down][:2]:
                        step[down] = cand
            paths = step
        return paths.get(0)

    def assemble(
        self, mu: tuple[int, ...], excluded: _Excluded
    ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
        """Pairs inside the groups, and the cross pair at each cut, as pool indices."""
        pairs: list[tuple[int, int]] = []
        floater: dict[int, int] = {}
        opponent: dict[int, int] = {}
        for t, grp in enumerate(self.groups):
            mate = grp.solved[self.key(t, mu, excluded)].mate.tolist()
            for a in range(grp.m):
                b = mate[a]
                if a < b < grp.m:
                    pairs.append((grp.first + a, grp.first + b))
                elif b >= grp.m:
                    if t > 0 and b == grp.m:
                        opponent[t - 1] = grp.first + a
                    else:
                        floater[t] = grp.first + a
        return pairs, [(floater[c], opponent[c]) for c in range(self.ncut)]


class _NotProved(Exception):
    """A group graph whose optimum could not be certified: the block is left to the bounded method."""


class _Infeasible(Exception):
    """A group graph without any perfect matching on its legal pairs: that colour choice is impossible."""


# --------------------------------------------------------------------------- one group


def build_group(pool: OrderedPool, g: int, pack: Packing) -> GroupGraph:
    """Score group g of the pool as a group graph: every legal pair with its packed cost, and the
    first candidates E_s (near the natural pairs, and per player the nearest of each colour cost)."""
    tuning = pool.tuning.certificates
    first, m = pool.group_start[g], pool.group_size[g]
    idx = np.arange(first, first + m, dtype=np.int64)
    fields = pair_fields(pool, idx)
    a, b = fields.a.astype(np.int32), fields.b.astype(np.int32)
    s3 = fields.s3.astype(np.int32)
    s2 = fields.s2
    w = None if fields.w is None else fields.w.astype(np.int16)
    del fields
    arr = arrays_of(pool)
    h = m // 2
    across = (a < h) & (h <= b)  # top half against bottom half
    chosen = s3 <= tuning.band
    # per player, the nearest pairs of each class (colour cost × inside/across the halves), looked
    # for among the pairs at most near_window from the cheapest of their class (a heuristic: the
    # certificate adds whatever else is needed)
    near = np.flatnonzero(np.where(across, s3, s3 - h) <= tuning.near_window)
    cls = s2[near] * 2 + across[near]
    chosen[near[_nearest(m, a[near], b[near], cls, s3[near], tuning.nearest)]] = True
    return GroupGraph(
        first=first,
        m=m,
        allowed=arr.allowed[idx],
        due=arr.due[idx],
        down=arr.down[idx],
        up=arr.up[idx],
        a=a,
        b=b,
        w=w,
        s2=s2.astype(np.int8),
        s3=s3,
        pack=pack,
        chosen=chosen,
        tuning=tuning,
        band=tuning.band,
    )


def _nearest(n: int, a: I64 | I32, b: I64 | I32, cls: I64, value: I64 | I32, k: int) -> I64:
    """Indices of the pairs that are among the k smallest ``value`` of their class at either end."""
    if len(a) == 0:
        return np.zeros(0, dtype=np.int64)
    ends = np.concatenate([a, b]).astype(np.int64)
    pair = np.concatenate([np.arange(len(a)), np.arange(len(a))])
    key = ((ends * 8 + np.concatenate([cls, cls])) << 32) + np.concatenate([value, value]).astype(np.int64)
    order = np.argsort(key)
    run_key = key[order] >> 32
    starts = np.flatnonzero(np.r_[True, run_key[1:] != run_key[:-1]])
    first = np.repeat(starts, np.diff(np.r_[starts, len(order)]))
    pos = np.arange(len(order)) - first
    return np.asarray(pair[order[pos < k]], dtype=np.int64)


@dataclass(slots=True)
class Ports:
    """The port nodes of a group graph (after its players) and their edges."""

    n: int  # nodes of the group graph
    i: I64  # port edges (player, port node)
    j: I64
    cost: I64


def _port_edges(
    grp: GroupGraph, key: _Key, has_up: bool, has_down: bool, size: int, pack: Packing
) -> list[tuple[I64, I64]]:
    """Per port (up first): the players it joins (not left out) and their packed cost."""
    out: list[tuple[I64, I64]] = []
    up_colour, down_colour, up_out, down_out = key
    if has_up:  # the opponent of the floater from above, who takes the other colour
        other = BLACK if up_colour == RED else RED
        ok = np.flatnonzero(grp.allowed & other)  # local index = rank in the group
        if up_out:
            ok = ok[~np.isin(ok, list(up_out))]
        s2, s3, s4 = criteria.opponent_parts(grp.due[ok], other, ok, grp.up[ok])
        out.append((ok, s2 * pack.m2 + s3 * pack.m3 + s4))
    if has_down:  # the floater to the group below
        ok = np.flatnonzero(grp.allowed & down_colour)
        if down_out:
            ok = ok[~np.isin(ok, list(down_out))]
        s2, s3, s4 = criteria.floater_parts(grp.due[ok], down_colour, ok, size, grp.down[ok])
        out.append((ok, s2 * pack.m2 + s3 * pack.m3 + s4))
    return out


def ports_of(grp: GroupGraph, edges: list[tuple[I64, I64]]) -> Ports:
    """The group graph's port nodes and edges (none: the group alone)."""
    if not edges:
        empty = np.zeros(0, dtype=np.int64)
        return Ports(grp.m, empty, empty, empty)
    i = [p for p, _ in edges]
    j = [np.full(len(p), grp.m + t, dtype=np.int64) for t, (p, _) in enumerate(edges)]
    c = [cost for _, cost in edges]
    return Ports(grp.m + len(edges), np.concatenate(i), np.concatenate(j), np.concatenate(c))


def _bound(grp: GroupGraph, edges: list[tuple[I64, I64]]) -> int:
    """A lower bound on F for these port edges from any solved certificate of the group (module docstring)."""
    best = 0
    for cert in grp.solved.values():
        y2 = cert.y2
        if y2 is None:
            continue
        total = int(y2[: grp.m].sum())
        for players, cost in edges:
            total += int((2 * cost - y2[players]).min())
        best = max(best, -(-total // 2))
    return best


def certify(grp: GroupGraph, ports: Ports, solves: list[int]) -> Certified | None:
    """The exact optimum of the group graph: on every legal pair when small, else proved on candidates."""
    if ports.n <= grp.tuning.dense_group:
        return _dense(grp, ports, solves)
    found = _certified(grp, ports, solves)
    if found is None and ports.n <= grp.tuning.dense_fallback:
        return _dense(grp, ports, solves)
    return found


def _dense(grp: GroupGraph, ports: Ports, solves: list[int]) -> Certified | None:
    """Every legal pair at once: the matching is the exact optimum; its duals are kept if they exist."""
    si = np.concatenate([grp.a, ports.i])
    sj = np.concatenate([grp.b, ports.j])
    sc = np.concatenate([grp.cost(), ports.cost])
    mate = _matching(ports.n, si, sj, sc)
    solves[0] += 1
    if mate is None:
        raise _Infeasible
    value = _value(mate, si, sj, sc)
    y2 = potentials(ports.n, si, sj, sc, mate, grp.tuning.bellman_ford_limit)
    return Certified(value, mate, y2 if y2 is not None and verified(grp, ports, y2, value) else None)


def _certified(grp: GroupGraph, ports: Ports, solves: list[int]) -> Certified | None:
    """The optimum on the candidates, with its certificate over every legal pair (module docstring)."""
    n = ports.n
    fractional = False
    for _ in range(grp.tuning.certify_rounds):
        si = np.concatenate([grp.a[grp.chosen], ports.i])
        sj = np.concatenate([grp.b[grp.chosen], ports.j])
        sc = np.concatenate([grp.cost(grp.chosen), ports.cost])
        mate = _matching(n, si, sj, sc)
        solves[0] += 1
        if mate is None:
            if grp.chosen.all():
                raise _Infeasible
            _widen(grp)
            continue
        y2 = None if fractional else potentials(n, si, sj, sc, mate, grp.tuning.bellman_ford_limit)
        if y2 is None:
            fractional = True
            sigma = _assignment(n, si, sj, sc)
            solves[0] += 1
            if sigma is None:
                return None
            y2 = potentials(n, si, sj, sc, sigma, limit=n + 1)
            if y2 is None:  # pragma: no cover - an optimal assignment has no negative cycle
                return None
        rc = 2 * grp.cost() - y2[grp.a] - y2[grp.b]
        violated = rc < 0
        if violated.any():
            grp.chosen[_most_violated(n, grp.a, grp.b, rc, violated, grp.tuning.add_per_player)] = True
            continue
        if fractional:
            # every optimum uses only pairs with zero reduced cost: solve once more on them
            grp.chosen |= rc == 0
            si = np.concatenate([grp.a[grp.chosen], ports.i])
            sj = np.concatenate([grp.b[grp.chosen], ports.j])
            sc = np.concatenate([grp.cost(grp.chosen), ports.cost])
            mate = _matching(n, si, sj, sc)
            solves[0] += 1
            if mate is None:
                return None
        value = _value(mate, si, sj, sc)
        if verified(grp, ports, y2, value):
            return Certified(value, mate, y2)
        return None
    return None


def verified(grp: GroupGraph, ports: Ports, y2: I64, value: int) -> bool:
    """The certificate, checked in integers: dual feasible on every legal pair and port edge, Σ = cost."""
    if (2 * grp.cost() - y2[grp.a] - y2[grp.b] < 0).any():
        return False
    if len(ports.i) and (2 * ports.cost - y2[ports.i] - y2[ports.j] < 0).any():
        return False
    return int(y2.sum()) == 2 * value


def _widen(grp: GroupGraph) -> None:
    """No perfect matching on the candidates: add every pair twice as far from the natural ones."""
    grp.band *= 2
    grp.chosen |= grp.s3 <= grp.band


def _most_violated(n: int, a: I32, b: I32, rc: I64, violated: Mask, k: int) -> I64:
    where = np.flatnonzero(violated)
    cls = np.zeros(len(where), dtype=np.int64)
    depth = np.minimum(rc[where] - int(rc[where].min()), (1 << 31) - 1)
    picked = _nearest(n, a[where], b[where], cls, depth, k)
    return np.asarray(where[picked], dtype=np.int64)


def _value(mate: I64, si: I64, sj: I64, sc: I64) -> int:
    return int(sc[mate[si] == sj].sum())


# --------------------------------------------------------------------------- matchings and duals


def _matching(n: int, i: I64, j: I64, c: I64) -> I64 | None:
    """A minimum-cost perfect matching on these edges (rustworkx), as partners; None if none exists."""
    g = rx.PyGraph()
    g.add_nodes_from(range(n))
    top = int(c.max()) + 1 if len(c) else 1
    g.add_edges_from(list(zip(i.tolist(), j.tolist(), (top - c).tolist(), strict=True)))
    matching = rx.max_weight_matching(g, max_cardinality=True, weight_fn=int)
    if 2 * len(matching) != n:
        return None
    mate = np.empty(n, dtype=np.int64)
    for u, v in matching:
        mate[u], mate[v] = v, u
    return mate


def _assignment(n: int, i: I64, j: I64, c: I64) -> I64 | None:
    """A minimum-cost assignment σ of the bipartite double cover (each edge both ways)."""
    g = rx.PyGraph()
    g.add_nodes_from(range(2 * n))
    top = int(c.max()) + 1
    w = (top - c).tolist()
    g.add_edges_from(
        list(zip(i.tolist(), (j + n).tolist(), w, strict=True))
        + list(zip(j.tolist(), (i + n).tolist(), w, strict=True))
    )
    matching = rx.max_weight_matching(g, max_cardinality=True, weight_fn=int)
    if len(matching) != n:
        return None
    sigma = np.empty(n, dtype=np.int64)
    for u, v in matching:
        if u < n:
            sigma[u] = v - n
        else:
            sigma[v] = u - n
    return sigma


def potentials(n: int, i: I64, j: I64, c: I64, sigma: I64, limit: int) -> I64 | None:
    """Doubled duals 2y with y_a + y_b ≤ c_ab on these edges and tight on σ; None on no convergence.

    Residual graph of the assignment σ in the double cover, on the right-hand copies: an edge
    (a, b) not used by σ at a gives the arc σ(a) → b of weight c_ab − c(a, σ(a)). With d the
    shortest distances (every node a source at 0), v_b = d(b) and u_a = c(a, σ(a)) − d(σ(a)) are
    feasible duals of the assignment, and y = (u + v)/2 of the matching LP.
    """
    a2 = np.concatenate([i, j])
    b2 = np.concatenate([j, i])
    c2 = np.concatenate([c, c])
    on = sigma[a2] == b2
    own = np.zeros(n, dtype=np.int64)
    own[a2[on]] = c2[on]
    off = ~on
    src = sigma[a2[off]]
    dst = b2[off]
    wt = c2[off] - own[a2[off]]
    order = np.argsort(dst, kind="stable")
    src, dst, wt = src[order], dst[order], wt[order]
    if len(dst) == 0:
        return own.copy()
    starts = np.flatnonzero(np.r_[True, dst[1:] != dst[:-1]])
    heads = dst[starts]
    d = np.zeros(n, dtype=np.int64)
    for _ in range(min(limit, n + 1)):
        best = np.minimum.reduceat(d[src] + wt, starts)
        improved = best < d[heads]
        if not improved.any():
            return np.asarray(own - d[sigma] + d, dtype=np.int64)
        d[heads[improved]] = best[improved]
    return None
