"""Rules defects found by an independent audit, through the command line: the re-pairing check with
annulled games, provisional prizes, the bye's explanation, the standings' own columns, the template's
title."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from app.services.discipline import disqualify
from app.services.results import enter_result
from app.services.rounds import close_round, pair_next_round, round_view
from app.services.snapshot import import_snapshot
from app.services.tournaments import open_tournament
from tests.factories import player, snapshot

OPEN = "公开组"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _play_round(path: Path, number: int, codes: str) -> None:
    db = open_tournament(path)
    try:
        pair_next_round(db, OPEN, seed=number)
        for b, code in zip(round_view(db, OPEN, number).boards, codes, strict=False):
            enter_result(db, OPEN, number, b.board, {"1": "1-0", "0": "0-1", "=": "="}[code])
        close_round(db, OPEN, number)
    finally:
        db.close()


def test_check_repairs_with_a_disqualified_players_games_annulled(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "dq.xqt"
    import_snapshot(snapshot([player(i, f"棋手{i}") for i in range(1, 11)]), path).close()
    _play_round(path, 1, "11111")
    _play_round(path, 2, "1=0=1")
    db = open_tournament(path)
    try:  # the round-2 leader on board 1 is disqualified and his games annulled: his opponents gain
        leader = round_view(db, OPEN, 2).boards[0].red.no
        disqualify(db, OPEN, leader, "annul", reason="使用电子设备")
    finally:
        db.close()
    for number in (3, 4, 5):
        _play_round(path, number, "10=10")
    snap = tmp_path / "dq.json"
    assert run(capsys, "export", str(path), str(snap))[0] == 0
    code, out, _ = run(capsys, "check", str(snap))
    assert code == 0, out
    assert "0 处差异或违规" in out


def test_prizes_are_marked_provisional_until_the_group_is_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.xqt"
    assert main(["demo", str(path), "--seed", "5"]) == 0
    code, out, _ = run(capsys, "prizes", str(path))
    assert code == 0
    heads = [line for line in out.splitlines() if "合计" in line]
    assert heads and all("暂列" in line for line in heads), out
    assert "尚未赛完一轮" in out  # what the provisional list rests on
    code, out, _ = run(capsys, "prizes", str(path), "--json")
    data = json.loads(out)
    assert code == 0 and data["final"] is False
    assert all(t["final"] is False and "暂列" in t["basis"] for t in data["tables"])


def test_prizes_of_a_finished_event_are_final(played_demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the demo event played to its end (every group over, the knockout decided): tests/conftest.py
    finished = played_demo
    code, out, _ = run(capsys, "prizes", str(finished))
    assert code == 0 and "暂列" not in out and "10000 元" in out
    data = json.loads(run(capsys, "prizes", str(finished), "--json")[1])
    assert data["final"] is True and all(t["basis"] == "最终名次" for t in data["tables"])


def test_standings_text_shows_the_chains_own_columns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import dataclasses

    from app.engine.regulations import Tiebreak
    from app.services.tournaments import load_regulations, update_regulations

    path = tmp_path / "c.xqt"
    db = import_snapshot(snapshot([player(i, f"棋手{i}") for i in range(1, 9)]), path)
    reg = load_regulations(db)
    chain = (Tiebreak.PROGRESSIVE, Tiebreak.WINS, Tiebreak.BLACK_WINS)
    update_regulations(
        db, dataclasses.replace(reg, tiebreaks=dataclasses.replace(reg.tiebreaks, chain=chain))
    )
    db.close()
    _play_round(path, 1, "1=01")
    code, out, _ = run(capsys, "standings", str(path), "--group", OPEN)
    rows = [line for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert code == 0 and len(rows) == 8
    assert all("累进分" in r and "胜局" in r and "后走胜局" in r for r in rows), out
    assert not any("对手分" in r or "犯规" in r for r in rows), out
    first = rows[0]
    assert first.index("累进分") < first.index("胜局") < first.index("后走胜局")


def _title(xlsx: Path) -> str:
    from openpyxl import load_workbook

    return str(load_workbook(xlsx).active.cell(row=1, column=1).value)


def test_template_takes_its_title_from_the_event_or_the_regulation_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "e.xqt"
    assert main(["new", str(path), "--name", "2027 陇原象棋锦标赛", "--start", "2027-05-01"]) == 0
    out = tmp_path / "form.xlsx"
    assert run(capsys, "template", str(out), "--event", str(path))[0] == 0
    assert _title(out) == "2027 陇原象棋锦标赛报名表"
    toml = tmp_path / "r.toml"
    assert run(capsys, "regulation-export", str(path), str(toml))[0] == 0
    out2 = tmp_path / "form2.xlsx"
    assert run(capsys, "template", str(out2), "--regulation", str(toml))[0] == 0
    assert _title(out2) == "2027 陇原象棋锦标赛报名表"
    out3 = tmp_path / "form3.xlsx"
    assert run(capsys, "template", str(out3))[0] == 0
    assert "2024" not in _title(out3) and _title(out3).endswith("报名表")
