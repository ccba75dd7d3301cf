"""The pool as numpy arrays, and every legal pair of a set of players with its criteria, element-wise.

Imported only for large blocks (numpy is not loaded for small pools). :func:`pair_fields` is the
one numpy builder: the dense edge sets of large blocks (:mod:`app.engine.pairing.edges`) and the
group graphs of the large-block path (:mod:`app.engine.pairing.large`) both take their pairs and
costs from it, and it computes them with the functions of :mod:`app.engine.pairing.criteria` —
the very ones the scalar :class:`~app.engine.pairing.pool.OrderedPool` methods call.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from app.engine.pairing import criteria

if TYPE_CHECKING:
    from app.engine.pairing.pool import OrderedPool

I64 = npt.NDArray[np.int64]


def arrays_of(pool: OrderedPool) -> PoolArrays:
    """The pool's facts as arrays, built once per pool."""
    arrays = _built.get(pool)
    if arrays is None:
        arrays = _built[pool] = PoolArrays(pool)
    return arrays


class PoolArrays:
    """Per-player facts of the pool as arrays (index = pool index)."""

    def __init__(self, pool: OrderedPool) -> None:
        self.grp = np.array(pool.grp, dtype=np.int64)
        self.rank = np.array(pool.rank, dtype=np.int64)
        self.size = np.array([pool.group_size[g] for g in pool.grp], dtype=np.int64)  # of each player's group
        self.allowed = np.array(pool.allowed, dtype=np.int64)  # bit mask of the colours each may take (H3)
        self.due = np.array(pool.due, dtype=np.int64)
        self.kind = np.array(
            [criteria.colour_kind(a, d) for a, d in zip(pool.allowed, pool.due, strict=True)], dtype=np.int64
        )
        self.down = np.array(pool.down, dtype=np.int64)  # last float was down
        self.up = np.array(pool.up, dtype=np.int64)  # last float was up
        self.team = np.array(pool.team, dtype=np.int64)  # team code, −1 for none
        us = [i for i in range(pool.n) for _ in pool.blocked[i]]
        vs = [j for i in range(pool.n) for j in pool.blocked[i]]
        self.met_u = np.array(
            us, dtype=np.int64
        )  # the pairs that may never meet (H1, named absolute), both ways
        self.met_v = np.array(vs, dtype=np.int64)
        # per avoidance rule in force, each player's class (-1: none)
        self.abs_class = [
            np.array([c[r] for c in pool.abs_class], dtype=np.int64)
            for r in range(len(pool.abs_class[0]) if pool.abs_class else 0)
        ]
        self.weak_class = [
            np.array([c[r] for c in pool.weak_class], dtype=np.int64)
            for r in range(len(pool.weak_class[0]) if pool.weak_class else 0)
        ]
        wu: list[int] = []
        wv: list[int] = []
        wc: list[int] = []
        for i in range(pool.n):
            for other, count in pool.weak_named[i].items() if pool.weak_named else ():
                j = pool.index.get(other)
                if j is not None and i < j:
                    wu.append(i)
                    wv.append(j)
                    wc.append(count)
        self.weak_u = np.array(wu, dtype=np.int64)  # weakly avoided named pairs (u < v), how many each
        self.weak_v = np.array(wv, dtype=np.int64)
        self.weak_count = np.array(wc, dtype=np.int64)
        self.colour_table = np.array(criteria.colour_table(), dtype=np.int64)  # S2 by the two kinds


_built: weakref.WeakKeyDictionary[OrderedPool, PoolArrays] = weakref.WeakKeyDictionary()


@dataclass(slots=True)
class PairFields:
    """Every legal pair of a set of players (local indices ``a < b`` into it) and its criteria."""

    a: I64
    b: I64
    gi: I64  # score groups of the two players
    gj: I64
    skip: I64  # L
    w: I64 | None  # W (None: no weak avoidance in force, W = 0)
    s2: I64
    s3: I64
    s4: I64


def pair_fields(pool: OrderedPool, members: Sequence[int] | I64) -> PairFields:
    """Every legal pair of ``members`` (pool indices, ascending) with L, W, S2, S3, S4."""
    arr = arrays_of(pool)
    idx = np.asarray(members, dtype=np.int64)
    m = len(idx)
    pos = np.full(pool.n, -1, dtype=np.int64)
    pos[idx] = np.arange(m, dtype=np.int64)
    barred = np.zeros((m, m), dtype=bool)
    pu, pv = pos[arr.met_u], pos[arr.met_v]
    inside = (pu >= 0) & (pv >= 0)
    barred[pu[inside], pv[inside]] = True
    barred[pv[inside], pu[inside]] = True
    allowed = arr.allowed[idx]
    barred |= ~criteria.may_meet(allowed[:, None], allowed[None, :])
    if pool.avoid_teams:
        team = arr.team[idx]
        barred |= criteria.same_class(team[:, None], team[None, :])
    for rule in arr.abs_class:  # absolute avoidances by unit / region: like teams
        cls = rule[idx]
        barred |= criteria.same_class(cls[:, None], cls[None, :])
    ii, jj = np.triu_indices(m, 1)
    keep = ~barred[ii, jj]
    del barred
    a, b = ii[keep], jj[keep]
    del ii, jj, keep
    pi, pj = idx[a], idx[b]
    gi, gj = arr.grp[pi], arr.grp[pj]
    same = gi == gj
    w = None
    if pool.weak:
        weak = np.zeros((m, m), dtype=np.int16)
        for rule in arr.weak_class:
            cls = rule[idx]
            weak += criteria.same_class(cls[:, None], cls[None, :])
        wu, wv = pos[arr.weak_u], pos[arr.weak_v]
        named = (wu >= 0) & (wv >= 0)
        lo, hi = np.minimum(wu, wv)[named], np.maximum(wu, wv)[named]
        np.add.at(weak, (lo, hi), arr.weak_count[named].astype(np.int16))
        w = weak[a, b].astype(np.int64)
        del weak
    return PairFields(
        a=a,
        b=b,
        gi=gi,
        gj=gj,
        skip=criteria.skipped_groups(gi, gj),
        w=w,
        s2=arr.colour_table[arr.kind[pi], arr.kind[pj]],
        s3=criteria.order_cost(same, arr.rank[pi], arr.rank[pj], arr.size[pi]),
        s4=criteria.float_cost(same, arr.down[pi], arr.up[pj]),
    )
