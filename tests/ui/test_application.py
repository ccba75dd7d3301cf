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
    qtbot, event_file: Path, tmp_path: Path
) -> None:
    from app.ui.main_window import MainWindow

    png = tmp_path / "shot.png"
    assert run(event_file, screenshot=str(png)) == 0
    # the program exits here; the test's process goes on, so the closed window is deleted with the test
    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, MainWindow):
            qtbot.addWidget(widget)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert recent_files()[0] == str(event_file)


def test_language_switch_keeps_the_window_size_and_labels_fit(qtbot, event_file: Path) -> None:
    application()
    install_language("zh")
    program = Program()
    from app.ui.document import TournamentDocument

    window = program.show(TournamentDocument.open(event_file))
    qtbot.addWidget(window)
    window.resize(1100, 720)
    qtbot.waitUntil(lambda: window.size().width() == 1100)
    size = window.size()
    box = window.group_box
    assert box.width() >= box.fontMetrics().horizontalAdvance("天水本地组") + 20  # the whole name shows
    program.switch_language("en")
    new = program.window
    assert new is not None and new is not window
    qtbot.addWidget(new)
    assert new.size() == size
    item = new.navigation.item(3)
    assert item.text() == "Standings"
    text_width = new.navigation.fontMetrics().horizontalAdvance("Standings")
    assert new.navigation.visualItemRect(item).width() >= text_width + 2 * 14  # not cut to "Standing"
    install_language("zh")


def test_qt_own_buttons_speak_chinese(qtbot) -> None:
    from PySide6.QtWidgets import QDialogButtonBox

    from app.ui.i18n import qt_chinese_installed

    application()
    install_language("zh")
    assert qt_chinese_installed()
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    qtbot.addWidget(buttons)
    texts = {b.text().replace("&", "") for b in buttons.buttons()}
    assert texts == {"确定", "取消"}
    install_language("en")
    assert not qt_chinese_installed()
    install_language("zh")


def test_the_window_imports_only_what_its_first_view_needs(event_file: Path, tmp_path: Path) -> None:
    """Start-up speed: opening on the rounds view loads no other view, no Excel, no pinyin, no Alembic."""
    import os
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from app.ui.application import run\n"
        f"run(Path({str(event_file)!r}), screenshot={str(tmp_path / 's.png')!r})\n"
        "mods = ['app.ui.views.' + v for v in ('players', 'bracket', 'standings', 'teams', 'records', 'settings')]\n"
        "print(sorted(m for m in (*mods, 'openpyxl', 'pypinyin', 'alembic', 'reportlab') if m in sys.modules))\n"
        "print('app.ui.views.rounds' in sys.modules)\n"
    )
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XQARBITER_DATA=str(tmp_path / "data"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    loaded, rounds = out.stdout.strip().splitlines()[-2:]
    assert loaded == "[]", loaded
    assert rounds == "True"
