"""Large-pool path (score-group steps on sparse edges) forced on mid-size pools by lowering the limits."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.engine.pairing import PairingPlayer, engine, pair_round
from app.engine.regulations import PairingRules, TeamAvoidance
from app.engine.simulation import SimulatedEvent
from app.engine.types import Colour

from . import reference as ref


@pytest.fixture
def dense_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Force the step-by-step path with sparse edges; record every all-legal-edges graph built above the limit."""
    monkeypatch.setattr(engine, "EXACT_LIMIT", 4)
    monkeypatch.setattr(engine, "DENSE_LIMIT", 10)
    calls: list[int] = []
    real = engine._dense_edges

    def spy(pool: engine._Pool, members: list[int]) -> list[tuple[int, int]]:
        if len(members) > engine.DENSE_LIMIT:
            calls.append(len(members))
        return real(pool, members)

    monkeypatch.setattr(engine, "_dense_edges", spy)
    yield calls


def _assert_complete_and_legal(players: list[PairingPlayer], round_number: int, rules: PairingRules) -> None:
    pairing = pair_round(players, round_number, rules, seed=5)
    by_no = {p.no: p for p in players}
    seen = [x for g in pairing.games for x in (g.red, g.black)] + ([pairing.bye] if pairing.bye else [])
    assert sorted(seen) == sorted(by_no)
    avoid = rules.team_avoidance is TeamAvoidance.ALL_ROUNDS
    for g in pairing.games:
        red, black = by_no[g.red], by_no[g.black]
        assert ref.legal(red, black, avoid)
        assert ref.may_take(red, Colour.RED) and ref.may_take(black, Colour.BLACK)


@pytest.mark.parametrize("played", [1, 2, 3])
def test_the_last_step_keeps_its_sparse_pairing_instead_of_redoing_it_on_every_edge(
    dense_calls: list[int], played: int
) -> None:
    # Regression: the last step kept only the pairs touching its top score group, so the sparse
    # pairing looked incomplete and the whole remainder was re-paired on every legal edge
    # (round 2 of a 5,000-player event: ~120 s instead of ~5 s).
    event = SimulatedEvent(80, seed=played)
    for _ in range(played):
        event.play_round()
    players = event.pool()
    assert len({p.score for p in players}) >= 3
    _assert_complete_and_legal(players, played + 1, event.rules)
    assert dense_calls == []
