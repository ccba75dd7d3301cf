"""TRF export of a group, import as a new tournament, export again: identical text and rounds."""

from pathlib import Path

from app.selftest import sample_snapshot
from app.services.results import enter_result
from app.services.snapshot import export_snapshot, import_snapshot
from app.services.tournaments import open_tournament, tournament_info
from app.services.trf_exchange import export_trf, import_trf


def test_export_import_export_is_identical(tmp_path: Path) -> None:
    snap = sample_snapshot(13, rounds=3)  # odd: a bye each round
    snap["players"][0]["gender"] = "female"
    snap["players"][1]["team"] = "天水铁路"
    snap["players"][2]["team"] = "天水铁路"
    group = snap["rounds"][0]["group"]
    snap.setdefault("teams", []).append({"name": "天水铁路", "group": group})  # a team must be listed
    for g in snap["groups"]:  # and its group must have teams
        g["teams"] = g["teams"] or g["name"] == group
    for r in snap["rounds"]:
        for g in r["games"]:
            g["result"] = ("red_win", "draw", "black_win", "black_forfeit", "red_forfeit", "double_forfeit")[
                (g["board"] + r["round"]) % 6
            ]
    snap["rounds"][2]["games"][0]["result"] = "pending"
    src = tmp_path / "src.xqt"
    import_snapshot(snap, src).close()
    db = open_tournament(src)
    enter_result(db, group, 3, 2, "=")
    db.close()

    text = export_trf(src, group)
    (tmp_path / "g.trf").write_text(text, encoding="utf-8")
    copy = import_trf(tmp_path / "g.trf", tmp_path / "copy.xqt")
    try:
        info = tournament_info(copy)
        again = export_snapshot(copy)
    finally:
        copy.close()
    assert export_trf(tmp_path / "copy.xqt", group) == text
    assert info.groups[0].name == group and info.groups[0].players == 13
    original = export_snapshot(open_tournament(src, read_only=True))
    strip = lambda rounds: [  # noqa: E731
        (r["round"], [(g["board"], g["red"], g["black"], g["result"]) for g in r["games"]], r["byes"])
        for r in rounds
    ]
    assert strip(again["rounds"]) == strip(original["rounds"])
    assert [(p["no"], p["name"], p["rating"], p["gender"], p["team"]) for p in again["players"]] == [
        (p["no"], p["name"], p["rating"], p["gender"], p["team"]) for p in original["players"]
    ]
    assert "162  W 2.0    D 1.0    L 0.0    P 2.0" in text
    assert "142 11" in text and "XXR 11" in text
