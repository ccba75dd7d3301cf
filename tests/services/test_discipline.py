"""Discipline actions (docs/rules.md §8) through the services: results set, rows and audit written."""

from pathlib import Path

import pytest

from app.engine.types import UserError, ViolationKind
from app.services.audit import audit_log
from app.services.discipline import (
    agreed_result,
    disqualify,
    forfeit,
    lift_disqualification,
    record_violation,
    remove_violation,
)
from app.services.snapshot import export_snapshot, import_snapshot
from tests.factories import player, snapshot, swiss_round


@pytest.fixture
def db(tmp_path: Path):
    players = [player(i, f"棋手{i}") for i in range(1, 6)]
    rounds = [swiss_round(1, [(1, 3, "pending"), (4, 2, "pending")], byes=[5])]
    return import_snapshot(snapshot(players, rounds), tmp_path / "t.xqt")


def game(db, board: int) -> str:
    return export_snapshot(db)["rounds"][0]["games"][board - 1]["result"]


def test_late_red_forfeits_and_late_black_forfeits(db) -> None:
    assert forfeit(db, "公开组", 1, 1, "late").value == "red_forfeit"  # 1 is Red on board 1
    assert forfeit(db, "公开组", 1, 2, ViolationKind.LEFT_TABLE, "未经允许离席").value == "black_forfeit"
    assert (game(db, 1), game(db, 2)) == ("red_forfeit", "black_forfeit")
    kinds = [(v["player"], v["kind"]) for v in export_snapshot(db)["violations"]]
    assert kinds == [(1, "late"), (2, "left_table")]


def test_both_late_is_a_double_forfeit(db) -> None:
    forfeit(db, "公开组", 1, 1, "late")
    assert forfeit(db, "公开组", 1, 3, "late").value == "double_forfeit"


def test_phone_is_a_loss_over_the_board(db) -> None:
    assert forfeit(db, "公开组", 1, 3, "phone", "手机响铃").value == "red_win"
    assert game(db, 1) == "red_win"


def test_agreed_result_without_play_is_double_forfeit_for_both(db) -> None:
    agreed_result(db, "公开组", 1, 2, "赛后查实未对弈")
    assert game(db, 2) == "double_forfeit"
    assert sorted(v["player"] for v in export_snapshot(db)["violations"]) == [2, 4]


def test_a_bye_player_cannot_forfeit_and_unknown_kinds_are_refused(db) -> None:
    before = export_snapshot(db)
    with pytest.raises(UserError, match="没有对局"):
        forfeit(db, "公开组", 1, 5, "late")
    with pytest.raises(UserError, match="不是判负"):
        forfeit(db, "公开组", 1, 1, "refused_record")
    with pytest.raises(UserError, match="未知的犯规类型"):
        record_violation(db, "公开组", 1, 1, "sleeping", "睡觉")
    with pytest.raises(UserError, match="理由"):
        record_violation(db, "公开组", 1, 1, "other", "  ")
    with pytest.raises(UserError, match="没有 9 号"):
        record_violation(db, "公开组", 9, 1, "other", "x")
    assert export_snapshot(db)["rounds"] == before["rounds"]
    assert export_snapshot(db)["violations"] == []


def test_violation_is_stored_with_its_board_and_logged(db) -> None:
    record_violation(db, "公开组", 4, 1, "other", "大声喧哗")
    v = export_snapshot(db)["violations"][0]
    assert (v["player"], v["round"], v["kind"], v["reason"], v["board"]) == (4, 1, "other", "大声喧哗", 2)
    assert audit_log(db, action="violation")[0].reason == "大声喧哗"


def test_disqualify_with_annulled_games_is_logged(db) -> None:
    disqualify(db, "公开组", 3, "annul", "使用软件作弊")
    p3 = next(p for p in export_snapshot(db)["players"] if p["no"] == 3)
    assert (p3["status"], p3["dq_games"], p3["status_round"]) == ("disqualified", "annul", 2)
    line = audit_log(db, action="disqualify")[0]
    assert "annul" in line.after and line.reason == "使用软件作弊"
    with pytest.raises(UserError, match="已被取消成绩"):
        disqualify(db, "公开组", 3, "stand", "again")


def test_only_record_and_other_violations_count_in_the_tiebreak() -> None:
    counting = {k for k in ViolationKind if k.counts_in_tiebreak}
    assert counting == {ViolationKind.REFUSED_RECORD, ViolationKind.SHORT_DRAW_RECORD, ViolationKind.OTHER}


def test_a_violation_entered_by_mistake_is_removed_and_logged(db) -> None:
    vid = record_violation(db, "公开组", 4, 1, "other", "误记")
    assert len(export_snapshot(db)["violations"]) == 1
    with pytest.raises(UserError, match="理由"):
        remove_violation(db, vid, "")
    remove_violation(db, vid, "记错了人")
    assert export_snapshot(db)["violations"] == []
    line = audit_log(db, action="remove_violation")[-1]
    assert line.reason == "记错了人" and '"kind": "other"' in line.before
    with pytest.raises(UserError, match="不存在"):
        remove_violation(db, vid, "again")


def test_a_disqualification_entered_by_mistake_is_lifted(db) -> None:
    disqualify(db, "公开组", 3, "stand", "误判")
    lift_disqualification(db, "公开组", 3, "复核后撤销")
    p3 = next(p for p in export_snapshot(db)["players"] if p["no"] == 3)
    assert (p3["status"], p3["dq_games"], p3["status_round"]) == ("active", "", None)
    assert export_snapshot(db)["violations"] == []
    with pytest.raises(UserError, match="未被取消成绩"):
        lift_disqualification(db, "公开组", 3, "again")
