"""``xqarbiter-gui --self-test``: prove that an installed (or frozen) program works, headless.

Creates an event in a temporary folder, gets a round paired (the demo generator and the pairing
service when they are present, otherwise a snapshot with a paired round), enters results, makes a
backup and checks it, exports a TRF, renders a PDF with the bundled font, prints table cards and
exports Excel where those reports exist, and exits 0 — or 1 with the failing step named.
Output goes to stdout, or to ``xqarbiter-self-test.log`` in the temporary folder of the system when
a windowed build has no console.
"""

from __future__ import annotations

import os
import sys
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from app.engine.regulations import preset, regulations_to_dict
from app.engine.text import count_en

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
            ("hall network", _step_hall),
            ("window", _step_window),
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
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([sys.argv[0], "-platform", "offscreen"])
    say(f"     Qt platform {app.platformName()}")  # type: ignore[attr-defined]


GROUP = "天水本地组"


def _step_event(work: Path, say: Callable[[str], None]) -> None:
    from app.services.demo import create_demo
    from app.services.rounds import pair_next_round

    db = create_demo(work / "自检.xqt", seed=2024, players=160)
    try:
        out = pair_next_round(db, GROUP, seed=1)
    finally:
        db.close()
    say(f"     demo event created, round 1 paired: {count_en(out.boards, 'board')}")


def _step_results(work: Path, say: Callable[[str], None]) -> None:
    from app.services.results import enter_result
    from app.services.rounds import round_view
    from app.services.standings import group_standings
    from app.services.tournaments import open_tournament

    db = open_tournament(work / "自检.xqt")
    try:
        boards = round_view(db, GROUP, 1).boards
        for b in boards:
            enter_result(db, GROUP, 1, b.board, RESULT_CYCLE[b.board % 3])
        assert not round_view(db, GROUP, 1).pending_boards
        ranks = [line.rank for line in group_standings(db, GROUP).lines]
        assert ranks == list(range(1, len(ranks) + 1)), ranks
    finally:
        db.close()
    say(f"     {len(boards)} results entered, standings 1..{len(ranks)}")


def _step_backup(work: Path, say: Callable[[str], None]) -> None:
    from app.services.backups import list_backups, make_backup

    made = make_backup(work / "自检.xqt", "self-test")
    assert made in [b.path for b in list_backups(work / "自检.xqt")]
    say(f"     backup {made.name}")


def _step_trf(work: Path, say: Callable[[str], None]) -> None:
    from app.services.trf_exchange import export_trf, import_trf

    text = export_trf(work / "自检.xqt", GROUP)
    (work / "自检.trf").write_text(text, encoding="utf-8")
    import_trf(work / "自检.trf", work / "自检-trf.xqt").close()
    again = export_trf(work / "自检-trf.xqt", GROUP)
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


def _step_table_cards(work: Path, say: Callable[[str], None]) -> None:
    from app.services.exports import write_document
    from app.services.tournaments import open_tournament

    db = open_tournament(work / "自检.xqt", read_only=True)
    try:
        out = write_document(db, "table-cards", work / "台卡.pdf", group=GROUP, round_number=1)
    finally:
        db.close()
    assert out.read_bytes().startswith(b"%PDF")
    say(f"     table cards printed ({out.stat().st_size} bytes)")


def _step_hall(work: Path, say: Callable[[str], None]) -> None:
    """The hall server on loopback (uvicorn's modules are found at run time: a frozen build must carry
    them), one page fetched, a long picture of a list."""
    import urllib.request

    from app.services.exports import render_image
    from app.services.tournaments import open_tournament
    from app.web.server import HallServer

    db = open_tournament(work / "自检.xqt", read_only=True)
    try:
        server = HallServer(db, None, port=0)
        url = server.start()
        try:
            page = urllib.request.urlopen(url + "/g/2/", timeout=15).read().decode("utf-8")
        finally:
            server.stop()
        png = render_image(db, "results", group=GROUP, round_number=1)
    finally:
        db.close()
    assert "第 1 轮" in page, page[:200]
    assert png.startswith(b"\x89PNG")
    say(f"     hall page served at {url}; picture {len(png)} bytes")


def _step_excel(work: Path, say: Callable[[str], None]) -> None:
    import openpyxl

    from app.services.exports import write_result_workbook
    from app.services.tournaments import open_tournament

    db = open_tournament(work / "自检.xqt", read_only=True)
    try:
        out = write_result_workbook(db, work / "成绩.xlsx")
    finally:
        db.close()
    sheets = openpyxl.load_workbook(out).sheetnames
    assert len(sheets) >= 5, sheets
    say(f"     Excel workbook with {len(sheets)} sheets")


def _step_window(work: Path, say: Callable[[str], None]) -> None:
    """The real window on the event: every view built, English installed, a print preview rendered."""
    from PySide6.QtCore import QCoreApplication

    from app.services.exports import render_pdf
    from app.ui.application import application, use_bundled_font
    from app.ui.i18n import current_language, install_language, qt_chinese_installed
    from app.ui.main_window import VIEWS, MainWindow
    from app.ui.printing import page_images

    use_bundled_font(application())
    install_language("en")
    assert current_language() == "en", "the English translation (.qm) is not in this build"
    install_language("zh")
    assert qt_chinese_installed(), "Qt's own Chinese (qtbase_zh_CN.qm) is not in this build"
    cancel = QCoreApplication.translate("QPlatformTheme", "Cancel")
    assert cancel != "Cancel", "Qt's buttons would stay English"
    window = MainWindow()
    try:
        assert window.open_file(work / "自检.xqt"), "the window could not open the event"
        for key, _label in VIEWS:
            window.show_view(key)
        assert window.document is not None
        pages = page_images(render_pdf(window.document.db, "table-cards", group=GROUP, round_number=1))
        assert pages and not pages[0].isNull()
    finally:
        window.close()
    say(
        f"     window: {len(VIEWS)} views, English loaded, Qt's own Chinese ({cancel}), print preview {count_en(len(pages), 'page')}"
    )


def QApplicationInstance() -> Any:
    from PySide6.QtWidgets import QApplication

    return QApplication.instance()
