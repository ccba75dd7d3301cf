"""Benchmark: import a full registration form (160 rows) into a new tournament."""

from __future__ import annotations

import json
import sys
import tempfile
import time
import tracemalloc
from datetime import date, datetime
from pathlib import Path

from openpyxl import Workbook

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.services.excel_import import import_players
from app.services.tournaments import create_tournament
from tests.idnumbers import make_id


def main() -> None:
    for players in (40, 160):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "form.xlsx"
            wb = Workbook()
            ws = wb.active
            ws.append(["姓名", "身份证号", "手机号", "组别", "代表队"])
            for i in range(players):
                group = "公开组" if i % 4 else "天水本地组"
                team = f"第{i % 20}队" if group == "公开组" else ""
                ws.append(
                    [
                        f"选手{chr(0x4E00 + i)}",
                        make_id(date(1980, 1, 1 + i % 28), serial=i % 250, region=f"6205{i // 250:02d}"),
                        "13912345678",
                        group,
                        team,
                    ]
                )
            wb.save(path)
            db = create_tournament(Path(tmp) / "t.xqt")
            tracemalloc.start()
            start = time.perf_counter()
            added = import_players(db, path, now=datetime(2024, 7, 1)).added
            seconds = time.perf_counter() - start
            peak = tracemalloc.get_traced_memory()[1] / 2**20
            tracemalloc.stop()
            db.close()
            assert len(added) == players
            print(
                json.dumps(
                    {
                        "case": "import_players",
                        "players": players,
                        "seconds": round(seconds, 3),
                        "peak_memory_mb": round(peak, 1),
                    }
                )
            )


if __name__ == "__main__":
    main()
