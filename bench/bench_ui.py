"""Responsiveness of the window (JSON per case), measured as the arbiter meets it. Offscreen.

Cases (160 players, round 1 played, round 2 paired):

- ``start_to_window``: ``python -m app FILE --screenshot OUT`` in a fresh process — interpreter
  start, imports, opening the file, building the window and painting it once (median of 3).
- ``open_window``: in this process, the file opened and the main window built and shown.
- ``first_visit_players``: the players view shown for the first time (built, filled, painted).
- ``enter_result``: one result typed into the rounds view as key presses sent to the focused widget
  (board, space, result key — taken at once), the rounds view refreshed (median of 20).
- ``enter_result_standings``: one result entered through the undo stack with the 120-row standings
  view shown and refreshed (median of 20; budget 50 ms).

``--busy`` starts a process that keeps one core busy for the whole run (and stops it afterwards):
the figures in the README are measured that way, on a 2-core machine shared with other work.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.engine.types import GameResult  # noqa: E402
from app.ui.application import application  # noqa: E402
from app.ui.main_window import MainWindow  # noqa: E402
from app.ui.undo import EnterResultCommand, perform  # noqa: E402
from tests.ui.sample_event import make_event  # noqa: E402


def emit(case: str, seconds: float, **extra: object) -> None:
    print(json.dumps({"case": case, "players": 160, "rounds": 2, "seconds": round(seconds, 4), **extra}))


def start_to_window(path: Path, work: Path) -> float:
    times = []
    env = dict(os.environ, XQARBITER_DATA=str(work / "data-start"))
    for i in range(3):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "app", str(path), "--screenshot", str(work / f"start{i}.png")],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
        )
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--busy", action="store_true", help="keep one core busy while measuring")
    args = parser.parse_args()
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if args.busy else None
    try:
        run(busy=args.busy)
    finally:
        if burner is not None:
            burner.kill()
            burner.wait()


def run(*, busy: bool) -> None:
    work = Path(tempfile.mkdtemp(prefix="xq-bench-ui-"))
    os.environ["XQARBITER_DATA"] = str(work / "data")
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(work / "settings"))
    path = make_event(work / "bench.xqt", players=160, rounds=2, played=1)
    emit("start_to_window", start_to_window(path, work), busy=busy, budget_seconds=2.0)

    app = application()
    start = time.perf_counter()
    window = MainWindow()
    window.open_file(path)
    window.show()
    app.processEvents()
    opened = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    emit("open_window", opened, busy=busy, peak_memory_mb=round(peak / 2**20, 2))

    start = time.perf_counter()
    window.show_view("players")
    app.processEvents()
    emit("first_visit_players", time.perf_counter() - start, busy=busy, budget_seconds=0.2)

    window.show_view("rounds")
    app.processEvents()
    times = []
    for board in range(1, 21):
        start = time.perf_counter()
        for ch in f"{board} 5":  # board, space, draw: taken as soon as the result key is typed
            QTest.keyClicks(QApplication.focusWidget(), ch)
        app.processEvents()
        times.append(time.perf_counter() - start)
    document = window.document
    assert document is not None
    entered = sum(1 for b in range(1, 21) if document.undo_stack.count() >= b)
    assert entered == 20, "the key presses did not enter the results"
    emit(
        "enter_result",
        statistics.median(times),
        busy=busy,
        max_seconds=round(max(times), 4),
        budget_seconds=0.05,
    )

    standings = window.show_view("standings")
    app.processEvents()
    times = []
    for board in range(21, 41):
        start = time.perf_counter()
        perform(document, EnterResultCommand(document, document.group, 2, board, GameResult.RED_WIN))
        app.processEvents()
        times.append(time.perf_counter() - start)
    emit(
        "enter_result_standings",
        statistics.median(times),
        busy=busy,
        rows=standings.model.rowCount(),  # type: ignore[attr-defined]
        max_seconds=round(max(times), 4),
        budget_seconds=0.05,
    )
    window.close()


if __name__ == "__main__":
    main()
