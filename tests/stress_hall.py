"""The window under load with the hall on, as one process to watch from outside (it may die of SIGBUS).

``python -m tests.stress_hall FILE --seconds S [--control] [--no-dialog]`` opens FILE in the real
window (offscreen), starts the hall server in it, has a phone thread read pages, enters results on
the window's thread as fast as an arbiter types (closing and pairing rounds as they fill up), shows a
file dialog on the tournament's folder every few seconds (cancelled once its folder is listed), and
with ``--control`` also does ``open(FILE-shm).close()`` in the window's process every 2 s — the raw
open no code may do, which drops SQLite's POSIX locks (the harness must then fail). Other processes
poll the file meanwhile (started by the test).

At the end it closes the window, reopens the file, checks its integrity and that every result it
entered is stored, and prints one JSON line: ``{"entered": n, "stored": n, "phone_reads": n,
"dialogs": n, "problems": [...]}``; exit 0 when there is no problem.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--control", action="store_true")
    parser.add_argument("--no-dialog", action="store_true")
    parser.add_argument("--phase-file", default=None, help="written 'running' while the window is open")
    args = parser.parse_args()
    path = Path(args.file)

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QFileDialog

    from app.engine.simulation import random_result
    from app.engine.types import GameResult
    from app.services.results import enter_result
    from app.services.rounds import close_round, pair_next_round, round_view, rounds_of
    from app.ui.application import application
    from app.ui.main_window import MainWindow

    app = application()
    window = MainWindow()
    if not window.open_file(path):
        print(json.dumps({"problems": ["the window could not open the file"]}))
        return 3
    window.show()
    document = window.document
    assert document is not None
    group = "公开组"
    url = window.hall.start(document, "127.0.0.1", 0)
    phase = Path(args.phase_file) if args.phase_file else None
    if phase is not None:
        phase.write_text("running")
    rng = random.Random(7)
    entered: dict[tuple[int, int], GameResult] = {}
    problems: list[str] = []
    counts = {"phone_reads": 0, "phone_waits": 0, "dialogs": 0}
    stop = threading.Event()

    def phone() -> None:
        pages = ["/", "/g/1/", "/g/1/entries", "/version", "/g/2/entries"]
        k = 0
        while not stop.is_set():
            try:
                with urllib.request.urlopen(url + pages[k % len(pages)], timeout=10) as r:
                    r.read()
                counts["phone_reads"] += 1
                time.sleep(0.1)  # a phone, not a crawler: well under the hall's limit per address
            except urllib.error.HTTPError as exc:
                if exc.code == 429:  # the server's limit per address doing its job: wait as told
                    counts["phone_waits"] += 1
                    time.sleep(0.5)
                elif not stop.is_set():
                    problems.append(f"phone, {time.monotonic() - started:.1f} s: {exc!r}")
            except Exception as exc:  # a page that fails is a finding, not a crash of the harness
                if not stop.is_set():
                    problems.append(f"phone, {time.monotonic() - started:.1f} s: {exc!r}")
                time.sleep(0.2)
            k += 1

    started = time.monotonic()
    reader = threading.Thread(target=phone, daemon=True)
    reader.start()

    # the rounds typed: the Swiss before the top-8 knockout (a faster window types all of them in time)
    swiss_rounds = document.info.regulations.group(group).swiss_rounds

    def type_one() -> None:
        numbers = rounds_of(document.db, group)
        number = numbers[-1].number if numbers else 0
        pending = (
            []
            if not number
            else [b for b in round_view(document.db, group, number).boards if b.result.is_pending]
        )
        if not pending:
            if number:
                close_round(document.db, group, number)
            if number >= swiss_rounds:  # the Swiss before the knockout is played through: the arbiter's
                typing.stop()  # next step is the bracket, not another round; the phones and dialogs go on
                document.notify()
                return
            pair_next_round(document.db, group, seed=number + 1)
            document.notify()
            return
        board = pending[0]
        result = random_result(rng, 1600, 1600, 0.0)
        enter_result(document.db, group, number, board.board, result)
        entered[(number, board.board)] = result
        document.notify()  # the views refresh and the hall is told, as after a key press

    typing = QTimer()
    typing.setInterval(25)
    typing.timeout.connect(lambda: _guarded(type_one, problems, "typing"))
    typing.start()

    def close_dialogs() -> None:
        for widget in QApplication.topLevelWidgets():
            if isinstance(widget, QFileDialog) and widget.isVisible():
                shown = widget.property("stress_shown_at")
                if shown is None:
                    widget.setProperty("stress_shown_at", time.monotonic())
                    widget.setViewMode(QFileDialog.ViewMode.Detail)
                elif time.monotonic() - float(shown) > 0.6:
                    widget.reject()

    closer = QTimer()
    closer.setInterval(30)
    closer.timeout.connect(close_dialogs)
    closer.start()

    def show_dialog() -> None:
        os.chdir(path.parent)
        counts["dialogs"] += 1
        window.export_excel()  # a save dialog on the tournament's folder, cancelled by the closer

    dialog = QTimer()
    dialog.setInterval(3000)
    dialog.timeout.connect(lambda: _guarded(show_dialog, problems, "dialog"))
    if not args.no_dialog:
        dialog.start()

    control = QTimer()
    control.setInterval(2000)
    control.timeout.connect(lambda: open(str(path) + "-shm", "rb").close())
    if args.control:
        control.start()

    QTimer.singleShot(int(args.seconds * 1000), lambda: (stop.set(), app.quit()))
    app.exec()
    for timer in (typing, closer, dialog, control):
        timer.stop()
    stop.set()
    reader.join(15)
    if phase is not None:
        phase.write_text("closing")
    window.close()

    from app.db.integrity import integrity_problems
    from app.services.rounds import round_view as view_again
    from app.services.tournaments import open_tournament

    problems += integrity_problems(path)
    db = open_tournament(path, read_only=True)
    try:
        stored = 0
        for (number, board), result in entered.items():
            now = next(b for b in view_again(db, group, number).boards if b.board == board).result
            if now is result:
                stored += 1
            else:
                problems.append(f"round {number} board {board}: entered {result.value}, stored {now.value}")
    finally:
        db.close()
    print(json.dumps({"entered": len(entered), "stored": stored, **counts, "problems": problems[:20]}))
    sys.stdout.flush()
    return 1 if problems else 0


def _guarded(action, problems: list[str], what: str) -> None:
    try:
        action()
    except Exception as exc:
        problems.append(f"{what}: {exc!r}")


if __name__ == "__main__":
    sys.exit(main())
