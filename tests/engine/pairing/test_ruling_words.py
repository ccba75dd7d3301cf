"""The engine's documentation and ``why`` say docs/rules.md §5's rulings on L and S3 in its own words:
L counts the whole score groups skipped (not the pairs), and S3 is one sum of the floater's cost
and the order inside the groups (traded against each other, not ranked one above the other)."""

from __future__ import annotations

import app.engine.pairing.engine as engine
from app.engine.pairing import FloaterChoice, PairingPlayer, pair_round
from app.engine.regulations import PairingRules
from app.engine.types import Colour

R, B = Colour.RED, Colour.BLACK


def test_the_engine_documentation_states_both_rulings() -> None:
    doc = " ".join((engine.__doc__ or "").split())
    assert "L counts groups skipped, not pairs" in doc
    assert "two pairs that each skip one group (L = 2) tie with one pair that skips two" in doc
    assert "S3 is one sum" in doc and "not ranked one above the other" in doc
    assert "(m − 1 − r) + q" in doc  # the cross-group formula


def test_why_a_long_float_names_the_groups_skipped() -> None:
    players = [
        PairingPlayer(no=1, score=4, colours=(B,), opponents=frozenset({2, 3})),
        PairingPlayer(no=2, score=2, colours=(B,), opponents=frozenset({1})),
        PairingPlayer(no=3, score=2, colours=(R,), opponents=frozenset({1})),
        PairingPlayer(no=4, score=0, colours=(R,), opponents=frozenset({6})),
    ]
    long = pair_round(players, 2, PairingRules(), seed=0).games[0].explanation
    assert "L 计越过的整组数，不计对数" in long.zh
    assert "L counts groups skipped, not pairs" in long.en


def test_why_the_natural_floater_says_s3_is_one_sum() -> None:
    players = [
        PairingPlayer(no=1, score=2, colours=(R,), opponents=frozenset({11})),
        PairingPlayer(no=2, score=2, colours=(B,), opponents=frozenset({12})),
        PairingPlayer(no=3, score=2, colours=(R,), opponents=frozenset({13})),
        PairingPlayer(no=4, score=0, colours=(B,), opponents=frozenset({14})),
        PairingPlayer(no=5, score=0, colours=(R,), opponents=frozenset({15})),
        PairingPlayer(no=6, score=0, colours=(B,), opponents=frozenset({16})),
    ]
    pairing = pair_round(players, 2, PairingRules(), seed=0)
    cross = next(g.explanation for g in pairing.games if not g.explanation.same_score)
    assert cross.floater_choice is FloaterChoice.ORDER
    assert "S3 是降组人选与组内顺序的同一个总和" in cross.zh
    assert "S3 is one sum of the floater's cost and the order inside the groups" in cross.en
