"""Hypothesis strategies: random pools with random (possibly odd) histories."""

from __future__ import annotations

from hypothesis import strategies as st

from app.engine.pairing import Float, PairingPlayer
from app.engine.pairing.constraints import (
    ConstraintFacts,
    NamedAvoidance,
    RoundConstraints,
    round_constraints,
)
from app.engine.regulations import AvoidanceBasis, AvoidanceRule, AvoidanceStrength
from app.engine.types import Colour

TEAMS = (None, "甲", "乙", "丙")


@st.composite
def pools(
    draw: st.DrawFn, min_size: int = 1, max_size: int = 12, max_rounds: int = 6, max_score: int | None = None
) -> list[PairingPlayer]:
    """A random pool; ``max_score`` (instead of 2 × rounds) spreads the scores into many groups."""
    n = draw(st.integers(min_size, max_size))
    rounds = draw(st.integers(0, max_rounds))
    nos = draw(st.lists(st.integers(1, 400), min_size=n, max_size=n, unique=True))
    met: dict[int, set[int]] = {x: set() for x in nos}
    density = draw(st.floats(0, 0.6))
    for a in nos:
        for b in nos:
            if a < b and draw(st.floats(0, 1)) < density:
                met[a].add(b)
                met[b].add(a)
    players = []
    for x in nos:
        played = draw(st.integers(0, rounds))
        colours = tuple(draw(st.lists(st.sampled_from(Colour), min_size=played, max_size=played)))
        players.append(
            PairingPlayer(
                no=x,
                score=draw(st.integers(0, max_score if max_score is not None else 2 * rounds))
                if rounds
                else 0,
                colours=colours,
                opponents=frozenset(met[x]),
                byes=draw(st.integers(0, 1)) if rounds else 0,
                float_history=tuple(draw(st.lists(st.sampled_from(Float), min_size=rounds, max_size=rounds))),
                team=draw(st.sampled_from(TEAMS)),
                rank_key=(draw(st.integers(0, 5)),),
            )
        )
    return players


UNITS = ("", "甲", "乙", "丙")


@st.composite
def avoidances(draw: st.DrawFn, nos: list[int], round_number: int = 2) -> RoundConstraints:
    """Random avoidances (pairing constraints) among the players ``nos``: unit and region rules of either
    strength (some not in force this round), and named pairs of either strength."""
    facts = [
        ConstraintFacts(no, unit=draw(st.sampled_from(UNITS)), region=draw(st.sampled_from(UNITS)))
        for no in nos
    ]
    strength = st.sampled_from(list(AvoidanceStrength))
    rules = tuple(
        AvoidanceRule(basis, draw(strength), draw(st.integers(1, 3)), draw(st.sampled_from([0, 2, 3])))
        for basis in draw(st.lists(st.sampled_from(list(AvoidanceBasis)), max_size=3))
    )
    pairs = draw(st.lists(st.tuples(st.sampled_from(nos), st.sampled_from(nos)), max_size=4)) if nos else []
    named = tuple(NamedAvoidance(a, b, draw(strength), reason="父子") for a, b in pairs if a != b)
    return round_constraints(rules, facts, named, round_number)
