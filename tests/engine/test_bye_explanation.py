"""The bye's explanation says where the bye went when the lowest score group had all had byes."""

from __future__ import annotations

from app.engine.pairing import PairingPlayer, pair_round
from app.engine.regulations import PairingRules
from app.engine.types import Colour

R, B = Colour.RED, Colour.BLACK


def test_the_bye_moving_up_past_a_group_that_had_its_byes_says_so() -> None:
    # round 3, five players on 4, 4, 2, 0, 0 points; the two on 0 have had a bye
    pool = [
        PairingPlayer(1, 4, (R, B), frozenset({4, 2})),
        PairingPlayer(2, 4, (B, R), frozenset({5, 1})),
        PairingPlayer(3, 2, (R,), frozenset({5})),
        PairingPlayer(4, 0, (B,), frozenset({1}), byes=1),
        PairingPlayer(5, 0, (B,), frozenset({2}), byes=1),
    ]
    pairing = pair_round(pool, 3, PairingRules(), seed=1)
    assert pairing.bye == 3
    explanation = pairing.bye_explanation
    assert explanation is not None
    assert "积分最低组中" not in explanation.zh and "in the lowest score group" not in explanation.en
    assert "0分" in explanation.zh and "都已轮空" in explanation.zh and "2分" in explanation.zh
    assert "had a bye" in explanation.en


def test_the_bye_in_the_lowest_group_keeps_its_plain_words() -> None:
    pool = [
        PairingPlayer(1, 2, (R,), frozenset({2})),
        PairingPlayer(2, 0, (B,), frozenset({1})),
        PairingPlayer(3, 2, (B,), frozenset({4})),
        PairingPlayer(4, 0, (R,), frozenset({3})),
        PairingPlayer(5, 2, (), frozenset(), byes=1),
    ]
    pairing = pair_round(pool, 2, PairingRules(), seed=1)
    assert pairing.bye in (2, 4)
    assert pairing.bye_explanation is not None and "积分最低组中" in pairing.bye_explanation.zh
