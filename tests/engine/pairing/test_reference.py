"""The brute-force reference itself: its dynamic programming over the unpaired players (what the
optimality tests use) gives the answers of the plain enumeration of every perfect pairing."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.pairing import PairingPlayer
from app.engine.pairing.constraints import RoundConstraints

from . import reference as ref
from .strategies import avoidances, pools


@st.composite
def events(draw: st.DrawFn) -> tuple[list[PairingPlayer], RoundConstraints | None]:
    players = draw(pools(max_size=10, max_score=draw(st.sampled_from([None, 40]))))
    constraints = draw(st.none() | avoidances([p.no for p in players], round_number=2))
    return players, constraints


@settings(max_examples=400)
@given(event=events(), avoid=st.booleans(), by_tiebreaks=st.booleans())
def test_the_programmed_optimum_is_the_enumerated_one(
    event: tuple[list[PairingPlayer], RoundConstraints | None], avoid: bool, by_tiebreaks: bool
) -> None:
    players, c = event
    pool = ref.ordered(players, by_tiebreaks)
    enumerated = next(ref.perfect_pairings(pool, avoid, c), None) is not None
    assert ref.has_pairing(pool, avoid, c) is enumerated
    rest = pool[: len(pool) // 2 * 2]  # an even pool: the last player left out of an odd one
    best = ref.best_objective(rest, avoid, by_tiebreaks, c)
    assert best == ref.best_objective_by_enumeration(rest, avoid, by_tiebreaks, c)
    assert (best is not None) is ref.has_pairing(rest, avoid, c)
