"""The command line: each command through the real services, errors on stderr with exit code 2."""

import json
from pathlib import Path

import pytest

from app.cli import main
from app.services.snapshot import import_snapshot
from tests.factories import player, snapshot, swiss_round


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def paired(tmp_path: Path) -> Path:
    players = [player(i, f"棋手{i}") for i in range(1, 6)]
    rounds = [swiss_round(1, [(1, 3, "pending"), (4, 2, "pending")], byes=[5])]
    import_snapshot(snapshot(players, rounds), tmp_path / "t.xqt").close()
    return tmp_path / "t.xqt"


def test_new_then_refuse_to_overwrite(tmp_path: Path, capsys) -> None:
    path = str(tmp_path / "e.xqt")
    assert run(capsys, "new", path)[0] == 0
    code, _, err = run(capsys, "new", path)
    assert code == 2 and "已存在" in err


def test_unknown_preset_is_an_error(tmp_path: Path, capsys) -> None:
    code, _, err = run(capsys, "new", str(tmp_path / "e.xqt"), "--preset", "nowhere")
    assert code == 2 and "tianshui-2024" in err
    assert not (tmp_path / "e.xqt").exists()


def test_players_json_is_the_snapshot_player_list(paired: Path, capsys) -> None:
    code, out, _ = run(capsys, "players", str(paired), "--json")
    players = json.loads(out)
    assert code == 0
    assert [p["no"] for p in players] == [1, 2, 3, 4, 5]
    assert players[0]["name"] == "棋手1" and players[0]["fee_paid"] is True


def test_result_and_pairings_json(paired: Path, capsys) -> None:
    assert (
        run(capsys, "result", str(paired), "--group", "公开组", "--round", "1", "--board", "2", "-+")[0] == 0
    )
    assert (
        run(capsys, "result", str(paired), "--group", "公开组", "--round", "1", "--board", "1", "--")[0] == 0
    )
    assert (
        run(capsys, "result", str(paired), "--group", "公开组", "--round", "1", "--board", "1", "pending")[0]
        == 0
    )
    code, out, _ = run(capsys, "pairings", str(paired), "--group", "公开组", "--json")
    assert code == 0
    assert json.loads(out) == {
        "group": "公开组",
        "round": 1,
        "games": [
            {"board": 1, "red": 1, "black": 3, "result": "pending"},
            {"board": 2, "red": 4, "black": 2, "result": "red_forfeit"},
        ],
        "byes": [5],
    }


def test_bad_result_goes_to_stderr(paired: Path, capsys) -> None:
    code, out, err = run(
        capsys, "result", str(paired), "--group", "公开组", "--round", "1", "--board", "7", "1-0"
    )
    assert code == 2 and "第 7 台" in err and out == ""


def test_bulk_results_from_json(paired: Path, tmp_path: Path, capsys) -> None:
    entries = tmp_path / "r.json"
    entries.write_text(json.dumps([{"board": 1, "result": "draw"}, {"board": 2, "result": "red_win"}]))
    assert (
        run(capsys, "results", str(paired), "--group", "公开组", "--round", "1", "--in", str(entries))[0] == 0
    )
    _, out, _ = run(capsys, "pairings", str(paired), "--group", "公开组", "--round", "1", "--json")
    assert [g["result"] for g in json.loads(out)["games"]] == ["draw", "red_win"]
    entries.write_text("[{")
    code, _, err = run(
        capsys, "results", str(paired), "--group", "公开组", "--round", "1", "--in", str(entries)
    )
    assert code == 2 and "不是有效的 JSON" in err


def test_export_import_round_trip_via_cli(paired: Path, tmp_path: Path, capsys) -> None:
    out1 = tmp_path / "a.json"
    assert run(capsys, "export", str(paired), str(out1))[0] == 0
    assert run(capsys, "import", str(out1), str(tmp_path / "copy.xqt"))[0] == 0
    out2 = tmp_path / "b.json"
    assert run(capsys, "export", str(tmp_path / "copy.xqt"), str(out2))[0] == 0
    assert json.loads(out1.read_text()) == json.loads(out2.read_text())


def test_missing_file_is_a_clear_error(tmp_path: Path, capsys) -> None:
    code, _, err = run(capsys, "players", str(tmp_path / "nope.xqt"))
    assert code == 2 and "找不到" in err


def test_new_takes_the_events_own_name_dates_venue_deadline_and_groups(tmp_path: Path, capsys) -> None:
    from datetime import date, datetime

    from app.services.tournaments import open_tournament, tournament_info

    path = tmp_path / "n.xqt"
    code, out, err = run(
        capsys,
        "new",
        str(path),
        "--name",
        "2031年秦州象棋公开赛",
        "--start",
        "2031-08-01",
        "--end",
        "2031-08-03",
        "--venue",
        "秦州区文化馆",
        "--deadline",
        "2031-07-28 18:00",
        "--groups",
        "公开组,少年组",
    )
    assert code == 0 and "2031年秦州象棋公开赛" in out and "tianshui" not in out and err == ""
    db = open_tournament(path, read_only=True)
    try:
        info = tournament_info(db)
    finally:
        db.close()
    reg = info.regulations
    assert (info.name, reg.start_date, reg.end_date, reg.venue) == (
        "2031年秦州象棋公开赛",
        date(2031, 8, 1),
        date(2031, 8, 3),
        "秦州区文化馆",
    )
    assert reg.registration.deadline == datetime(2031, 7, 28, 18, 0)
    assert reg.registration.first_day_of_play == date(2031, 8, 1)
    assert [g.name for g in info.groups] == ["公开组", "少年组"]
    assert {t.name for t in reg.prizes} == {"公开组个人", "少年组个人", "公开组团体"}  # 天水本地组's → 少年组
    for bad, message in (
        (["--start", "2031-13-01"], "--start 应为日期"),
        (["--deadline", "tomorrow"], "--deadline 应为"),
        (["--start", "2031-08-01", "--end", "2031-07-01"], "早于开始日期"),
        (["--start", "2031-08-01", "--deadline", "2031-08-09 18:00"], "晚于比赛开始日期"),
        (["--groups", " , "], "至少要有一个组别"),
    ):
        target = tmp_path / "bad.xqt"
        code, _, err = run(capsys, "new", str(target), *bad)
        assert code == 2 and message in err and not target.exists(), (bad, err)
