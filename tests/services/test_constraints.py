"""Pairing constraints through the services: named pairs stored and logged, the regulation's
unit / region rules, the pairing and its explanation, the overrides' warnings, the snapshot check."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from app.cli import main
from app.db.session import Database
from app.engine.pairing.overrides import BreakKind
from app.engine.regulations import AvoidanceBasis, AvoidanceRule, AvoidanceStrength
from app.engine.types import UserError
from app.services.audit import audit_log
from app.services.constraints import add_pair_avoidance, pair_avoidances, remove_pair_avoidance
from app.services.overrides import SetPair, apply_override, preview_override
from app.services.rounds import pair_next_round, pairing_explanation, round_view
from app.services.snapshot import import_snapshot, write_snapshot_file
from app.services.tournaments import load_regulations, update_regulations
from tests.factories import player, snapshot

OPEN = "公开组"


@pytest.fixture
def db(tmp_path: Path) -> Database:
    units = {1: "天水一中", 5: "天水一中", 2: "兰州", 6: "兰州"}
    players = [
        player(i, f"棋手{i}", unit=units.get(i, ""), region="甘肃" if i in (3, 7) else "")
        for i in range(1, 9)
    ]
    return import_snapshot(snapshot(players), tmp_path / "t.xqt")


def _pairs(db: Database, number: int) -> set[frozenset[int]]:
    return {frozenset((b.red.no, b.black.no)) for b in round_view(db, OPEN, number).boards}


def test_a_named_pair_is_kept_apart_and_why_says_so(db: Database) -> None:
    add_pair_avoidance(db, OPEN, 5, 1, "absolute", reason="父子")
    assert [(v.first, v.second, v.strength, v.rounds_zh) for v in pair_avoidances(db, OPEN)] == [
        (1, 5, AvoidanceStrength.ABSOLUTE, "每轮")
    ]
    pair_next_round(db, OPEN, seed=1)
    assert frozenset((1, 5)) not in _pairs(db, 1)  # round 1 would pair 1–5 (top half against bottom half)
    assert "1号本应与5号配对，因指定回避（父子）绝对回避而改配" in pairing_explanation(db, OPEN, 1, 1)
    assert audit_log(db, action="add_pair_avoidance")[0].reason == "父子"


def test_named_pairs_are_checked(db: Database) -> None:
    with pytest.raises(UserError, match="两名不同"):
        add_pair_avoidance(db, OPEN, 2, 2)
    with pytest.raises(UserError, match="没有 9 号"):
        add_pair_avoidance(db, OPEN, 2, 9)
    with pytest.raises(UserError, match="回避强度"):
        add_pair_avoidance(db, OPEN, 2, 3, "sometimes")
    with pytest.raises(UserError, match="至第 3 轮早于自第 5 轮"):  # the reversed range named as such
        add_pair_avoidance(db, OPEN, 2, 3, from_round=5, to_round=3)
    with pytest.raises(UserError, match="1—11"):
        add_pair_avoidance(db, OPEN, 2, 3, from_round=5, to_round=12)
    add_pair_avoidance(db, OPEN, 2, 3, "weak", from_round=2, to_round=4)
    with pytest.raises(UserError, match="已设回避"):
        add_pair_avoidance(db, OPEN, 3, 2)
    removed = remove_pair_avoidance(db, OPEN, 3, 2, reason="误设")
    assert (removed.strength, removed.rounds_zh) == (AvoidanceStrength.WEAK, "第2—4轮")
    with pytest.raises(UserError, match="没有设回避"):
        remove_pair_avoidance(db, OPEN, 2, 3)


def test_the_regulations_unit_rule_and_the_overrides_warnings(db: Database) -> None:
    reg = load_regulations(db)
    rules = (
        AvoidanceRule(AvoidanceBasis.UNIT, AvoidanceStrength.ABSOLUTE, 1, 1),
        AvoidanceRule(AvoidanceBasis.REGION, AvoidanceStrength.WEAK),
    )
    update_regulations(
        db, dataclasses.replace(reg, pairing=dataclasses.replace(reg.pairing, avoidances=rules))
    )
    pair_next_round(db, OPEN, seed=2)
    pairs = _pairs(db, 1)
    assert frozenset((1, 5)) not in pairs and frozenset((2, 6)) not in pairs  # natural pairs of one unit
    assert frozenset((3, 7)) not in pairs  # same region, weakly apart: nothing forces them together
    preview = preview_override(db, OPEN, 1, SetPair(1, 5))
    assert BreakKind.AVOIDANCE in {b.kind for b in preview.breaks}
    assert any("同单位（天水一中）绝对回避" in b.zh for b in preview.breaks)
    with pytest.raises(UserError, match="同单位（天水一中）绝对回避"):
        apply_override(db, OPEN, 1, SetPair(1, 5))
    weak = preview_override(db, OPEN, 1, SetPair(3, 7))
    assert [b.kind for b in weak.breaks if b.kind is BreakKind.WEAK_AVOIDANCE] == [BreakKind.WEAK_AVOIDANCE]
    apply_override(db, OPEN, 1, SetPair(3, 7), confirm=True, reason="双方同意")
    assert frozenset((3, 7)) in _pairs(db, 1)


def test_the_snapshot_check_repairs_with_the_avoidances(db: Database, tmp_path: Path, capsys) -> None:
    add_pair_avoidance(db, OPEN, 1, 5, "absolute", reason="夫妻")
    pair_next_round(db, OPEN, seed=3)
    path = tmp_path / "s.json"
    write_snapshot_file(db, path)
    assert json.loads(path.read_text(encoding="utf-8"))["pair_avoidances"][0]["reason"] == "夫妻"
    assert main(["check", str(path)]) == 0, capsys.readouterr().out
    data = json.loads(path.read_text(encoding="utf-8"))
    data["pair_avoidances"][0]["second"] = 6  # the stored round no longer matches the constraints
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert main(["check", str(path)]) == 1
    assert "different_pairs" in capsys.readouterr().out


def test_the_avoidance_list_prints_the_rules_and_the_pairs(db: Database) -> None:
    import pypdfium2 as pdfium

    from app.services.exports import render_pdf

    reg = load_regulations(db)
    rules = (AvoidanceRule(AvoidanceBasis.UNIT, AvoidanceStrength.WEAK, 2, 4),)
    update_regulations(
        db, dataclasses.replace(reg, pairing=dataclasses.replace(reg.pairing, avoidances=rules))
    )
    add_pair_avoidance(db, OPEN, 2, 7, "weak", from_round=3, reason="同一教练")
    text = pdfium.PdfDocument(render_pdf(db, "avoidances", group=OPEN))[0].get_textpage().get_text_range()
    assert "回避名单（内部）" in text and "同单位尽量回避（第2—4轮）" in text
    assert (
        "2 棋手2" in text
        and "7 棋手7" in text
        and "第3轮起" in text
        and "同一教练" in text
        and "内部" in text
    )
