"""Backups (SQLite backup API), pruning, restore, and the refusal of a corrupt file."""

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from app.cli import build_parser, safety
from app.db.integrity import CorruptFileError, backups_folder, integrity_problems
from app.db.lock import FileLockedError, lock_path
from app.selftest import sample_snapshot
from app.services.backups import (
    BackupError,
    backup_after,
    check_file,
    list_backups,
    make_backup,
    prune_backups,
    restore_backup,
)
from app.services.results import enter_result
from app.services.snapshot import export_snapshot, import_snapshot
from app.services.tournaments import open_tournament

GROUP = sample_snapshot()["rounds"][0]["group"]


def _event(tmp_path: Path, players: int = 40, rounds: int = 2) -> Path:
    path = tmp_path / "赛事.xqt"
    import_snapshot(sample_snapshot(players, rounds), path).close()
    return path


def _result(path: Path, board: int, rnd: int = 1) -> str:
    db = open_tournament(path, read_only=True)
    try:
        games = export_snapshot(db)["rounds"][rnd - 1]["games"]
    finally:
        db.close()
    return next(g["result"] for g in games if g["board"] == board)


def _corrupt(path: Path) -> None:
    """Overwrite two pages in the middle of the file with garbage."""
    size = path.stat().st_size
    page = 4096
    middle = (size // page // 2) * page
    with open(path, "r+b") as f:
        f.seek(middle)
        f.write(bytes((i * 37 + 11) % 256 for i in range(2 * page)))


def test_backup_is_a_sound_copy_named_by_time_and_reason(tmp_path: Path) -> None:
    path = _event(tmp_path)
    db = open_tournament(path)
    enter_result(db, GROUP, 1, 3, "1-0")
    made = make_backup(db, "paired-公开组-r1", now=datetime(2024, 7, 26, 9, 5, 7))
    db.close()
    assert made == tmp_path / "赛事.backups" / "赛事-20240726-090507-paired-公开组-r1.xqt"
    assert integrity_problems(made) == []
    assert not Path(str(made) + "-wal").exists()  # one self-contained file
    copy = open_tournament(made, read_only=True)
    assert export_snapshot(copy)["rounds"][0]["games"][2]["result"] == "red_win"
    copy.close()
    [listed] = list_backups(path)
    assert (listed.path, listed.made_at, listed.reason) == (
        made,
        datetime(2024, 7, 26, 9, 5, 7),
        "paired-公开组-r1",
    )


def test_two_backups_in_the_same_second_both_kept_and_listed_newest_first(tmp_path: Path) -> None:
    path = _event(tmp_path)
    at = datetime(2024, 7, 26, 9, 0, 0)
    first = make_backup(path, "manual", now=at)
    second = make_backup(path, "manual", now=at)
    later = make_backup(path, "bad/name: x", now=at + timedelta(seconds=1))
    assert first != second
    assert later.name == "赛事-20240726-090001-bad_name__x.xqt"
    assert [b.path for b in list_backups(path)] == [later, second, first]


def test_prune_keeps_the_newest_and_every_closed_round(tmp_path: Path) -> None:
    path = _event(tmp_path, players=8, rounds=1)
    start = datetime(2024, 7, 26, 8, 0, 0)
    made = []
    for i in range(12):
        reason = f"closed-{GROUP}-r{i // 2 + 1}" if i % 2 else f"paired-{GROUP}-r{i // 2 + 1}"
        made.append(make_backup(path, reason, now=start + timedelta(minutes=i)))
    deleted = prune_backups(path, keep_recent=3)
    kept = {b.path for b in list_backups(path)}
    # newest 3 (i = 9, 10, 11) plus the closed ones (odd i): 1, 3, 5, 7, 9, 11
    assert kept == {made[i] for i in (1, 3, 5, 7, 9, 10, 11)}
    assert set(deleted) == {made[i] for i in (0, 2, 4, 6, 8)}


def test_backup_after_prunes_to_thirty_plus_closed_rounds(tmp_path: Path) -> None:
    path = _event(tmp_path, players=8, rounds=1)
    folder = backups_folder(path)
    start = datetime(2024, 7, 26, 8, 0, 0)
    for i in range(35):
        make_backup(path, f"paired-{GROUP}-r{i}", now=start + timedelta(minutes=i))
    make_backup(path, f"closed-{GROUP}-r1", now=start - timedelta(days=1))  # oldest of all
    db = open_tournament(path)
    newest = backup_after(db, f"paired-{GROUP}-r99")
    db.close()
    names = {p.name for p in folder.iterdir()}
    assert len(names) == 31
    assert newest.name in names
    assert any("closed" in n for n in names)


def test_restore_backs_up_the_current_state_first(tmp_path: Path) -> None:
    path = _event(tmp_path)
    early = make_backup(path, "before-results", now=datetime(2024, 7, 26, 8, 0, 0))
    db = open_tournament(path)
    enter_result(db, GROUP, 1, 1, "0-1")
    db.close()
    saved = restore_backup(path, early)
    assert _result(path, 1) == "pending"
    assert "before-restore" in saved.name
    keep = open_tournament(saved, read_only=True)
    assert export_snapshot(keep)["rounds"][0]["games"][0]["result"] == "black_win"
    keep.close()
    assert not lock_path(path).exists()
    # and the restored file is fully usable
    db = open_tournament(path)
    enter_result(db, GROUP, 1, 2, "=")
    db.close()
    assert _result(path, 2) == "draw"


def test_restore_replaces_a_crashed_file_with_its_log(tmp_path: Path) -> None:
    path = _event(tmp_path)
    early = make_backup(path, "early", now=datetime(2024, 7, 26, 8, 0, 0))
    db = open_tournament(path)
    enter_result(db, GROUP, 1, 1, "1-0")
    assert Path(str(path) + "-wal").exists()
    # the program still has it open: restore is refused
    with pytest.raises(FileLockedError):
        restore_backup(path, early)
    db.close()
    restore_backup(path, early.name)  # a bare name is looked up in the backups folder
    assert _result(path, 1) == "pending"


def test_restore_refuses_a_corrupt_backup_and_leaves_the_file(tmp_path: Path) -> None:
    path = _event(tmp_path)
    bad = make_backup(path, "soon-bad")
    _corrupt(bad)
    before = path.read_bytes()
    with pytest.raises(CorruptFileError):
        restore_backup(path, bad)
    assert path.read_bytes() == before
    with pytest.raises(BackupError, match="找不到备份"):
        restore_backup(path, tmp_path / "nothing.xqt")


def test_corrupt_file_is_refused_and_the_newest_good_backup_is_named(tmp_path: Path) -> None:
    path = _event(tmp_path, players=120, rounds=4)
    make_backup(path, "older", now=datetime(2024, 7, 26, 8, 0, 0))
    good = make_backup(path, "newer", now=datetime(2024, 7, 26, 9, 0, 0))
    newest_but_bad = make_backup(path, "newest", now=datetime(2024, 7, 26, 10, 0, 0))
    _corrupt(newest_but_bad)
    copy = tmp_path / "赛事.xqt"
    _corrupt(copy)
    assert integrity_problems(copy)
    before = copy.read_bytes()
    with pytest.raises(CorruptFileError) as caught:
        open_tournament(copy)
    assert caught.value.good_backup == good
    assert good.name in str(caught.value)
    assert copy.read_bytes() == before
    assert not lock_path(copy).exists()
    with pytest.raises(CorruptFileError, match=good.name):
        open_tournament(copy, read_only=True)
    # restoring the named backup repairs it; the corrupt bytes are kept aside
    saved = restore_backup(copy, caught.value.good_backup)
    assert "corrupt" in saved.name and saved.read_bytes() == before
    open_tournament(copy).close()


def test_check_file_reports_integrity_lock_and_backups(tmp_path: Path) -> None:
    path = _event(tmp_path)
    good = make_backup(path, "x")
    db = open_tournament(path)
    report = check_file(path)
    db.close()
    assert report.sound and report.lock is not None and report.lock_alive
    assert report.newest_good == good and report.backups == 1
    assert any("使用中" in line for line in report.lines())
    _corrupt(path)
    report = check_file(path)
    assert not report.sound and report.problems


def test_cli_backups_restore_check_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    parser = argparse.ArgumentParser()
    safety.register(parser.add_subparsers(dest="command", required=True))
    path = _event(tmp_path)

    def run(*argv: str) -> int:
        args = parser.parse_args(list(argv))
        return int(args.func(args))

    assert run("backups", str(path)) == 0
    assert "还没有备份" in capsys.readouterr().out
    assert run("backups", str(path), "--make", "--reason", "before-r2") == 0
    [b] = list_backups(path)
    assert run("backups", str(path)) == 0
    assert b.name in capsys.readouterr().out
    assert run("check-file", str(path)) == 0
    assert "完整性：正常" in capsys.readouterr().out
    assert run("restore", str(path), b.name) == 0
    assert "before-restore" in capsys.readouterr().out
    _corrupt(path)
    assert run("check-file", str(path)) == 2


def test_safety_commands_are_in_the_main_parser() -> None:
    args = build_parser().parse_args(["restore", "a.xqt", "b.xqt", "--take-over"])
    assert args.take_over and args.backup == "b.xqt"


def test_only_names_with_a_real_time_are_listed_as_backups(tmp_path: Path) -> None:
    path = tmp_path / "t.xqt"
    path.write_bytes(b"")
    folder = backups_folder(path)
    folder.mkdir()
    for name in (
        "t-20240726-093000-paired.xqt",
        "t-20240230-120000-no-such-day.xqt",
        "t-20240101-240000-no-such-hour.xqt",
        "t-20240101-235960-no-such-second.xqt",
        "t-2024072-093000-short.xqt",
        "other-20240726-093000-paired.xqt",
    ):
        (folder / name).write_bytes(b"")
    found = list_backups(path)
    assert [(b.path.name, b.made_at, b.reason) for b in found] == [
        ("t-20240726-093000-paired.xqt", datetime(2024, 7, 26, 9, 30), "paired")
    ]
