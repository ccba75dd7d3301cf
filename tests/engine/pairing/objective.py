"""The engine's objective vector of a pairing, summed pair by pair from the pool's own cost functions:
(pairs crossing each cut, score groups floated past, W, S2, S3, S4). Shared by the tests that compare
a decomposed or large-block solution with one dense matching."""

from __future__ import annotations

from app.engine.pairing import engine

Vector = tuple[tuple[int, ...], int, int, int, int, int]


def objective(pool: engine._Pool, pairs: list[tuple[int, int]]) -> Vector:
    cuts = [0] * max(pool.k - 1, 0)
    skipped = w = s2 = s3 = s4 = 0
    for i, j in pairs:
        assert pool.legal(i, j)
        for c in range(pool.grp[i], pool.grp[j]):
            cuts[c] += 1
        skipped += max(pool.grp[j] - pool.grp[i] - 1, 0)
        w += pool.weak_cost(i, j)
        s2 += pool.colour_cost(i, j)
        s3 += pool.order_cost(i, j)
        s4 += pool.float_cost(i, j)
    return tuple(cuts), skipped, w, s2, s3, s4
