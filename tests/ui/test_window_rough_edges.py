"""The window's rough edges, each as the arbiter meets it: quitting, the hall dialog, undo's words,
messages that go stale, the violation dialog, knockout games and byes in the pairing table, the
status line, the audit viewer, Tab order, the take-over question, duplicate names on import."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.ui.main_window import MainWindow
from app.ui.views.rounds import RoundsView

OPEN, LOCAL = "公开组", "天水本地组"


def rounds_view(qtbot, window: MainWindow) -> RoundsView:
    view = window.show_view("rounds")
    assert isinstance(view, RoundsView)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is view.entry)
    return view


def type_keys(qtbot, text: str) -> None:
    for ch in text:
        qtbot.keyClicks(QApplication.focusWidget(), ch)


def press(qtbot, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.keyClick(QApplication.focusWidget(), key, modifier)


def test_quitting_after_a_language_switch_ends_cleanly(event_file: Path, tmp_path: Path) -> None:
    """The program as started from the desktop: switch to English, quit with the menu's 退出."""
    code = f"""
from pathlib import Path
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from app.ui.application import application, run
from app.ui.main_window import MainWindow

application()

def windows():
    return [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]

def switch():
    windows()[0].language_requested.emit("en")
    QTimer.singleShot(300, quit)

def quit():
    (window,) = windows()
    assert window.menuBar().actions()[0].text() == "File"
    window.close()  # 文件 → 退出

QTimer.singleShot(300, switch)
raise SystemExit(run(Path({str(event_file)!r})))
"""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XQARBITER_DATA=str(tmp_path / "data"))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr
    assert not event_file.with_name(event_file.name + ".lock").exists()  # the file is free again


def test_the_deputy_name_field_keeps_its_width_once_the_hall_server_runs(qtbot, window: MainWindow) -> None:
    from app.ui.hall import HallDialog

    dialog = window.show_hall()
    assert isinstance(dialog, HallDialog)
    qtbot.waitExposed(dialog)
    wide_enough = dialog.deputy_name.fontMetrics().horizontalAdvance("欧阳副裁判长") + 16
    assert dialog.deputy_name.width() >= wide_enough
    dialog.port.setValue(0)
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    try:
        assert window.hall.running and dialog.qr.pixmap() is not None
        QApplication.processEvents()
        assert dialog.deputy_name.width() >= wide_enough  # not squeezed by the address and its QR code
        assert dialog.address.width() >= dialog.address.fontMetrics().horizontalAdvance(dialog.address.text())
    finally:
        qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)


def test_undo_and_redo_say_what_they_undid_and_the_log_marks_them(qtbot, window: MainWindow) -> None:
    from app.services.audit import audit_log
    from app.services.audit_text import audit_sentences

    view = rounds_view(qtbot, window)
    type_keys(qtbot, "7+")
    assert "第 7 台" in view.message.text()
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    for said in (view.message.text(), window.statusBar().currentMessage()):
        assert "已撤销" in said and OPEN in said and "第 7 台" in said and "黑弃权" in said, said
    press(qtbot, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    for said in (view.message.text(), window.statusBar().currentMessage()):
        assert "已重做" in said and "第 7 台" in said and "黑弃权" in said, said
    assert window.document is not None
    lines = audit_log(window.document.db)[-3:]
    assert [line.action for line in lines] == ["enter_result", "correct_result", "enter_result"]
    assert [line.reason for line in lines] == ["", "撤销 (undo)", "重做 (redo)"]
    sentences = audit_sentences(window.document.db)[-3:]
    assert "撤销" in sentences[1].action_zh and "undo" in sentences[1].action_en
    assert "重做" in sentences[2].action_zh and "redo" in sentences[2].action_en
    assert "重做" not in sentences[0].action_zh
    # the audit viewer shows it: newest first, the redo marked
    dialog = window.show_audit_log()
    assert dialog is not None
    assert "重做" in dialog.model.index(0, 2).data() and "黑弃权" in dialog.model.index(0, 4).data()
    assert "撤销" in dialog.model.index(1, 2).data()
    dialog.close()


def test_the_audit_viewer_shows_a_confirmed_deputy_result_before_and_after(qtbot, window: MainWindow) -> None:
    from app.services import hall
    from app.services.audit_text import audit_sentences

    assert window.document is not None
    db = window.document.db
    rounds_view(qtbot, window)
    type_keys(qtbot, "6 1")
    issued = hall.issue_deputy_token(db, OPEN, 1, 20, "张副裁判")
    entry = hall.submit_deputy_result(db, issued.token, 6, "draw", "测试手机")
    other = hall.submit_deputy_result(db, issued.token, 9, "black_win", "测试手机")
    hall.confirm_pending_result(db, entry)
    hall.confirm_pending_result(db, other)
    confirmed = [s for s in audit_sentences(db) if s.action_zh.startswith("确认副裁判")]
    assert [(s.change_zh, s.change_en) for s in confirmed] == [
        ("红胜 → 和", "red wins → draw"),
        ("黑胜", "black wins"),
    ]
    sent = [s for s in audit_sentences(db) if s.action_zh.startswith("副裁判报送")]
    assert [s.change_zh for s in sent] == ["和", "黑胜"]


def test_old_messages_do_not_stay_on_screen(qtbot, window: MainWindow, monkeypatch) -> None:
    from app.ui.widgets import message_line

    monkeypatch.setattr(message_line, "INFO_MS", 300)
    view = rounds_view(qtbot, window)
    type_keys(qtbot, "5 1")
    assert "第 5 台" in view.message.text()
    qtbot.waitUntil(lambda: view.message.text() == "", timeout=3000)  # it goes after a while
    type_keys(qtbot, "99=")  # a refusal stays longer, but goes as well once the next entry is read back
    assert "99" in view.message.text()
    view.entry.clear()
    type_keys(qtbot, "6 1")
    assert "99" not in view.message.text() and "第 6 台" in view.message.text()
    settings = window.show_view("settings")
    settings.save()  # nothing changed: said so, then gone
    assert settings.message.text() != ""
    qtbot.waitUntil(lambda: settings.message.text() == "", timeout=3000)


def test_the_violation_dialog_keeps_the_chosen_type_while_the_reason_is_missing(
    qtbot, window: MainWindow
) -> None:
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QComboBox, QDialog, QWidget

    from app.services.snapshot import export_snapshot
    from tests.ui.questions import when_asked

    view = rounds_view(qtbot, window)
    seen: list[str] = []

    def fill_in(dialog: QWidget) -> None:
        assert isinstance(dialog, QDialog)

        def key(k: Qt.Key, text: str = "") -> None:
            target = QApplication.focusWidget() or dialog
            if text:
                qtbot.keyClicks(target, text)
            else:
                qtbot.keyClick(target, k)

        key(Qt.Key.Key_Down)  # the type list has the keyboard: 其他犯规 → 拒不录谱
        key(Qt.Key.Key_Return)  # no reason yet: nothing is recorded, the dialog stays
        shown = QApplication.activeModalWidget()
        combo = shown.findChild(QComboBox) if shown is not None else None
        seen.append(combo.currentText() if combo is not None else "—")
        seen.append(str(shown is dialog and dialog.isVisible()))
        if shown is not None:
            key(Qt.Key.Key_Tab)
            key(Qt.Key.Key_unknown, "no record handed in")
            key(Qt.Key.Key_Return)

    left = when_asked(fill_in)
    menu = view.board_actions.board_menu(0)
    action = menu.findChild(QAction, "red:violation")
    assert action is not None
    action.trigger()
    assert left == [] and seen == ["拒不录谱", "True"]
    assert window.document is not None
    violations = export_snapshot(window.document.db)["violations"]
    assert [(v["kind"], v["reason"]) for v in violations] == [("refused_record", "no record handed in")]


# --------------------------------------------------------------------------- knockout games, byes, status


@pytest.fixture(scope="module")
def knockout_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo event: 天水本地组 played through its 8 Swiss rounds, the knockout created and the
    colours of round 9 drawn; the continuing Swiss of round 9 not paired yet."""
    from app.services.demo import create_demo
    from app.services.knockout import create_knockout, draw_round_colours
    from app.services.rounds import close_round, pair_next_round
    from app.services.simulation import play_random_results

    path = tmp_path_factory.mktemp("knockout") / "template.xqt"
    db = create_demo(path, seed=2024)
    for number in range(1, 9):
        pair_next_round(db, LOCAL, seed=number)
        play_random_results(db, LOCAL, number, seed=number)
        close_round(db, LOCAL, number)
    create_knockout(db, LOCAL)
    draw_round_colours(db, LOCAL, 9, seed=9)
    db.close()
    return path


@pytest.fixture
def knockout_window(qtbot, knockout_template: Path, tmp_path: Path) -> MainWindow:
    target = tmp_path / "knockout.xqt"
    target.write_bytes(knockout_template.read_bytes())
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.open_file(target)
    w.show()
    w.group_box.setCurrentText(LOCAL)
    return w


def test_a_drawn_slow_game_is_followed_by_the_rapid_game_and_the_row_says_so(
    qtbot, knockout_window: MainWindow
) -> None:
    from app.ui.models.pairings import GAME_COLUMN

    view = rounds_view(qtbot, knockout_window)
    assert view.round_number == 9 and view.model.rowCount() == 4
    assert not view.table.isColumnHidden(GAME_COLUMN)
    assert view.model.index(0, GAME_COLUMN).data() == "1/4决赛第1场 第 1 局 慢棋"
    type_keys(qtbot, "1=")  # the slow game of board 1 drawn
    assert view.model.index(0, GAME_COLUMN).data() == "1/4决赛第1场 第 2 局 快棋"
    metrics = view.table.fontMetrics()  # the column was sized for the games to come: nothing cut off
    assert view.table.columnWidth(GAME_COLUMN) > metrics.horizontalAdvance("1/4决赛第1场 第 4 局 附加赛")
    assert view.model.index(0, 5).data() == ""  # the rapid game waits for its result
    said = view.message.text()
    assert "第 1 台" in said and "慢棋" in said and "和" in said and "第 2 局 快棋" in said, said
    press(qtbot, Qt.Key.Key_Up)
    assert view.current_board() == 1
    type_keys(qtbot, "=")  # a key for the cursor's board: read as its rapid game
    assert "第 1 台" in view.entry_box.reading.text() and "快棋" in view.entry_box.reading.text()


def test_a_round_whose_swiss_part_is_not_paired_is_not_complete(qtbot, knockout_window: MainWindow) -> None:
    view = rounds_view(qtbot, knockout_window)
    for board in range(1, 5):
        type_keys(qtbot, f"{board} 1")  # every quarter-final decided by its slow game
    assert all(not view.model.line(r).result.is_pending for r in range(4))
    for said in (knockout_window.status_round.text(), view.next_label.text()):
        assert "成绩已齐" not in said and "全部录入" not in said, said
        assert "积分编排" in said and "未编排" in said, said
    qtbot.mouseClick(view.pair_button, Qt.MouseButton.LeftButton)  # the continuing Swiss of round 9
    assert view.round_number == 9 and len(view.model.lines) > 4
    assert "未编排" not in knockout_window.status_round.text()
    assert "待录入" in knockout_window.status_round.text()


def test_the_bye_is_a_row_of_the_pairing_table(qtbot, tmp_path: Path) -> None:
    from tests.ui.sample_event import make_event

    path = make_event(tmp_path / "odd.xqt", players=41, rounds=1)
    window = MainWindow()
    qtbot.addWidget(window)
    assert window.open_file(path)
    window.show()
    view = rounds_view(qtbot, window)
    boards = len(view.model.lines)
    assert view.model.rowCount() == boards + 1
    row = boards
    bye = view.view.byes[0]  # type: ignore[union-attr]
    texts = [view.model.index(row, c).data() for c in range(view.model.columnCount())]
    assert texts[1] == str(bye.no) and texts[2] == bye.name and texts[5] == "轮空"
    view.table.setCurrentIndex(view.model.index(row, 5))  # the keys do nothing to a bye
    view.table.setFocus()
    press(qtbot, Qt.Key.Key_Delete)
    assert not view.entry_box.confirming
    type_keys(qtbot, "1")
    press(qtbot, Qt.Key.Key_Return)
    assert window.document is not None and window.document.undo_stack.count() == 0
    assert "轮空" in view.message.text() or "没有选中" in view.message.text()


# --------------------------------------------------------------------------- forms and questions


def _walk_tab(qtbot, start, steps: int) -> list[object]:
    start.setFocus()
    seen = []
    for _ in range(steps):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        seen.append(QApplication.focusWidget())
    return seen


def test_tab_goes_through_the_new_event_form_in_its_order_and_out_of_each_date(qtbot) -> None:
    from app.ui.dialogs.new_event import NewEventDialog

    dialog = NewEventDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    seen = _walk_tab(qtbot, dialog.name, 5)
    assert seen == [dialog.start, dialog.end, dialog.venue, dialog.deadline, dialog.groups]
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Backtab)
    assert QApplication.focusWidget() is dialog.deadline  # Shift+Tab comes back one field


def test_tab_leaves_the_date_fields_of_the_settings(qtbot, window: MainWindow) -> None:
    view = window.show_view("settings")
    start, end, venue = (view.editors[k] for k in ("start_date", "end_date", "venue"))
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    assert _walk_tab(qtbot, view.editors["event_name"], 3) == [start, end, venue]


def test_the_take_over_question_speaks_the_window_s_words(
    qtbot, event_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    from app.services.tournaments import open_tournament
    from app.ui.dialogs import open_file

    lock = Path(str(event_file) + ".lock")
    db = open_tournament(event_file)
    holder = json.loads(lock.read_text(encoding="utf-8"))
    db.close()
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    lock.write_text(json.dumps({**holder, "pid": int(done.stdout)}), encoding="utf-8")  # a crashed copy
    asked: list[str] = []
    monkeypatch.setattr(open_file, "_ask", lambda _parent, title, text: asked.append(text) or False)
    assert open_file.open_document(event_file, None) is None  # declined: nothing opened
    (question,) = asked
    assert "--take-over" not in question and "命令行" not in question
    assert event_file.name in question and "接管" in question and "审计日志" in question


def test_duplicate_names_with_the_same_birth_date_are_flagged_and_asked_about(
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import date

    from app.services import excel_import
    from app.services.registration import add_player, list_players
    from app.services.tournaments import create_tournament
    from app.ui.dialogs import import_preview
    from app.ui.dialogs.import_preview import ImportPreviewDialog
    from app.ui.document import TournamentDocument
    from tests.idnumbers import make_id
    from tests.ui.test_player_and_import_dialogs import registration_form

    path = tmp_path / "event.xqt"
    create_tournament(path, "tianshui-2024").close()
    document = TournamentDocument.open(path)
    try:
        from app.engine.registration import PlayerEntry

        born = date(1990, 5, 1)
        add_player(
            document.db,
            PlayerEntry(name="李四", id_number=make_id(born, 1), phone="13800000009", group=OPEN),
            override_reason="测试",
        )
        rows = [  # row 4: 李四 again (another ID number, same birth date); rows 5 and 6: 王五 twice
            {"name": "李四", "id_number": make_id(born, 2), "phone": "13800000001", "group": OPEN},
            {
                "name": "王五",
                "id_number": make_id(date(1991, 6, 2), 3),
                "phone": "13800000002",
                "group": OPEN,
            },
            {
                "name": "王五",
                "id_number": make_id(date(1991, 6, 2), 4),
                "phone": "13800000003",
                "group": LOCAL,
            },
            {
                "name": "赵六",
                "id_number": make_id(date(1992, 7, 3), 5),
                "phone": "13800000004",
                "group": OPEN,
            },
        ]
        form = registration_form(tmp_path / "form.xlsx", rows)
        preview = excel_import.preview_import(document.db, form, override_reason="补报")
        flagged = {w.row: w.message_zh for w in preview.warnings}
        assert sorted(flagged) == [4, 5, 6]
        assert "已报名" in flagged[4] and "李四" in flagged[4]
        assert "第 6 行" in flagged[5] and "第 5 行" in flagged[6]
        assert len(preview.valid) == 4  # a warning is not a refusal

        dialog = ImportPreviewDialog(document, form)
        qtbot.addWidget(dialog)
        dialog.reason.insert("补报")
        dialog.recheck()
        cells = [dialog.table.item(r, 3).text() for r in range(dialog.table.rowCount())]
        assert "同名同出生日期" in cells[0] and "同名同出生日期" in cells[1] and cells[3] == "✓"
        assert "3 行同名同出生日期" in dialog.summary.text()
        asked: list[str] = []
        monkeypatch.setattr(
            import_preview, "ask_guarded", lambda _p, _t, text, **_k: asked.append(text) or False
        )
        assert not dialog.run_import("all_or_nothing")  # the arbiter says no: nothing written
        assert asked and "李四" in asked[0] and "王五" in asked[0]
        assert [p.name for p in list_players(document.db)] == ["李四"]
        monkeypatch.setattr(import_preview, "ask_guarded", lambda *_a, **_k: True)
        assert dialog.run_import("all_or_nothing")
        assert len(list_players(document.db)) == 5
    finally:
        document.close()
