"""The last-complete-round answer kept by the standings (``standings_core._last_complete``) is never one
file's, state's or thread's answer given for another: it is found by the identity of a tuple it
keeps, and that tuple is frozen all the way down (the premises held here), so a file read afresh —
another file, the state after an undo, a file another process wrote — is asked afresh."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

import pytest

from app.engine.types import Absence, AbsenceKind, Game, GameResult, RoundRecord
from app.services.results import enter_result
from app.services.rounds import group_state
from app.services.snapshot import import_snapshot
from app.services.standings import complete_through, group_standings
from app.services.tournaments import open_tournament
from tests.factories import player, snapshot, swiss_round

GROUP = "公开组"


def _event(path: Path) -> Path:
    players = [player(i, f"棋手{i}") for i in range(1, 5)]
    rounds = [
        swiss_round(1, [(1, 2, "red_win"), (3, 4, "draw")]),
        swiss_round(2, [(4, 1, "black_win"), (2, 3, "pending")]),  # board 2 still to play
    ]
    import_snapshot(snapshot(players, rounds), path).close()
    return path


def test_the_rounds_are_frozen_all_the_way_down(tmp_path: Path) -> None:
    db = open_tournament(_event(tmp_path / "a.xqt"))
    rounds = group_state(db, GROUP).scored_rounds
    db.close()
    assert type(rounds) is tuple and all(type(r) is RoundRecord for r in rounds)
    assert all(type(r.games) is tuple and all(type(g) is Game for g in r.games) for r in rounds)
    for record in (rounds[0], rounds[0].games[0], Absence(1, AbsenceKind.EXCUSED)):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, dataclasses.fields(record)[-1].name, ())


def test_another_file_another_handle_and_an_undo_are_asked_afresh(tmp_path: Path) -> None:
    """Two handles on one file (a window that opened it read-only, another instance writing it), a
    second file with other results: each answer is its own state's."""
    a = _event(tmp_path / "a.xqt")
    other_process = open_tournament(a)
    window = open_tournament(a, read_only=True)
    second = open_tournament(_event(tmp_path / "b.xqt"))
    try:
        assert group_standings(window, GROUP).after_round == 1
        enter_result(second, GROUP, 2, 2, "1-0")
        assert group_standings(second, GROUP).after_round == 2
        assert group_standings(window, GROUP).after_round == 1
        enter_result(other_process, GROUP, 2, 2, "=")  # the file written by the other handle
        assert group_standings(window, GROUP).after_round == 2
        enter_result(other_process, GROUP, 2, 2, GameResult.PENDING, reason="撤销：录错")  # an undo
        assert group_standings(window, GROUP).after_round == 1
        assert group_standings(second, GROUP).after_round == 2
    finally:
        for db in (window, other_process, second):
            db.close()


def test_threads_asking_about_different_rounds_get_their_own_answers() -> None:
    done = (
        RoundRecord(1, (Game(1, 1, 2, GameResult.RED_WIN),)),
        RoundRecord(2, (Game(1, 1, 2, GameResult.DRAW),)),
    )
    running = (RoundRecord(1, (Game(1, 1, 2, GameResult.RED_WIN),)), RoundRecord(2, (Game(1, 1, 2),)))
    wrong: list[tuple[int, int]] = []

    def ask(rounds: tuple[RoundRecord, ...], expected: int) -> None:
        for _ in range(20_000):
            got = complete_through(rounds)
            if got != expected:
                wrong.append((expected, got))
                return

    threads = [threading.Thread(target=ask, args=args) for args in ((done, 2), (running, 1)) * 2]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads) and wrong == []


def test_a_final_ranking_reads_its_group_once_and_the_next_one_afresh(
    played_demo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One final ranking (its Swiss standings, each stage's order, the knockout's places) reads the
    group's state and bracket once — it read them 3 and 10 times — and keeps nothing after: the next
    question reads the file again, as every action outside an export does."""
    import app.db.mapping as mapping
    import app.services.brackets as brackets
    from app.services.standings import final_places, is_final, why_above

    reads: list[str] = []
    real_state, real_bracket = mapping.read_group_state, brackets._read_bracket
    monkeypatch.setattr(
        mapping,
        "read_group_state",
        lambda s, g, reg: reads.append(f"state {g.name}") or real_state(s, g, reg),
    )
    monkeypatch.setattr(
        brackets,
        "_read_bracket",
        lambda s, g, reg: reads.append(f"bracket {g.name}") or real_bracket(s, g, reg),
    )
    local = "天水本地组"
    once = [f"state {local}", f"bracket {local}"]
    db = open_tournament(played_demo, read_only=True)
    try:
        places = final_places(db, local)
        assert sorted(reads) == sorted(once)
        reads.clear()
        assert is_final(db, local)
        assert sorted(reads) == sorted(once)
        reads.clear()
        first, second = sorted(places, key=places.__getitem__)[:2]
        assert why_above(db, local, second, first, final=True).startswith(f"{first} 号排在 {second} 号之前")
        assert sorted(reads) == sorted(once)
    finally:
        db.close()
