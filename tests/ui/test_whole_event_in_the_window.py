"""A whole event driven through the real window (the window's acceptance: every step of the event from the keyboard).

New tournament from the preset through the new-event dialog (this year's name, dates and deadline) →
Excel import with its preview (every row within the deadline, no override) → the
draw for numbers → round 1 paired with the button → every result by key presses → the standings move
and Ctrl+Z moves them back → rounds 2–8 (button pairing, simulated results, the close button) → the
knockout created and its colours drawn in the bracket view → round 9 paired → table cards printed to
a PDF from the 打印 menu. Dialogs are answered by monkeypatching the Qt static helpers the window
calls, or (the import preview) by clicking in the modal dialog while it runs.
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import pytest
from openpyxl import load_workbook
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QInputDialog

from app.engine.types import GameResult
from app.reports.excel_template import FORM_COLUMNS, HEADER_ROW, write_registration_template
from app.services.audit import audit_log
from app.services.knockout import bracket_of
from app.services.registration import list_players
from app.services.rounds import round_view, rounds_of
from app.services.simulation import play_random_results
from app.ui import file_dialogs
from app.ui.dialogs.import_preview import ImportPreviewDialog
from app.ui.dialogs.new_event import NewEventDialog
from app.ui.main_window import MainWindow
from app.ui.views.bracket import BracketView
from app.ui.views.players import PlayersView
from app.ui.views.rounds import RoundsView
from app.ui.views.standings import StandingsView
from tests.idnumbers import make_id

LOCAL = "天水本地组"
PLAYERS = 40
SURNAMES = "赵钱孙李周吴郑王冯陈"
GIVEN = ("建国", "秀英", "志强", "海燕")


def registration_form(path: Path) -> list[str]:
    """The registration template filled with 40 valid 天水本地组 entries; returns the names."""
    write_registration_template(path, ["公开组", LOCAL])
    wb = load_workbook(path)
    ws = wb.active
    column = {c.field: i for i, c in enumerate(FORM_COLUMNS, start=1)}
    names = []
    for i in range(PLAYERS):
        name = SURNAMES[i % 10] + GIVEN[i // 10]
        names.append(name)
        row = HEADER_ROW + 1 + i
        values = {
            "name": name,
            "id_number": make_id(date(1970 + i % 30, 1 + i % 12, 1 + i % 28), serial=i),
            "phone": f"1389380{i:04d}",
            "group": LOCAL,
            "unit": f"天水单位{i % 7}",
            "insurance": "是",
            "pledge": "是",
            "fee_paid": "是",
            "checked_in": "是",
        }
        for field, value in values.items():
            ws.cell(row=row, column=column[field], value=value)
    wb.save(path)
    return names


def points(view: StandingsView) -> dict[int, int]:
    """Sequence number → points, as the standings table shows them."""
    model = view.model
    return {int(model.index(r, 1).data()): int(model.index(r, 4).data()) for r in range(model.rowCount())}


def test_a_whole_event_in_the_window(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()

    # ---- 1. a new tournament from the preset, through 文件 → 新建赛事 and its dialog
    event = tmp_path / "天水2025.xqt"
    monkeypatch.setattr(file_dialogs, "save_file_name", lambda *a, **k: str(event.with_suffix("")))
    shown: dict[str, object] = {}

    def answer_new_event() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, NewEventDialog) or QApplication.focusWidget() is not dialog.name:
            QTimer.singleShot(20, answer_new_event)  # not shown (or not active) yet: look again shortly
            return
        shown["preset"] = dialog.preset.currentText()
        shown["ok_before"] = dialog.ok.isEnabled()  # no name yet: OK waits
        dialog.name.insert("2025年天水市职工象棋公开赛")  # Chinese comes through an input method
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)  # to the preset-moved start date
        shown["start"] = dialog.start.date().toPython()
        shown["deadline"] = dialog.deadline.dateTime().toPython()
        qtbot.keyClick(dialog.name, Qt.Key.Key_Return)

    QTimer.singleShot(0, answer_new_event)
    window.new_action.trigger()
    document = window.document
    assert document is not None and document.path == event and event.exists()
    assert document.groups == ["公开组", LOCAL]
    assert shown["preset"].startswith("2024 天水职工象棋公开赛规程") and shown["ok_before"] is False
    assert shown["start"] > date.today() and shown["deadline"] > datetime.now()  # type: ignore[operator]
    reg = document.info.regulations
    assert document.info.name == "2025年天水市职工象棋公开赛"
    assert reg.start_date == shown["start"] and reg.registration.deadline == shown["deadline"]
    assert window.windowTitle().startswith("天水2025.xqt")
    qtbot.waitUntil(lambda: window.centralWidget().isVisible())  # a new central widget shows queued
    window.group_box.setCurrentText(LOCAL)
    assert document.group == LOCAL
    db = document.db

    # ---- 2. Excel import through the players view's button and its preview dialog
    players = window.show_view("players")
    assert isinstance(players, PlayersView)
    form = tmp_path / "报名表.xlsx"
    names = registration_form(form)
    monkeypatch.setattr(file_dialogs, "open_file_name", lambda *a, **k: str(form))
    seen: dict[str, object] = {}

    def answer_preview() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, ImportPreviewDialog):  # not open yet: look again shortly
            QTimer.singleShot(20, answer_preview)
            return
        # this year's deadline is still ahead: every row is fine, no override reason is asked for
        assert not dialog.reason.isVisibleTo(dialog)
        assert dialog.table.rowCount() == PLAYERS
        seen["rows_ok"] = [dialog.table.item(r, 3).text() for r in range(dialog.table.rowCount())]
        seen["enabled"] = dialog.all_button.isEnabled()
        qtbot.mouseClick(dialog.all_button, Qt.MouseButton.LeftButton)

    QTimer.singleShot(0, answer_preview)
    qtbot.mouseClick(players.buttons["import"], Qt.MouseButton.LeftButton)
    assert seen["enabled"] is True
    assert seen["rows_ok"] == ["✓"] * PLAYERS
    registered = list_players(db, LOCAL)
    assert sorted(p.name for p in registered) == sorted(names)
    assert players.model.rowCount() == PLAYERS
    assert "已导入 40 名棋手" in players.message.text()
    assert audit_log(db, action="deadline_override") == []  # no override entries in the audit log

    # ---- 3. the draw for numbers, from the view's button (the seed dialog answered)
    monkeypatch.setattr(QInputDialog, "getInt", lambda *a, **k: (4711, True))
    qtbot.mouseClick(players.buttons["draw"], Qt.MouseButton.LeftButton)
    numbers = sorted(p.no for p in list_players(db, LOCAL) if p.no is not None)
    assert numbers == list(range(1, PLAYERS + 1))
    assert "4711" in players.message.text()

    # ---- 4. round 1 paired with the button
    rounds = window.show_view("rounds")
    assert isinstance(rounds, RoundsView)
    qtbot.mouseClick(rounds.pair_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    assert rounds.round_number == 1 and rounds.model.rowCount() == PLAYERS // 2
    boards = round_view(db, LOCAL, 1).boards
    assert window.status_round.text() == "第 1 轮：待录入 20 台"

    # ---- 5. every result by key presses only, then the standings
    qtbot.waitUntil(lambda: QApplication.focusWidget() is rounds.entry)  # after pairing: the box
    keys = "10="
    for i in range(len(boards)):
        qtbot.keyClicks(QApplication.focusWidget(), keys[i % 3])
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    entered = [b.result for b in round_view(db, LOCAL, 1).boards]
    expected = [(GameResult.RED_WIN, GameResult.BLACK_WIN, GameResult.DRAW)[i % 3] for i in range(20)]
    assert entered == expected
    assert window.status_round.text() == "第 1 轮：成绩已齐"

    standings = window.show_view("standings")
    assert isinstance(standings, StandingsView)
    after = points(standings)
    last = boards[-1]  # board 20 (index 19): "0", black won
    assert expected[19] is GameResult.BLACK_WIN
    assert after[last.black.no] == 2 and after[last.red.no] == 0
    assert sum(after.values()) == 2 * len(boards)  # every game gives out 2 points
    assert standings.model.line(0).score == 2

    assert standings.title.text() == f"{LOCAL} 第 1 轮后名次"

    # ---- 6. Ctrl+Z takes the last result back; the standings follow while shown: round 1 is no
    # longer complete, so they are the list before round 1 again (and say so), not "after round 1"
    standings.table.setFocus()
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert round_view(db, LOCAL, 1).boards[-1].result is GameResult.PENDING
    assert set(points(standings).values()) == {0} and "赛前" in standings.title.text()
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert points(standings) == after

    # ---- 7. rounds 2–8: button pairing, simulated results, the close button
    rounds = window.show_view("rounds")
    assert isinstance(rounds, RoundsView)
    monkeypatch.setattr(rounds, "confirm_refusals", lambda lines: True)
    for number in range(1, 9):
        if number > 1:
            qtbot.mouseClick(rounds.pair_button, Qt.MouseButton.LeftButton)
            assert rounds.round_number == number
            play_random_results(db, LOCAL, number, seed=number)
            document.notify()
        qtbot.mouseClick(rounds.close_button, Qt.MouseButton.LeftButton)
        assert rounds_of(db, LOCAL)[-1].closed, rounds.message.text()
    assert window.status_round.text() == "第 8 轮：已结束"

    # ---- 8. the knockout from the bracket view, its colours drawn there
    bracket = window.show_view("bracket")
    assert isinstance(bracket, BracketView)
    assert bracket.create_button.isEnabled()
    qtbot.mouseClick(bracket.create_button, Qt.MouseButton.LeftButton)
    assert not bracket.create_button.isEnabled()
    assert {"QF1", "QF2", "QF3", "QF4", "F"} <= set(bracket.canvas.boxes)
    assert bracket.round_box.currentData() == 9
    qtbot.mouseClick(bracket.draw_button, Qt.MouseButton.LeftButton)
    drawn = bracket_of(db, LOCAL)
    assert drawn is not None
    assert all(m.first_red is not None for m in drawn.matches_in_round(9))
    assert "抽签种子" in bracket.message.text()

    # ---- 9. round 9 paired (quarter-finals and the continuing Swiss), table cards printed
    rounds = window.show_view("rounds")
    assert isinstance(rounds, RoundsView)
    qtbot.mouseClick(rounds.pair_button, Qt.MouseButton.LeftButton)
    assert rounds.round_number == 9
    nine = round_view(db, LOCAL, 9).boards
    quarter = next(b for b in nine if b.match == "QF1")

    from pypdf import PdfReader

    import app.ui.printing as printing

    window.print_actions["table-cards"].trigger()
    preview = window.preview
    assert isinstance(preview, printing.PrintPreviewDialog)
    target = tmp_path / "台签.pdf"
    monkeypatch.setattr(file_dialogs, "save_file_name", lambda *a, **k: str(target))
    qtbot.mouseClick(preview.save_button, Qt.MouseButton.LeftButton)
    text = "".join(page.extract_text() for page in PdfReader(str(target)).pages)
    assert quarter.red.name in text and quarter.black.name in text
    assert nine[-1].red.name in text
