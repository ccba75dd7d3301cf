"""TRF files from another program: bbpPairings' random tournament generator wrote tests/data/trf/bbp-*.

They have a long title without a （group） part, no scoring record (TRF's standard 1/½/0) but one
file with ``162 W 3.0 D 1.0``, no birth dates, forfeits and byes, CR line ends. Imported, continued
(paired by this program's rules, played, closed) and exported; bbpPairings' checker accepted each
export when the data were made (tests/data/trf/verdicts.json, scripts/bbp_check.py): the suite
checks that the export is still byte for byte the one it accepted.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli import main
from app.services.registration import list_players
from app.services.snapshot import export_snapshot
from app.services.standings import group_standings
from app.services.trf_exchange import export_trf, import_trf_with_notes
from tests.trf_bbp import CASES, DATA, GROUP, Case, continue_in_xqarbiter, verdicts


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_import_pair_export_is_what_bbppairings_checker_accepted(case: Case, tmp_path: Path) -> None:
    verdict = verdicts()[case.name]
    assert verdict["exit_code"] == 0 and verdict["stderr"] == ""  # read, every score consistent
    # the rounds bbpPairings paired itself came back unchanged; only the round paired here (by the
    # Chinese rules, not FIDE's Dutch system) differs from what its own Dutch pairing would be
    assert verdict["rounds_checked"] == case.keep + 1
    assert list(verdict["rounds_differing_from_fide_dutch"]) in ([], [str(case.keep + 1)])
    text, _notes = continue_in_xqarbiter(case, tmp_path)
    assert text == case.export.read_text(encoding="utf-8")


def _file_points(path: Path) -> dict[int, float]:
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("001"):
            out[int(line[4:8])] = float(line[80:84])
    return out


def test_a_long_title_without_a_group_is_imported_with_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = DATA / "bbp-default.trf"
    assert main(["import-trf", str(source), str(tmp_path / "a.xqt")]) == 0
    out = capsys.readouterr().out
    assert "没有（组别）部分" in out and "AutoTest Tournament…" in out and "--group" in out
    assert main(["import-trf", str(source), str(tmp_path / "b.xqt"), "--group", "公开组"]) == 0
    assert "“公开组”" in capsys.readouterr().out
    assert main(["players", str(tmp_path / "b.xqt"), "--group", "公开组"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 32


def test_without_a_scoring_record_the_standard_points_are_read_and_doubled(tmp_path: Path) -> None:
    source = DATA / "bbp-t15.trf"  # forfeits and pairing-allocated byes, no 162 record
    db, notes = import_trf_with_notes(source, tmp_path / "s.xqt")
    try:
        scores = {line.no: line.score for line in group_standings(db, "AutoTest Tournament…").lines}
    finally:
        db.close()
    assert any("胜 1、和 ½、负 0" in n and "两倍" in n and "twice" in n for n in notes)
    assert not any("不同" in n for n in notes)  # every stated score agrees with the results
    file_points = _file_points(source)
    assert scores == {no: round(points * 2) for no, points in file_points.items()}
    assert max(file_points.values()) == 6.0 and max(scores.values()) == 12


def test_a_scoring_record_is_taken_as_it_is(tmp_path: Path) -> None:
    source = DATA / "bbp-t3pt.trf"  # 162  W 3.0    D 1.0
    db, notes = import_trf_with_notes(source, tmp_path / "p.xqt", group="三分制")
    try:
        scores = {line.no: line.score for line in group_standings(db, "三分制").lines}
    finally:
        db.close()
    assert not any("两倍" in n for n in notes)
    assert scores == {no: round(points) for no, points in _file_points(source).items()}


def test_a_missing_birth_date_stays_unknown_and_is_exported_empty(tmp_path: Path) -> None:
    source = DATA / "bbp-t41.trf"
    assert all(
        line[69:79].strip() == "" for line in source.read_text().splitlines() if line.startswith("001")
    )
    db, _ = import_trf_with_notes(source, tmp_path / "b.xqt", group=GROUP)
    try:
        players = list_players(db, GROUP)
        snapshot = export_snapshot(db)
        text = export_trf(db, GROUP)
    finally:
        db.close()
    assert len(players) == 41 and all(p.birth_date is None and p.age is None for p in players)
    assert all(p["birth_date"] is None for p in snapshot["players"])
    lines = [line for line in text.splitlines() if line.startswith("001")]
    assert len(lines) == 41 and all(line[69:79].strip() == "" for line in lines)
    assert "2000/01/01" not in text


def test_a_birth_date_in_the_file_is_kept(tmp_path: Path) -> None:
    text = (DATA / "bbp-t15.trf").read_text(encoding="utf-8").splitlines()
    text = [line[:69] + "1987/06/05" + line[79:] if line.startswith("001    3 ") else line for line in text]
    source = tmp_path / "born.trf"
    source.write_text("\n".join(text) + "\n", encoding="utf-8")
    db, _ = import_trf_with_notes(source, tmp_path / "born.xqt", group=GROUP)
    try:
        born = {p.no: p.birth_date for p in list_players(db, GROUP)}
        again = export_trf(db, GROUP)
    finally:
        db.close()
    assert str(born[3]) == "1987-06-05" and born[4] is None
    assert "1987/06/05" in again
