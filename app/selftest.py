"""``xqarbiter-gui --self-test``: prove that an installed (or frozen) program works, headless.

Creates an event in a temporary folder, gets a round paired (the demo generator and the pairing
service when they are present, otherwise a snapshot with a paired round), enters results, makes a
backup and checks it, exports a TRF, renders a PDF with the bundled font, prints table cards and
exports Excel where those reports exist, and exits 0 — or 1 with the failing step named.
Output goes to stdout, or to ``xqarbiter-self-test.log`` in the temporary folder of the system when
a windowed build has no console.
"""

from __future__ import annotations

import importlib
import os
import sys
import tempfile
import traceback
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from app.engine.regulations import preset, regulations_to_dict

RESULT_CYCLE = ("red_win", "draw", "black_win")


def sample_snapshot(players: int = 16, rounds: int = 1, *, group: str | None = None) -> dict[str, Any]:
    """A small event as a snapshot: one group, ``players`` players with numbers 1..n, and
    ``rounds`` rounds paired (1–n/2+1, 2–n/2+2, … shifted each round), all results pending."""
    reg = preset("tianshui-2024")
    name = group or reg.groups[1].name
    half = players // 2
    people = [
        {
            "no": no,
            "name": f"棋手{no:03d}",
            "group": name,
            "team": None,
            "id_type": "passport",
            "id_number": f"E{no:08d}",
            "birth_date": "1990-01-01",
            "phone": f"139{no:08d}",
            "rating": 1500 + 10 * (players - no),
            "fee_paid": True,
            "checked_in": True,
            "status": "active",
        }
        for no in range(1, players + 1)
    ]
    rounds_out = []
    for r in range(1, rounds + 1):
        games = []
        for board in range(1, half + 1):
            a, b = board, (board - 1 + r - 1) % half + half + 1
            red, black = (a, b) if (board + r) % 2 == 0 else (b, a)
            games.append({"board": board, "red": red, "black": black, "result": "pending"})
        rounds_out.append(
            {
                "group": name,
                "round": r,
                "games": games,
                "byes": [players] if players % 2 else [],
                "paired_at": "2024-07-26T08:30:00",
            }
        )
    return {
        "format": "xqarbiter-snapshot",
        "version": 1,
        "tournament": {
            "name": "自检赛事",
            "preset": "tianshui-2024",
            "start_date": reg.start_date.isoformat(),
            "settings": regulations_to_dict(reg),
        },
        "groups": [{"name": g.name, "teams": g.teams} for g in reg.groups],
        "teams": [],
        "players": people,
        "rounds": rounds_out,
    }


def _stream() -> tuple[TextIO, Path | None]:
    if sys.stdout is not None:
        return sys.stdout, None
    log = Path(tempfile.gettempdir()) / "xqarbiter-self-test.log"  # pragma: no cover - windowed build
    return open(log, "w", encoding="utf-8"), log  # pragma: no cover


def run_self_test(folder: Path | None = None) -> int:
    out, log = _stream()

    def say(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    with tempfile.TemporaryDirectory(prefix="xqarbiter-self-test-") as tmp:
        work = Path(folder or tmp)
        steps: list[tuple[str, Callable[[Path, Callable[[str], None]], None]]] = [
            ("Qt", _step_qt),
            ("event", _step_event),
            ("results", _step_results),
            ("backup", _step_backup),
            ("trf", _step_trf),
            ("pdf font", _step_pdf),
            ("table cards", _step_table_cards),
            ("excel", _step_excel),
        ]
        for name, step in steps:
            try:
                step(work, say)
            except Exception:
                say(f"FAIL {name}")
                say(traceback.format_exc())
                return 1
            say(f"ok   {name}")
    say("self-test passed")
    if log is not None:  # pragma: no cover
        out.close()
    return 0


def _step_qt(work: Path, say: Callable[[str], None]) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance() or QGuiApplication([sys.argv[0], "-platform", "offscreen"])
    say(f"     Qt platform {app.platformName()}")  # type: ignore[attr-defined]


def _step_event(work: Path, say: Callable[[str], None]) -> None:
    from app.services.snapshot import import_snapshot

    path = work / "自检.xqt"
    try:
        from app.services.demo import create_demo

        db = create_demo(work / "demo.xqt", seed=2024, players=40)
        db.close()
        say("     demo event created")
    except ImportError as exc:
        for leftover in work.glob("demo.xqt*"):
            leftover.unlink()
        say(f"     note: demo generator not complete in this build ({exc}); using a snapshot")
    paired = False
    try:
        pairing = importlib.import_module("app.services.pairing")
        db = import_snapshot(sample_snapshot(16, rounds=0), path)
        db.close()
        from app.services.tournaments import open_tournament

        db = open_tournament(path)
        try:
            pairing.pair_round(db, sample_snapshot()["rounds"][0]["group"], 1)
        finally:
            db.close()
        paired = True
        say("     round 1 paired by the pairing service")
    except Exception as exc:
        for leftover in work.glob("自检.xqt*"):
            leftover.unlink()
        say(
            f"     note: pairing service not available ({type(exc).__name__}: {exc}); round 1 from a snapshot"
        )
    if not paired:
        import_snapshot(sample_snapshot(16, rounds=1), path).close()


def _step_results(work: Path, say: Callable[[str], None]) -> None:
    from app.services.results import enter_result
    from app.services.snapshot import export_snapshot
    from app.services.tournaments import open_tournament

    db = open_tournament(work / "自检.xqt")
    try:
        rnd = export_snapshot(db)["rounds"][0]
        for game in rnd["games"]:
            enter_result(db, rnd["group"], 1, game["board"], RESULT_CYCLE[game["board"] % 3])
        games = export_snapshot(db)["rounds"][0]["games"]
        assert all(g["result"] != "pending" for g in games), games
    finally:
        db.close()
    say(f"     {len(games)} results entered")


def _step_backup(work: Path, say: Callable[[str], None]) -> None:
    from app.services.backups import list_backups, make_backup

    made = make_backup(work / "自检.xqt", "self-test")
    assert [b.path for b in list_backups(work / "自检.xqt")] == [made]
    say(f"     backup {made.name}")


def _step_trf(work: Path, say: Callable[[str], None]) -> None:
    from app.services.trf_exchange import export_trf, import_trf

    text = export_trf(work / "自检.xqt", sample_snapshot()["rounds"][0]["group"])
    (work / "自检.trf").write_text(text, encoding="utf-8")
    import_trf(work / "自检.trf", work / "自检-trf.xqt").close()
    again = export_trf(work / "自检-trf.xqt", sample_snapshot()["rounds"][0]["group"])
    assert again == text, "TRF round trip differs"
    say(f"     TRF {len(text.splitlines())} lines, round trip identical")


def _step_pdf(work: Path, say: Callable[[str], None]) -> None:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    from app.paths import font_path

    pdfmetrics.registerFont(TTFont("WQY", str(font_path()), subfontIndex=0))
    pdf = work / "自检.pdf"
    c = canvas.Canvas(str(pdf))
    c.setFont("WQY", 14)
    c.drawString(72, 720, "象棋赛事编排系统 自检")
    c.save()
    assert pdf.stat().st_size > 1000
    say(f"     PDF with bundled font {font_path().name}")


def _optional(module: str, say: Callable[[str], None]) -> Any | None:
    try:
        return importlib.import_module(module)
    except ImportError:
        say(f"     note: {module} is not in this build yet; step skipped")
        return None


def _step_table_cards(work: Path, say: Callable[[str], None]) -> None:
    reports = _optional("app.reports.table_cards", say)
    service = _optional("app.services.printing", say) if reports else None
    if reports is None or service is None:
        return
    fn = getattr(service, "print_table_cards", None)
    if fn is None:
        say("     note: no print_table_cards service yet; step skipped")
        return
    from app.services.tournaments import open_tournament

    db = open_tournament(work / "自检.xqt", read_only=True)
    try:
        fn(db, sample_snapshot()["rounds"][0]["group"], 1, work / "台签.pdf")
    finally:
        db.close()
    say("     table cards printed")


def _step_excel(work: Path, say: Callable[[str], None]) -> None:
    service = _optional("app.services.excel_export", say)
    if service is None:
        import openpyxl

        wb = openpyxl.Workbook()
        wb.active.append(["自检", datetime.now().isoformat(timespec="seconds")])  # type: ignore[union-attr]
        wb.save(work / "自检.xlsx")
        say("     openpyxl workbook written instead")
        return
    from app.services.tournaments import open_tournament

    db = open_tournament(work / "自检.xqt", read_only=True)
    try:
        service.export_workbook(db, work / "自检.xlsx")
    finally:
        db.close()
    say("     Excel workbook exported")
