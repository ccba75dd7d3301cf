"""Start-up: the bundled font, the languages, the screenshot switch, recent files."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QApplication

from app.ui.application import Program, application, run, use_bundled_font
from app.ui.i18n import compile_ts, current_language, install_language, ts_path
from app.ui.main_window import recent_files
from app.ui.views.rounds import RoundsView


def test_bundled_cjk_font_is_the_application_font(qapp) -> None:
    family = use_bundled_font(application())
    assert family is not None and "WenQuanYi" in family
    assert QApplication.font().family() == family
    assert QFontDatabase.isSmoothlyScalable(family) or family in QFontDatabase.families()


def test_translation_compiles_with_lrelease(tmp_path: Path) -> None:
    qm = tmp_path / "en.qm"
    compile_ts(ts_path("en"), qm)
    assert qm.stat().st_size > 1000


def test_switching_language_rebuilds_the_window_and_keeps_the_undo_stack(qtbot, event_file: Path) -> None:
    application()
    install_language("zh")
    program = Program()
    from app.ui.document import TournamentDocument

    window = program.show(TournamentDocument.open(event_file))
    qtbot.addWidget(window)
    view = window.show_view("rounds")
    assert isinstance(view, RoundsView)
    qtbot.keyClicks(view.entry, "4=")
    assert window.document is not None and window.document.undo_stack.count() == 1
    assert window.menuBar().actions()[0].text() == "文件"
    program.switch_language("en")
    new = program.window
    assert new is not None and new is not window
    qtbot.addWidget(new)
    assert current_language() == "en"
    assert new.menuBar().actions()[0].text() == "File"
    assert new.navigation.item(1).text() == "Rounds"
    assert new.status_round.text() == "Round 2: results pending: 59"
    rounds = new.views["rounds"]
    assert isinstance(rounds, RoundsView)
    assert rounds.model.headerData(2, Qt.Orientation.Horizontal) == "Red"
    assert new.document is not None and new.document.undo_stack.count() == 1
    new.document.undo_stack.undo()
    assert rounds.model.index(3, 5).data() == ""
    install_language("zh")


def test_screenshot_switch_writes_a_png_and_remembers_the_file(
    qapp, event_file: Path, tmp_path: Path
) -> None:
    png = tmp_path / "shot.png"
    assert run(event_file, screenshot=str(png)) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert recent_files()[0] == str(event_file)
