"""Standings over simulated events, through the services (docs/rules.md §6 "所有名次均不并列")."""

import itertools
from pathlib import Path

from hypothesis import given, reject, settings
from hypothesis import strategies as st

from app.engine.pairing import NoLegalPairing
from app.engine.simulation import SimulatedEvent
from app.services.results import enter_result
from app.services.snapshot import export_snapshot, import_snapshot
from app.services.standings import group_standings
from tests.factories import player, snapshot, swiss_round

_counter = itertools.count()


def simulated_file(tmp: Path, players: int, rounds: int, seed: int, forfeit_rate: float):
    event = SimulatedEvent(players, seed, teams=True, forfeit_rate=forfeit_rate)
    for _ in range(rounds):
        try:
            event.play_round()
        except NoLegalPairing:  # a tiny random field with too many teammates: not a standings case
            reject()
    people = [player(e.no, f"棋手{e.no}", team=e.team, rating=e.rating) for e in event.entrants]
    rows = [
        swiss_round(r.number, [(g.red, g.black, g.result.value) for g in r.games], list(r.byes))
        for r in event.rounds
    ]
    return import_snapshot(snapshot(people, rows), tmp / f"sim{next(_counter)}.xqt")


def lines(view):
    return [
        (ln.rank, ln.no, ln.score, ln.opponent_score, ln.wins, ln.black_games, ln.separated_by)
        for ln in view.lines
    ]


@settings(max_examples=12, deadline=None)
@given(
    players=st.integers(min_value=6, max_value=30),
    rounds=st.integers(min_value=1, max_value=7),
    seed=st.integers(min_value=0, max_value=10_000),
    forfeit_rate=st.sampled_from([0.0, 0.05, 0.2]),
)
def test_standings_are_a_permutation_survive_a_round_trip_and_a_result_changed_back(
    tmp_path_factory, players: int, rounds: int, seed: int, forfeit_rate: float
) -> None:
    tmp = tmp_path_factory.mktemp("props")
    db = simulated_file(tmp, players, rounds, seed, forfeit_rate)
    view = group_standings(db, "公开组")
    assert sorted(ln.rank for ln in view.lines) == list(range(1, players + 1))
    assert sorted(ln.no for ln in view.lines) == list(range(1, players + 1))
    for after in range(0, rounds + 1):
        ranks = [ln.rank for ln in group_standings(db, "公开组", after).lines]
        assert ranks == list(range(1, players + 1))

    copy = import_snapshot(export_snapshot(db), tmp / "copy.xqt")
    assert lines(group_standings(copy, "公开组")) == lines(view)

    snap = export_snapshot(db)
    last = snap["rounds"][-1]
    if last["games"]:
        board = last["games"][0]["board"]
        before = last["games"][0]["result"]
        other = "black_win" if before != "black_win" else "red_win"
        enter_result(db, "公开组", last["round"], board, other)
        changed = lines(group_standings(db, "公开组"))
        enter_result(db, "公开组", last["round"], board, before)
        assert lines(group_standings(db, "公开组")) == lines(view)
        assert changed != lines(view) or players == 2
