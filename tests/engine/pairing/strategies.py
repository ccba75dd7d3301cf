"""Hypothesis strategies: random pools with random (possibly odd) histories."""

from __future__ import annotations

import random
from functools import cache

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

# The strategies a pool is drawn from, each built once: building one per draw (st.integers(0, rounds),
# a list of exactly `played` colours, ...) made hypothesis check every new strategy again, which cost more
# than drawing from it. A cached strategy draws exactly as a freshly built one.


@cache
def _integers(low: int, high: int) -> st.SearchStrategy[int]:
    return st.integers(low, high)


@cache
def _exactly(n: int, of: st.SearchStrategy[object]) -> st.SearchStrategy[list[object]]:
    return st.lists(of, min_size=n, max_size=n)


@cache
def _unique_numbers(n: int) -> st.SearchStrategy[list[int]]:
    return st.lists(st.integers(1, 400), min_size=n, max_size=n, unique=True)


_COLOURS = st.sampled_from(Colour)
_FLOATS = st.sampled_from(Float)
_DENSITY = st.floats(0, 0.6)
_SEED = st.integers(0, 2**64 - 1)
_TEAM = st.sampled_from(TEAMS)
_BYES = st.integers(0, 1)
_RANK = st.integers(0, 5)


@st.composite
def pools(
    draw: st.DrawFn, min_size: int = 1, max_size: int = 12, max_rounds: int = 6, max_score: int | None = None
) -> list[PairingPlayer]:
    """A random pool; ``max_score`` (instead of 2 × rounds) spreads the scores into many groups.

    Who has met whom: each pair with the drawn ``density``. The pairs come from one drawn seed, not
    from a draw per pair: on 40–60 players those 800–1,800 draws cost more than the pairing tested.
    (Hypothesis still draws the density, which shrinks to no history at all, and every attribute
    of every player.)
    """
    n = draw(_integers(min_size, max_size))
    rounds = draw(_integers(0, max_rounds))
    nos = draw(_unique_numbers(n))
    met: dict[int, set[int]] = {x: set() for x in nos}
    density = draw(_DENSITY)
    coin = random.Random(draw(_SEED)).random
    for a in nos:
        for b in nos:
            if a < b and coin() < density:
                met[a].add(b)
                met[b].add(a)
    score = _integers(0, max_score if max_score is not None else 2 * rounds)
    played_in = _integers(0, rounds)
    floats = _exactly(rounds, _FLOATS)
    players = []
    for x in nos:
        played = draw(played_in)
        colours = tuple(draw(_exactly(played, _COLOURS)))
        players.append(
            PairingPlayer(
                no=x,
                score=draw(score) if rounds else 0,
                colours=colours,
                opponents=frozenset(met[x]),
                byes=draw(_BYES) if rounds else 0,
                float_history=tuple(draw(floats)),
                team=draw(_TEAM),
                rank_key=(draw(_RANK),),
            )
        )
    return players


UNITS = ("", "甲", "乙", "丙")
_UNIT = st.sampled_from(UNITS)
_STRENGTH = st.sampled_from(list(AvoidanceStrength))
_FROM = st.integers(1, 3)
_UNTIL = st.sampled_from([0, 2, 3])
_BASES = st.lists(st.sampled_from(list(AvoidanceBasis)), max_size=3)


@st.composite
def avoidances(draw: st.DrawFn, nos: list[int], round_number: int = 2) -> RoundConstraints:
    """Random avoidances (pairing constraints) among the players ``nos``: unit and region rules of either
    strength (some not in force this round), and named pairs of either strength."""
    facts = [ConstraintFacts(no, unit=draw(_UNIT), region=draw(_UNIT)) for no in nos]
    rules = tuple(AvoidanceRule(basis, draw(_STRENGTH), draw(_FROM), draw(_UNTIL)) for basis in draw(_BASES))
    if nos:
        player = st.sampled_from(nos)
        pairs = draw(st.lists(st.tuples(player, player), max_size=4))
    else:
        pairs = []
    named = tuple(NamedAvoidance(a, b, draw(_STRENGTH), reason="父子") for a, b in pairs if a != b)
    return round_constraints(rules, facts, named, round_number)
