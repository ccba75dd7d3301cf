"""The window and ``xqarbiter serve`` side by side (docs/file-safety.md).

A real ``serve`` process has the file open; the window is asked to open it. The window names the
hall server (its process and address) and offers to take the file over; Enter and Esc take nothing
over and change nothing (keys typed as the question appears are discarded). Taking over asks
``serve`` over the owner's channel to hand the file over: it stops cleanly, the window opens the file
for writing and serves the hall at the same address.

These run beside other tests (pytest-xdist): every wait is on what happens (the owner's record, the
question taking keys, serve's exit), bounded, and serve's port is one the system handed out (bound to
port 0), which the window takes over as serve lets it go. Run three at a time beside other UI and
channel tests on a machine loaded 4× over its two cores, 39 times, they never failed (docs/figures.md).
"""

from __future__ import annotations

import hashlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from app.channel.client import live_owner
from app.ui.widgets.key_guard import keys_guarded

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _page(url: str) -> int:
    with urllib.request.urlopen(url, timeout=10) as response:
        return int(response.status)


def _fingerprint(path: Path) -> str:
    """The bytes of the file and its write-ahead log (this process never opened the file)."""
    digest = hashlib.sha256()
    for name in (path, Path(f"{path}-wal")):
        if name.exists():
            digest.update(name.read_bytes())
    return digest.hexdigest()


@pytest.fixture
def serving(event_file: Path) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """``xqarbiter serve`` on the event, its channel answering and its hall serving pages."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", str(event_file), "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    deadline = time.monotonic() + 90
    while live_owner(event_file) is None and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert process.poll() is None, process.communicate()
    record = live_owner(event_file)
    assert record is not None and record.pid == process.pid
    assert _page(f"http://127.0.0.1:{port}/") == 200
    try:
        yield process, port
    finally:
        if process.poll() is None:
            process.terminate()
        process.communicate(timeout=60)


def _answer_with(key: Qt.Key, seen: dict[str, object]) -> Callable[[], None]:
    """Type ``T`` the moment the question shows (it must be discarded), then ``key`` once the
    question takes keys — as an arbiter's hands would."""

    def look() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QMessageBox):
            QTimer.singleShot(20, look)
            return
        if keys_guarded() and "early" not in seen:
            seen["early"] = True
            seen["text"] = dialog.text() + "\n" + dialog.informativeText()
            QTest.keyClick(dialog, Qt.Key.Key_T)  # typed before the arbiter read it: discarded
            QTimer.singleShot(20, look)
            return
        if keys_guarded():
            QTimer.singleShot(20, look)
            return
        seen["still_open_after_early_key"] = dialog.isVisible()
        QTest.keyClick(dialog, key)

    return look


@pytest.mark.parametrize("key", [Qt.Key.Key_Return, Qt.Key.Key_Escape], ids=["Enter", "Esc"])
def test_enter_or_esc_takes_nothing_over(qtbot, event_file: Path, serving, key: Qt.Key) -> None:
    from app.ui.main_window import MainWindow

    process, port = serving
    before = _fingerprint(event_file)
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    seen: dict[str, object] = {}
    QTimer.singleShot(0, _answer_with(key, seen))
    assert window.open_file(event_file) is False
    text = str(seen["text"])
    assert "xqarbiter serve" in text and str(process.pid) in text and f"127.0.0.1:{port}" in text
    assert "接管" in text
    assert seen["early"] and seen["still_open_after_early_key"]  # the early T did not take it over
    assert window.document is None
    assert process.poll() is None  # serve runs on, still the file's owner, still serving
    record = live_owner(event_file)
    assert record is not None and record.pid == process.pid
    assert _page(f"http://127.0.0.1:{port}/") == 200
    assert _fingerprint(event_file) == before


def test_taking_over_stops_serve_and_the_window_serves_the_hall_at_its_address(
    qtbot, event_file: Path, serving
) -> None:
    from app.ui.main_window import MainWindow

    process, port = serving
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    seen: dict[str, object] = {}
    QTimer.singleShot(0, _answer_with(Qt.Key.Key_T, seen))
    assert window.open_file(event_file) is True
    try:
        assert seen["still_open_after_early_key"]
        out, err = process.communicate(timeout=60)
        assert process.returncode == 0, err
        assert f"交给编排窗口（进程 {os.getpid()}）" in out
        document = window.document
        assert document is not None and not document.read_only
        record = live_owner(event_file) or None
        assert record is None  # no other owner: the window is the owner now
        from app.channel.wire import read_rendezvous

        assert read_rendezvous(event_file).pid == os.getpid()  # type: ignore[union-attr]
        assert window.hall.running and window.hall.server.port == port
        assert _page(f"http://127.0.0.1:{port}/") == 200  # the phones' next request finds the window
        assert "接管" in window.statusBar().currentMessage()
    finally:
        window.hall.stop()
        window.set_document(None)
