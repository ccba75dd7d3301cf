"""The audit viewer's sentences: every action the program logs has one, and the actions of absence, constraints and paperwork say
what changed in words (the round excused, the avoidance and its rounds, the officials who sign)."""

from __future__ import annotations

import re
from pathlib import Path

from app.engine.paperwork import Official, Paperwork
from app.services.attendance import cancel_absence, excuse_absence, reenter_player
from app.services.audit_text import ACTIONS, audit_sentences
from app.services.constraints import add_pair_avoidance, remove_pair_avoidance
from app.services.paperwork import update_paperwork
from app.services.registration import list_players, withdraw_player
from app.services.snapshot import import_snapshot
from tests.factories import player, snapshot

ROOT = Path(__file__).resolve().parents[2]
OPEN = "公开组"


def test_every_logged_action_has_a_sentence() -> None:
    logged = set()
    for path in (ROOT / "app").rglob("*.py"):
        logged |= set(re.findall(r'record\(\s*\w+,\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
    assert len(logged) > 30
    assert sorted(logged - set(ACTIONS)) == []


def test_absence_constraint_and_paperwork_actions_in_words(tmp_path: Path) -> None:
    db = import_snapshot(snapshot([player(i, f"棋手{i}") for i in range(1, 7)]), tmp_path / "t.xqt")
    excuse_absence(db, OPEN, 3, 2, "家中有事")
    cancel_absence(db, OPEN, 3, 2, reason="改变主意")
    pid = next(p.id for p in list_players(db, OPEN) if p.no == 4)
    withdraw_player(db, pid, reason="因病")
    reenter_player(db, pid, reason="已恢复")
    add_pair_avoidance(db, OPEN, 1, 2, "weak", from_round=2, to_round=5, reason="父子")
    remove_pair_avoidance(db, OPEN, 1, 2, reason="误设")
    update_paperwork(db, Paperwork(officials=(Official("裁判长", "高福荣"),), organiser="天水市体育局"))
    said = {(x.action_zh, x.change_zh, x.change_en) for x in audit_sentences(db)}
    assert ("请假", "第 2 轮", "round 2") in said
    assert ("取消请假", "第 2 轮", "round 2") in said
    assert ("退赛后恢复参赛", "退赛 → 自第 1 轮起恢复编排", "withdrawn → paired again from round 1") in said
    assert ("设定回避", "尽量回避，第2—5轮", "weak, rounds 2-5") in said
    assert ("取消回避", "尽量回避，第2—5轮", "weak, rounds 2-5") in said
    paperwork = next(x for x in audit_sentences(db) if x.action_zh == "修改裁判人员与证书")
    assert paperwork.change_zh == "裁判人员、主办单位（签字：裁判长 高福荣）"
    assert paperwork.action_en == "officials and certificate changed"


def test_a_team_change_reads_as_team_names_not_yes_or_no(tmp_path: Path) -> None:
    from app.services.audit_text import audit_sentences
    from app.services.registration import list_players, set_team
    from app.services.snapshot import import_snapshot
    from tests.factories import player, snapshot

    data = snapshot([player(i, "棋手" + "甲乙丙丁"[i - 1]) for i in range(1, 5)])
    data["groups"][0]["teams"] = True
    db = import_snapshot(data, tmp_path / "t.xqt")
    try:
        pid = list_players(db)[0].id
        set_team(db, pid, "兰州队")
        set_team(db, pid, None)
        lines = [x for x in audit_sentences(db) if x.action_en == "team changed"]
    finally:
        db.close()
    assert [x.change_zh for x in lines] == ["（无） → 兰州队", "兰州队 → （无）"]
    assert [x.change_en for x in lines] == ["(none) → 兰州队", "兰州队 → (none)"]
