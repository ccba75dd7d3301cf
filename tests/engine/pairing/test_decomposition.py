"""The proved decomposition (blocks, colour gadgets, bands) against one matching over the whole pool.

The whole pool solved on every legal edge by the exact lexicographic matcher is the reference
here (the matcher itself is checked against enumeration in test_lexmatch / test_optimality);
the engine's answer must have exactly its objective vector on pools far too large to enumerate.
"""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.pairing import PairingPlayer, engine, pair_round
from app.engine.regulations import PairingRules, TeamAvoidance
from app.engine.simulation import SimulatedEvent

from .strategies import pools


def _vector(pool: engine._Pool, pairs: list[tuple[int, int]]) -> tuple[tuple[int, ...], int, int, int, int]:
    cuts = [0] * max(pool.k - 1, 0)
    skipped = s2 = s3 = s4 = 0
    for i, j in pairs:
        for c in range(pool.grp[i], pool.grp[j]):
            cuts[c] += 1
        skipped += max(pool.grp[j] - pool.grp[i] - 1, 0)
        s2 += pool.colour_cost(i, j)
        s3 += pool.order_cost(i, j)
        s4 += pool.float_cost(i, j)
    return tuple(cuts), skipped, s2, s3, s4


def _compare(players: list[PairingPlayer], round_number: int, rules: PairingRules) -> None:
    pairing = pair_round(players, round_number, rules, seed=3)
    avoid = rules.team_avoidance is TeamAvoidance.ALL_ROUNDS or (
        rules.team_avoidance is TeamAvoidance.ROUND_ONE and round_number == 1
    )
    ordered = sorted((p for p in players if p.no != pairing.bye), key=lambda p: (-p.score, p.no))
    pool = engine._Pool(ordered, avoid)
    whole = engine._solve_block(pool, list(range(pool.n)), 0, pool.k - 1)
    assert whole is not None
    got = [(pool.index[g.red], pool.index[g.black]) for g in pairing.games]
    got = [(min(a, b), max(a, b)) for a, b in got]
    assert _vector(pool, got) == _vector(pool, whole.pairs)
    assert pairing.quality is not None and pairing.quality.exact


@pytest.mark.parametrize("players, seed", [(120, 1), (120, 2), (96, 3), (151, 4)])
def test_simulated_events_round_by_round(players: int, seed: int) -> None:
    event = SimulatedEvent(players, seed=seed, teams=True)
    for _ in range(9):
        _compare(event.pool(), len(event.rounds) + 1, event.rules)
        event.play_round()


@settings(max_examples=120, deadline=None)
@given(
    players=pools(min_size=14, max_size=40, max_rounds=5, max_score=14),
    round_number=st.integers(1, 4),
)
def test_random_pools_with_rematches_and_teams(players: list[PairingPlayer], round_number: int) -> None:
    rules = PairingRules(team_avoidance=TeamAvoidance.ALL_ROUNDS)
    with contextlib.suppress(engine.NoLegalPairing):
        _compare(players, round_number, rules)


@settings(max_examples=60, deadline=None)
@given(players=pools(min_size=14, max_size=40, max_rounds=5), round_number=st.integers(2, 4))
def test_random_pools_through_the_numpy_edges_and_tiny_bands(
    players: list[PairingPlayer], round_number: int
) -> None:
    with pytest.MonkeyPatch.context() as m:
        m.setattr(engine, "NUMPY_FROM", 2)
        with contextlib.suppress(engine.NoLegalPairing):
            _compare(players, round_number, PairingRules())
