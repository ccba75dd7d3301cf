"""Hand-worked examples from docs/rules.md §5."""

from __future__ import annotations

import random

import pytest

from app.engine.pairing import (
    ColourReason,
    FloaterChoice,
    FloatReason,
    NoLegalPairing,
    PairingPlayer,
    allocate_colours,
    pair_round,
)
from app.engine.regulations import PairingRules, TeamAvoidance
from app.engine.types import Colour

R, B = Colour.RED, Colour.BLACK


def pairs_of(pairing):  # type: ignore[no-untyped-def]
    return [tuple(sorted((g.red, g.black))) for g in pairing.games]


def test_round_one_halves_with_teammates_moved_as_little_as_possible() -> None:
    # 1 and 5 are teammates: 1-5 is forbidden (H2); the smallest change swaps 5 and 6.
    players = [PairingPlayer(no=n, score=0, team="甲" if n in (1, 5) else f"队{n}") for n in range(1, 9)]
    pairing = pair_round(players, 1, PairingRules(team_avoidance=TeamAvoidance.ROUND_ONE), seed=11)
    assert pairs_of(pairing) == [(1, 6), (2, 5), (3, 7), (4, 8)]
    lot = random.Random(11).choice((R, B))
    top_colours = [R if g.red in (1, 2, 3, 4) else B for g in pairing.games]
    assert top_colours == [lot, lot.other, lot, lot.other]  # by lot on board 1, then alternating
    assert all(g.explanation.colour_reason is ColourReason.LOT for g in pairing.games)
    # in round 2 teammates may meet again
    again = pair_round(players, 2, PairingRules(team_avoidance=TeamAvoidance.ROUND_ONE), seed=11)
    assert pairs_of(again) == [(1, 5), (2, 6), (3, 7), (4, 8)]


def test_too_many_teammates_in_round_one_is_reported() -> None:
    players = [PairingPlayer(no=n, score=0, team="甲" if n <= 3 else "乙") for n in range(1, 5)]
    with pytest.raises(NoLegalPairing) as info:
        pair_round(players, 1, PairingRules(), seed=1)
    assert len(info.value.players) == 2 and set(info.value.players) <= {1, 2, 3}  # two of team 甲 are left
    assert "同队" in info.value.zh


def test_natural_pair_is_a_rematch() -> None:
    # four on 2 points; 1 already met 3, so 1-3 / 2-4 becomes 1-4 / 2-3 (S3 cost 2, the smallest)
    players = [
        PairingPlayer(no=1, score=2, opponents=frozenset({3})),
        PairingPlayer(no=2, score=2),
        PairingPlayer(no=3, score=2, opponents=frozenset({1})),
        PairingPlayer(no=4, score=2),
    ]
    pairing = pair_round(players, 2, PairingRules(), seed=0)
    assert pairs_of(pairing) == [(1, 4), (2, 3)]
    assert all(g.explanation.same_score for g in pairing.games)


def test_colour_conflict_forces_a_swap() -> None:
    # 1 and 3 are both due red, 2 and 4 both due black: 1-3 / 2-4 would leave two players without
    # their due colour (S2 = 2); S2 outranks S3, so 1-4 / 3-2 with everyone on their due colour.
    players = [
        PairingPlayer(no=1, score=2, colours=(B,), opponents=frozenset({9})),
        PairingPlayer(no=2, score=2, colours=(R,), opponents=frozenset({8})),
        PairingPlayer(no=3, score=2, colours=(B,), opponents=frozenset({7})),
        PairingPlayer(no=4, score=2, colours=(R,), opponents=frozenset({6})),
    ]
    pairing = pair_round(players, 2, PairingRules(), seed=0)
    assert [(g.red, g.black) for g in pairing.games] == [(1, 4), (3, 2)]
    assert all(g.explanation.colour_reason is ColourReason.BOTH_DUE for g in pairing.games)


def test_colour_rules_a_to_c() -> None:
    # (a) 2 had black twice in a row: must have red although 1 is higher-ranked and also due red
    one = PairingPlayer(no=1, score=4, colours=(R, B))
    two = PairingPlayer(no=2, score=4, colours=(B, B))
    assert allocate_colours(one, two, 1, R) == (False, ColourReason.HARD_CONSTRAINT)
    # (b) both due black; 2 has red − black = +2 … (B, R, R) is three colours, imbalance +1 vs 0
    one = PairingPlayer(no=1, score=4, colours=(B, R))
    two = PairingPlayer(no=2, score=4, colours=(R, B, R))
    assert allocate_colours(one, two, 1, R) == (True, ColourReason.IMBALANCE)
    # (c) same due colour, same imbalance: the higher-ranked gets it
    one = PairingPlayer(no=1, score=4, colours=(B, R))
    two = PairingPlayer(no=2, score=4, colours=(B, R))
    assert allocate_colours(one, two, 1, R) == (False, ColourReason.HIGHER_RANKED)


def test_bye_goes_to_the_lowest_eligible_player() -> None:
    # lowest score group {4, 5}; 5 is lowest-ranked but had a bye (H4), so 4 gets it
    players = [
        PairingPlayer(no=1, score=4),
        PairingPlayer(no=2, score=2),
        PairingPlayer(no=3, score=2),
        PairingPlayer(no=4, score=0),
        PairingPlayer(no=5, score=0, byes=1),
    ]
    pairing = pair_round(players, 3, PairingRules(), seed=0)
    assert pairing.bye == 4
    assert pairing.bye_explanation is not None and pairing.bye_explanation.skipped == ()
    # 1 (alone on 4) floats to 2; 3 meets 5
    assert pairs_of(pairing) == [(1, 2), (3, 5)]
    top = pairing.games[0].explanation
    assert top.floater == 1 and top.float_reason is FloatReason.ODD_GROUP and top.score_difference == 2


def test_bye_moves_up_when_the_rest_cannot_be_paired() -> None:
    # 3 is lowest but if 3 sits out, 1 and 2 (who met) would have to play: so 2 gets the bye
    players = [
        PairingPlayer(no=1, score=2, opponents=frozenset({2})),
        PairingPlayer(no=2, score=0, opponents=frozenset({1})),
        PairingPlayer(no=3, score=0),
    ]
    pairing = pair_round(players, 2, PairingRules(), seed=0)
    assert pairing.bye == 2
    assert pairing.bye_explanation is not None and pairing.bye_explanation.skipped == (3,)


def test_every_player_already_had_a_bye() -> None:
    players = [PairingPlayer(no=n, score=2, byes=1) for n in (1, 2, 3)]
    with pytest.raises(NoLegalPairing):
        pair_round(players, 4, PairingRules(), seed=0)


def test_a_chain_of_short_floats_beats_a_long_float_even_against_colours() -> None:
    # 近分者对弈 (docs/rules.md §5): 1 is alone on 4 points, 2 and 3 on 2, 4 alone on 0. Either 1-4 / 2-3
    # (one float past the whole 2-point group) or 1-2 / 3-4 (a chain of two short floats) crosses
    # each cut once (1-3 / 2-4 is out: 1 met 3). Colours favour the long float (everyone gets
    # their due colour, against two misses), the rule wants the chain.
    players = [
        PairingPlayer(no=1, score=4, colours=(B,), opponents=frozenset({3})),
        PairingPlayer(no=2, score=2, colours=(B,), opponents=frozenset({8})),
        PairingPlayer(no=3, score=2, colours=(R,), opponents=frozenset({1})),
        PairingPlayer(no=4, score=0, colours=(R,), opponents=frozenset({6})),
    ]
    pairing = pair_round(players, 2, PairingRules(), seed=0)
    assert pairs_of(pairing) == [(1, 2), (3, 4)]
    for g in pairing.games:
        e = g.explanation
        assert e.chain and e.groups_skipped == 0 and e.floater_choice is FloaterChoice.ORDER
        assert "近分者对弈" in e.zh and "chain of short floats" in e.en
        assert e.float_reason is FloatReason.ODD_GROUP
    # the 2-point group is even, but odd with the player floated into it
    assert "连同从上一积分组降下的1人" in pairing.games[1].explanation.zh
    assert "counting the 1 floated into it" in pairing.games[1].explanation.en
    assert pairing.quality is not None
    assert pairing.quality.cuts == (1, 1) and pairing.quality.long_floats == 0
    assert pairing.quality.missed_colours == 2  # the price of the chain, paid knowingly


def test_a_long_float_only_when_no_chain_is_legal() -> None:
    # as above, but 1 has met both players on 2 points: the float past that group is the only way
    players = [
        PairingPlayer(no=1, score=4, colours=(B,), opponents=frozenset({2, 3})),
        PairingPlayer(no=2, score=2, colours=(B,), opponents=frozenset({1})),
        PairingPlayer(no=3, score=2, colours=(R,), opponents=frozenset({1})),
        PairingPlayer(no=4, score=0, colours=(R,), opponents=frozenset({6})),
    ]
    pairing = pair_round(players, 2, PairingRules(), seed=0)
    assert pairs_of(pairing) == [(1, 4), (2, 3)]
    long = pairing.games[0].explanation
    assert long.groups_skipped == 1 and not long.chain
    assert "越过1个积分组" in long.zh and "floats past 1 score group" in long.en


def test_colours_choose_the_floater_before_the_order_does() -> None:
    # three on 2 points (one must float), three on 0. The natural floater is 3 (lowest-ranked),
    # meeting 4 (highest-ranked below); but 3 and 4 are both due red and 1 and 2 both due black.
    # Floating 2 instead gives everyone their due colour: S2 outranks the floater's identity (S3).
    players = [
        PairingPlayer(no=1, score=2, colours=(R,), opponents=frozenset({11})),
        PairingPlayer(no=2, score=2, colours=(R,), opponents=frozenset({12})),
        PairingPlayer(no=3, score=2, colours=(B,), opponents=frozenset({13})),
        PairingPlayer(no=4, score=0, colours=(B,), opponents=frozenset({14})),
        PairingPlayer(no=5, score=0, colours=(B,), opponents=frozenset({15})),
        PairingPlayer(no=6, score=0, colours=(R,), opponents=frozenset({16})),
    ]
    pairing = pair_round(players, 2, PairingRules(), seed=0)
    assert pairs_of(pairing) == [(1, 3), (2, 4), (5, 6)]
    cross = next(g.explanation for g in pairing.games if not g.explanation.same_score)
    assert cross.floater == 2 and cross.floater_choice is FloaterChoice.COLOURS
    assert "若改由3号降组" in cross.zh and "S2" in cross.zh
    assert "if 3 floated instead" in cross.en
    assert pairing.quality is not None and pairing.quality.missed_colours == 0
