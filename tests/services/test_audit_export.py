"""The audit log exported as CSV (Excel-friendly) and JSON, and through the CLI."""

import csv
import io
import json
from pathlib import Path

import pytest

from app.cli.safety import cmd_audit
from app.selftest import sample_snapshot
from app.services.audit import export_audit_csv, export_audit_json
from app.services.results import enter_result
from app.services.snapshot import import_snapshot

GROUP = sample_snapshot()["rounds"][0]["group"]


def _event(tmp_path: Path) -> Path:
    path = tmp_path / "a.xqt"
    snap = sample_snapshot(4, rounds=2)
    import_snapshot(snap, path).close()
    return path


def test_audit_csv_and_json_hold_who_what_before_after_reason(tmp_path: Path) -> None:
    from app.services.tournaments import open_tournament

    path = _event(tmp_path)
    db = open_tournament(path)
    enter_result(db, GROUP, 1, 1, "1-0", who="张裁判")
    enter_result(db, GROUP, 1, 1, "0-1", reason="记分表填错", who="张裁判")
    rows = json.loads(export_audit_json(db))
    text = export_audit_csv(db)
    db.close()
    assert [(r["action"], r["before"], r["after"], r["reason"], r["who"]) for r in rows] == [
        ("enter_result", "pending", "red_win", "", "张裁判"),
        ("correct_result", "red_win", "black_win", "记分表填错", "张裁判"),
    ]
    assert text.startswith("\ufeff时间,操作人,操作,对象,修改前,修改后,理由")
    table = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert table[2][1:] == [
        "张裁判",
        "correct_result",
        f"{GROUP} 第1轮 第1台",
        "red_win",
        "black_win",
        "记分表填错",
    ]


def test_cli_audit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    path = _event(tmp_path)
    assert cmd_audit(argparse.Namespace(file=str(path), json=True, out=None)) == 0
    assert json.loads(capsys.readouterr().out) == []
    out = tmp_path / "audit.csv"
    assert cmd_audit(argparse.Namespace(file=str(path), json=False, out=str(out))) == 0
    assert out.read_text(encoding="utf-8-sig").splitlines() == ["时间,操作人,操作,对象,修改前,修改后,理由"]
