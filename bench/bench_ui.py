"""Responsiveness of the window (JSON per case): opening a 160-player event, entering one result.

Offscreen. Cases: ``open_window`` (document open + main window built and shown, 160 players,
round 2 of 2 paired), ``enter_result`` (one result typed into the rounds view through the undo stack
and every view refreshed, median of 20), ``enter_result_standings`` (one result entered through the
undo stack with the standings view shown: the result, then the 160-player event's standings view
refreshed, median of 20; budget 50 ms).
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QSettings  # noqa: E402

from app.engine.types import GameResult  # noqa: E402
from app.ui.application import application  # noqa: E402
from app.ui.main_window import MainWindow  # noqa: E402
from app.ui.undo import EnterResultCommand, perform  # noqa: E402
from app.ui.views.rounds import RoundsView  # noqa: E402
from app.ui.views.standings import StandingsView  # noqa: E402
from tests.ui.sample_event import make_event  # noqa: E402


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="xq-bench-ui-"))
    os.environ["XQARBITER_DATA"] = str(work / "data")
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(work / "settings"))
    path = make_event(work / "bench.xqt", players=160, rounds=2, played=1)
    app = application()
    start = time.perf_counter()
    window = MainWindow()
    window.open_file(path)
    window.show()
    app.processEvents()
    opened = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(
        json.dumps(
            {
                "case": "open_window",
                "players": 160,
                "rounds": 2,
                "seconds": round(opened, 4),
                "peak_memory_mb": round(peak / 2**20, 2),
            }
        )
    )
    view = window.show_view("rounds")
    assert isinstance(view, RoundsView)
    times = []
    for board in range(1, 21):
        start = time.perf_counter()
        view.enter(board, GameResult.DRAW)
        app.processEvents()
        times.append(time.perf_counter() - start)
    window.document.undo_stack.clear() if window.document else None
    print(
        json.dumps(
            {
                "case": "enter_result",
                "players": 160,
                "rounds": 2,
                "seconds": round(statistics.median(times), 4),
                "max_seconds": round(max(times), 4),
            }
        )
    )
    document = window.document
    assert document is not None
    standings = window.show_view("standings")
    assert isinstance(standings, StandingsView)
    app.processEvents()
    times = []
    for board in range(21, 41):
        start = time.perf_counter()
        perform(document, EnterResultCommand(document, document.group, 2, board, GameResult.RED_WIN))
        app.processEvents()
        times.append(time.perf_counter() - start)
    refreshes = []
    for _ in range(20):
        start = time.perf_counter()
        standings.refresh()
        app.processEvents()
        refreshes.append(time.perf_counter() - start)
    print(
        json.dumps(
            {
                "case": "enter_result_standings",
                "players": 160,
                "rows": standings.model.rowCount(),
                "rounds": 2,
                "seconds": round(statistics.median(times), 4),
                "max_seconds": round(max(times), 4),
                "standings_refresh_seconds": round(statistics.median(refreshes), 4),
                "budget_seconds": 0.05,
            }
        )
    )


if __name__ == "__main__":
    main()
