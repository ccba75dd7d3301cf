"""Bad input, one test per reported defect: each bad input is refused cleanly (exit 2, 错误：…, nothing
changed) or handled right. The wide sweep is the corpus (tests/corpus)."""

from __future__ import annotations

import inspect
import json
import os
import resource
import shutil
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import build_parser, main
from app.db.lock import lock_path
from app.services.backups import make_backup
from app.services.snapshot import export_snapshot, import_snapshot
from app.services.tournaments import open_tournament
from tests.corpus.harness import form_row, write_form
from tests.factories import player, snapshot, swiss_round

ROOT = Path(__file__).resolve().parents[2]
GROUP = "公开组"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def event_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small event, imported once for the module (read-only: each test has its own copy)."""
    players = [player(i, f"棋手{i}", team="甲队" if i <= 4 else None) for i in range(1, 7)]
    rounds = [swiss_round(1, [(1, 2, "draw"), (3, 4, "red_win"), (5, 6, "black_win")])]
    path = tmp_path_factory.mktemp("event") / "t.xqt"
    import_snapshot(snapshot(players, rounds), path).close()
    return path


@pytest.fixture
def event(tmp_path: Path, event_file: Path) -> Path:
    """A fresh copy of the small event (the file alone, as importing leaves it: its mode kept)."""
    return Path(shutil.copy2(event_file, tmp_path / "t.xqt"))


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_import_players_imports_a_valid_form_end_to_end_and_refuses_it_twice(event: Path, capsys) -> None:
    form = write_form(event.parent / "form.xlsx", [form_row(21, "新棋手甲"), form_row(22, "新棋手乙")])
    code, out, err = run(
        capsys, "import-players", str(event), str(form), "--override-deadline", "组委会同意补报"
    )
    assert (code, err) == (0, "") and "已导入 2 名棋手" in out
    with open_tournament(event, read_only=True) as db:
        data = export_snapshot(db)
    assert {p["name"] for p in data["players"]} >= {"新棋手甲", "新棋手乙"}
    assert any(a["action"] == "deadline_override" and a["reason"] == "组委会同意补报" for a in data["audit"])
    before = event.read_bytes()
    code, _, err = run(capsys, "import-players", str(event), str(form), "--override-deadline", "再来一次")
    assert code == 2 and err.startswith("错误：") and "已经报名" in err
    assert event.read_bytes() == before


def test_after_the_deadline_the_form_needs_an_override_reason(event: Path, capsys) -> None:
    form = write_form(event.parent / "form.xlsx", [form_row(23, "新棋手丙")])
    code, _, err = run(capsys, "import-players", str(event), str(form))
    assert code == 2 and "截止" in err and "--override-deadline" in err
    code, _, err = run(capsys, "import-players", str(event), str(form), "--override-deadline", " ")
    assert code == 2 and "理由" in err


def test_every_writing_command_takes_over_a_stale_lock_and_says_so() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    writing = [
        name for name, p in sub.choices.items() if "writing(args)" in inspect.getsource(p.get_default("func"))
    ]
    assert len(writing) >= 16
    missing = [
        name
        for name in writing
        if not any("--take-over" in a.option_strings for a in sub.choices[name]._actions)
    ]
    assert missing == []


def _stale_lock(path: Path) -> None:
    lock_path(path).write_text(
        json.dumps(
            {
                "pid": 2**22 + 99,
                "host": socket.gethostname(),
                "time": "2024-07-26T09:00:00",
                "program": "xqarbiter",
                "version": "0.1.0",
            }
        ),
        encoding="utf-8",
    )


def test_a_stale_lock_blocks_until_taken_over_and_the_take_over_is_logged(event: Path, capsys) -> None:
    _stale_lock(event)
    before = event.read_bytes()
    code, _, err = run(capsys, "violation", str(event), "--player", "1", "--round", "1", "--reason", "犯规")
    assert code == 2 and "--take-over" in err and event.read_bytes() == before
    code, _, err = run(
        capsys, "violation", str(event), "--player", "1", "--round", "1", "--reason", "犯规", "--take-over"
    )
    assert code == 0 and "接管" in err
    assert not lock_path(event).exists()
    with open_tournament(event, read_only=True) as db:
        actions = [a["action"] for a in export_snapshot(db)["audit"]]
    assert actions[-2:] == ["take_over_lock", "violation"]


def test_withdraw_and_resets_to_pending_need_a_reason(event: Path, capsys) -> None:
    before = event.read_bytes()
    code, _, err = run(capsys, "withdraw", str(event), "--player", "3", "--reason", "")
    assert code == 2 and "理由" in err and event.read_bytes() == before
    bulk = event.parent / "r.json"
    bulk.write_text(json.dumps([{"board": 1, "result": "pending"}]), encoding="utf-8")
    code, _, err = run(capsys, "results", str(event), "--group", GROUP, "--round", "1", "--in", str(bulk))
    assert code == 2 and "理由" in err and event.read_bytes() == before
    code, _, _ = run(
        capsys,
        "results",
        str(event),
        "--group",
        GROUP,
        "--round",
        "1",
        "--in",
        str(bulk),
        "--reason",
        "录错台",
    )
    assert code == 0


def test_demo_with_no_players_leaves_nothing_behind(tmp_path: Path, capsys) -> None:
    code, _, err = run(capsys, "demo", str(tmp_path / "d.xqt"), "--players", "0")
    assert code == 2 and "4–160" in err
    assert list(tmp_path.iterdir()) == []


def test_numbers_out_of_range_are_refused_in_two_languages(event: Path, capsys) -> None:
    for option in ("--round", "--board"):
        argv = ["result", str(event), "--group", GROUP, "--round", "1", "--board", "1", "1-0"]
        argv[argv.index(option) + 1] = "1" + "0" * 20
        code, _, err = run(capsys, *argv)
        assert code == 2 and err.startswith("错误：命令行参数有误") and "outside" in err


def test_restore_refuses_another_events_file(event: Path, tmp_path: Path, capsys) -> None:
    data = snapshot([player(i, f"别人{i}") for i in range(1, 3)])
    data["tournament"]["created_at"] = "2023-01-01T08:00:00"
    other = tmp_path / "other.xqt"
    import_snapshot(data, other).close()
    before = _files(tmp_path)
    code, _, err = run(capsys, "restore", str(event), str(other))
    assert code == 2 and "另一场赛事" in err
    assert {k: v for k, v in _files(tmp_path).items() if not k.endswith(("-wal", "-shm"))} == before


def test_two_version_rows_are_a_clear_refusal_naming_the_good_backup(event: Path, capsys) -> None:
    good = make_backup(event, "good")
    con = sqlite3.connect(event)
    con.execute("INSERT INTO alembic_version VALUES ('0001')")
    con.commit()
    con.close()
    code, _, err = run(capsys, "standings", str(event), "--group", GROUP)
    assert code == 2 and "版本" in err and good.name in err


def test_a_flipped_byte_in_a_name_is_found_by_check_file_and_refused_on_open(event: Path, capsys) -> None:
    good = make_backup(event, "good")
    data = bytearray(event.read_bytes())
    at = data.find("棋手3".encode())
    data[at + 1] ^= 0x40  # inside 棋: the page stays sound, the text no longer decodes
    event.write_bytes(bytes(data))
    code, out, _ = run(capsys, "check-file", str(event))
    assert code == 2 and "损坏" in out and "players" in out and good.name in out
    before = event.read_bytes()
    code, _, err = run(capsys, "result", str(event), "--group", GROUP, "--round", "1", "--board", "1", "1-0")
    assert code == 2 and good.name in err and "UTF-8" in err
    assert event.read_bytes() == before and not lock_path(event).exists()


def test_leftovers_of_a_killed_run_are_removed_and_backups_are_private(event: Path, capsys) -> None:
    backup = make_backup(event, "one")
    assert backup.stat().st_mode & 0o777 == 0o600 and backup.parent.stat().st_mode & 0o077 == 0
    partial = backup.parent / f"{backup.name}.999999999.partial"
    partial.write_bytes(b"every personal number")
    restoring = Path(str(event) + ".restoring")
    restoring.write_bytes(b"every personal number")
    assert (
        run(
            capsys,
            "result",
            str(event),
            "--group",
            GROUP,
            "--round",
            "1",
            "--board",
            "1",
            "1-0",
            "--reason",
            "更正",
        )[0]
        == 0
    )
    assert not partial.exists() and not restoring.exists()


def _limited(limit: int, *argv: str) -> subprocess.CompletedProcess[str]:
    def preexec() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONIOENCODING="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        preexec_fn=preexec,
        timeout=120,
    )


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
@pytest.mark.parametrize("limit", [0, 4096, 16_384])  # the log's index alone needs 32 KB
def test_a_full_disk_is_called_a_full_disk_and_changes_nothing(event: Path, limit: int) -> None:
    before = _files(event.parent)
    done = _limited(limit, "violation", str(event), "--player", "1", "--round", "1", "--reason", "犯规")
    assert done.returncode == 2, done.stderr
    assert "磁盘已满" in done.stderr and "disk full" in done.stderr and "Traceback" not in done.stderr
    after = _files(event.parent)
    assert after.get("t.xqt") == before["t.xqt"]
    assert not lock_path(event).exists()
    assert [k for k in after if k not in before and not k.endswith(("-wal", "-shm"))] == []


def test_a_failed_output_leaves_the_old_file_and_no_partial_one(
    event: Path, tmp_path: Path, capsys, monkeypatch
) -> None:
    out = tmp_path / "book.xlsx"
    out.write_bytes(b"the old workbook")
    import errno

    def full(*_args: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    code, _, err = run(capsys, "excel", str(event), "-o", str(out))
    assert code == 2 and "磁盘已满" in err
    assert out.read_bytes() == b"the old workbook"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


@pytest.mark.parametrize(
    ("target", "message"),
    [("folder", "文件夹"), ("missing/x.pdf", "不存在"), ("t.xqt/x.pdf", "不是文件夹"), ("", "没有给出")],
)
def test_output_paths_are_checked_before_any_work(event: Path, capsys, target: str, message: str) -> None:
    (event.parent / "folder").mkdir()
    path = str(event.parent / target) if target else ""
    code, _, err = run(capsys, "print", str(event), "standings", "--group", GROUP, "-o", path)
    assert code == 2 and message in err


def test_html_onto_a_file_is_refused_and_into_a_folder_replaces_the_pages(event: Path, capsys) -> None:
    page = event.parent / "page.html"
    page.write_text("old", encoding="utf-8")
    code, _, err = run(capsys, "html", str(event), "-o", str(page))
    assert code == 2 and "文件夹" in err and page.read_text(encoding="utf-8") == "old"
    site = event.parent / "site"
    for _ in range(2):
        assert run(capsys, "html", str(event), "-o", str(site))[0] == 0
    assert (site / "index.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_snapshot_errors_name_their_json_path(event: Path, tmp_path: Path, capsys) -> None:
    with open_tournament(event, read_only=True) as db:
        data = export_snapshot(db)
    data["players"][3]["status"] = "zombie"
    data["rounds"][0]["games"][0]["board"] = True
    data["players"][1]["rating"] = 10**20
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    code, _, err = run(capsys, "import", str(bad), str(tmp_path / "new.xqt"))
    assert code == 2
    for path in ("players[3].status", "rounds[0].games[0].board", "players[1].rating"):
        assert path in err
    assert not (tmp_path / "new.xqt").exists()


def test_a_gbk_trf_keeps_its_chinese_names_and_export_trf_refuses_to_cut(
    event: Path, tmp_path: Path, capsys
) -> None:
    code, text, _ = run(capsys, "export-trf", str(event), GROUP)
    assert code == 0
    gbk = tmp_path / "gbk.trf"
    gbk.write_bytes(text.encode("gbk"))
    assert run(capsys, "import-trf", str(gbk), str(tmp_path / "back.xqt"))[0] == 0
    with open_tournament(tmp_path / "back.xqt", read_only=True) as db:
        assert {p["name"] for p in export_snapshot(db)["players"]} == {f"棋手{i}" for i in range(1, 7)}
    con = sqlite3.connect(event)
    con.execute("UPDATE teams SET name = ?", ("长" * 40,))
    con.commit()
    con.close()
    code, out, err = run(capsys, "export-trf", str(event), GROUP)
    assert code == 2 and "32" in err and out == ""
