"""Bad input, round three: tracebacks and loose checks in the command line and files, and what a new
user trips over. Every refusal is exit code 2, in both languages, naming what is wrong, and changes
nothing."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest

from app.cli import main
from app.services.results import enter_result
from app.services.rounds import close_round, pair_next_round, round_view
from app.services.snapshot import import_snapshot
from app.services.tournaments import open_tournament
from tests.factories import player, snapshot

OPEN = "公开组"
CJK = re.compile(r"[\u4e00-\u9fff]")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _english(err: str) -> str:
    """The English half of a two-language message ``错误：中文 (English)``."""
    start = err.rfind(" (")
    return err[start:] if start >= 0 else err


@pytest.fixture(scope="module")
def event_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The event of eight, imported once for the module (read-only: each test has its own copy)."""
    path = tmp_path_factory.mktemp("event") / "t.xqt"
    import_snapshot(snapshot([player(i, f"棋手{i}") for i in range(1, 9)]), path).close()
    return path


@pytest.fixture
def event(tmp_path: Path, event_file: Path) -> Path:
    """A fresh copy of the event of eight (the file alone, as importing leaves it: its mode kept)."""
    return Path(shutil.copy2(event_file, tmp_path / "t.xqt"))


def _round(path: Path, number: int) -> None:
    db = open_tournament(path)
    try:
        pair_next_round(db, OPEN, seed=number)
        for b in round_view(db, OPEN, number).boards:
            enter_result(db, OPEN, number, b.board, "=")
        close_round(db, OPEN, number)
    finally:
        db.close()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory, event_file: Path) -> dict[int, Path]:
    """The event as ``_round`` leaves it after round 1 and after round 2 (each a folder: the file and
    its backups), played once for the module."""
    root = tmp_path_factory.mktemp("played")
    path = root / "build" / "t.xqt"
    path.parent.mkdir()
    shutil.copy2(event_file, path)
    folders = {}
    for number in (1, 2):
        _round(path, number)
        folders[number] = shutil.copytree(path.parent, root / f"after-{number}")
    return folders


def _played(event: Path, played: dict[int, Path], rounds: int) -> None:
    """``event`` as ``_round(event, 1)`` … ``_round(event, rounds)`` leaves it: a copy of the event
    played once (the file and its backups)."""
    shutil.copytree(played[rounds], event.parent, dirs_exist_ok=True)


# --------------------------------------------------------------------------- files


@pytest.mark.parametrize("depth", [40, 1_500, 40_000])
def test_deeply_nested_toml_is_refused_by_every_reader(
    tmp_path: Path, event: Path, capsys: pytest.CaptureFixture[str], depth: int
) -> None:
    toml = tmp_path / "deep.toml"
    toml.write_text("y = " + "[" * depth + "]" * depth, encoding="utf-8")
    before = _digest(event)
    for argv in (
        ("regulation-import", str(event), str(toml), "--reason", "新规程"),
        ("new", str(tmp_path / "n.xqt"), "--regulation", str(toml)),
        ("certificate", str(event), "--template", str(toml)),
    ):
        code, _, err = run(capsys, *argv)
        assert code == 2 and "嵌套过深" in err and "nested too deep" in err, (argv, err)
    assert _digest(event) == before and not (tmp_path / "n.xqt").exists()


@pytest.mark.parametrize("day", ["9999-12-31", "0001-01-01", "9999-12-25"])
def test_new_with_a_start_at_the_ends_of_the_calendar_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], day: str
) -> None:
    out = tmp_path / "x.xqt"
    code, _, err = run(capsys, "new", str(out), "--start", day)
    assert code == 2 and "--start" in err and day in err, err
    assert not out.exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX thing")
def test_a_fifo_is_not_read_as_a_regulation_file(
    tmp_path: Path, event: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "reg.toml"
    os.mkfifo(fifo)
    result: list[tuple[int, str, str]] = []
    worker = threading.Thread(
        target=lambda: result.append(run(capsys, "regulation-import", str(event), str(fifo), "--reason", "x"))
    )
    worker.start()
    worker.join(10)
    if worker.is_alive():  # unblock the reader before failing
        with open(fifo, "w") as f:
            f.write("")
        worker.join(5)
        pytest.fail("regulation-import waited on a FIFO")
    code, _, err = result[0]
    assert code == 2 and "不是普通文件" in err and "not a regular file" in err


def test_an_empty_regulation_file_names_the_missing_keys(
    tmp_path: Path, event: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.toml"
    empty.write_text("", encoding="utf-8")
    code, _, err = run(capsys, "regulation-import", str(event), str(empty), "--reason", "x")
    assert code == 2 and "event_name" in err and "start_date" in err and "__init__" not in err


def _broken(event: Path, sql: str) -> Path:
    con = sqlite3.connect(event)
    con.execute(sql)
    con.commit()
    con.close()
    return event


@pytest.mark.parametrize(
    ("sql", "zh"),
    [
        ("DROP TABLE byes", "byes"),
        ("DROP TABLE absences", "absences"),
        ("UPDATE games SET red_id = 999999 WHERE id = (SELECT min(id) FROM games)", "games"),
        ("UPDATE players SET group_id = 4242 WHERE id = (SELECT max(id) FROM players)", "players"),
        ("UPDATE rounds SET group_id = 31337 WHERE number = 2", "rounds"),
    ],
)
def test_a_dropped_table_or_a_dangling_reference_is_found_and_refused_in_words(
    event: Path, played: dict[int, Path], capsys: pytest.CaptureFixture[str], sql: str, zh: str
) -> None:
    _played(event, played, 1)
    db = open_tournament(event)
    try:
        pair_next_round(db, OPEN, seed=2)  # a round with a bye? 8 players: no; a pending round
    finally:
        db.close()
    _broken(event, sql)
    code, out, err = run(capsys, "check-file", str(event))
    assert code != 0 and zh in out + err, out + err
    before = _digest(event)
    for argv in (
        ("standings", str(event), "--group", OPEN),
        ("pairings", str(event), "--group", OPEN, "--round", "1"),
        ("players", str(event)),
        ("result", str(event), "--group", OPEN, "--round", "2", "--board", "1", "1-0"),
        ("pair", str(event), "--group", OPEN),
        ("export", str(event), str(event.with_suffix(".json"))),
    ):
        code, _, err = run(capsys, *argv)
        assert code == 2 and "Traceback" not in err and zh in err, (argv, err)
        assert "no such table" not in err.split("(")[0]  # the Chinese half is in words
    assert _digest(event) == before


# --------------------------------------------------------------------------- snapshot import


def _snap(tmp_path: Path, data: dict[str, object]) -> Path:
    p = tmp_path / "s.json"
    p.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return p


@pytest.mark.parametrize(
    "blank", ["\u3164", "\uffa0\uffa0", "\u034f", "\u2800\u2800", "\ue000", "\u3164 \u2800"]
)
def test_a_name_of_only_invisible_characters_is_refused_by_snapshot_import(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], blank: str
) -> None:
    players = [player(i, f"棋手{i}") for i in range(1, 5)]
    players[1]["name"] = blank
    out = tmp_path / "n.xqt"
    code, _, err = run(capsys, "import", str(_snap(tmp_path, snapshot(players))), str(out))
    assert code == 2 and "players[1].name" in err, err
    assert not out.exists()


def test_snapshot_import_checks_closed_rounds_ids_birth_dates_and_teams(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    players = [player(i, f"棋手{i}") for i in range(1, 5)]
    rounds = [
        {
            "group": OPEN,
            "round": 1,
            "closed_at": "2024-07-26T12:00:00",
            "games": [
                {"board": 1, "red": 1, "black": 2, "result": "pending"},
                {"board": 2, "red": 3, "black": 4, "result": "draw"},
            ],
        }
    ]
    data = snapshot(players, rounds)
    out = tmp_path / "c.xqt"
    code, _, err = run(capsys, "import", str(_snap(tmp_path, data)), str(out))
    assert code == 2 and "rounds[0]" in err and "未录入" in err, err

    bad_id = snapshot([player(i, f"棋手{i}") for i in range(1, 5)])
    number = bad_id["players"][0]["id_number"]
    wrong = number[:-1] + ("0" if number[-1] != "0" else "1")
    bad_id["players"][0]["id_number"] = wrong
    code, _, err = run(capsys, "import", str(_snap(tmp_path, bad_id)), str(out))
    assert code == 2 and "players[0].id_number" in err and "校验" in err, err

    future = snapshot([player(i, f"棋手{i}") for i in range(1, 5)])
    future["players"][2]["id_type"] = "passport"
    future["players"][2]["id_number"] = "E12345678"
    future["players"][2]["birth_date"] = "2090-03-04"
    code, _, err = run(capsys, "import", str(_snap(tmp_path, future)), str(out))
    assert code == 2 and "players[2].birth_date" in err and "2090" in err, err

    ghost = snapshot([player(i, f"棋手{i}") for i in range(1, 5)])
    ghost["groups"][0]["teams"] = True
    ghost["players"][3]["team"] = "不存在的队"
    code, _, err = run(capsys, "import", str(_snap(tmp_path, ghost)), str(out))
    assert code == 2 and "players[3].team" in err and "不存在的队" in err, err
    assert not out.exists()


# --------------------------------------------------------------------------- the command line


def test_a_reason_that_starts_with_a_dash_is_a_reason(
    event: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "avoid", str(event), "1", "2", "--reason", "-2+3")
    assert code == 0, err
    code, out, _ = run(capsys, "avoidances", str(event), "--json")
    assert "-2+3" in out


def test_a_reversed_avoidance_range_is_named(event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = _digest(event)
    code, _, err = run(capsys, "avoid", str(event), "1", "2", "--from-round", "7", "--to-round", "4")
    assert code == 2 and "7" in err and "4" in err and "1–" not in err and "1-11" not in err, err
    assert "早于" in err and "before" in err
    assert _digest(event) == before


def test_an_avoidance_for_rounds_already_paired_is_refused(
    event: Path, played: dict[int, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _played(event, played, 2)
    before = _digest(event)
    code, _, err = run(capsys, "avoid", str(event), "1", "2", "--from-round", "1", "--to-round", "2")
    assert code == 2 and "已编排" in err and "already paired" in err, err
    assert _digest(event) == before
    code, out, _ = run(capsys, "avoid", str(event), "1", "2", "--from-round", "2")
    assert code == 0 and "自第 3 轮起生效" in out


def _trf_text() -> str:
    from app.engine.trf import TrfEvent, TrfPlayer, write_trf
    from app.engine.types import Game, GameResult, RoundRecord

    event = TrfEvent(
        "测试赛",
        "公开组",
        players=(TrfPlayer(1, "甲"), TrfPlayer(2, "乙"), TrfPlayer(3, "丙"), TrfPlayer(4, "丁")),
        rounds=(RoundRecord(1, (Game(1, 1, 3, GameResult.RED_WIN), Game(2, 4, 2, GameResult.DRAW))),),
    )
    return write_trf(event)


@pytest.mark.parametrize(
    ("change", "what"),
    [
        (lambda t: re.sub(r"^(142|XXR) .*$", r"\1 9999", t, flags=re.M), "9999"),
        (lambda t: re.sub(r"^XXR .*$", "XXR 250", t, flags=re.M).replace("142 1\n", ""), "250"),
        (lambda t: re.sub(r"^162 .*$", "162  W -2.0 D  1.0 L  0.0", t, flags=re.M), "-2"),
        (lambda t: re.sub(r"^BBL .*$", "BBL -1.0", t, flags=re.M), "-1"),
        (lambda t: t + "XQS 2 1 1 -3 2 2 0\n", "-3"),
    ],
)
def test_import_trf_refuses_absurd_rounds_and_negative_points(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: object, what: str
) -> None:
    text = change(_trf_text())  # type: ignore[operator]
    trf = tmp_path / "t.trf"
    trf.write_text(text, encoding="utf-8")
    out = tmp_path / "t.xqt"
    code, _, err = run(capsys, "import-trf", str(trf), str(out))
    assert code == 2 and what in err, (text, err)
    assert not out.exists()


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    import app

    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.strip() == f"xqarbiter {app.__version__}"


def test_the_version_matches_the_package_metadata() -> None:
    import tomllib

    import app

    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    project = pyproject["project"]
    if "version" in project:
        assert project["version"] == app.__version__
    else:  # one source: the package's metadata is read from app.__version__
        assert "version" in project["dynamic"]
        assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "app.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", app.__version__)


def test_players_of_an_unknown_group_exits_2(event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "players", str(event), "--group", "NOSUCH")
    assert code == 2 and out == "" and "NOSUCH" in err and OPEN in err


def test_players_shows_the_status_in_chinese(event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "players", str(event))
    assert code == 0 and "active" not in out and "参赛" in out


def test_export_trf_takes_the_group_as_an_option(
    event: Path, played: dict[int, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _played(event, played, 1)
    code, out, err = run(capsys, "export-trf", str(event), "--group", OPEN)
    assert code == 0 and out.startswith("012"), err
    code, old, err = run(capsys, "export-trf", str(event), OPEN)  # the old spelling still works
    assert code == 0 and old == out and "--group" in err


def test_restore_is_audited(event: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from app.services.audit import audit_log
    from app.services.backups import backups_folder

    _round(event, 1)
    name = sorted(p.name for p in backups_folder(event).iterdir())[-1]
    _round(event, 2)
    code, _, err = run(capsys, "restore", str(event), name)
    assert code == 0, err
    db = open_tournament(event, read_only=True)
    try:
        entries = audit_log(db, action="restore_backup")
    finally:
        db.close()
    assert len(entries) == 1 and entries[0].after == name and entries[0].before.endswith(".xqt")


def test_officials_set_twice_keeps_both(event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "officials", str(event), "--set", "裁判长=王立", "--set", "副裁判长=李华")
    assert code == 0, err
    data = json.loads(run(capsys, "officials", str(event), "--json")[1])
    roles = [o["role"] for o in data["officials"]]
    assert roles == ["裁判长", "副裁判长"]


@pytest.mark.parametrize("scale", ["0.5", "0.75"])
def test_image_scale_below_one_is_honoured(
    event: Path, played: dict[int, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str], scale: str
) -> None:
    _played(event, played, 1)
    out = tmp_path / f"p{scale}.png"
    code, _, err = run(
        capsys, "image", str(event), "standings", "--group", OPEN, "--scale", scale, "-o", str(out)
    )
    assert code == 0, err
    assert out.read_bytes().startswith(b"\x89PNG")


def test_standings_after_a_complete_round_does_not_call_it_unfinished(
    event: Path, played: dict[int, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _played(event, played, 2)
    code, out, _ = run(capsys, "standings", str(event), "--group", OPEN, "--after-round", "1")
    assert code == 0 and "尚未全部结束" not in out and "第 1 轮后名次" in out


def test_a_lock_message_in_english_has_no_chinese_words(
    event: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = open_tournament(event)
    try:
        code, _, err = run(
            capsys, "result", str(event), "--group", OPEN, "--round", "1", "--board", "1", "1-0"
        )
    finally:
        db.close()
    assert code == 2
    assert not CJK.search(_english(err)), err


def test_one_board_is_singular(event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from app.services.audit_text import audit_sentences

    players = [player(i, f"棋手{i}") for i in range(1, 3)]
    path = event.parent / "two.xqt"
    db = import_snapshot(snapshot(players), path)
    try:
        pair_next_round(db, OPEN, seed=1)
        line = next(x for x in audit_sentences(db) if x.action_en == "round paired")
    finally:
        db.close()
    assert "1 Swiss board," in line.change_en and "boards" not in line.change_en


def test_the_fast_paths_table_list_is_the_models() -> None:
    from app.db.integrity import SCHEMA_TABLES
    from app.db.models import Base

    assert set(SCHEMA_TABLES) == {t.name for t in Base.metadata.sorted_tables}


def test_a_damaged_files_english_message_is_in_english(
    event: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _broken(event, "DROP TABLE violations")
    code, _, err = run(capsys, "standings", str(event), "--group", OPEN)
    assert code == 2 and "violations" in err
    english = err[err.index(" (t.xqt is corrupt") :]
    assert not CJK.search(english.replace(OPEN, "")), english
