"""Record duty through the services: duties from results, hand-in checks, refusals at closing."""

from pathlib import Path

import pytest

from app.engine.types import UserError
from app.services.records import (
    confirm_refusals,
    designate_records,
    hand_in_record,
    record_duty_list,
    records_owed,
    refusals_at_close,
)
from app.services.results import enter_result
from app.services.snapshot import export_snapshot, import_snapshot
from tests.factories import player, snapshot, swiss_round


@pytest.fixture
def db(tmp_path: Path):
    players = [player(i, f"棋手{i}") for i in range(1, 25)]
    r1 = [(i, i + 12, "pending") for i in range(1, 13)]
    rounds = [
        swiss_round(1, [(a, b, "red_win") for a, b, _ in r1]),
        swiss_round(2, [(a, b, "red_win") for a, b, _ in r1]),
        swiss_round(3, [(a, b, "red_win") for a, b, _ in r1]),
        swiss_round(4, r1),
    ]
    return import_snapshot(snapshot(players, rounds), tmp_path / "t.xqt")


def test_round_four_owes_the_top_ten_boards_winners_and_black_for_draws(db) -> None:
    for board in range(1, 13):
        enter_result(db, "公开组", 4, board, "1-0")
    enter_result(db, "公开组", 4, 2, "=")  # board 2: 2 (red) vs 14 (black)
    enter_result(db, "公开组", 4, 3, "0-1")  # board 3: 3 vs 15, Black wins
    enter_result(db, "公开组", 4, 4, "+-")  # forfeit: nothing owed
    lines = record_duty_list(db, "公开组", 4)
    assert [(ln.board, ln.recorder_no) for ln in lines] == [
        (1, 1),
        (2, 14),
        (3, 15),
        (5, 5),
        (6, 6),
        (7, 7),
        (8, 8),
        (9, 9),
        (10, 10),
    ]


def test_first_rounds_only_designated_boards(db) -> None:
    assert record_duty_list(db, "公开组", 1) == []
    designate_records(db, "公开组", 1, [3, 11])
    assert [(ln.board, ln.recorder_no) for ln in record_duty_list(db, "公开组", 1)] == [(3, 3), (11, 11)]
    with pytest.raises(UserError, match="第 13 台"):
        designate_records(db, "公开组", 1, [13])


def test_short_draw_record_raises_violations_and_a_longer_one_replaces_them(db) -> None:
    enter_result(db, "公开组", 4, 1, "=")
    found = hand_in_record(db, "公开组", 4, 1, 18)
    assert sorted(v.player_no for v in found) == [1, 13]
    assert sorted((v["player"], v["kind"]) for v in export_snapshot(db)["violations"]) == [
        (1, "short_draw_record"),
        (13, "short_draw_record"),
    ]
    assert hand_in_record(db, "公开组", 4, 1, 31) == []
    assert export_snapshot(db)["violations"] == []


def test_refusals_at_closing_are_confirmed_once(db) -> None:
    for board in range(1, 13):
        enter_result(db, "公开组", 4, board, "1-0")
    hand_in_record(db, "公开组", 4, 1, 40)
    assert [ln.board for ln in records_owed(db, "公开组", 4)] == list(range(2, 11))
    proposed = refusals_at_close(db, "公开组", 4)
    assert [v.player_no for v in proposed] == list(range(2, 11))
    assert export_snapshot(db)["violations"] == []  # nothing stored before confirmation
    assert confirm_refusals(db, "公开组", 4) == 9
    assert confirm_refusals(db, "公开组", 4) == 0  # not twice
    kinds = {v["kind"] for v in export_snapshot(db)["violations"]}
    assert kinds == {"refused_record"}


def test_record_of_a_pending_game_is_refused(db) -> None:
    with pytest.raises(UserError, match="尚无成绩"):
        hand_in_record(db, "公开组", 4, 1, 30)
