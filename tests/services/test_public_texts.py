"""Every free text that reaches a public output is checked for personal numbers: the event's name,
venue, group and prize-table names, team names and leaders are refused at entry (with the field
named); reasons and notes are kept as written and masked on every public output."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from app.cli import main
from app.engine.regulations import preset
from app.engine.types import UserError
from app.services.registration import create_team, list_players, set_team
from app.services.snapshot import import_snapshot
from app.services.tournaments import load_regulations, update_regulations
from tests.factories import player, snapshot

OPEN = "公开组"
NUMBERS = ["13912345678", "139/1234/5678", "１３９１２３４５６７８", "620502199001011235", "139，1234，5678"]


@pytest.mark.parametrize("number", NUMBERS)
def test_new_refuses_an_event_name_with_a_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], number: str
) -> None:
    out = tmp_path / "n.xqt"
    code = main(["new", str(out), "--name", f"联系 {number} 杯"])
    err = capsys.readouterr().err
    assert code == 2 and "赛事名称" in err and "event name" in err, err
    assert not out.exists()


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("event_name", "联系13912345678杯"),
        ("venue", "体育馆（电话 0931-1234 5678 9）"),
    ],
)
def test_a_regulation_change_with_a_number_in_a_public_text_is_refused(
    tmp_path: Path, field: str, value: str
) -> None:
    db = import_snapshot(snapshot([player(i, f"棋手{i}") for i in range(1, 5)]), tmp_path / "r.xqt")
    try:
        reg = load_regulations(db)
        with pytest.raises(UserError) as err:
            update_regulations(db, dataclasses.replace(reg, **{field: value}), reason="改名")
        assert field in err.value.zh
        groups = (dataclasses.replace(reg.groups[0], name="组13912345678"), *reg.groups[1:])
        with pytest.raises(UserError) as err:
            update_regulations(db, dataclasses.replace(reg, groups=groups, prizes=()), reason="改名")
        assert "groups" in err.value.zh
    finally:
        db.close()


def test_a_team_name_or_leader_with_a_number_is_refused(tmp_path: Path) -> None:
    data = snapshot([player(i, f"棋手{i}") for i in range(1, 5)])
    data["groups"][0]["teams"] = True
    db = import_snapshot(data, tmp_path / "t.xqt")
    try:
        with pytest.raises(UserError, match="队名"):
            create_team(db, OPEN, "甘肃队 139-1234-5678")
        with pytest.raises(UserError, match="领队"):
            create_team(db, OPEN, "甘肃队", leader="王五 13912345678")
        pid = list_players(db, OPEN)[0].id
        with pytest.raises(UserError, match="队名"):
            set_team(db, pid, "兰州 620502199001011235")
    finally:
        db.close()


def test_a_snapshot_with_a_number_in_the_event_name_is_refused(tmp_path: Path) -> None:
    from app.services.documents import DocumentError

    data = snapshot([player(i, f"棋手{i}") for i in range(1, 5)])
    data["tournament"]["name"] = "联系 139 1234 5678 杯"
    with pytest.raises(DocumentError, match=r"tournament\.name"):
        import_snapshot(data, tmp_path / "s.xqt")
    data = snapshot([player(i, f"棋手{i}") for i in range(1, 5)])
    data["tournament"]["settings"]["venue"] = "电话13912345678"
    with pytest.raises(DocumentError, match="venue"):
        import_snapshot(data, tmp_path / "s.xqt")


def test_the_presets_pass_the_public_text_check() -> None:
    from app.engine.regulations import PRESETS, check_public_texts

    for key in PRESETS:
        check_public_texts(preset(key))


def test_a_number_already_in_a_stored_event_name_is_masked_on_public_outputs(tmp_path: Path) -> None:
    """An older file may hold one: the public pages and lists mask it (the second line of defence)."""
    import json
    import sqlite3

    from app.services.exports import standings as standings_model
    from app.services.public_pages import write_public_site
    from app.services.rounds import pair_next_round

    path = tmp_path / "old.xqt"
    import_snapshot(snapshot([player(i, f"棋手{i}") for i in range(1, 5)]), path).close()
    con = sqlite3.connect(path)
    settings = json.loads(con.execute("SELECT regulations FROM tournament").fetchone()[0])
    settings["venue"] = "体育馆 电话139/1234/5678"
    con.execute(
        "UPDATE tournament SET name = ?, regulations = ?",
        ("联系 139，1234，5678 杯", json.dumps(settings, ensure_ascii=False)),
    )
    con.commit()
    con.close()
    from app.services.tournaments import open_tournament

    db = open_tournament(path)
    try:
        pair_next_round(db, OPEN, seed=1)
        from app.services.results import enter_result

        enter_result(db, OPEN, 1, 1, "=")
        enter_result(db, OPEN, 1, 2, "=")
        header = standings_model(db, OPEN).header
        assert "1234" not in header.event_name and "****" in header.event_name
        assert "1234" not in header.venue
        files = write_public_site(db, tmp_path / "site")
    finally:
        db.close()
    for f in files:
        if f.suffix == ".html":
            text = f.read_text(encoding="utf-8")
            assert "5678" not in text.replace("****5678", ""), f.name
