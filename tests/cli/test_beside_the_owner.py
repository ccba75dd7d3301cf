"""Every command works beside the file's owner, as it does without it (docs/file-safety.md).

The owner here is this test process — the file open with its services, a writer thread like
``serve``'s, the channel offered — and each command is a real ``xqarbiter`` process beside it, as an
arbiter would type it. The commands are handed to the owner: changes run in its writer thread (one
writer, written to the audit log, the owner told), reads in the channel's threads, relative paths
from the client's folder, refusals with the usual message and exit code. Meanwhile an audit hook
checks that the owner's process never opens the file's names other than through SQLite.
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from app.services.audit import audit_log
from tests.loaded import LOADING, OWNERS_OWN, loaded
from tests.raw_opens import watching

ROOT = Path(__file__).resolve().parents[2]
GROUP = "公开组"


@pytest.fixture(scope="module")
def paired_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from app.services.demo import create_demo
    from app.services.rounds import pair_next_round

    path = tmp_path_factory.mktemp("owner") / "template.xqt"
    db = create_demo(path, players=40)
    pair_next_round(db, GROUP, seed=1)
    db.close()
    return path


@dataclass
class Owner:
    path: Path
    db: Any
    writes: list[str] = field(default_factory=list)  # the thread each change ran in
    changes: int = 0


@pytest.fixture
def owner(paired_template: Path, tmp_path: Path) -> Iterator[Owner]:
    from app.cli.hosted import Host, open_channel
    from app.services.tournaments import open_tournament
    from app.web.app import ThreadOwner

    path = tmp_path / "event.xqt"
    shutil.copy(paired_template, path)
    db = open_tournament(path)
    writer = ThreadOwner()
    state = Owner(path, db)

    def write(action: Callable[[], Any]) -> concurrent.futures.Future[Any]:
        def recorded() -> Any:
            state.writes.append(threading.current_thread().name)
            return action()

        return writer.submit(recorded)

    def changed() -> None:
        state.changes += 1

    channel = open_channel(Host(db, "serve", write, changed, start_hall=lambda h, p: f"http://{h}:{p}"))
    assert channel is not None and channel.listening
    try:
        with watching(path) as seen:
            yield state
        assert seen == [], seen  # the owner opened none of the file's names but through SQLite
    finally:
        channel.close()
        writer.close()
        db.close()


def loaded_by(record: Path, *prefixes: str) -> list[str]:
    assert "app.channel.client" in record.read_text().split()  # the command was handed on
    return loaded(record, *prefixes)


def xq(*args: str, cwd: Path | None = None, record: Path | None = None) -> subprocess.CompletedProcess[str]:
    """A real ``xqarbiter`` process; with ``record``, one that writes there the modules it loaded."""
    start = (
        [sys.executable, "-m", "app.cli"] if record is None else [sys.executable, "-c", LOADING, str(record)]
    )
    return subprocess.run(
        [*start, *args],
        capture_output=True,
        text=True,
        cwd=cwd or ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )


def test_a_result_typed_beside_the_owner_is_entered_by_the_owner(owner: Owner, tmp_path: Path) -> None:
    change, read = tmp_path / "change.txt", tmp_path / "read.txt"
    run = xq(
        "result", str(owner.path), "--group", GROUP, "--round", "1", "--board", "1", "1-0", record=change
    )
    assert run.returncode == 0, run.stderr
    assert "第 1 台：红胜" in run.stdout and run.stderr == ""
    assert owner.writes == ["hall-owner_0"] and owner.changes == 1  # the owner's writer thread, told
    entry = audit_log(owner.db)[-1]
    assert entry.action == "enter_result" and entry.after == "red_win"
    shown = xq("pairings", str(owner.path), "--group", GROUP, "--json", record=read)
    assert shown.returncode == 0, shown.stderr
    assert loaded_by(change, *OWNERS_OWN) == [] and loaded_by(read, *OWNERS_OWN) == []
    assert loaded(change, "dataclasses", "inspect") == []  # the channel's records are the engine's
    board = next(g for g in json.loads(shown.stdout)["games"] if g["board"] == 1)
    assert board["result"] == "red_win"
    assert owner.writes == ["hall-owner_0"]  # a read is no change


def test_refusals_read_as_without_the_owner(owner: Owner, tmp_path: Path) -> None:
    record = tmp_path / "loaded.txt"
    wrong = xq(
        "result", str(owner.path), "--group", GROUP, "--round", "1", "--board", "99", "1-0", record=record
    )
    assert wrong.returncode == 2 and wrong.stderr.startswith("错误：第 1 轮没有第 99 台")
    assert loaded_by(record, *OWNERS_OWN) == []  # the owner's refusal, printed as its own
    assert "Traceback" not in wrong.stderr
    early = xq("pair", str(owner.path), "--group", GROUP)
    assert early.returncode == 2 and early.stderr.startswith("错误："), early.stderr
    restore = xq("restore", str(owner.path), "x.xqt")
    assert restore.returncode == 2 and "不能在它运行时恢复备份" in restore.stderr
    assert owner.changes == 0


def test_paths_are_the_clients_and_outputs_never_the_open_file(owner: Owner, tmp_path: Path) -> None:
    here = tmp_path / "client"
    here.mkdir()
    (here / "r.json").write_text(
        json.dumps([{"board": 2, "result": "draw"}, {"board": 3, "result": "black_win"}])
    )
    entered = xq("results", str(owner.path), "--group", GROUP, "--round", "1", "--in", "r.json", cwd=here)
    assert entered.returncode == 0, entered.stderr
    printed = xq("print", str(owner.path), "pairings", "--group", GROUP, "-o", "对阵表.pdf", cwd=here)
    assert printed.returncode == 0, printed.stderr
    assert (here / "对阵表.pdf").read_bytes().startswith(b"%PDF")
    over = xq("print", str(owner.path), "pairings", "--group", GROUP, "-o", str(owner.path) + "-shm")
    assert over.returncode == 2 and "正在使用的赛事文件" in over.stderr
    relative = xq("pairings", "event.xqt", "--group", GROUP, cwd=owner.path.parent)
    assert relative.returncode == 0 and "和" in relative.stdout


def test_the_file_check_and_the_lock_say_who_holds_the_file(owner: Owner) -> None:
    run = xq("check-file", str(owner.path))
    assert run.returncode == 0, run.stderr
    assert "完整性：正常" in run.stdout and f"进程 {os.getpid()}" in run.stdout and "使用中" in run.stdout


def test_many_commands_at_once_are_all_entered_one_at_a_time(owner: Owner) -> None:
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        runs = list(
            pool.map(
                lambda board: xq(
                    "result", str(owner.path), "--group", GROUP, "--round", "1", "--board", str(board), "="
                ),
                range(1, 11),
            )
        )
    assert [r.returncode for r in runs] == [0] * 10, [r.stderr for r in runs if r.returncode]
    assert len(owner.writes) == 10 and set(owner.writes) == {"hall-owner_0"}
    from app.services.rounds import round_view

    assert all(b.result.value == "draw" for b in round_view(owner.db, GROUP, 1).boards[:10])


def test_a_full_round_closed_and_the_next_paired_from_the_command_line(owner: Owner, tmp_path: Path) -> None:
    from app.services.rounds import round_view

    boards = [{"board": b.board, "result": "red_win"} for b in round_view(owner.db, GROUP, 1).boards]
    (tmp_path / "all.json").write_text(json.dumps(boards))
    for args in (
        ("results", str(owner.path), "--group", GROUP, "--round", "1", "--in", str(tmp_path / "all.json")),
        ("close-round", str(owner.path), "--group", GROUP, "--round", "1", "--confirm-refusals"),
        ("pair", str(owner.path), "--group", GROUP, "--seed", "2"),
        ("deputy", str(owner.path), "--group", GROUP, "--boards", "1-5", "--name", "李副裁"),
        (
            "violation",
            str(owner.path),
            "--group",
            GROUP,
            "--player",
            "3",
            "--round",
            "2",
            "--reason",
            "手机响",
        ),
    ):
        run = xq(*args)
        assert run.returncode == 0, (args, run.stderr)
    from app.services.rounds import rounds_of

    assert [r.number for r in rounds_of(owner.db, GROUP)] == [1, 2]
    actions = [e.action for e in audit_log(owner.db)]
    assert {"close_round", "pair_round", "issue_deputy_token", "violation"} <= set(actions), actions[-8:]


def test_a_change_not_begun_is_not_made_when_the_client_left_or_the_owner_closed(owner: Owner) -> None:
    from app.channel.server import Request
    from app.cli.hosted import NOT_RUN, Host, run_command

    argv = ("result", str(owner.path), "--group", GROUP, "--round", "1", "--board", "7", "1-0")
    gone = Request(argv, "/", client_gone=lambda: True)

    def run_now(action: Callable[[], Any]) -> concurrent.futures.Future[Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        future.set_result(action())
        return future

    host = Host(owner.db, "serve", run_now, lambda: None)
    assert run_command(host, gone).code == NOT_RUN

    def closed(action: Callable[[], Any]) -> concurrent.futures.Future[Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        future.cancel()
        return future

    answer = run_command(Host(owner.db, "window", closed, lambda: None), Request(argv, "/", lambda: False))
    assert answer.code == 2 and "已关闭赛事文件，命令没有执行" in answer.stderr
    from app.services.rounds import round_view

    assert round_view(owner.db, GROUP, 1).boards[6].result.is_pending


def test_the_tcp_fallback_used_on_windows_carries_commands_too(
    paired_template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The channel Windows uses (127.0.0.1 and a secret in the user's private folder), forced here."""
    from app.channel.wire import read_rendezvous
    from app.cli.hosted import Host, open_channel
    from app.services.tournaments import open_tournament
    from app.web.app import ThreadOwner

    monkeypatch.setenv("XQARBITER_CHANNEL", "tcp")
    path = tmp_path / "event.xqt"
    shutil.copy(paired_template, path)
    db = open_tournament(path)
    writer = ThreadOwner()
    channel = open_channel(Host(db, "window", writer.submit, lambda: None))
    try:
        assert read_rendezvous(path).transport == "tcp"  # type: ignore[union-attr]
        run = xq("result", str(path), "--group", GROUP, "--round", "1", "--board", "8", "0-1")
        assert run.returncode == 0 and "黑胜" in run.stdout, run.stderr
    finally:
        assert channel is not None
        channel.close()
        writer.close()
        db.close()


def test_an_owner_runs_commands_for_its_own_file_only(
    owner: Owner, paired_template: Path, tmp_path: Path
) -> None:
    from app.channel.server import Request
    from app.cli.hosted import Host, run_command

    other = tmp_path / "other.xqt"
    shutil.copy(paired_template, other)  # (copying the owner's own file here would drop its locks)
    host = Host(owner.db, "serve", lambda a: concurrent.futures.Future(), lambda: None)
    answer = run_command(host, Request(("pairings", str(other), "--group", GROUP), "/", lambda: False))
    assert answer.code == 2 and "不是" in answer.stderr and owner.changes == 0


def test_the_owner_builds_a_commands_parser_once_and_each_client_has_its_own_paths(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The window and ``serve`` parse every command their channel receives, twice (is it for this
    file? can it change it?), then run it: the parser is built once per process, and what one parse
    read (a client's folder) is not carried into the next."""
    import app.cli
    from app.cli import common
    from app.cli.hosted import _parsed, changes_the_file

    built: list[str | None] = []
    build = app.cli.build_parser

    def counted(command: str | None = None) -> Any:
        built.append(command)
        return build(command)

    monkeypatch.setattr(app.cli, "_parsers", {}, raising=False)
    monkeypatch.setattr(app.cli, "build_parser", counted)
    for client in ("甲", "乙"):
        with common.for_client(object(), str(tmp_path / client)):
            read = _parsed(["pairings", "event.xqt", "--group", GROUP])
            change = ["result", "event.xqt", "--group", GROUP, "--round", "1", "--board", "1", "1-0"]
            assert changes_the_file(change) and not changes_the_file(["pairings", "event.xqt"])
        assert read.file == str(tmp_path / client / "event.xqt") and read.group == GROUP
    assert _parsed(["pairings"]) is None  # refused by the parser: no state left for the next parse
    assert _parsed(["pairings", "e.xqt", "--group", GROUP]).file == "e.xqt"  # no client: as typed
    assert app.cli.main(["no-such-command"]) == 2 and app.cli.main(["pairings"]) == 2
    assert built == ["pairings", "result", None]
