"""The engine's pairing is the lexicographic optimum found by enumerating every perfect pairing —
with and without the pairing constraints (absolute: illegal pairs; weak: W between S1 and S2)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.pairing import NoLegalPairing, Pairing, PairingPlayer, Tuning, pair_round
from app.engine.pairing.constraints import RoundConstraints
from app.engine.regulations import PairingRules, ScoreGroupOrder, TeamAvoidance
from app.engine.types import Colour

from . import reference as ref
from .strategies import avoidances, pools


def _check(
    players: list[PairingPlayer],
    round_number: int,
    rules: PairingRules,
    seed: int,
    constraints: RoundConstraints | None = None,
    tuning: Tuning | None = None,
) -> Pairing | None:
    tuning = tuning or Tuning()
    avoid = rules.team_avoidance is TeamAvoidance.ALL_ROUNDS or (
        rules.team_avoidance is TeamAvoidance.ROUND_ONE and round_number == 1
    )
    by_tb = rules.score_group_order is ScoreGroupOrder.TIEBREAKS
    bye = ref.expected_bye(players, avoid, by_tb, constraints)
    if bye == "impossible":
        with pytest.raises(NoLegalPairing):
            pair_round(players, round_number, rules, seed, constraints, tuning)
        return None
    pairing = pair_round(players, round_number, rules, seed, constraints, tuning)
    assert pairing.bye == bye
    rest = [p for p in players if p.no != bye]
    by_no = {p.no: p for p in rest}
    pairs = [(by_no[g.red], by_no[g.black]) for g in pairing.games]
    assert sorted(x.no for e in pairs for x in e) == sorted(by_no)
    for red, black in pairs:
        assert ref.legal(red, black, avoid, constraints)  # never an absolutely avoided pair
        assert ref.may_take(red, Colour.RED) and ref.may_take(black, Colour.BLACK)
    colours = {g.red: Colour.RED for g in pairing.games} | {g.black: Colour.BLACK for g in pairing.games}
    got = ref.objective(pairs, colours, by_tb, constraints)
    assert got == ref.best_objective(rest, avoid, by_tb, constraints)
    assert pairing.quality is not None and pairing.quality.exact
    assert (pairing.quality.cuts, pairing.quality.long_floats) == got[:2]
    assert pairing.quality.weak_avoidances == got[2]
    assert (pairing.quality.missed_colours, pairing.quality.order_cost) == got[3:5]
    return pairing


@settings(max_examples=600)
@given(
    players=pools(max_size=12),
    round_number=st.integers(1, 3),
    avoidance=st.sampled_from(TeamAvoidance),
    order=st.sampled_from(ScoreGroupOrder),
    seed=st.integers(0, 2**31),
)
def test_engine_finds_the_lexicographic_optimum(
    players: list[PairingPlayer],
    round_number: int,
    avoidance: TeamAvoidance,
    order: ScoreGroupOrder,
    seed: int,
) -> None:
    _check(players, round_number, PairingRules(team_avoidance=avoidance, score_group_order=order), seed)


@settings(max_examples=300)
@given(players=pools(min_size=9, max_size=12, max_rounds=3), seed=st.integers(0, 2**31))
def test_optimum_with_few_score_groups_and_sparse_histories(players: list[PairingPlayer], seed: int) -> None:
    _check(players, 2, PairingRules(), seed)


@settings(max_examples=400)
@given(players=pools(min_size=6, max_size=12, max_score=40), seed=st.integers(0, 2**31))
def test_optimum_with_many_score_groups(players: list[PairingPlayer], seed: int) -> None:
    # nearly one score group per player: up to 11 cuts, each its own field of the objective
    _check(players, 3, PairingRules(), seed)


@settings(max_examples=300)
@given(players=pools(min_size=4, max_size=12, max_score=40), seed=st.integers(0, 2**31))
def test_optimum_when_the_fields_are_split_across_solves(players: list[PairingPlayer], seed: int) -> None:
    # a matcher only 36 bits wide: the fields no longer fit one solve and are solved in stages
    # (known fields compressed, the next ones at full range); numpy builds the edges
    narrow = Tuning(weight_limit=1 << 36, numpy_from=2)
    _check(players, 3, PairingRules(team_avoidance=TeamAvoidance.ALL_ROUNDS), seed, tuning=narrow)


# --------------------------------------------------------------------------- with avoidances (pairing constraints)


@st.composite
def constrained_pools(
    draw: st.DrawFn, min_size: int = 1, max_size: int = 12, max_score: int | None = None
) -> tuple[list[PairingPlayer], RoundConstraints]:
    players = draw(pools(min_size=min_size, max_size=max_size, max_score=max_score))
    return players, draw(avoidances([p.no for p in players], round_number=2))


@settings(max_examples=500)
@given(
    event=constrained_pools(),
    avoidance=st.sampled_from(TeamAvoidance),
    order=st.sampled_from(ScoreGroupOrder),
    seed=st.integers(0, 2**31),
)
def test_optimum_with_avoidances(
    event: tuple[list[PairingPlayer], RoundConstraints],
    avoidance: TeamAvoidance,
    order: ScoreGroupOrder,
    seed: int,
) -> None:
    # S1, W, S2, S3, S4 by enumeration; odd pools too (the bye must leave a pairing without an
    # absolutely avoided pair)
    players, c = event
    _check(players, 2, PairingRules(team_avoidance=avoidance, score_group_order=order), seed, c)


@settings(max_examples=300)
@given(event=constrained_pools(min_size=6, max_size=12, max_score=40), seed=st.integers(0, 2**31))
def test_optimum_with_avoidances_and_many_score_groups(
    event: tuple[list[PairingPlayer], RoundConstraints], seed: int
) -> None:
    # many cuts: blocks, colour gadgets and relaxed splits, all with forbidden and weak pairs
    players, c = event
    _check(players, 2, PairingRules(), seed, c)


@settings(max_examples=300)
@given(event=constrained_pools(min_size=4, max_size=12, max_score=40), seed=st.integers(0, 2**31))
def test_optimum_with_avoidances_split_across_solves_and_numpy_edges(
    event: tuple[list[PairingPlayer], RoundConstraints], seed: int
) -> None:
    # W is its own field in the staged solves; the numpy builder bars and weighs the same pairs
    players, c = event
    narrow = Tuning(weight_limit=1 << 36, numpy_from=2)
    _check(players, 2, PairingRules(team_avoidance=TeamAvoidance.ALL_ROUNDS), seed, c, narrow)
