"""A team competition's TRF export (TRF-2026 team section) checked by the independent TRF-2026 reader and
read back by the program's own; importing such a file is refused with the line named."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from app.engine.team_match import Side
from app.engine.trf import read_trf
from app.engine.types import GameResult
from app.services.snapshot import export_snapshot
from app.services.team_demo import GROUP, create_team_demo, play_team_event_to_end
from app.services.team_events import (
    enter_board_result,
    pair_team_round,
    seat_team_round,
    set_team_absent,
    team_round_view,
    team_standings_view,
    teams_of,
)
from app.services.trf_exchange import export_trf, team_trf_event, trf_event_of
from tests import trf2026_reader
from tests.conftest import built_once_file
from tests.factories import open_copy


def _league(path: Path) -> None:
    db = create_team_demo(path, "team-round-robin", teams=5, seed=11)
    play_team_event_to_end(db, GROUP, seed=4)
    db.close()


@pytest.fixture
def league(tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> Any:
    """A team round robin of five played to its end (played once per run; this test's own copy)."""
    template = built_once_file(tmp_path_factory, "team-round-robin-5-played", "league.xqt", _league)
    db = open_copy(template, tmp_path / "league.xqt")
    yield db
    db.close()


def test_a_team_round_robin_in_trf_2026(league: Any) -> None:
    text = export_trf(league, GROUP)
    strict = trf2026_reader.read(text)  # members, mirrored matches, every round's game points add up
    view = team_standings_view(league, GROUP)
    teams = {t.no: t for t in teams_of(league, GROUP)}
    assert set(strict.team_records) == set(teams) == {1, 2, 3, 4, 5}
    for row in view.ranking.rows:
        name, mp, gp, rank, members = strict.team_records[row.team]
        assert (name, float(mp), float(gp), rank) == (
            view.names[row.team],
            row.match_points,
            row.game_points,
            row.rank,
        )
        assert members == [p.no for p in teams[row.team].roster]  # registered order, reserve last
    # every match of every round, by its home team (w) and the other (b), with both sides' 局分
    back = read_trf(text)
    assert back.team_section is not None
    written = team_trf_event(league, GROUP, trf_event_of(export_snapshot(league), GROUP))
    assert back.team_section == written.team_section
    assert back.rounds == written.rounds
    assert back.planned_rounds == 5  # five teams: five rounds, one team resting in each
    expected = []
    for n in range(1, 6):
        for m in team_round_view(league, GROUP, n).matches:
            if m.bye:  # a round robin's rest scores nothing: no PAB
                assert not back.team_section.byes
                assert "ZPB    0.0" in next(  # bye type 29-31, game points 35-38
                    x for x in text.splitlines() if x.startswith(f"802 {m.home_no:3d}")
                )
                continue
            assert m.score is not None
            expected.append((n, m.home_no, m.away_no, m.score.home_points, m.score.away_points))
    got = [(x.round, x.white, x.black, x.white_points, x.black_points) for x in back.team_section.matches]
    assert sorted(got) == sorted(expected)
    assert back.team_section.colours == "WBWB"
    assert "013 " not in text


def test_the_strict_reader_catches_a_team_total_that_does_not_add_up(league: Any) -> None:
    text = export_trf(league, GROUP)
    line = next(x for x in text.splitlines() if x.startswith("802   1"))
    wrong = line[:34] + f"{float(line[34:38]) + 1:4.1f}" + line[38:]
    with pytest.raises(trf2026_reader.Trf2026Error, match="team 1"):
        trf2026_reader.read(text.replace(line, wrong))


def test_a_team_that_did_not_appear_is_a_330_forfeit(tmp_path: Path) -> None:
    db = create_team_demo(tmp_path / "swiss.xqt", "team-swiss", teams=6, rounds=3, seed=3)
    try:
        pair_team_round(db, GROUP, seed=1)
        seat_team_round(db, GROUP, 1)
        set_team_absent(db, GROUP, 1, 1, Side.AWAY, reason="未到场")
        for other in team_round_view(db, GROUP, 1).matches[1:]:
            for board in (1, 2, 3, 4):
                enter_board_result(db, GROUP, 1, other.number, board, GameResult.DRAW)
        m = team_round_view(db, GROUP, 1).matches[0]
        text = export_trf(db, GROUP)
    finally:
        db.close()
    trf2026_reader.read(text)
    assert f"330 +- 001 {m.home_no:03d} {m.away_no:03d}" in text.splitlines()
    back = read_trf(text)
    assert back.team_section is not None
    first = next(x for x in back.team_section.matches if x.white == m.home_no)
    assert first.forfeit == "+-" and first.black_points == 0.0


def test_a_team_trf_is_refused_on_import_naming_the_line(
    league: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trf = tmp_path / "team.trf"
    trf.write_text(export_trf(league, GROUP), encoding="utf-8")
    number = next(i for i, x in enumerate(trf.read_text(encoding="utf-8").splitlines(), 1) if x[:3] == "352")
    out = tmp_path / "back.xqt"
    code = main(["import-trf", str(trf), str(out)])
    err = capsys.readouterr().err
    assert code == 2 and not out.exists()
    assert f"TRF 第 {number} 行是团体赛记录（352）" in err and f"TRF line {number}" in err
    assert re.search(r"cannot be imported", err)
    code = main(["export-trf", str(tmp_path / "league.xqt"), "--group", GROUP, "--for-pairing"])
    assert code == 2 and "--for-pairing" in capsys.readouterr().err
