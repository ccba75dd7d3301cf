"""The random tournament generator and checker."""

from __future__ import annotations

from dataclasses import replace

from app.engine.regulations import PairingRules
from app.engine.simulation import FindingKind, check_event, simulate
from app.engine.types import Game


def test_full_160_player_eleven_round_swiss() -> None:
    report = simulate(players=160, rounds=11, seed=2024, teams=True, forfeit_rate=0.0)
    q = report.quality
    assert (q.rematches, q.h3_breaks, q.double_byes, q.unbalanced_finishers) == (0, 0, 0, 0)
    assert len(report.rounds) == 11 and all(len(r.games) == 80 for r in report.rounds)
    draws = sum(g.result.value == "draw" for r in report.rounds for g in r.games) / (11 * 80)
    assert 0.2 < draws < 0.45


def test_quality_figures_count_colours_independently_of_the_engine() -> None:
    # the missed due colours are recounted from the history (due = opposite of the last played
    # colour) and must agree with what the engine reported for its own pairings
    from app.engine.simulation import SimulatedEvent

    event = SimulatedEvent(60, seed=5, teams=True, forfeit_rate=0.03)
    for _ in range(7):
        event.play_round()
    q = event.quality()
    assert q.missed_due_colours == sum(p.missed_colours for p in event.pairing_quality) > 0
    assert q.order_cost == sum(p.order_cost for p in event.pairing_quality) > 0
    assert q.largest_order_cost == max(p.order_cost for p in event.pairing_quality)
    assert q.unproved_rounds == 0 and q.long_floats >= 0


def test_odd_event_with_forfeits() -> None:
    q = simulate(players=41, rounds=9, seed=7, forfeit_rate=0.05).quality
    assert (q.rematches, q.h3_breaks, q.double_byes) == (0, 0, 0)


def test_checker_agrees_with_a_stored_history_and_finds_a_tampered_round() -> None:
    report = simulate(players=24, rounds=5, seed=9, teams=True)
    rules = PairingRules()
    assert check_event(report.entrants, report.rounds, rules, report.seeds) == ()
    # make round 4 repeat a pair of round 1
    first = report.rounds[0].games[0]
    r4 = report.rounds[3]
    games = list(r4.games)
    a = next(t for t, g in enumerate(games) if first.red in (g.red, g.black))
    b = next(t for t, g in enumerate(games) if first.black in (g.red, g.black))
    if a != b:
        ga, gb = games[a], games[b]
        other_a = ga.black if ga.red == first.red else ga.red
        other_b = gb.black if gb.red == first.black else gb.red
        games[a] = Game(ga.board, first.red, first.black, ga.result)
        games[b] = Game(gb.board, other_a, other_b, gb.result)
    tampered = (*report.rounds[:3], replace(r4, games=tuple(games)), *report.rounds[4:])
    kinds = {f.kind for f in check_event(report.entrants, tampered, rules, report.seeds) if f.round == 4}
    assert FindingKind.REMATCH in kinds and FindingKind.DIFFERENT_PAIRS in kinds
