"""Absence and re-entry through the services: excused rounds, re-entry after withdrawal,
late entries with the regulation's points — stored, paired, ranked, explained and logged."""

from __future__ import annotations

import dataclasses
from datetime import date
from pathlib import Path

import pytest

from app.db.session import Database
from app.engine.registration import PlayerEntry
from app.engine.regulations import LateEntryPoints
from app.engine.types import AbsenceKind, UserError
from app.services.attendance import absences, cancel_absence, excuse_absence, reenter_player
from app.services.audit import audit_log
from app.services.registration import add_player, list_players, withdraw_player
from app.services.results import enter_result
from app.services.rounds import pair_next_round, pairing_explanation, round_view
from app.services.snapshot import export_snapshot, import_snapshot
from app.services.standings import group_standings
from app.services.tournaments import load_regulations, update_regulations
from tests.factories import player, snapshot
from tests.idnumbers import make_id

OPEN = "公开组"


@pytest.fixture
def db(tmp_path: Path) -> Database:
    return import_snapshot(snapshot([player(i, f"棋手{i}") for i in range(1, 8)]), tmp_path / "t.xqt")


def _id(db: Database, no: int) -> int:
    return next(p.id for p in list_players(db, OPEN) if p.no == no)


def _seated(db: Database, number: int) -> set[int]:
    view = round_view(db, OPEN, number)
    return {x for b in view.boards for x in (b.red.no, b.black.no)} | {s.no for s in view.byes}


def _finish(db: Database, number: int, code: str = "=") -> None:
    for b in round_view(db, OPEN, number).boards:
        enter_result(db, OPEN, number, b.board, code)


def test_an_excused_player_is_not_paired_scores_zero_and_is_no_forfeit(db: Database) -> None:
    excuse_absence(db, OPEN, 3, 1, "家中有事")
    out = pair_next_round(db, OPEN, seed=1)
    assert out.bye is None and out.boards == 3  # 6 players left: no bye needed
    view = round_view(db, OPEN, 1)
    assert 3 not in _seated(db, 1) and [s.no for s in view.excused] == [3]
    assert "请假" in pairing_explanation(db, OPEN, 1, 3)
    _finish(db, 1, "1-0")
    excuse_absence(db, OPEN, 3, 2, "仍在医院")
    pair_next_round(db, OPEN, seed=2)
    _finish(db, 2, "1-0")
    line = next(x for x in group_standings(db, OPEN).lines if x.no == 3)
    assert (line.score, line.wins) == (0, 0)
    # two excused rounds are not two forfeits: player 3 is still active and paired in round 3
    pair_next_round(db, OPEN, seed=3)
    assert 3 in _seated(db, 3)
    listed = absences(db, OPEN)
    assert [(a.no, a.round, a.kind, a.reason) for a in listed] == [
        (3, 1, AbsenceKind.EXCUSED, "家中有事"),
        (3, 2, AbsenceKind.EXCUSED, "仍在医院"),
    ]
    assert [a.action for a in audit_log(db, action="excuse_absence")] == ["excuse_absence"] * 2


def test_excusing_is_refused_where_it_cannot_apply(db: Database) -> None:
    with pytest.raises(UserError, match="理由"):
        excuse_absence(db, OPEN, 3, 1, "  ")
    with pytest.raises(UserError, match="1—11"):
        excuse_absence(db, OPEN, 3, 12, "远")
    with pytest.raises(UserError, match="没有 9 号"):
        excuse_absence(db, OPEN, 9, 1, "无此人")
    pair_next_round(db, OPEN, seed=1)
    with pytest.raises(UserError, match="已编排"):
        excuse_absence(db, OPEN, 3, 1, "晚了")
    excuse_absence(db, OPEN, 3, 2, "有事")
    with pytest.raises(UserError, match="已请假"):
        excuse_absence(db, OPEN, 3, 2, "有事")
    withdraw_player(db, _id(db, 4), reason="退赛")
    with pytest.raises(UserError, match="不在赛"):
        excuse_absence(db, OPEN, 4, 3, "有事")


def test_an_absence_can_be_cancelled_until_its_round_is_paired(db: Database) -> None:
    excuse_absence(db, OPEN, 2, 1, "有事")
    cancel_absence(db, OPEN, 2, 1, reason="改变主意")
    pair_next_round(db, OPEN, seed=1)
    assert 2 in _seated(db, 1)
    excuse_absence(db, OPEN, 2, 2, "有事")
    _finish(db, 1)
    pair_next_round(db, OPEN, seed=2)
    with pytest.raises(UserError, match="不能再取消"):
        cancel_absence(db, OPEN, 2, 2)
    with pytest.raises(UserError, match="没有请假"):
        cancel_absence(db, OPEN, 2, 5)
    assert audit_log(db, action="cancel_absence")[0].reason == "改变主意"


def test_reentry_after_withdrawal_for_forfeits_is_logged_and_not_undone_by_the_old_run(
    tmp_path: Path,
) -> None:
    db = import_snapshot(snapshot([player(i, f"棋手{i}") for i in range(1, 9)]), tmp_path / "e.xqt")
    pair_next_round(db, OPEN, seed=1)
    for rnd in (1, 2):
        for b in round_view(db, OPEN, rnd).boards:
            if 5 in (b.red.no, b.black.no):
                enter_result(db, OPEN, rnd, b.board, "-+" if b.red.no == 5 else "+-")
            else:
                enter_result(db, OPEN, rnd, b.board, "=")
        if rnd == 1:
            pair_next_round(db, OPEN, seed=2)
    out = pair_next_round(db, OPEN, seed=3)  # two forfeits in a row: 5 is withdrawn
    assert out.withdrawn == (5,) and 5 not in _seated(db, 3)
    pid = _id(db, 5)
    with pytest.raises(UserError, match="理由"):
        reenter_player(db, pid, reason="")
    with pytest.raises(UserError, match="已编排"):
        reenter_player(db, pid, reason="回来了", from_round=3)
    assert reenter_player(db, pid, reason="家事处理完毕，裁判长同意") == 4
    _finish(db, 3)
    out = pair_next_round(db, OPEN, seed=4)
    assert out.withdrawn == () and 5 in _seated(db, 4)
    entry = audit_log(db, action="reenter_player")[-1]
    assert entry.reason == "家事处理完毕，裁判长同意" and '"reentry_round": 4' in entry.after
    with pytest.raises(UserError, match="不是退赛状态"):
        reenter_player(db, pid, reason="再次")


def test_a_disqualified_player_cannot_reenter(db: Database) -> None:
    from app.services.discipline import disqualify

    pair_next_round(db, OPEN, seed=1)
    disqualify(db, OPEN, 2, "stand", reason="作弊")
    with pytest.raises(UserError, match="取消资格"):
        reenter_player(db, _id(db, 2), reason="申诉")


def _late_entry(db: Database) -> int:
    return add_player(
        db,
        PlayerEntry(
            name="后来者",
            id_number=make_id(date(1990, 1, 1), serial=77),
            phone="13900000077",
            group=OPEN,
            fee_paid=True,
            checked_in=True,
        ),
        override_reason="报名截止后经组委会同意",
    )


@pytest.mark.parametrize(
    ("compensate", "kind", "points"),
    [(False, LateEntryPoints.BYE, 0), (True, LateEntryPoints.BYE, 4), (True, LateEntryPoints.DRAW, 2)],
)
def test_late_entries_get_the_regulations_points_for_the_rounds_they_missed(
    db: Database, compensate: bool, kind: LateEntryPoints, points: int
) -> None:
    reg = load_regulations(db)
    update_regulations(
        db,
        dataclasses.replace(
            reg,
            pairing=dataclasses.replace(
                reg.pairing, late_entry_bye_compensation=compensate, late_entry_points=kind
            ),
        ),
    )
    pair_next_round(db, OPEN, seed=1)
    _finish(db, 1)
    pair_next_round(db, OPEN, seed=2)
    pid = _late_entry(db)  # entered after round 2 was paired: misses rounds 1 and 2
    late = next(p for p in list_players(db, OPEN) if p.id == pid)
    assert (late.no, late.late_entry_round) == (8, 3)
    _finish(db, 2)
    line = next(x for x in group_standings(db, OPEN).lines if x.no == 8)
    assert (line.score, line.wins, line.opponent_score) == (points, 0, 0)
    listed = [(a.round, a.kind, a.points) for a in absences(db, OPEN) if a.no == 8]
    assert listed == [(1, AbsenceKind.LATE_ENTRY, points // 2), (2, AbsenceKind.LATE_ENTRY, points // 2)]
    pair_next_round(db, OPEN, seed=3)
    assert 8 in _seated(db, 3)
    assert round_view(db, OPEN, 3).boards  # the late entry is seated with their score
    seat = next(s for b in round_view(db, OPEN, 3).boards for s in (b.red, b.black) if s.no == 8)
    assert seat.score == points


def test_snapshot_keeps_absences_reentry_and_region(db: Database, tmp_path: Path) -> None:
    excuse_absence(db, OPEN, 6, 2, "考试")
    pair_next_round(db, OPEN, seed=1)
    withdraw_player(db, _id(db, 7), reason="身体不适")
    reenter_player(db, _id(db, 7), reason="已恢复")
    data = export_snapshot(db)
    assert data["absences"][0] | {"created_at": None} == {
        "group": OPEN,
        "player": 6,
        "round": 2,
        "reason": "考试",
        "created_at": None,
    }
    seven = next(p for p in data["players"] if p["no"] == 7)
    assert (seven["status"], seven["reentry_round"]) == ("active", 2)
    again = import_snapshot(data, tmp_path / "copy.xqt")
    assert export_snapshot(again) == data
