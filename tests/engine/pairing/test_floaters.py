"""Why this floater and not another: hand-worked pools (RULES.md §5, S1–S3) and every float of a
simulated event explained."""

from __future__ import annotations

import random

import pytest

from app.engine.pairing import PairingPlayer, pair_round
from app.engine.pairing.floaters import explain_float
from app.engine.regulations import PairingRules
from app.engine.types import Colour, UserError

DUE_RED = (Colour.BLACK,)  # last played Black: due Red
DUE_BLACK = (Colour.RED,)


def test_the_lowest_ranked_floats_and_meets_the_highest_ranked() -> None:
    pool = [PairingPlayer(n, 2) for n in (1, 2, 3)] + [PairingPlayer(n, 0) for n in (4, 5, 6, 7, 8)]
    pairs = [(1, 2), (3, 4), (5, 7), (6, 8)]
    why = explain_float(pool, pairs, 4)
    assert (why.floater, why.opponent, why.lowest, why.highest) == (3, 4, True, True)
    assert why.passed_over == () and why.not_chosen == ()
    assert "3号是2分组中排名最后的棋手" in why.zh and "4号是0分组中排名最前的棋手" in why.zh
    assert why.en.startswith("Why this floater: no. 3 is the lowest-ranked player with 2 points")


def test_a_rematch_makes_a_higher_ranked_player_float() -> None:
    pool = [
        PairingPlayer(1, 2),
        PairingPlayer(2, 2),
        PairingPlayer(3, 2, opponents=frozenset({4})),
        PairingPlayer(4, 0, opponents=frozenset({3})),
    ]
    why = explain_float(pool, [(1, 3), (2, 4)], 2)
    assert why.floater == 2 and not why.lowest
    assert [(p.no, p.code) for p in why.passed_over] == [(3, "rematch")]
    assert "3号与4号已交过手（H1）" in why.zh


def test_colours_outrank_the_order_of_the_floater() -> None:
    # 2 points: 1 (due Black), 2 (due Black), 3 (due Red); 0 points: 4 (due Red).
    # 3 floating (3–4, 1–2) leaves two players without their due colour; 2 floating (2–4, 1–3) none.
    pool = [
        PairingPlayer(1, 2, colours=DUE_BLACK),
        PairingPlayer(2, 2, colours=DUE_BLACK),
        PairingPlayer(3, 2, colours=DUE_RED),
        PairingPlayer(4, 0, colours=DUE_RED),
    ]
    why = explain_float(pool, [(1, 3), (2, 4)], 2)
    assert [(p.no, p.code) for p in why.passed_over] == [(3, "colours")]
    assert "若由3号降组会多 2 人得不到应得的先后手" in why.zh
    # the engine pairs this pool that way (S2 before S3)
    pairing = pair_round(pool, 2, PairingRules(), seed=1)
    assert {frozenset((g.red, g.black)) for g in pairing.games} == {frozenset((1, 3)), frozenset((2, 4))}


def test_the_opponent_side_names_the_players_ranked_above() -> None:
    # 3 on 2 points floats; among the 0-point players 4 has met 3 already: 5 is the opponent
    pool = [PairingPlayer(n, 2) for n in (1, 2)] + [
        PairingPlayer(3, 2, opponents=frozenset({4})),
        PairingPlayer(4, 0, opponents=frozenset({3})),
        PairingPlayer(5, 0),
        PairingPlayer(6, 0),
    ]
    why = explain_float(pool, [(1, 2), (3, 5), (4, 6)], 3)
    assert why.lowest and not why.highest
    assert [(p.no, p.code) for p in why.not_chosen] == [(4, "rematch")]


def test_same_scores_and_strangers_are_refused() -> None:
    pool = [PairingPlayer(n, 0) for n in (1, 2)]
    with pytest.raises(UserError):
        explain_float(pool, [(1, 2)], 1)
    with pytest.raises(UserError):
        explain_float(pool, [(1, 2)], 9)


def test_every_float_of_random_pools_is_explained() -> None:
    rng = random.Random(7)
    codes = {"rematch", "team", "colour_rule", "colours", "order", "also_floats", "whole_pool"}
    explained = 0
    for _ in range(30):
        pool = [
            PairingPlayer(n, rng.choice((0, 2, 2, 4)), colours=(rng.choice((Colour.RED, Colour.BLACK)),))
            for n in range(1, 13)
        ]
        pairing = pair_round(pool, 2, PairingRules(), seed=rng.randrange(100))
        pairs = [(g.red, g.black) for g in pairing.games]
        score = {p.no: p.score for p in pool}
        for a, b in pairs:
            if score[a] != score[b]:
                why = explain_float(pool, pairs, a)
                assert {p.code for p in (*why.passed_over, *why.not_chosen)} <= codes
                assert why.zh.startswith("为什么是这名降组棋手") and why.en
                explained += 1
    assert explained > 10
