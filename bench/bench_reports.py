"""Benchmark the reports layer: table cards for 80 boards (goal ≤ 1 s), the result workbook for
160 players after 11 rounds (goal ≤ 2 s). Prints one JSON object per case."""

from __future__ import annotations

import io
import json
import sys
import time
import tracemalloc
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.reports.excel import write_workbook
from app.reports.pdf import render_document
from app.reports.pdf.base import register_font
from app.reports.sample import SampleEvent

PRINTED_AT = datetime(2024, 7, 28, 9, 30)


def measure(case: str, goal: float, players: int, rounds: int, run: Callable[[], object]) -> None:
    run()  # warm-up (font parsing happens once per process)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    tracemalloc.start()
    run()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(
        json.dumps(
            {
                "case": case,
                "players": players,
                "rounds": rounds,
                "seconds": round(best, 3),
                "goal_seconds": goal,
                "peak_memory_mb": round(peak / 2**20, 1),
            },
            ensure_ascii=False,
        )
    )


def main() -> None:
    ev = SampleEvent.generate(players=160, rounds=11)
    start = time.perf_counter()
    register_font()
    font_seconds = time.perf_counter() - start
    print(json.dumps({"case": "font-registration (once per process)", "seconds": round(font_seconds, 3)}))
    cards = ev.table_cards(6)
    measure(
        "table-cards 80 boards",
        1.0,
        160,
        6,
        lambda: render_document("table-cards", cards, io.BytesIO(), printed_at=PRINTED_AT),
    )
    standings = ev.standings()
    measure(
        "standings pdf 160 players",
        1.0,
        160,
        11,
        lambda: render_document("standings", standings, io.BytesIO(), printed_at=PRINTED_AT),
    )
    crosstable = ev.crosstable()
    measure(
        "crosstable pdf 160 players",
        2.0,
        160,
        11,
        lambda: render_document("crosstable", crosstable, io.BytesIO(), printed_at=PRINTED_AT),
    )
    data = ev.workbook()
    measure("result workbook 160 players", 2.0, 160, 11, lambda: write_workbook(data, io.BytesIO()))


if __name__ == "__main__":
    main()
