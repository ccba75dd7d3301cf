"""Properties over thousands of random pools: hard constraints, the bye, everyone paired once."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.pairing import NoLegalPairing, PairingPlayer, Tuning, pair_round
from app.engine.regulations import PairingRules, TeamAvoidance
from app.engine.types import Colour

from . import reference as ref
from .strategies import pools


def _assert_legal(
    players: list[PairingPlayer],
    round_number: int,
    rules: PairingRules,
    seed: int,
    tuning: Tuning | None = None,
) -> None:
    avoid = rules.team_avoidance is TeamAvoidance.ALL_ROUNDS or (
        rules.team_avoidance is TeamAvoidance.ROUND_ONE and round_number == 1
    )
    try:
        pairing = pair_round(players, round_number, rules, seed, tuning=tuning or Tuning())
    except NoLegalPairing as exc:
        assert exc.players, "the error names the players concerned"
        if len(players) <= 12:
            assert ref.expected_bye(players, avoid, False) == "impossible"
        return
    by_no = {p.no: p for p in players}
    seen = [x for g in pairing.games for x in (g.red, g.black)] + ([pairing.bye] if pairing.bye else [])
    assert sorted(seen) == sorted(by_no), "every player exactly once"
    assert [g.board for g in pairing.games] == list(range(1, len(pairing.games) + 1))
    for g in pairing.games:
        red, black = by_no[g.red], by_no[g.black]
        assert ref.legal(red, black, avoid)
        assert ref.may_take(red, Colour.RED) and ref.may_take(black, Colour.BLACK)
        assert g.explanation.zh
    tops = [max(by_no[g.red].score, by_no[g.black].score) for g in pairing.games]
    assert tops == sorted(tops, reverse=True), "boards from the top score down"
    if len(players) % 2:
        assert pairing.bye is not None and by_no[pairing.bye].byes == 0
        lower = [p for p in players if p.score < by_no[pairing.bye].score and p.byes == 0]
        # anyone eligible below the bye was skipped only because the rest could not be paired
        assert {p.no for p in lower} <= set(
            pairing.bye_explanation.skipped if pairing.bye_explanation else ()
        )
    else:
        assert pairing.bye is None


@settings(max_examples=1500)
@given(players=pools(max_size=16), round_number=st.integers(1, 4), seed=st.integers(0, 2**31))
def test_no_hard_constraint_is_ever_broken(
    players: list[PairingPlayer], round_number: int, seed: int
) -> None:
    _assert_legal(players, round_number, PairingRules(team_avoidance=TeamAvoidance.ROUND_ONE), seed)


@pytest.mark.slow
@settings(max_examples=300)
@given(players=pools(min_size=20, max_size=60, max_rounds=5), seed=st.integers(0, 2**31))
def test_decomposed_pairing_keeps_every_hard_constraint(players: list[PairingPlayer], seed: int) -> None:
    # force the bounded score-group steps (and their sparse edges) on mid-size pools
    steps = Tuning(exact_block_limit=4, exact_pool_limit=4, dense_limit=10, window=2)
    _assert_legal(players, 3, PairingRules(team_avoidance=TeamAvoidance.ALL_ROUNDS), seed, steps)
