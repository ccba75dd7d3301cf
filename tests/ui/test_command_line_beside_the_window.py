"""The window as the owner of its file for the command line (app/ui/command_line.py).

A command typed in a console beside the window is run by the window: a change in the window's own
thread (between two of the arbiter's actions), the views refreshed, the undo history cleared (an undo
recorded before would put back a state the command line has changed since), the status bar saying so;
a read changes nothing of that. A change still queued when the window closes the file is not made.
"""

from __future__ import annotations

import concurrent.futures
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QThread

from app.channel.wire import read_rendezvous

ROOT = Path(__file__).resolve().parents[2]


def run_beside(qtbot, *args: str) -> subprocess.CompletedProcess[str]:
    """A real ``xqarbiter`` process; the window's event loop keeps running while it waits."""
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    qtbot.waitUntil(lambda: process.poll() is not None, timeout=120_000)
    out, err = process.communicate()
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def test_a_result_from_the_command_line_is_entered_by_the_window(qtbot, window, event_file: Path) -> None:
    from app.engine.types import GameResult
    from app.services.rounds import round_view
    from app.ui.undo import EnterResultCommand, perform

    document = window.document
    assert read_rendezvous(event_file).pid == os.getpid()  # type: ignore[union-attr]
    board = next(b for b in round_view(document.db, "公开组", 2).boards if b.result.is_pending)
    perform(
        document, EnterResultCommand(document, "公开组", 2, board.board, GameResult.RED_WIN)
    )  # the arbiter's own
    assert document.undo_stack.canUndo()
    threads: list[bool] = []
    document.changed.connect(lambda: threads.append(QThread.currentThread() is window.thread()))
    run = run_beside(
        qtbot,
        "result",
        str(event_file),
        "--group",
        "公开组",
        "--round",
        "2",
        "--board",
        str(board.board + 1),
        "=",
    )
    assert run.returncode == 0 and "：和" in run.stdout, run.stderr
    assert threads and all(threads)  # told in the window's thread
    assert not document.undo_stack.canUndo()  # the history before the command line's change is gone
    assert "命令行修改了赛事文件" in window.statusBar().currentMessage()
    assert round_view(document.db, "公开组", 2).boards[board.board].result.value == "draw"
    shown = run_beside(qtbot, "pairings", str(event_file), "--group", "公开组", "--round", "2")
    assert shown.returncode == 0 and "红胜" in shown.stdout
    perform(document, EnterResultCommand(document, "公开组", 2, board.board + 2, GameResult.BLACK_WIN))
    run_beside(qtbot, "standings", str(event_file), "--group", "公开组")
    assert document.undo_stack.canUndo()  # a read clears nothing


def test_a_change_still_queued_when_the_window_closes_the_file_is_not_made(
    qtbot, window, event_file: Path
) -> None:
    from app.cli.hosted import NOT_RUN

    host = window.document.command_line
    ran: list[int] = []
    future = host._submit(lambda: ran.append(1) or 0)  # queued for the window's thread, not run yet
    window.set_document(None)  # closes the file: the channel first
    assert future.cancelled()
    with pytest.raises(concurrent.futures.CancelledError):
        future.result(timeout=1)
    qtbot.wait(50)
    assert ran == [] and NOT_RUN == 3
    assert read_rendezvous(event_file) is None
    assert not Path(str(event_file) + ".lock").exists()


def test_a_read_only_window_offers_no_channel(qtbot, event_file: Path) -> None:
    from app.services.tournaments import open_tournament
    from app.ui.document import TournamentDocument
    from app.ui.main_window import MainWindow

    holder = open_tournament(event_file)  # another program edits it
    try:
        window = MainWindow()
        qtbot.addWidget(window)
        window.set_document(TournamentDocument(event_file, open_tournament(event_file, read_only=True)))
        assert window.document.command_line is None and read_rendezvous(event_file) is None
        window.set_document(None)
    finally:
        holder.close()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_the_windows_run_loop_quits_on_sigterm_and_closes_the_file(tmp_path: Path, event_file: Path) -> None:
    """In-process check of app.ui.application.quit_on_termination (the real process: tests/e2e)."""
    script = f"""
import os, signal, sys, threading
sys.path.insert(0, {str(ROOT)!r})
from pathlib import Path
from PySide6.QtCore import QTimer
from app.ui.application import application, quit_on_termination
from app.ui.main_window import MainWindow
app = application()
window = MainWindow()
window.open_file(Path({str(event_file)!r}))
termination = quit_on_termination(app)
QTimer.singleShot(0, lambda: os.kill(os.getpid(), signal.SIGTERM))  # once the loop runs
code = app.exec()
print("quit", termination.requested, flush=True)
window.close()
termination.finished()
print("lock left:", Path({str(event_file)!r} + ".lock").exists(), flush=True)
"""
    run = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "XQARBITER_DATA": str(tmp_path / "data")},
    )
    assert "quit SIGTERM" in run.stdout and "lock left: False" in run.stdout, run.stdout + run.stderr


def test_a_closed_console_waits_until_the_file_is_closed() -> None:
    """Windows ends the process as soon as the console handler returns: the handler asks the owner
    to stop and waits until it has closed its file (Termination.console_event, run here by hand)."""
    from app.termination import CTRL_C_EVENT, CTRL_CLOSE_EVENT, Termination

    asked: list[str] = []
    closed = threading.Event()

    def stop(reason: str) -> None:
        asked.append(reason)
        threading.Timer(0.3, lambda: (closed.set(), termination.finished())).start()

    termination = Termination(stop)
    assert termination.console_event(CTRL_C_EVENT) is False  # Ctrl+C stays KeyboardInterrupt
    assert termination.console_event(CTRL_CLOSE_EVENT) is True
    assert closed.is_set() and asked == ["CTRL_CLOSE"]  # returned only once the file was closed
