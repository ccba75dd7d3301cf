"""Pairing constraints beyond teams: absolute avoidances remove the pair, weak ones are a
criterion just below S1 — hand-worked examples, then the lexicographic optimum (S1, W, S2, S3, S4) by
enumeration, and what ``why`` says."""

from __future__ import annotations

import pytest

import app.engine.pairing.constraints as constraints_module
from app.engine.pairing import FloaterChoice, NoLegalPairing, PairingPlayer, pair_round
from app.engine.pairing.blocks import solve_chain
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
)
from app.engine.types import Colour
from tests.doctests import run_doctests

ABS, WEAK = AvoidanceStrength.ABSOLUTE, AvoidanceStrength.WEAK
UNIT_ABS = (AvoidanceRule(AvoidanceBasis.UNIT, ABS),)
UNIT_WEAK = (AvoidanceRule(AvoidanceBasis.UNIT, WEAK),)


def test_doctests() -> None:
    assert run_doctests(constraints_module).failed == 0


def _pairs(pairing) -> set[frozenset[int]]:
    return {frozenset((g.red, g.black)) for g in pairing.games}


# Round 1, four players, 1 and 3 of the same unit (天水一中), absolutely apart. The natural pairing is
# 1–3, 2–4 (top half against bottom half). Without 1–3 the smallest change (S3) is 1–4, 2–3: order
# cost |3−0−2| + |2−1−2| = 2, against 1–2, 3–4: (|1−0−2| + 2) + (|3−2−2| + 2) = 6.
def test_absolute_unit_avoidance_in_round_one() -> None:
    players = [PairingPlayer(no=n, score=0) for n in range(1, 5)]
    facts = [ConstraintFacts(1, unit="天水一中"), ConstraintFacts(3, unit="天水一中")]
    c = round_constraints(UNIT_ABS, facts, (), 1)
    plain = pair_round(players, 1, PairingRules(), seed=7)
    assert _pairs(plain) == {frozenset((1, 3)), frozenset((2, 4))}
    got = pair_round(players, 1, PairingRules(), seed=7, constraints=c)
    assert _pairs(got) == {frozenset((1, 4)), frozenset((2, 3))}
    why = {g.red: g.explanation.zh for g in got.games} | {g.black: g.explanation.zh for g in got.games}
    assert "1号本应与3号配对，因同单位（天水一中）绝对回避而改配" in why[1]
    assert "3号本应与1号配对" in why[3]
    # the same rule from round 2 on does not touch round 1
    later = round_constraints((AvoidanceRule(AvoidanceBasis.UNIT, ABS, from_round=2),), facts, (), 1)
    assert _pairs(pair_round(players, 1, PairingRules(), seed=7, constraints=later)) == _pairs(plain)


# Two score groups: 1 and 2 have 2 points, 3 and 4 none; 1 and 2 are father and son, weakly apart.
# Keeping the top group intact (S1) needs 1–2; avoiding it would make two floaters — so W gives way
# and the explanation says so. Made absolute, the pair is impossible: 1–3 / 2–4 or 1–4 / 2–3 (S1
# then counts 2 pairs crossing the cut either way; S3 picks the floaters' natural order).
def test_weak_avoidance_gives_way_to_score_groups_but_absolute_does_not() -> None:
    players = [
        PairingPlayer(no=1, score=2, opponents=frozenset({5})),
        PairingPlayer(no=2, score=2, opponents=frozenset({6})),
        PairingPlayer(no=3, score=0, opponents=frozenset({7})),
        PairingPlayer(no=4, score=0, opponents=frozenset({8})),
    ]
    named = (NamedAvoidance(1, 2, WEAK, reason="父子"),)
    weak = pair_round(players, 2, PairingRules(), seed=1, constraints=round_constraints((), (), named, 2))
    assert frozenset((1, 2)) in _pairs(weak)
    note = next(g.explanation for g in weak.games if {g.red, g.black} == {1, 2})
    assert "虽属指定回避（父子）尽量回避，但避开将破坏积分组（S1），故仍配对" in note.zh and note.constraints
    strong = (NamedAvoidance(1, 2, ABS, reason="父子"),)
    got = pair_round(players, 2, PairingRules(), seed=1, constraints=round_constraints((), (), strong, 2))
    assert frozenset((1, 2)) not in _pairs(got) and len(got.games) == 2


# W outranks S2: four players of one score, each due Red after one game as Black; 1 and 3 of the same
# region, weakly apart. Natural pairing 1–3, 2–4 (each pair has one player not getting Red: S2 = 2).
# Any pairing has S2 = 2 here, so W decides alone: 1–4, 2–3 (S3 = 2) rather than 1–2, 3–4 (S3 = 6).
def test_weak_region_avoidance_is_met_where_score_groups_allow() -> None:
    players = [
        PairingPlayer(no=n, score=1, colours=(Colour.BLACK,), opponents=frozenset({n + 10}))
        for n in range(1, 5)
    ]
    facts = [
        ConstraintFacts(1, region="甘肃天水"),
        ConstraintFacts(3, region="甘肃天水"),
        ConstraintFacts(2, region="陕西"),
    ]
    rules = (AvoidanceRule(AvoidanceBasis.REGION, WEAK),)
    got = pair_round(players, 2, PairingRules(), seed=3, constraints=round_constraints(rules, facts, (), 2))
    assert _pairs(got) == {frozenset((1, 4)), frozenset((2, 3))}


def test_no_pairing_under_absolute_avoidances_is_reported() -> None:
    players = [PairingPlayer(no=n, score=0) for n in range(1, 3)]
    c = round_constraints((), (), (NamedAvoidance(1, 2, ABS),), 1)
    with pytest.raises(NoLegalPairing, match="绝对回避"):
        pair_round(players, 1, PairingRules(), seed=1, constraints=c)


def test_an_empty_or_irrelevant_constraint_set_changes_nothing() -> None:
    players = [PairingPlayer(no=n, score=0) for n in range(1, 9)]
    plain = pair_round(players, 1, PairingRules(), seed=5)
    none = RoundConstraints((), (), (), 1)
    assert pair_round(players, 1, PairingRules(), seed=5, constraints=none) == plain
    apart = round_constraints((), (), (NamedAvoidance(1, 2, ABS),), 1)  # 1–2 is not a natural pair
    assert pair_round(players, 1, PairingRules(), seed=5, constraints=apart) == plain


# The optimum (S1, W, S2, S3, S4) by enumeration on random pools with random avoidances, odd pools and
# the bye included, many score groups, staged solves and the numpy edges: tests/engine/pairing/
# test_optimality.py (its reference reads the avoidances); the decomposition with avoidances against
# one whole-pool matching: test_decomposition.py.


# Two score groups of three (1–3 with 1 point, 4–6 with none): one floater crosses the cut. The block is
# solved through the colour gadgets (a relaxation that counts no W on the floater's pair); the natural
# floater pair 3–4 is weakly avoided (same unit), so the engine must not accept the gadgets' answer and
# pairs 3 with 5 or 6 (or floats 2) instead: W = 0, the same S1.
def test_a_weakly_avoided_floater_pair_is_not_hidden_by_the_colour_gadgets() -> None:
    players = [
        PairingPlayer(no=n, score=1 if n <= 3 else 0, opponents=frozenset({n + 10})) for n in range(1, 7)
    ]
    plain = pair_round(players, 2, PairingRules(), seed=2)
    assert frozenset((3, 4)) in _pairs(plain)
    facts = [ConstraintFacts(3, unit="天水一中"), ConstraintFacts(4, unit="天水一中")]
    weak = round_constraints(UNIT_WEAK, facts, (), 2)
    # the gadgets alone: their answer floats 3 to 4 with or without the constraint (they count no W
    # on the pair they join), so with it the answer is refused and the block solved on every edge
    gadgets = solve_chain(ordered_pool(players, 2, PairingRules()), 0, 1)
    assert gadgets is not None and (2, 3) in gadgets.pairs  # pool indices of 3 and 4
    assert solve_chain(ordered_pool(players, 2, PairingRules(), weak), 0, 1) is None
    got = pair_round(players, 2, PairingRules(), seed=2, constraints=weak)
    assert frozenset((3, 4)) not in _pairs(got)
    assert got.quality is not None and got.quality.weak_avoidances == 0 and got.quality.cuts == (1,)
    why = " ".join(g.explanation.zh for g in got.games)
    assert "3号本应与4号配对，因同单位（天水一中）尽量回避而改配" in why
    floater = next(g.explanation for g in got.games if g.explanation.floater is not None)
    assert floater.floater_choice is FloaterChoice.AVOIDANCE
    assert "尽量回避的对局（3号与4号同单位（天水一中）尽量回避" in floater.zh
    assert "weakly avoided pair would be made (3 and 4: same unit (天水一中), weak avoidance" in floater.en
    # made absolute, the same exchange is refused by a hard rule, and the explanation names it
    strong = round_constraints(UNIT_ABS, facts, (), 2)
    got = pair_round(players, 2, PairingRules(), seed=2, constraints=strong)
    floater = next(g.explanation for g in got.games if g.explanation.floater is not None)
    assert floater.floater_choice is FloaterChoice.HARD_RULE
    assert "若改对4号，3号与4号同单位（天水一中）绝对回避" in floater.zh
    assert "3 and 4: same unit (天水一中), absolute avoidance" in floater.en


# One score group of four: a score group is first solved on the band of pairs near the natural ones
# (top half against bottom half). Every such pair is weakly avoided here (named pairs), so only 1–2 and
# 3–4 break none: the band's answer (W = 2) must not be taken for the optimum (W = 0).
def test_a_band_that_misses_a_weak_avoidance_is_not_taken_for_the_optimum() -> None:
    players = [PairingPlayer(no=n, score=0) for n in range(1, 5)]
    named = tuple(NamedAvoidance(a, b, WEAK, reason="同一教练") for a in (1, 2) for b in (3, 4))
    got = pair_round(players, 1, PairingRules(), seed=4, constraints=round_constraints((), (), named, 1))
    assert _pairs(got) == {frozenset((1, 2)), frozenset((3, 4))}
    assert got.quality is not None and got.quality.weak_avoidances == 0
