"""A re-entry "from round N" keeps the player out of every round before N, in both pairing paths:
the full service (:func:`app.services.rounds.pair_next_round`) and the command line's fast path
(:func:`app.services.fastpair.pair_next_round_lite`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from app.db.session import Database
from app.services.attendance import reenter_player
from app.services.fastpair import pair_next_round_lite
from app.services.registration import list_players, withdraw_player
from app.services.results import enter_result
from app.services.rounds import close_round, pair_next_round, round_view
from app.services.snapshot import import_snapshot
from app.services.tournaments import open_tournament
from tests.factories import player, snapshot

OPEN = "公开组"


def _seated(db: Database, number: int) -> set[int]:
    view = round_view(db, OPEN, number)
    return {x for b in view.boards for x in (b.red.no, b.black.no)} | {s.no for s in view.byes}


def _play(db: Database, number: int) -> None:
    for b in round_view(db, OPEN, number).boards:
        enter_result(db, OPEN, number, b.board, "=")
    close_round(db, OPEN, number)


def _full(path: Path, db: Database, seed: int) -> None:
    pair_next_round(db, OPEN, seed=seed)
    db.close()


def _fast(path: Path, db: Database, seed: int) -> None:
    db.close()
    assert pair_next_round_lite(path, OPEN, seed=seed) is not None  # the fast path did the pairing


@pytest.mark.parametrize("pair", [_full, _fast], ids=["full service", "fast path"])
def test_a_player_reentered_from_round_4_is_left_out_of_rounds_2_and_3(
    tmp_path: Path, pair: Callable[[Path, Database, int], None]
) -> None:
    path = tmp_path / "r.xqt"
    db = import_snapshot(snapshot([player(i, f"棋手{i}") for i in range(1, 10)]), path)
    pair_next_round(db, OPEN, seed=1)
    _play(db, 1)
    pid = next(p.id for p in list_players(db, OPEN) if p.no == 6)
    withdraw_player(db, pid, reason="家中有事")
    assert reenter_player(db, pid, reason="裁判长同意", from_round=4) == 4
    for number in (2, 3, 4):
        pair(path, db, number)
        db = open_tournament(path)
        seated = _seated(db, number)
        if number < 4:
            assert 6 not in seated, f"round {number}: no. 6 re-enters from round 4"
            assert len(seated) == 8
        else:
            assert 6 in seated
        _play(db, number)
    db.close()
