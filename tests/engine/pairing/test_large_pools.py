"""The bounded path (score-group steps on sparse edges, beyond the exact limits) forced on mid-size pools.

The proved large-block path (test_large.py) is switched off here, so that every large block goes
to the bounded steps, as it does where that path finds no proof.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.pairing import NoLegalPairing, Pairing, PairingPlayer, Tuning, pair_round
from app.engine.regulations import PairingRules, TeamAvoidance
from app.engine.simulation import SimulatedEvent
from app.engine.types import Colour

from . import reference as ref
from .strategies import pools

# every block above 4 players goes to the bounded steps, on sparse edges above 10 players
STEPS = Tuning(exact_block_limit=4, exact_pool_limit=4, dense_limit=10, large_blocks=False)


def _assert_complete_and_legal(
    players: list[PairingPlayer], round_number: int, rules: PairingRules, tuning: Tuning = STEPS
) -> Pairing:
    pairing = pair_round(players, round_number, rules, seed=5, tuning=tuning)
    by_no = {p.no: p for p in players}
    seen = [x for g in pairing.games for x in (g.red, g.black)] + ([pairing.bye] if pairing.bye else [])
    assert sorted(seen) == sorted(by_no)
    avoid = rules.team_avoidance is TeamAvoidance.ALL_ROUNDS
    for g in pairing.games:
        red, black = by_no[g.red], by_no[g.black]
        assert ref.legal(red, black, avoid)
        assert ref.may_take(red, Colour.RED) and ref.may_take(black, Colour.BLACK)
    return pairing


@pytest.mark.parametrize("played", [1, 2, 3])
def test_the_last_step_keeps_its_sparse_pairing_instead_of_redoing_it_on_every_edge(played: int) -> None:
    # Regression: the last step kept only the pairs touching its top score group, so the sparse
    # pairing looked incomplete and the whole remainder was re-paired on every legal edge
    # (round 2 of a 5,000-player event: ~120 s instead of ~5 s).
    event = SimulatedEvent(80, seed=played)
    for _ in range(played):
        event.play_round()
    players = event.pool()
    assert len({p.score for p in players}) >= 3
    pairing = _assert_complete_and_legal(players, played + 1, event.rules)
    assert pairing.quality is not None and not pairing.quality.exact
    assert pairing.quality.dense_steps == ()  # no step redone on every legal pair
    assert 0 < pairing.quality.bounded_players <= len(players)


@settings(max_examples=150, deadline=None)
@given(players=pools(min_size=16, max_size=40, max_rounds=5), seed=st.integers(0, 2**31))
def test_witness_repair_and_sparse_steps_keep_every_hard_constraint(
    players: list[PairingPlayer], seed: int
) -> None:
    # tiny limits: steps on sparse edges, witnesses repaired in small windows, fallbacks reached
    tiny = replace(STEPS, dense_limit=8, window=2, repair_limit=10)
    rules = PairingRules(team_avoidance=TeamAvoidance.ALL_ROUNDS)
    try:
        _assert_complete_and_legal(players, 3, rules, tiny)
    except NoLegalPairing as exc:
        # the negative answer is exact: the unlimited engine must agree
        assert exc.players
        with pytest.raises(NoLegalPairing):
            pair_round(players, 3, rules, seed=5)
