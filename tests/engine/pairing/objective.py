"""The engine's objective vector of a pairing (pairs crossing each cut, score groups floated past, W,
S2, S3, S4), summed pair by pair from the pool's own cost functions, every pair checked legal. Shared
by the tests that compare a decomposed or large-block solution with one dense matching."""

from __future__ import annotations

from app.engine.pairing.pool import Objective, OrderedPool


def objective(pool: OrderedPool, pairs: list[tuple[int, int]]) -> Objective:
    for i, j in pairs:
        assert pool.legal(i, j), (pool.no[i], pool.no[j])
    return pool.objective(pairs)
