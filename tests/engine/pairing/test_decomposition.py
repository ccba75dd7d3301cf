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

from app.engine.pairing import NoLegalPairing, PairingPlayer, Tuning, pair_round
from app.engine.pairing.blocks import whole_pool_optimum
from app.engine.pairing.constraints import (
    ConstraintFacts,
    NamedAvoidance,
    RoundConstraints,
    round_constraints,
)
from app.engine.pairing.pool import ordered_pool
from app.engine.regulations import (
    AvoidanceBasis,
    AvoidanceRule,
    AvoidanceStrength,
    PairingRules,
    TeamAvoidance,
)
from app.engine.simulation import SimulatedEvent

from .objective import objective as _vector
from .strategies import avoidances, pools


def _compare(
    players: list[PairingPlayer],
    round_number: int,
    rules: PairingRules,
    constraints: RoundConstraints | None = None,
    tuning: Tuning | None = None,
) -> None:
    pairing = pair_round(
        players, round_number, rules, seed=3, constraints=constraints, tuning=tuning or Tuning()
    )
    pool = ordered_pool(players, round_number, rules, constraints, without=pairing.bye)
    whole = whole_pool_optimum(pool)  # one matching on every legal pair (the Python edge builder)
    assert whole is not None
    got = pool.pairs((g.red, g.black) for g in pairing.games)
    assert _vector(pool, got) == _vector(pool, whole)
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
    with contextlib.suppress(NoLegalPairing):
        _compare(players, round_number, rules)


@settings(max_examples=60, deadline=None)
@given(players=pools(min_size=14, max_size=40, max_rounds=5), round_number=st.integers(2, 4))
def test_random_pools_through_the_numpy_edges_and_tiny_bands(
    players: list[PairingPlayer], round_number: int
) -> None:
    with contextlib.suppress(NoLegalPairing):
        _compare(players, round_number, PairingRules(), tuning=Tuning(numpy_from=2))


# --------------------------------------------------------------------------- with avoidances (pairing constraints)


@pytest.mark.parametrize("players, seed", [(120, 5), (151, 6)])
def test_simulated_events_with_unit_and_region_avoidances(players: int, seed: int) -> None:
    # units of about six players weakly apart, regions of about twenty absolutely apart from round 2
    # to 6, a few named pairs: the blocks, gadgets and bands keep the whole-pool optimum
    event = SimulatedEvent(players, seed=seed, teams=True)
    facts = [
        ConstraintFacts(no, unit=f"单位{no % 20}", region=f"地区{no % 6}") for no in range(1, players + 1)
    ]
    rules = (
        AvoidanceRule(AvoidanceBasis.UNIT, AvoidanceStrength.WEAK),
        AvoidanceRule(AvoidanceBasis.REGION, AvoidanceStrength.ABSOLUTE, 2, 6),
    )
    named = tuple(
        NamedAvoidance(a, a + 7, AvoidanceStrength.ABSOLUTE if a % 2 else AvoidanceStrength.WEAK)
        for a in range(1, players - 7, 17)
    )
    for _ in range(8):
        number = len(event.rounds) + 1
        c = round_constraints(rules, facts, named, number)
        _compare(event.pool(), number, event.rules, c)
        event.play_round()


@settings(max_examples=100, deadline=None)
@given(data=st.data(), players=pools(min_size=14, max_size=40, max_rounds=5, max_score=14))
def test_random_pools_with_avoidances(data: st.DataObject, players: list[PairingPlayer]) -> None:
    c = data.draw(avoidances([p.no for p in players], round_number=2))
    tuning = Tuning(numpy_from=data.draw(st.sampled_from([2, Tuning().numpy_from])))
    with contextlib.suppress(NoLegalPairing):
        _compare(players, 2, PairingRules(team_avoidance=TeamAvoidance.ALL_ROUNDS), c, tuning)
