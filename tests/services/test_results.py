"""Entering results: codes, corrections with reasons, refusals that change nothing, bulk all-or-nothing."""

from pathlib import Path

import pytest

from app.engine.types import GameResult, UserError
from app.services.audit import audit_log
from app.services.results import ResultEntry, enter_result, enter_results, parse_result_entries
from app.services.rounds import close_round, round_view
from app.services.snapshot import export_snapshot, import_snapshot
from tests.factories import player, snapshot, swiss_round


@pytest.fixture
def db(tmp_path: Path):
    players = [player(i, f"棋手{i}") for i in range(1, 8)]
    rounds = [swiss_round(1, [(1, 5, "pending"), (6, 2, "pending"), (3, 7, "pending")], byes=[4])]
    return import_snapshot(snapshot(players, rounds), tmp_path / "t.xqt")


def results(db) -> list[str]:
    return [g["result"] for g in export_snapshot(db)["rounds"][0]["games"]]


@pytest.mark.parametrize(
    ("code", "stored"),
    [
        ("1-0", "red_win"),
        ("0-1", "black_win"),
        ("=", "draw"),
        ("+-", "black_forfeit"),
        ("-+", "red_forfeit"),
        ("--", "double_forfeit"),
        ("draw", "draw"),
    ],
)
def test_each_code_is_stored(db, code: str, stored: str) -> None:
    enter_result(db, "公开组", 1, 2, code)
    assert results(db) == ["pending", stored, "pending"]


def test_result_codes_are_the_documented_set() -> None:
    assert GameResult.from_code("1-0") is GameResult.RED_WIN
    assert GameResult.from_code("+-") is GameResult.BLACK_FORFEIT  # black forfeits: red wins
    with pytest.raises(UserError, match="2-0"):
        GameResult.from_code("2-0")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda db: enter_result(db, "公开组", 1, 9, "1-0"), "没有第 9 台"),
        (lambda db: enter_result(db, "公开组", 2, 1, "1-0"), "尚未编排"),
        (lambda db: enter_result(db, "公开组", 1, 1, "1:0"), "无法识别"),
        (lambda db: enter_result(db, "少年组", 1, 1, "1-0"), "少年组"),
    ],
)
def test_bad_entries_are_refused_and_change_nothing(db, call, message: str) -> None:
    before = export_snapshot(db)
    with pytest.raises(UserError, match=message):
        call(db)
    assert export_snapshot(db) == before


def test_scores_before_the_round_and_the_audit_trail(db) -> None:
    enter_result(db, "公开组", 1, 1, "1-0")
    enter_result(db, "公开组", 1, 1, "=")  # corrected while the round is open: no reason needed
    view = round_view(db, "公开组", 1)
    assert view.boards[0].result is GameResult.DRAW
    assert view.pending_boards == (2, 3)
    assert [b.no for b in view.byes] == [4]
    lines = [(a.action, a.before, a.after) for a in audit_log(db) if a.action.endswith("result")]
    assert lines == [("enter_result", "pending", "red_win"), ("correct_result", "red_win", "draw")]


def test_correcting_a_closed_round_needs_a_reason(db) -> None:
    enter_results(
        db,
        "公开组",
        1,
        [
            ResultEntry(1, GameResult.RED_WIN),
            ResultEntry(2, GameResult.DRAW),
            ResultEntry(3, GameResult.BLACK_WIN),
        ],
    )
    close_round(db, "公开组", 1)
    with pytest.raises(UserError, match="理由"):
        enter_result(db, "公开组", 1, 2, "0-1")
    assert results(db)[1] == "draw"
    enter_result(db, "公开组", 1, 2, "0-1", reason="记分卡签字为黑胜")
    assert results(db)[1] == "black_win"
    assert audit_log(db, action="correct_result")[-1].reason == "记分卡签字为黑胜"


def test_closing_with_pending_boards_names_them(db) -> None:
    enter_result(db, "公开组", 1, 2, "=")
    with pytest.raises(UserError, match="1、3"):
        close_round(db, "公开组", 1)


def test_bulk_entry_is_all_or_nothing(db) -> None:
    with pytest.raises(UserError, match="第 7 台"):
        enter_results(db, "公开组", 1, [ResultEntry(1, GameResult.RED_WIN), ResultEntry(7, GameResult.DRAW)])
    assert results(db) == ["pending"] * 3
    with pytest.raises(UserError, match="多次"):
        enter_results(db, "公开组", 1, [ResultEntry(1, GameResult.RED_WIN), ResultEntry(1, GameResult.DRAW)])
    assert (
        enter_results(
            db,
            "公开组",
            1,
            parse_result_entries([{"board": 1, "result": "red_win"}, {"board": 3, "result": "="}]),
        )
        == 2
    )
    assert results(db) == ["red_win", "pending", "draw"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"board": 1}, "列表"),
        ([{"board": 1}], "result"),
        ([{"board": "一", "result": "="}], "台次"),
        ([{"board": 1, "result": "win"}], "无法识别"),
    ],
)
def test_bulk_file_shape_is_checked(data, message: str) -> None:
    with pytest.raises(UserError, match=message):
        parse_result_entries(data)
