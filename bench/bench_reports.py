"""Benchmark the documents of the real demo event (160 players in two groups, played to the end through
the services): the open group's table cards of a round (60 boards, goal ≤ 1 s), its standings and
crosstable, and the whole result workbook (goal ≤ 2 s) — each built by the exports service and rendered,
as the window and ``xqarbiter print`` do. Prints one JSON object per case."""

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
from app.reports.pdf.base import register_font
from app.services import exports
from app.services.demo import create_demo
from app.services.simulation import play_demo_to_end

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
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="xq-bench-reports-"))
    db = create_demo(folder / "demo.xqt", seed=2024)
    play_demo_to_end(db, seed=2024)
    group = "公开组"
    start = time.perf_counter()
    register_font()
    font_seconds = time.perf_counter() - start
    print(json.dumps({"case": "font-registration (once per process)", "seconds": round(font_seconds, 3)}))

    def pdf(doc: str, **options: object) -> Callable[[], object]:
        return lambda: exports.render_pdf(db, doc, group=group, printed_at=PRINTED_AT, **options)  # type: ignore[arg-type]

    boards = len(exports.table_cards(db, group, 6).rows)
    measure(
        f"table-cards {boards} boards (built and rendered)", 1.0, 120, 6, pdf("table-cards", round_number=6)
    )
    measure("standings pdf 120 players", 1.0, 120, 11, pdf("standings"))
    measure("crosstable pdf 120 players", 2.0, 120, 11, pdf("crosstable"))
    measure(
        "result workbook 160 players, both groups (built and written)",
        2.0,
        160,
        11,
        lambda: write_workbook(exports.result_workbook(db), io.BytesIO()),
    )
    db.close()


if __name__ == "__main__":
    main()
